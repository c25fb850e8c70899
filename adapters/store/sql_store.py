"""`SqlGameStore`: the game store on SQLite or PostgreSQL, through SQLModel's tables.

Appending actions is one transaction (see `appends`): move the game's head with an UPDATE that
names the head the actions are chained to, insert the actions, commit. A second writer's UPDATE
then matches no row, and the primary key (game, seq) makes its insert of the same number fail
even if that check were bypassed; either way the loser gets a `SequenceConflict` and nothing of
it is written.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from itertools import groupby
from types import TracebackType
from typing import Any

from sqlalchemy import Engine, Text, delete, insert, select, text, type_coerce, update
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
    ChainLink,
    ChatState,
    Delivery,
    DuplicateGame,
    GameSummary,
    NewGame,
    SeatIdentity,
    SequenceConflict,
    StoredAction,
    StoredGame,
    UnknownGame,
    UnreadableGame,
)
from bohnanza.core.record import GameRecord
from bohnanza.core.scoring import GameResult

from .appends import GameMovedOn, Head, KnownHeads, append_in, insert_delivery, result_json, utc
from .chat_queries import ChatQueries
from .command_reads import CommandReads
from .connections import Connections
from .database import display_name, make_engine, prepare_schema
from .rating_queries import RatingQueries
from .ratings import rate_finished_game
from .tables import ActionRow, GameRow, LobbyRow, SeatRow

_GAME_COLUMNS = (
    col(GameRow.id),
    col(GameRow.players),
    col(GameRow.status),
    col(GameRow.options),
    col(GameRow.deck),
    type_coerce(col(GameRow.created_at), Text).label("created_at"),
    col(GameRow.result),
    col(GameRow.header_hash),
    col(GameRow.action_count),
    col(GameRow.head_hash),
)
_SEAT_COLUMNS = (
    col(SeatRow.game_id),
    col(SeatRow.position),
    col(SeatRow.platform),
    col(SeatRow.user_id),
    col(SeatRow.name),
    col(SeatRow.kind),
    col(SeatRow.strategy),
)
_LINK_COLUMNS = (
    col(ActionRow.game_id),
    col(ActionRow.seq),
    col(ActionRow.payload),
    col(ActionRow.reshuffles),
    col(ActionRow.hash),
)


UNKNOWN_TIME = datetime.min.replace(tzinfo=UTC)
"""The creation time listed for a game whose stored one cannot be read."""


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


class SqlGameStore(CommandReads, ChatQueries, RatingQueries):
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

    @contextmanager
    def _snapshot(self) -> Iterator[Connection]:
        """A read-only transaction whose every statement sees the same committed state.

        SQLite in WAL mode gives a read transaction one snapshot from its first read to its
        end. PostgreSQL's default (READ COMMITTED) takes a new one per statement, so a game
        read before an append and its actions read after it would disagree: ask for one.
        """
        with self._transaction(write=False) as connection:
            # Inside a unit of work, its transaction is the snapshot (and sees its writes).
            if self.dialect == "postgresql" and not self._connections.in_unit():
                connection.execute(
                    text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                )
            yield connection

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

    # --- reading --------------------------------------------------------------------------

    def last_action_at(self, game_id: str) -> datetime | None:
        """When the game's last action was stored (None: it has none yet); UnreadableGame if
        that time is not one."""
        with self._transaction(write=False) as connection:
            at = connection.execute(
                select(type_coerce(col(ActionRow.at), Text))
                .where(col(ActionRow.game_id) == game_id)
                .order_by(col(ActionRow.seq).desc())
                .limit(1)
            ).scalar()
        if at is None:
            return None
        try:
            return _stored_time(at)
        except ValueError:
            raise UnreadableGame(
                game_id, "the stored time of its last action is not a time"
            ) from None

    def load_stored(self, game_id: str) -> StoredGame:
        """The game exactly as stored."""
        for game in self.stored_games([game_id]):
            if isinstance(game, UnreadableGame):
                raise game
            return game
        raise UnknownGame(game_id)

    def load_record(self, game_id: str) -> GameRecord:
        """The game as a portable record (its actions checked for shape, not yet for rules)."""
        return self.load_stored(game_id).record()

    def stored_games(
        self, game_ids: Sequence[str] | None = None, with_actions: bool = True
    ) -> Iterator[StoredGame | UnreadableGame]:
        """Every stored game (or those named), oldest first by id, read in one pass and one
        snapshot: a game being written to is read as it was after one of its appends.

        Without actions, only what is fixed before the first action is read (for a cheap
        check of the header): each game comes with no links.
        """
        with self._snapshot() as connection:
            games_query = select(*_GAME_COLUMNS).order_by(col(GameRow.id))
            seats_query = select(*_SEAT_COLUMNS).order_by(
                col(SeatRow.game_id), col(SeatRow.position)
            )
            links_query = select(*_LINK_COLUMNS).order_by(
                col(ActionRow.game_id), col(ActionRow.seq)
            )
            if game_ids is not None:
                games_query = games_query.where(col(GameRow.id).in_(game_ids))
                seats_query = seats_query.where(col(SeatRow.game_id).in_(game_ids))
                links_query = links_query.where(col(ActionRow.game_id).in_(game_ids))
            games = connection.execute(games_query).all()
            seats = {
                game_id: list(rows)
                for game_id, rows in groupby(
                    connection.execute(seats_query).all(), key=lambda r: str(r[0])
                )
            }
            chains: Iterator[tuple[str, list[ChainLink]]] = iter(())
            if with_actions:
                # Options of this statement only: the connection may be kept for later ones.
                rows = connection.execute(links_query.execution_options(yield_per=10_000))
                chains = _chains(rows.partitions())
            for game, chain in zip(games, _matched(games, chains), strict=True):
                yield _stored_game(game, seats.get(game.id, []), chain)

    def list_games(self) -> list[GameSummary]:
        """Every stored game, oldest first (read in one snapshot)."""
        with self._snapshot() as connection:
            games = connection.execute(
                select(
                    col(GameRow.id),
                    col(GameRow.status),
                    type_coerce(col(GameRow.created_at), Text),
                    col(GameRow.action_count),
                    col(GameRow.result),
                ).order_by(col(GameRow.created_at), col(GameRow.id))
            ).all()
            names: dict[str, list[str]] = {}
            for game_id, name in connection.execute(
                select(col(SeatRow.game_id), col(SeatRow.name)).order_by(
                    col(SeatRow.game_id), col(SeatRow.position)
                )
            ):
                names.setdefault(game_id, []).append(name)
        summaries = []
        for game_id, status, created_at, count, result in games:
            try:
                parsed = _result(result, len(names.get(game_id, [])))
            except ValueError:
                parsed = None
            summaries.append(
                GameSummary(
                    game_id,
                    tuple(names.get(game_id, [])),
                    status,
                    _listed_time(created_at),
                    count,
                    parsed,
                )
            )
        return summaries


# --- rows <-> values ------------------------------------------------------------------------


def _stored_time(value: object) -> datetime:
    """A time column read as it is stored (SQLite keeps text, which anyone may overwrite):
    ValueError if it is not a time."""
    if isinstance(value, datetime):
        return utc(value)
    if isinstance(value, str):
        return utc(datetime.fromisoformat(value))
    raise ValueError("not a time")


def _listed_time(value: object) -> datetime:
    """A game's creation time for a listing: UNKNOWN_TIME when it cannot be read."""
    try:
        return _stored_time(value)
    except ValueError:
        return UNKNOWN_TIME


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


