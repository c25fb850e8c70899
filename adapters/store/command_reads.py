"""The reads a chat application makes before every command: was this input applied already,
and how far is the game in the store, its actions and its chat state, or which game is in
progress in the input's room (one statement when both are asked at once).
Their statements are compiled once (`prepared.py`), so that a command pays for the look-up and
not for building the query again.

A mixin of `SqlGameStore`, placed before `ChatQueries` (whose answers these are, unchanged).
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from sqlalchemy import Table, bindparam, select
from sqlalchemy.engine import Connection

from bohnanza.core.app.ports import GameProgress
from bohnanza.core.ports import IN_PROGRESS

from .prepared import Prepared
from .tables import ChatStateRow, DeliveryRow, GameRow

_GAMES: Table = GameRow.__table__  # type: ignore[attr-defined]
_DELIVERIES: Table = DeliveryRow.__table__  # type: ignore[attr-defined]
_CHAT_STATES: Table = ChatStateRow.__table__  # type: ignore[attr-defined]

CHAT_VERSION = (
    select(_CHAT_STATES.c.version)
    .where(_CHAT_STATES.c.game_id == bindparam("id"))
    .scalar_subquery()
)
PROGRESS_QUERY = select(_GAMES.c.status, _GAMES.c.action_count, CHAT_VERSION).where(
    _GAMES.c.id == bindparam("id")
)
DELIVERY_QUERY = select(_DELIVERIES.c.delivery_id).where(
    _DELIVERIES.c.platform == bindparam("platform"),
    _DELIVERIES.c.delivery_id == bindparam("delivery_id"),
)
_ROOM_GAME_QUERY = (
    select(_GAMES.c.id)
    .where(
        _GAMES.c.platform == bindparam("platform"),
        _GAMES.c.room == bindparam("room"),
        _GAMES.c.status == IN_PROGRESS,
    )
    .order_by(_GAMES.c.created_at.desc())
    .limit(1)
)
_DELIVERY_AND_ROOM_GAME = Prepared(
    select(DELIVERY_QUERY.scalar_subquery(), _ROOM_GAME_QUERY.scalar_subquery())
)
_PROGRESS = Prepared(PROGRESS_QUERY)
_DELIVERY = Prepared(DELIVERY_QUERY)
_DELIVERY_AND_PROGRESS = Prepared(
    select(
        DELIVERY_QUERY.scalar_subquery(),
        PROGRESS_QUERY.with_only_columns(_GAMES.c.status).scalar_subquery(),
        PROGRESS_QUERY.with_only_columns(_GAMES.c.action_count).scalar_subquery(),
        CHAT_VERSION,
    )
)


class CommandReads:
    """Look-ups made once per command, each one short read transaction."""

    def _transaction(self, write: bool) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    def game_progress(self, game_id: str) -> GameProgress | None:
        """The game's status and number of stored actions (None: no such game)."""
        with self._transaction(write=False) as connection:
            row = _PROGRESS.execute(connection, {"id": game_id}).first()
        return None if row is None else GameProgress(str(row[0]), int(row[1]), int(row[2] or 0))

    def delivery_seen(self, platform: str, delivery_id: str) -> bool:
        """Whether an input with this delivery id was applied (or refused) already."""
        parameters = {"platform": platform, "delivery_id": delivery_id}
        with self._transaction(write=False) as connection:
            found = _DELIVERY.execute(connection, parameters).first()
        return found is not None

    def delivery_seen_and_room_game(
        self, platform: str, delivery_id: str, room: str
    ) -> tuple[bool, str | None]:
        """`delivery_seen` and `active_game_in` in one statement: what an input in a room
        whose game memory does not hold asks first."""
        parameters = {"platform": platform, "delivery_id": delivery_id, "room": room}
        with self._transaction(write=False) as connection:
            seen, game_id = _DELIVERY_AND_ROOM_GAME.execute(connection, parameters).one()
        return seen is not None, None if game_id is None else str(game_id)

    def delivery_seen_and_progress(
        self, platform: str, delivery_id: str, game_id: str
    ) -> tuple[bool, GameProgress | None]:
        """Both look-ups in one read transaction (one statement): what a command to a game
        asks first."""
        parameters = {"platform": platform, "delivery_id": delivery_id, "id": game_id}
        with self._transaction(write=False) as connection:
            row = _DELIVERY_AND_PROGRESS.execute(connection, parameters).one()
        seen, status, actions, chat_version = row
        progress = (
            None
            if status is None
            else GameProgress(str(status), int(actions), int(chat_version or 0))
        )
        return seen is not None, progress
