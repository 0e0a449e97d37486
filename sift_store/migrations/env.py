"""Alembic environment: runs only through `sift_store.migrate`, on the connection it passes in.

No alembic.ini, no URL of its own, no schema anywhere: on PostgreSQL everything, alembic_version
included, lands in the first schema of the connection's search_path.
"""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run Sift's migrations with sift_store.migrate.migrate(store)")

context.configure(
    connection=connection,
    # SQLite's DDL is transactional too (our driver connections leave BEGIN to us), so a
    # failed upgrade leaves no half-built schema on either database.
    transactional_ddl=True,
    render_as_batch=connection.dialect.name == "sqlite",
)

with context.begin_transaction():
    context.run_migrations()
    if connection.dialect.name == "sqlite":
        # migrate() turned foreign keys off for table rebuilds; refuse to commit a violation.
        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise RuntimeError(f"migration left rows violating foreign keys: {broken[:5]}")
