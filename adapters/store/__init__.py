"""The game store on SQLite (a file path) or PostgreSQL (a URL), behind the core's `GameStore`."""

from __future__ import annotations

from .database import SCHEMA_VERSION, NotAStore, SchemaTooNew, database_url, display_name
from .game_reads import UNKNOWN_TIME
from .sql_store import SqlGameStore, open_store

__all__ = [
    "SCHEMA_VERSION",
    "UNKNOWN_TIME",
    "NotAStore",
    "SchemaTooNew",
    "SqlGameStore",
    "database_url",
    "display_name",
    "open_store",
]
