"""The statements every fetch runs, on the driver's own cursor.

A `Prepared` statement is an ordinary SQLAlchemy statement, compiled once per dialect and run on
the DBAPI cursor of the connection's transaction. SQLAlchemy's execution path (execution
context, result object, events) cost more than the database took to run these statements:
the acquire that carries a release and its cache entry took 1.05 ms of store-thread CPU through
`Connection.execute` and 0.45 ms on the cursor on SQLite, 2.9 and 1.6 ms on PostgreSQL
(bench/fetch_cost.py prints what each store call costs).

Driver errors come out as SQLAlchemy's (`DBAPIError.instance`), so an outage is classified and
recovered from as anywhere else. Only statements
whose values the drivers take and give as they are (text, numbers) belong here: no type
conversion runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import ArgumentError, DBAPIError
from sqlalchemy.sql.expression import Executable

_NONE: Mapping[str, Any] = {}


@dataclass(frozen=True)
class _Compiled:
    sql: str
    defaults: dict[str, Any]  # the statement's own values (literals it binds)
    required: frozenset[str]
    positions: tuple[str, ...] | None  # parameter names in order, for a positional driver

    def bind(self, params: Mapping[str, Any]) -> Any:
        missing = self.required.difference(params)
        if missing:
            raise ArgumentError(f"a value is required for {', '.join(sorted(missing))}")
        merged = {**self.defaults, **params}
        if self.positions is None:
            return merged
        return tuple(merged[name] for name in self.positions)


class Prepared:
    def __init__(self, statement: Executable) -> None:
        self.statement = statement
        self._compiled: dict[str, _Compiled] = {}

    def first(self, conn: Connection, params: Mapping[str, Any] = _NONE) -> Any:
        """The first row, as a tuple, or None."""
        cursor = self._execute(conn, params)
        try:
            return cursor.fetchone()
        finally:
            cursor.close()

    def run(self, conn: Connection, params: Mapping[str, Any] = _NONE) -> int:
        """Run it; returns how many rows it changed."""
        cursor = self._execute(conn, params)
        try:
            return int(cursor.rowcount)
        finally:
            cursor.close()

    def _execute(self, conn: Connection, params: Mapping[str, Any]) -> Any:
        dialect = conn.dialect
        compiled = self._compiled.get(dialect.name) or self._compile(dialect)
        args = compiled.bind(params)
        proxied = conn.connection
        cursor = proxied.cursor()
        try:
            cursor.execute(compiled.sql, args)
        except dialect.loaded_dbapi.Error as exc:
            cursor.close()
            # A lost connection is invalidated by the rollback that follows, as SQLAlchemy
            # does for its own statements; the error says so.
            lost = dialect.is_disconnect(exc, proxied.dbapi_connection, cursor)
            raise DBAPIError.instance(
                compiled.sql,
                args,
                exc,
                dialect.loaded_dbapi.Error,
                connection_invalidated=lost,
                dialect=dialect,
            ) from exc
        return cursor

    def _compile(self, dialect: Dialect) -> _Compiled:
        compiled = self.statement.compile(dialect=dialect)  # type: ignore[attr-defined]
        required = frozenset(name for name, bind in compiled.binds.items() if bind.required)
        positions = compiled.positiontup
        self._compiled[dialect.name] = _Compiled(
            sql=compiled.string,
            defaults={name: v for name, v in compiled.params.items() if name not in required},
            required=required,
            positions=tuple(positions) if compiled.positional else None,
        )
        return self._compiled[dialect.name]
