"""Appending a move and the bots' answers: one statement per table, in one transaction.

The game's row is moved on first, by an UPDATE whose WHERE names the number of actions and the
head hash the new actions are chained to. When another writer stored an action first, it
matches no row and nothing is written; the game is then read (locked) to say why: no such game,
a finished one, or a sequence number taken. The store remembers the head of each game it
appended to last, so a running game's append reads nothing back: the chain is computed from the
remembered hash, and the WHERE makes sure it is still the stored one.

The statements are compiled once per database (`prepared.py`) and the rows are plain dicts: the
actions go in with one executemany, the chat state with one upsert, the delivery with one insert.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Table, bindparam, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.dml import Insert, Update

from bohnanza.core.audit import action_payload, canonical_json, link_hash, reshuffles_payload
from bohnanza.core.ports import (
    FINISHED,
    ChatState,
    ChatStateMoved,
    Delivery,
    DuplicateDelivery,
    GameFinished,
    SequenceConflict,
    StoredAction,
    UnknownGame,
)
from bohnanza.core.scoring import GameResult

from .prepared import Prepared
from .ratings import rate_finished_game
from .tables import ActionRow, ChatStateRow, DeliveryRow, GameRow

_GAMES: Table = GameRow.__table__  # type: ignore[attr-defined]
_ACTIONS: Table = ActionRow.__table__  # type: ignore[attr-defined]
_CHAT_STATES: Table = ChatStateRow.__table__  # type: ignore[attr-defined]
_DELIVERIES: Table = DeliveryRow.__table__  # type: ignore[attr-defined]


class GameMovedOn(Exception):
    """Another writer stored an action first; the transaction is rolled back."""


@dataclass(frozen=True)
class Head:
    """Where a game's chain ends: how many actions it has and the hash of the last one."""

    count: int
    hash: str


class KnownHeads:
    """The head of each game this store wrote last, so that its next append reads nothing.

    Only a hint: an append checks it against the stored head in the same statement that moves
    the game on. At most `limit` games are remembered; the one written longest ago goes first.
    """

    def __init__(self, limit: int = 20_000) -> None:
        self._limit = limit
        self._heads: dict[str, Head] = {}
        self._lock = threading.Lock()

    def get(self, game_id: str) -> Head | None:
        """The remembered head of a game, if any."""
        return self._heads.get(game_id)

    def note(self, game_id: str, head: Head) -> None:
        """Remember a game's head, just committed."""
        with self._lock:
            self._heads.pop(game_id, None)
            self._heads[game_id] = head
            if len(self._heads) > self._limit:
                del self._heads[next(iter(self._heads))]

    def forget(self, game_id: str) -> None:
        """Forget a game's head: an append to it is under way, or it is finished."""
        with self._lock:
            self._heads.pop(game_id, None)


def append_in(
    connection: Connection,
    game_id: str,
    actions: Sequence[StoredAction],
    known: Head | None,
    delivery: Delivery | None,
    chat_state: ChatState | None,
) -> Head | SequenceConflict:
    """Store consecutive actions inside the caller's write transaction; return the game's new
    head, or the conflict if the first action's number is not the game's next one.

    Raises UnknownGame, GameFinished, DuplicateDelivery, GameMovedOn or IntegrityError (the
    caller rolls back: nothing of it is stored).
    """
    links = [(action_payload(a.action), reshuffles_payload(a.reshuffles)) for a in actions]
    moved = _move_game_on(connection, game_id, actions, links, known)
    if isinstance(moved, SequenceConflict):
        return moved
    head, rows = moved
    _INSERT_ACTIONS.execute_many(connection, rows)
    last = actions[-1]
    if last.result is not None:
        rate_finished_game(connection, game_id)
    if chat_state is not None:
        write_chat_state(connection, game_id, chat_state, last.at)
    if delivery is not None:
        insert_delivery(connection, delivery, last.at)
    return head


