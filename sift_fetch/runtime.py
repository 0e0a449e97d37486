"""Everything one process needs to run the pipeline, built once and shared by its requests."""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from sift_fetch.callers import CallerTable
from sift_fetch.config import Config
from sift_fetch.gates import Gates
from sift_fetch.guard import Policy, Resolver
from sift_fetch.http import Connector, HttpClient
from sift_fetch.identity import process_name
from sift_fetch.recent import RECENT_MAX_BYTES, Recent
from sift_fetch.render import RenderPool
from sift_store.engine import Store, open_store
from sift_store.migrate import migrate


@dataclass
class Runtime:
    config: Config
    store: Store
    http: HttpClient
    pool: RenderPool
    policy: Policy
    callers: CallerTable
    gates: Gates
    recent: Recent
    # For the operator's own LLM endpoint only: configured, trusted, so not behind the guard.
    digest_client: httpx.AsyncClient
    # Whoever opened the store closes it: a runtime given one (a test's, a bench's) leaves it.
    owns_store: bool = True

    @classmethod
    def open(
        cls,
        config: Config,
        *,
        resolver: Resolver | None = None,
        connector: Connector | None = None,
        store: Store | None = None,
    ) -> Runtime:
        owns_store = store is None
        if store is None:
            store = open_store(config.store_url)
            migrate(store)
        policy = Policy.from_config(config.guard)
        fetch = config.fetch
        gates = Gates(store, fetch, process_name())
        gates.reap_dead_local()
        pool = RenderPool(fetch.render_workers, fetch.render_queue, fetch.program_timeout)
        pool.start()  # now, so the first render does not pay seconds of start-up
        return cls(
            config=config,
            store=store,
            http=HttpClient(fetch, policy, resolver=resolver, connector=connector),
            pool=pool,
            policy=policy,
            callers=CallerTable(config.callers),
            gates=gates,
            recent=Recent(min(RECENT_MAX_BYTES, fetch.cache_max_bytes)),
            digest_client=httpx.AsyncClient(trust_env=False, timeout=config.digest.timeout),
            owns_store=owns_store,
        )

    async def aclose(self) -> None:
        try:
            await self.gates.flush()
        finally:
            await self.http.aclose()
            await self.digest_client.aclose()
            self.pool.close()
            if self.owns_store:
                self.store.dispose()
