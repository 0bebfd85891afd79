"""Alembic's entry point: run the migrations on the connection :func:`config` carries."""

from __future__ import annotations

from alembic import context


def _run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:  # pragma: no cover - only the Alembic command line lands here
        raise RuntimeError("run migrations through table.server.store.migrations.upgrade(connection)")
    context.configure(connection=connection, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


# Alembic installs its proxy before it runs this file; a plain import (the
# doctest collector) must not try to migrate anything.
if getattr(context, "_proxy", None) is not None:
    _run()