def _move_game_on(
    connection: Connection,
    game_id: str,
    actions: Sequence[StoredAction],
    links: list[tuple[str, str]],
    known: Head | None,
) -> tuple[Head, list[dict[str, Any]]] | SequenceConflict:
    """Move the game's row past the new actions; return its new head and the actions' rows.

    With the head known, one UPDATE does it if that head is still the stored one; otherwise
    the game's row is read, locked, and checked first.
    """
    first = actions[0].seq
    if known is not None and known.count == first:
        head, rows = chained(game_id, actions, links, known)
        if _moved(connection, game_id, known, head, actions[-1].result, actions[-1].at):
            return head, rows
    stored = _locked_head(connection, game_id)
    if first != stored.count:
        return SequenceConflict(game_id, first, stored.count)
    head, rows = chained(game_id, actions, links, stored)
    if not _moved(connection, game_id, stored, head, actions[-1].result, actions[-1].at):
        raise GameMovedOn
    return head, rows


def chained(
    game_id: str, actions: Sequence[StoredAction], links: list[tuple[str, str]], start: Head
) -> tuple[Head, list[dict[str, Any]]]:
    """The actions' rows, each hash chained to the one before from `start`, and the new head.

    Raises ValueError unless the actions are numbered on from `start`.
    """
    rows = []
    hash_ = start.hash
    for offset, (stored, (payload, reshuffles)) in enumerate(zip(actions, links, strict=True)):
        if stored.seq != start.count + offset:
            raise ValueError("actions must be numbered consecutively")
        hash_ = link_hash(hash_, payload, reshuffles)
        rows.append(
            {
                "game_id": game_id,
                "seq": stored.seq,
                "actor": stored.action.player,
                "payload": payload,
                "reshuffles": reshuffles,
                "at": utc(stored.at),
                "hash": hash_,
            }
        )
    return Head(start.count + len(rows), hash_), rows


def _locked_head(connection: Connection, game_id: str) -> Head:
    """The stored head of a game in progress, its row locked until the transaction ends."""
    row = connection.execute(_HEAD, {"g_id": game_id}).first()
    if row is None:
        raise UnknownGame(game_id)
    status, head_hash, count = row
    if status == FINISHED:
        raise GameFinished(game_id)
    return Head(int(count), str(head_hash))


def _moved(
    connection: Connection,
    game_id: str,
    start: Head,
    head: Head,
    result: GameResult | None,
    at: datetime,
) -> bool:
    """Move the game from `start` to `head` (and end it, with a result); False if its row is
    not at `start` any more (or is finished), and then nothing was changed."""
    values: dict[str, Any] = {
        "g_id": game_id,
        "g_count": start.count,
        "g_prev": start.hash,
        "g_new_count": head.count,
        "g_new_hash": head.hash,
    }
    statement = _MOVE_ON
    if result is not None:
        statement = _MOVE_ON_AND_FINISH
        values |= {
            "g_result": result_json(result),
            "g_finished_at": utc(at),
        }
    return statement.execute(connection, values).rowcount == 1


def write_chat_state(connection: Connection, game_id: str, state: ChatState, now: datetime) -> None:
    """Replace a game's chat state, inside the caller's transaction; its version grows by one.
    A state naming the version it replaces is written only over that version (ChatStateMoved,
    and the caller rolls back, where another writer's came between)."""
    row = {
        "game_id": game_id,
        "data": canonical_json(dict(state.data)),
        "action_count": state.action_count,
        "updated_at": now,
        "due_at": None if state.due_at is None else utc(state.due_at),
    }
    if state.version is None:
        _CHAT_STATE_UPSERT.execute(connection, row | {"version": 1})
        return
    replaced = row | {"old_version": state.version, "new_version": state.version + 1}
    if _CHAT_STATE_REPLACE.execute(connection, replaced).rowcount == 1:
        return
    if state.version == 0:  # the first one: none is stored, unless another wrote it first
        try:
            _INSERT_CHAT_STATE.execute(connection, row | {"version": 1})
        except IntegrityError:  # the whole transaction is rolled back
            raise ChatStateMoved(game_id) from None
        return
    raise ChatStateMoved(game_id)


