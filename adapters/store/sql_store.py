"""`SqlGameStore`: the game store on SQLite or PostgreSQL, through SQLModel's tables.

Appending actions is one transaction (see `appends`): move the game's head with an UPDATE that
names the head the actions are chained to, insert the actions, commit. A second writer's UPDATE
then matches no row, and the primary key (game, seq) makes its insert of the same number fail
even if that check were bypassed; either way the loser gets a `SequenceConflict` and nothing of
it is written.

This module writes games; they are read back in `game_reads`, the chat application's queries
are in `chat_queries` and `command_reads`, the boards' in `rating_queries`, and which connection
and transaction each call runs in (a unit of work's, a kept one, the pool's) in `connections`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlmodel import col

from bohnanza.core.audit import (
    action_payload,
    canonical_json,
    header_hash,
    link_hash,
    reshuffles_payload,
)
from bohnanza.core.ports import (
    FINISHED,
    IN_PROGRESS,
    Appended,
    AppendResult,
    ChatState,
    Delivery,
    DuplicateGame,
    NewGame,
    SequenceConflict,
    StoredAction,
    UnknownGame,
)
from bohnanza.core.scoring import GameResult

from .appends import GameMovedOn, Head, KnownHeads, append_in, insert_delivery, result_json, utc
from .chat_queries import ChatQueries
from .clock_queries import ClockQueries
from .command_reads import CommandReads
from .connections import Connections
from .database import display_name, make_engine, prepare_schema
from .game_reads import GameReads
from .rating_queries import RatingQueries
from .ratings import rate_finished_game
from .since_reads import SinceReads
from .tables import ActionRow, GameRow, LobbyRow, SeatRow
from .view_ledger import ViewLedger


def open_store(target: str, create: bool = False) -> SqlGameStore:
    """Open the store at a path or URL; `create` makes and migrates a new one.

    Raises StoreError (one readable line) for a missing file, a file that is not a database, a
    database of another kind or of a newer schema, or a server that cannot be reached.
    """
    name = display_name(target)
    engine = make_engine(target, create)
    try:
        prepare_schema(engine, name, create)
    except BaseException:
        engine.dispose()
        raise
    return SqlGameStore(engine, name)


class SqlGameStore(
    GameReads, SinceReads, CommandReads, ChatQueries, ViewLedger, ClockQueries, RatingQueries
):
    """The `GameStore` port (and the chat application's `ChatStore`) on a SQL database."""

    def __init__(self, engine: Engine, name: str) -> None:
        self._engine = engine
        self.name = name
        self._heads = KnownHeads()
        self._connections = Connections(engine, name)

    @property
    def dialect(self) -> str:
        """'sqlite' or 'postgresql'."""
        return self._engine.dialect.name

    def sqlite_durability(self) -> dict[str, str]:
        """SQLite's journal mode and synchronous setting as a connection of this store has
        them ({} on PostgreSQL), so that a plain SQLite commit can be compared at the same."""
        if self.dialect != "sqlite":
            return {}
        with self._transaction(write=False) as connection:
            return {
                pragma: str(connection.exec_driver_sql(f"PRAGMA {pragma}").scalar())
                for pragma in ("journal_mode", "synchronous")
            }

    def close(self) -> None:
        self._connections.close()
        self._engine.dispose()

    def __enter__(self) -> SqlGameStore:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def atomic(self) -> AbstractContextManager[None]:
        """Everything written inside (by the calling thread) is one transaction: committed
        when the block ends, rolled back entirely if anything raises out of it; reads inside
        see the writes made before them. A block inside another joins it.

        On SQLite it holds the write lock from its start (`BEGIN IMMEDIATE`). A call that
        reports a conflict (`save_lobby` False, a `SequenceConflict`...) has written nothing
        and the block goes on; raise out of it to drop what was written before."""
        return self._connections.atomic()

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Every read inside (by the calling thread) is one read transaction, ended once, that
        sees one committed state of the store: a command's look-ups cost one commit, not one
        each. Nothing may be written inside; inside a unit of work, its transaction is the
        one."""
        with self._connections.reading():
            yield

    def _transaction(self, write: bool) -> AbstractContextManager[Connection]:
        return self._connections.transaction(write)

    def serve_from_this_thread(self) -> None:
        """The calling thread makes most of the store's calls from now on (a chat runner's
        thread): it keeps a connection between its transactions, as the opener's does, until
        `release_this_thread` or `close`."""
        self._connections.serve_from_this_thread()

    def release_this_thread(self) -> None:
        """The calling thread keeps no connection any more: it goes back to the pool."""
        self._connections.release_this_thread()

    def _note_head(self, game_id: str, head: Head) -> None:
        """Remember a game's head once what was written is committed (not if rolled back)."""
        self._connections.after_commit(lambda: self._heads.note(game_id, head))

    def _head_read(self, game_id: str, head: Head) -> None:
        """Remember a game's head as just read (only a hint: an append checks it)."""
        self._heads.note(game_id, head)

    def _snapshot(self) -> AbstractContextManager[Connection]:
        """A read-only transaction of the call's own whose every statement sees the same
        committed state (inside a unit of work or a reading: theirs). Calls made while it is
        open (a lazy read) run in transactions of their own."""
        return self._connections.transaction(write=False, one_state=True)

    # --- writing --------------------------------------------------------------------------

    def add_game(self, game: NewGame) -> None:
        """Store a new game with no actions yet."""
        self.add_complete_game(game, (), None)

    def add_complete_game(
        self, game: NewGame, actions: Sequence[StoredAction], result: GameResult | None
    ) -> None:
        """Store a whole game in one transaction, its hash chain computed here."""
        head = header_hash(game)
        rows = []
        for seq, stored in enumerate(actions):
            if stored.seq != seq:
                raise ValueError("actions must be numbered 0, 1, 2, … in order")
            payload = action_payload(stored.action)
            reshuffles = reshuffles_payload(stored.reshuffles)
            head = link_hash(head, payload, reshuffles)
            rows.append(_action_row(game.game_id, stored, payload, reshuffles, head))
        game_row = _game_row(game, len(rows), head, result)
        try:
            with self._transaction(write=True) as connection:
                connection.execute(insert(GameRow), [game_row])
                connection.execute(insert(SeatRow), _seat_rows(game))
                if rows:
                    connection.execute(insert(ActionRow), rows)
                if result is not None:
                    rate_finished_game(connection, game.game_id)
        except IntegrityError:
            raise DuplicateGame(game.game_id) from None
        if result is None:
            self._note_head(game.game_id, Head(len(rows), head))

    def start_game(
        self, game: NewGame, lobby_version: int, delivery: Delivery | None = None
    ) -> bool:
        """Take the room's lobby and store the game it became, in one transaction."""
        platform, room = str(game.options["platform"]), str(game.options["room"])
        try:
            with self._transaction(write=True) as connection:
                gone = connection.execute(
                    delete(LobbyRow).where(
                        col(LobbyRow.platform) == platform,
                        col(LobbyRow.room) == room,
                        col(LobbyRow.version) == lobby_version,
                    )
                )
                if lobby_version and gone.rowcount != 1:
                    return False
                head = header_hash(game)
                connection.execute(insert(GameRow), [_game_row(game, 0, head, None)])
                connection.execute(insert(SeatRow), _seat_rows(game))
                if delivery is not None:
                    insert_delivery(connection, delivery, game.created_at)
        except IntegrityError:
            raise DuplicateGame(game.game_id) from None
        self._note_head(game.game_id, Head(0, head))
        return True

    def append_action(self, game_id: str, action: StoredAction) -> AppendResult:
        """Store one action durably (one transaction, one commit)."""
        return self.append_actions(game_id, (action,))

    def append_actions(
        self,
        game_id: str,
        actions: Sequence[StoredAction],
        delivery: Delivery | None = None,
        chat_state: ChatState | None = None,
    ) -> AppendResult:
        """Store consecutive actions durably, all in one transaction, or none of them, with
        the delivery of the input that caused them and the game's chat state."""
        if not actions:
            raise ValueError("nothing to append")
        first = actions[0].seq
        known = self._heads.get(game_id)
        self._heads.forget(game_id)  # until the new head is committed
        try:
            with self._transaction(write=True) as connection:
                head = append_in(connection, game_id, actions, known, delivery, chat_state)
        except (IntegrityError, GameMovedOn):
            return SequenceConflict(game_id, first, self._action_count(game_id))
        if isinstance(head, SequenceConflict):
            return head
        if actions[-1].result is None:
            self._note_head(game_id, head)
        return Appended(actions[-1].seq, head.hash)

    def finish_game(self, game_id: str, result: GameResult) -> None:
        """Mark a game as ended with its result, and rate it (in the same transaction)."""
        self._heads.forget(game_id)
        with self._transaction(write=True) as connection:
            status = connection.execute(
                select(col(GameRow.status)).where(col(GameRow.id) == game_id).with_for_update()
            ).scalar()
            moved = connection.execute(
                update(GameRow)
                .where(col(GameRow.id) == game_id)
                .values(**_finished(result, datetime.now(UTC)))
            )
            if moved.rowcount != 1:
                raise UnknownGame(game_id)
            # A game finished again (a new result) has its boards computed again.
            rate_finished_game(connection, game_id, again=status == FINISHED)

    def _action_count(self, game_id: str) -> int:
        with self._transaction(write=False) as connection:
            count = connection.execute(
                select(col(GameRow.action_count)).where(col(GameRow.id) == game_id)
            ).scalar()
        if count is None:
            raise UnknownGame(game_id)
        return int(count)


