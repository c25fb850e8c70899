"""Opening game stores for the CLI: a path or URL in, one-line errors out."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bohnanza.adapters.store import SqlGameStore, open_store
from bohnanza.core.errors import RecordError
from bohnanza.core.ports import StoreError

from .errors import fail

DB_HELP = "A SQLite file, or a database URL (sqlite:///…, postgresql+psycopg://…)."


@contextmanager
def opened_store(db: str, create: bool = False) -> Iterator[SqlGameStore]:
    """The store at `db`, closed afterwards; any store error ends the command in one line."""
    try:
        store = open_store(db, create=create)
    except StoreError as error:
        fail(str(error))
    try:
        yield store
    except (StoreError, RecordError) as error:
        message = str(error)
        fail(message if message.startswith(store.name) else f"{store.name}: {message}")
    finally:
        store.close()


def looks_like_record(source: str) -> bool:
    """A JSON record file rather than a database: by its name, or by its first byte."""
    if "://" in source:
        return False
    path = Path(source)
    if path.suffix.lower() == ".json":
        return True
    try:
        with path.open("rb") as file:
            return file.read(64).lstrip()[:1] == b"{"
    except OSError:
        return False
