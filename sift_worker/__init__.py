"""The batch worker process: claims targets from the store one at a time, runs each through the
same pipeline as `/v1/fetch`, stores the result. Entry: `sift_worker.run.main(config)`."""
