"""What each chat shows, per slot (a game's table, a player's hand): the message's id on the
platform and a digest of its content. Every message a chat application sends reads its slot
before and notes it after (`adapters/shown_slots.py`), several times a command, so both
statements are compiled once (`prepared.py`): the note is one upsert, not an update followed by
an insert where there was no row.

A mixin of `SqlGameStore`; each method is one short transaction.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime

from sqlalchemy import Table, bindparam, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.sql.dml import Insert

from bohnanza.core.app.ports import ShownView

from .prepared import Prepared
from .tables import ViewRow

_VIEWS: Table = ViewRow.__table__  # type: ignore[attr-defined]

_VIEW = Prepared(
    select(_VIEWS.c.message_id, _VIEWS.c.digest).where(
        _VIEWS.c.platform == bindparam("platform"),
        _VIEWS.c.chat == bindparam("chat"),
        _VIEWS.c.slot == bindparam("slot"),
    )
)
_NOTED = ("message_id", "digest", "updated_at")
"""What a note of a slot replaces; its keys are the platform, the chat and the slot."""


def _view_upsert(dialect: str) -> Insert:
    """INSERT a slot's view, or replace the one it had (SQLite and PostgreSQL both have it)."""
    keys = ["platform", "chat", "slot"]
    if dialect == "postgresql":
        on_postgresql = postgresql.insert(_VIEWS)
        shown = {name: on_postgresql.excluded[name] for name in _NOTED}
        return on_postgresql.on_conflict_do_update(index_elements=keys, set_=shown)
    on_sqlite = sqlite.insert(_VIEWS)
    shown = {name: on_sqlite.excluded[name] for name in _NOTED}
    return on_sqlite.on_conflict_do_update(index_elements=keys, set_=shown)


_VIEW_UPSERT = Prepared(_view_upsert)


class ViewLedger:
    """What each chat's slots show, on the store's database."""

    def _transaction(self, write: bool) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    def load_view(self, platform: str, chat: str, slot: str) -> ShownView | None:
        """What a chat's slot was last shown (None: nothing yet)."""
        with self._transaction(write=False) as connection:
            row = _VIEW.execute(connection, {"platform": platform, "chat": chat, "slot": slot})
        found = row.first()
        return None if found is None else ShownView(str(found[0]), str(found[1]))

    def save_view(
        self, platform: str, chat: str, slot: str, view: ShownView, now: datetime
    ) -> None:
        """Note what a chat's slot shows now."""
        noted = {
            "platform": platform,
            "chat": chat,
            "slot": slot,
            "message_id": view.message_id,
            "digest": view.digest,
            "updated_at": now,
        }
        with self._transaction(write=True) as connection:
            _VIEW_UPSERT.execute(connection, noted)
