"""Opening game stores for the CLI: a path or URL in, one-line errors out."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from bohnanza.core.audit import audit_game
from bohnanza.core.errors import RecordError
from bohnanza.core.ports import IN_PROGRESS, StoreError, UnreadableGame

from .errors import fail

if TYPE_CHECKING:
    from bohnanza.adapters.store import SqlGameStore

DB_HELP = "A SQLite file, or a database URL (sqlite:///…, postgresql+psycopg://…)."


@contextmanager
def opened_store(db: str, create: bool = False) -> Iterator[SqlGameStore]:
    """The store at `db`, closed afterwards; any store error ends the command in one line."""
    from bohnanza.adapters.store import open_store

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


def refuse_altered_games_in_progress(store: SqlGameStore, platform: str) -> None:
    """Before the games in progress of a platform are taken up again: end the command in one
    line, with nothing written, if one of them cannot be read or fails the audit's checks (its
    hash chain, its seating, the rules)."""
    in_progress = [g.game_id for g in store.list_games() if g.status == IN_PROGRESS]
    for stored in store.stored_games(in_progress):
        if isinstance(stored, UnreadableGame):
            fail(f"{store.name}: {stored}; not resumed")
        if stored.game.options.get("platform") != platform:
            continue
        failure = audit_game(stored)
        if failure is not None:
            fail(f"{store.name}: {failure}; not resumed (see `bohnanza audit`)")


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