def _chains(batches: Iterable[Sequence[Sequence[Any]]]) -> Iterator[tuple[str, list[ChainLink]]]:
    """Each game's stored actions from batches of rows ordered by game and sequence number.

    Rows come a batch at a time (the audit reads every action of the store), not one by one.
    """
    game_id: str | None = None
    chain: list[ChainLink] = []
    for batch in batches:
        for row_game, seq, payload, reshuffles, hash_ in batch:
            if row_game != game_id:
                if game_id is not None:
                    yield game_id, chain
                game_id, chain = str(row_game), []
            chain.append(ChainLink(seq, payload, reshuffles, hash_))
    if game_id is not None:
        yield game_id, chain


def _matched(
    games: Sequence[Any], chains: Iterator[tuple[str, list[ChainLink]]]
) -> Iterator[list[ChainLink]]:
    """Each game's chain (empty if it has no actions), from chains in the games' order.

    Both come sorted by the database, whose collation need not be Python's: a chain is matched
    by equal ids, and one of a game not in `games` (stored without its game) is passed over.
    """
    ahead = {game.id for game in games}
    pending = next(chains, None)
    for game in games:
        while pending is not None and pending[0] != game.id and pending[0] not in ahead:
            pending = next(chains, None)
        ahead.discard(game.id)
        if pending is not None and pending[0] == game.id:
            yield pending[1]
            pending = next(chains, None)
        else:
            yield []


def _stored_game(
    game: Any, seats: Sequence[Sequence[Any]], links: Sequence[ChainLink]
) -> StoredGame | UnreadableGame:
    try:
        created_at = _stored_time(game.created_at)
    except ValueError:
        return UnreadableGame(game.id, "its stored creation time is not a time")
    try:
        options = json.loads(game.options)
        deck = json.loads(game.deck)
        if not isinstance(options, dict) or not isinstance(deck, list):
            raise ValueError("options or deck of the wrong shape")
        result = _result(game.result, int(game.players))
    except ValueError as error:
        return UnreadableGame(game.id, f"its stored options, deck or result: {error}")
    identities = tuple(
        SeatIdentity(platform, user_id, name, kind, strategy)
        for _, _, platform, user_id, name, kind, strategy in seats
    )
    return StoredGame(
        game=NewGame(game.id, identities, tuple(deck), created_at, options),
        header_hash=game.header_hash,
        links=tuple(links),
        action_count=game.action_count,
        head_hash=game.head_hash,
        status=game.status,
        result=result,
    )


def _result(text: str | None, players: int) -> GameResult | None:
    if text is None:
        return None
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("the result is not an object")
    lists = [data.get(key) for key in ("scores", "hand_sizes", "winners")]
    if not all(isinstance(v, list) and all(isinstance(x, int) for x in v) for v in lists):
        raise ValueError("the result's scores, hand sizes and winners must be lists of integers")
    scores, hand_sizes, winners = (tuple(v) for v in lists if isinstance(v, list))
    if len(scores) != players or len(hand_sizes) != players:
        raise ValueError("the result does not have one score per seat")
    return GameResult(scores, hand_sizes, winners)