def insert_delivery(connection: Connection, delivery: Delivery, now: datetime) -> None:
    """Note an input as applied, inside the transaction of what it changed; DuplicateDelivery
    (the caller's transaction then rolls back) if it was applied already."""
    row = {"platform": delivery.platform, "delivery_id": delivery.delivery_id, "received_at": now}
    try:
        _INSERT_DELIVERY.execute(connection, row)
    except IntegrityError:
        raise DuplicateDelivery(delivery.platform, delivery.delivery_id) from None


def utc(moment: datetime) -> datetime:
    """Every time is stored in UTC (SQLite keeps no time zone); a naive time is taken as UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def result_json(result: GameResult) -> str:
    """A game's result as stored: canonical JSON of its scores, hand sizes and winners."""
    return canonical_json(
        {
            "scores": list(result.scores),
            "hand_sizes": list(result.hand_sizes),
            "winners": list(result.winners),
        }
    )


# --- the statements, built once ------------------------------------------------------------


def _move_on(finish: bool) -> Update:
    """UPDATE games: the new count and head, where the game is in progress at the old ones."""
    values: dict[str, Any] = {
        "action_count": bindparam("g_new_count"),
        "head_hash": bindparam("g_new_hash"),
    }
    if finish:
        values |= {
            "status": FINISHED,
            "result": bindparam("g_result", type_=_GAMES.c.result.type),
            "finished_at": bindparam("g_finished_at", type_=_GAMES.c.finished_at.type),
        }
    return (
        update(_GAMES)
        .where(
            _GAMES.c.id == bindparam("g_id"),
            _GAMES.c.action_count == bindparam("g_count"),
            _GAMES.c.head_hash == bindparam("g_prev"),
            _GAMES.c.status != FINISHED,
        )
        .values(values)
    )


_MOVE_ON = Prepared(_move_on(finish=False))
_MOVE_ON_AND_FINISH = Prepared(_move_on(finish=True))
_HEAD = (
    select(_GAMES.c.status, _GAMES.c.head_hash, _GAMES.c.action_count)
    .where(_GAMES.c.id == bindparam("g_id"))
    .with_for_update()
)
_INSERT_ACTIONS = Prepared(insert(_ACTIONS))
_INSERT_DELIVERY = Prepared(insert(_DELIVERIES))


def _chat_state_upsert(dialect: str) -> Insert:
    """INSERT a chat state, or replace the game's one, its version one more (SQLite and
    PostgreSQL both have it)."""
    columns = ("data", "action_count", "updated_at", "due_at")
    grown = {"version": _CHAT_STATES.c.version + 1}
    if dialect == "postgresql":
        on_postgresql = postgresql.insert(_CHAT_STATES)
        replaced = {name: on_postgresql.excluded[name] for name in columns} | grown
        return on_postgresql.on_conflict_do_update(index_elements=["game_id"], set_=replaced)
    on_sqlite = sqlite.insert(_CHAT_STATES)
    replaced = {name: on_sqlite.excluded[name] for name in columns} | grown
    return on_sqlite.on_conflict_do_update(index_elements=["game_id"], set_=replaced)


_CHAT_STATE_UPSERT = Prepared(_chat_state_upsert)
_CHAT_STATE_REPLACE = Prepared(
    update(_CHAT_STATES)
    .where(
        _CHAT_STATES.c.game_id == bindparam("game_id"),
        _CHAT_STATES.c.version == bindparam("old_version"),
    )
    .values(
        data=bindparam("data"),
        action_count=bindparam("action_count"),
        updated_at=bindparam("updated_at"),
        due_at=bindparam("due_at"),
        version=bindparam("new_version"),
    )
)
"""UPDATE a game's chat state where it is at the version the writer read."""
_INSERT_CHAT_STATE = Prepared(insert(_CHAT_STATES))