# --- rows <-> values ------------------------------------------------------------------------


def _finished(result: GameResult, at: datetime) -> dict[str, Any]:
    return {"status": FINISHED, "result": result_json(result), "finished_at": utc(at)}


def _game_row(game: NewGame, count: int, head: str, result: GameResult | None) -> dict[str, Any]:
    row: dict[str, Any] = {
        "id": game.game_id,
        "players": len(game.seats),
        "status": IN_PROGRESS,
        "options": canonical_json(dict(game.options)),
        "deck": canonical_json(list(game.deck)),
        "created_at": utc(game.created_at),
        "finished_at": None,
        "result": None,
        "header_hash": header_hash(game),
        "action_count": count,
        "head_hash": head,
        "platform": _text_option(game, "platform", 40),
        "room": _text_option(game, "room", 200),
    }
    if result is not None:
        row |= _finished(result, game.created_at)
    return row


def _text_option(game: NewGame, key: str, length: int) -> str | None:
    """A game's platform or room, kept in columns too so that a worker finds it by room."""
    value = game.options.get(key)
    return None if value is None else str(value)[:length]


def _seat_rows(game: NewGame) -> list[dict[str, Any]]:
    return [
        {
            "game_id": game.game_id,
            "position": position,
            "platform": seat.platform,
            "user_id": seat.user_id,
            "name": seat.name,
            "kind": seat.kind,
            "strategy": seat.strategy,
        }
        for position, seat in enumerate(game.seats)
    ]


def _action_row(
    game_id: str, action: StoredAction, payload: str, reshuffles: str, hash_: str
) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "seq": action.seq,
        "actor": action.action.player,
        "payload": payload,
        "reshuffles": reshuffles,
        "at": utc(action.at),
        "hash": hash_,
    }
