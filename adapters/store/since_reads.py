"""What a copy of a game in memory lacks of the game as stored, read in one statement.

Another worker on the same store moved the game on: the actions it stored after the copy's
own, when the last was stored, the game's chat state, the seats moved to new identities and
the settings of the people at its seats come back as the rows of one query (each kind of row
tagged), so that catching up costs a command one round trip to the database, not five. The
query is compiled once (`prepared.py`): building it anew would cost more than running it.

A mixin of `SqlGameStore`.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from sqlalchemy import (
    Integer,
    Text,
    bindparam,
    cast,
    literal,
    null,
    or_,
    select,
    type_coerce,
    union_all,
)
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import BindParameter
from sqlmodel import col

from bohnanza.core.app.ports import GameSince
from bohnanza.core.ports import ChainLink, SeatIdentity, UnreadableGame

from .appends import Head
from .chat_queries import chat_state_of, settings_of
from .game_reads import stored_time
from .prepared import Prepared
from .tables import ActionRow, ChatStateRow, PlayerSettingsRow, SeatMoveRow, SeatRow

_ACTION, _STATE, _MOVE, _SETTINGS = "a", "c", "m", "s"


def _since_query() -> Any:
    """The rows of `game_since` (parameters: the game's `id`, the first action read `first`,
    the `platform`): (kind, number, three texts, a moment), per kind:
    an action (seq; payload, reshuffles, hash; stored at), from the one before the copy's;
    the chat state (version; data, action count; due at); a seat moved (position; platform,
    user id, name); a player's settings (user id, data)."""
    game_id: BindParameter[str] = bindparam("id")
    actions = select(
        literal(_ACTION),
        col(ActionRow.seq),
        col(ActionRow.payload),
        col(ActionRow.reshuffles),
        col(ActionRow.hash),
        type_coerce(col(ActionRow.at), Text),
    ).where(col(ActionRow.game_id) == game_id, col(ActionRow.seq) >= bindparam("first"))
    state = select(
        literal(_STATE),
        col(ChatStateRow.version),
        col(ChatStateRow.data),
        cast(col(ChatStateRow.action_count), Text),
        null(),
        type_coerce(col(ChatStateRow.due_at), Text),
    ).where(col(ChatStateRow.game_id) == game_id)
    moves = select(
        literal(_MOVE),
        col(SeatMoveRow.position),
        col(SeatMoveRow.platform),
        col(SeatMoveRow.user_id),
        col(SeatMoveRow.name),
        null(),
    ).where(col(SeatMoveRow.game_id) == game_id)
    player = col(PlayerSettingsRow.user_id)
    seated = select(col(SeatRow.user_id)).where(col(SeatRow.game_id) == game_id)
    moved_in = select(col(SeatMoveRow.user_id)).where(col(SeatMoveRow.game_id) == game_id)
    settings = select(
        literal(_SETTINGS),
        cast(null(), Integer),
        player,
        col(PlayerSettingsRow.data),
        null(),
        null(),
    ).where(
        col(PlayerSettingsRow.platform) == bindparam("platform"),
        or_(player.in_(seated), player.in_(moved_in)),
    )
    return union_all(actions, state, moves, settings)


_SINCE = Prepared(_since_query())


class SinceReads:
    """`game_since`, on the store's database."""

    def _transaction(self, write: bool) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    def _head_read(self, game_id: str, head: Head) -> None:
        raise NotImplementedError

    def game_since(self, game_id: str, seq: int, platform: str) -> GameSince:
        """What a copy of a game holding its first `seq` actions lacks of it as stored, in
        one statement: the actions from `seq` on, when the last action was stored, the chat
        state, the seats moved, and the settings (on `platform`) of the people at its seats
        and of those its seats moved to. UnreadableGame if that time is not one."""
        with self._transaction(write=False) as connection:
            parameters = {"id": game_id, "first": max(0, seq - 1), "platform": platform}
            rows = _SINCE.execute(connection, parameters).all()
        actions = sorted((r for r in rows if r[0] == _ACTION), key=lambda r: int(r[1]))
        links = [ChainLink(int(r[1]), r[2], r[3], r[4]) for r in actions if int(r[1]) >= seq]
        last_at = None
        if actions:
            try:
                last_at = stored_time(actions[-1][5])
            except ValueError:
                raise UnreadableGame(
                    game_id, "the stored time of its last action is not a time"
                ) from None
        if links:
            # The next append of this store to the game then reads nothing first.
            self._head_read(game_id, Head(links[-1].seq + 1, links[-1].hash))
        state = next((chat_state_of(r[2], r[3], r[1], r[5]) for r in rows if r[0] == _STATE), None)
        return GameSince(
            links=links,
            last_action_at=last_at,
            chat_state=state,
            moves={
                int(r[1]): SeatIdentity(str(r[2]), str(r[3]), str(r[4]))
                for r in rows
                if r[0] == _MOVE
            },
            settings={str(r[2]): settings_of(r[3]) for r in rows if r[0] == _SETTINGS},
        )
