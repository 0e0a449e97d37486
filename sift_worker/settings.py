"""The worker's timings: fixed for production, shortened by tests."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WorkerSettings:
    # A claim's row lease, renewed every heartbeat: a worker that dies loses its target this
    # long after its last renewal at most (sooner on its own host, see identity.py).
    lease_seconds: float = 30.0
    heartbeat_seconds: float = 10.0
    # fail_lapsed, sweep and evict_over_budget.
    housekeeping_seconds: float = 15.0
    # An idle loop re-checks this often even with no change seen (a lost notification).
    idle_recheck_seconds: float = 2.0
    # SQLite change polling; PostgreSQL is woken by NOTIFY instead.
    poll_seconds: float = 0.02
    # On SIGTERM, how long an in-flight target may run on before it is given up.
    grace_seconds: float = 30.0
    # Busy retries back off up to this pause.
    busy_pause_max: float = 10.0
    # Beyond the pipeline's own batch deadline: a hung target still ends.
    deadline_margin: float = 30.0
