"""Alembic's entry point: runs the migrations on the connection the store hands over.

The store runs migrations itself (`database.migrate`); nothing here opens a connection. To add a
revision, copy the newest module in `versions/`, give it the next number as `revision` and the
previous one as `down_revision`, and change the tables in `tables.py` to match.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

connection = context.config.attributes["connection"]
assert isinstance(connection, Connection)
context.configure(connection=connection, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
