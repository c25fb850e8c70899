"""Ratings and statistics per room and per platform, derived from the finished games.

Each finished game rates its players (`rating_model`) on two boards: its room's, and its
platform's (`room` empty) over every room of the platform. A game stored with no platform
(`simulate`, `import`) is rated on the board of the platform `local` only.

The ratings are never a second source of truth: the same step (`rate_game`) serves when a game
ends (in the transaction that stores its end) and when every board is computed again from the
stored games (`rebuild`), which takes the games in the order they ended (end time, then id). A
game that ends before the last one rated on its board (two workers' clocks), a board never
built, or a game finished again has the board recomputed, so the two ways agree to the last bit.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from functools import cache
from itertools import groupby
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Text,
    and_,
    bindparam,
    delete,
    insert,
    or_,
    select,
    text,
    type_coerce,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.sql.dml import Update
from sqlmodel import col

from bohnanza.core.app.hints import hints_on
from bohnanza.core.ports import FINISHED
from bohnanza.core.scoring import GameResult

from .rating_model import (
    LOCAL,
    NEVER,
    WHOLE_PLATFORM,
    Board,
    Entry,
    FinishedGame,
    Player,
    SeatOf,
    identity,
    rate_game,
    replay,
)
from .tables import GameRow, RatingBoardRow, RatingRow, SeatRow


def rate_finished_game(connection: Connection, game_id: str, again: bool = False) -> None:
    """Rate a game that has just ended, inside the transaction that stores its end (after its
    row says it is finished): each of its boards is moved on by it, or computed again when the
    board is new, has rated a game that ended later, or (`again`) rated this one before."""
    games = finished_games(connection, game_id=game_id)
    if not games:
        return  # its stored result is not readable: neither way rates it
    game = games[0]
    for key in game.boards():
        last = _locked_board(connection, key)
        if again or last is None or game.order <= last[1]:
            _recompute_board(connection, key)
            continue
        players = {seat.player for seat in game.seats}
        known = _entries(connection, key, players)
        _write_entries(connection, key, rate_game(known, game), set(known))
        connection.execute(
            update(RatingBoardRow)
            .where(*_board_is(key))
            .values(games=last[0] + 1, last_game_id=game.game_id, last_finished_at=game.finished_at)
        )


def rebuild(connection: Connection) -> int:
    """Compute every board again from the finished games; return how many were rated."""
    if connection.dialect.name == "postgresql":
        # A game ending meanwhile waits, then moves the rebuilt boards on.
        connection.execute(text("LOCK TABLE rating_boards, ratings IN EXCLUSIVE MODE"))
    connection.execute(delete(RatingRow))
    connection.execute(delete(RatingBoardRow))
    games = finished_games(connection)
    rated: dict[Board, list[FinishedGame]] = {}
    for game in games:
        for key in game.boards():
            rated.setdefault(key, []).append(game)
    for key, board in replay(games).items():
        _insert_entries(connection, key, board)
        values = {"platform": key.platform, "room": key.room} | _board_values(rated[key])
        connection.execute(insert(RatingBoardRow), [values])
    return len(games)


def _recompute_board(connection: Connection, key: Board) -> None:
    """Replay a board from the stored games. Its row (locked) is updated, never deleted: a
    game waiting for the lock must find it again."""
    connection.execute(
        delete(RatingRow).where(
            col(RatingRow.platform) == key.platform, col(RatingRow.room) == key.room
        )
    )
    games = finished_games(connection, board=key)
    _insert_entries(connection, key, replay(games).get(key, {}))
    connection.execute(update(RatingBoardRow).where(*_board_is(key)).values(_board_values(games)))


def _insert_entries(connection: Connection, key: Board, board: Mapping[Player, Entry]) -> None:
    rows = [_entry_row(key, player, entry) for player, entry in board.items()]
    if rows:
        connection.execute(insert(RatingRow), rows)


def _board_values(games: Sequence[FinishedGame]) -> dict[str, Any]:
    """A board's row after these games (none: as never rated)."""
    last = games[-1] if games else None
    return {
        "games": len(games),
        "last_game_id": "" if last is None else last.game_id,
        "last_finished_at": NEVER if last is None else last.finished_at,
    }


def _board_is(key: Board) -> tuple[ColumnElement[bool], ColumnElement[bool]]:
    return col(RatingBoardRow.platform) == key.platform, col(RatingBoardRow.room) == key.room


def _locked_board(connection: Connection, key: Board) -> tuple[int, tuple[datetime, str]] | None:
    """The board's game count and last game, its row locked until the transaction ends (None
    for a board never rated). Two games ending on one board at once are rated one after the
    other; the platform's board is always locked before a room's."""
    placeholder = {
        "platform": key.platform,
        "room": key.room,
        "games": 0,
        "last_game_id": "",
        "last_finished_at": NEVER,
    }
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    connection.execute(dialect.insert(RatingBoardRow).values(placeholder).on_conflict_do_nothing())
    row = connection.execute(
        select(
            col(RatingBoardRow.games),
            type_coerce(col(RatingBoardRow.last_finished_at), Text),
            col(RatingBoardRow.last_game_id),
        )
        .where(col(RatingBoardRow.platform) == key.platform, col(RatingBoardRow.room) == key.room)
        .with_for_update()
    ).one()
    games, finished_at, game_id = row
    if not games:
        return None
    try:
        return int(games), (_time(finished_at), str(game_id))
    except ValueError:
        return None  # an unreadable time: the board is computed again


def _entries(connection: Connection, key: Board, players: set[Player]) -> dict[Player, Entry]:
    wanted = [
        and_(col(RatingRow.player_platform) == p.platform, col(RatingRow.player_id) == p.player_id)
        for p in sorted(players)
    ]
    rows = connection.execute(
        select(*ENTRY_COLUMNS).where(
            col(RatingRow.platform) == key.platform, col(RatingRow.room) == key.room, or_(*wanted)
        )
    ).all()
    return {Player(r.player_platform, r.player_id): entry_of(r) for r in rows}


def _write_entries(
    connection: Connection, key: Board, changed: Mapping[Player, Entry], known: set[Player]
) -> None:
    """Update the entries of players the board rates already, insert the others'."""
    rows = [_entry_row(key, player, entry) for player, entry in changed.items()]
    updated = [
        {f"v_{name}": value for name, value in row.items()}
        for player, row in zip(changed, rows, strict=True)
        if player in known
    ]
    if updated:
        connection.execute(_update_entry(), updated)
    inserted = [row for player, row in zip(changed, rows, strict=True) if player not in known]
    if inserted:
        connection.execute(insert(RatingRow), inserted)


@cache
def _update_entry() -> Update:
    """One entry's update, its values bound by name (`v_` and the column): built once."""
    keys = ("platform", "room", "player_platform", "player_id")
    return (
        update(RatingRow)
        .where(*(getattr(RatingRow, name) == bindparam(f"v_{name}") for name in keys))
        .values({name: bindparam(f"v_{name}") for name in _ENTRY_VALUES})
    )


_ENTRY_VALUES = (
    "name",
    "kind",
    "mu",
    "sigma",
    "ordinal",
    "games",
    "wins",
    "coins",
    "last_game_id",
    "last_played_at",
)


def _entry_row(key: Board, player: Player, entry: Entry) -> dict[str, Any]:
    return {
        "platform": key.platform,
        "room": key.room,
        "player_platform": player.platform,
        "player_id": player.player_id,
        "name": entry.name,
        "kind": entry.kind,
        "mu": entry.mu,
        "sigma": entry.sigma,
        "ordinal": entry.ordinal,
        "games": entry.games,
        "wins": entry.wins,
        "coins": entry.coins,
        "last_game_id": entry.last_game_id,
        "last_played_at": entry.last_played_at,
    }


ENTRY_COLUMNS = (
    col(RatingRow.platform),
    col(RatingRow.room),
    col(RatingRow.player_platform),
    col(RatingRow.player_id),
    col(RatingRow.name),
    col(RatingRow.kind),
    col(RatingRow.mu),
    col(RatingRow.sigma),
    col(RatingRow.ordinal),
    col(RatingRow.games),
    col(RatingRow.wins),
    col(RatingRow.coins),
    col(RatingRow.last_game_id),
    type_coerce(col(RatingRow.last_played_at), Text).label("last_played_at"),
)


def entry_of(row: Any) -> Entry:
    """An entry as read with ENTRY_COLUMNS."""
    try:
        played = _time(row.last_played_at)
    except ValueError:
        played = NEVER
    return Entry(
        row.name,
        row.kind,
        float(row.mu),
        float(row.sigma),
        int(row.games),
        int(row.wins),
        int(row.coins),
        row.last_game_id,
        played,
    )


# --- reading the finished games -------------------------------------------------------------


def finished_games(
    connection: Connection, board: Board | None = None, game_id: str | None = None
) -> list[FinishedGame]:
    """The finished games (of a board, or one game) whose result can be read, in the order
    they are rated: by end time, then id (sorted here, not by the database's collation)."""
    where: list[ColumnElement[bool]] = [col(GameRow.status) == FINISHED]
    if game_id is not None:
        where.append(col(GameRow.id) == game_id)
    if board is not None:
        if board.platform == LOCAL:
            where.append(or_(col(GameRow.platform).is_(None), col(GameRow.platform) == LOCAL))
        else:
            where.append(col(GameRow.platform) == board.platform)
        if board.room != WHOLE_PLATFORM:
            where.append(col(GameRow.room) == board.room)
    rows = connection.execute(
        select(
            col(GameRow.id),
            col(GameRow.platform),
            col(GameRow.room),
            type_coerce(col(GameRow.finished_at), Text),
            col(GameRow.result),
            col(GameRow.players),
            col(GameRow.options),
        ).where(*where)
    ).all()
    seat_rows = connection.execute(
        select(
            col(SeatRow.game_id),
            col(SeatRow.platform),
            col(SeatRow.user_id),
            col(SeatRow.name),
            col(SeatRow.kind),
            col(SeatRow.strategy),
        )
        .where(col(SeatRow.game_id).in_(select(col(GameRow.id)).where(*where)))
        .order_by(col(SeatRow.game_id), col(SeatRow.position))
    ).all()
    seats = {
        str(game): [_seat(*row[1:]) for row in rows_]
        for game, rows_ in groupby(seat_rows, key=lambda r: r[0])
    }
    games = []
    for game, platform, room, finished_at, result, players, options in rows:
        of_game = seats.get(game, [])
        if _played_with_hints(options):
            continue  # the expert helped: not rated (docs/ratings.md)
        try:
            parsed = _result(result, int(players))
            ended = _time(finished_at)
        except (ValueError, TypeError):
            continue  # unreadable: rated neither when it ends nor on a rebuild
        if len(of_game) != len(parsed.scores):
            continue
        games.append(FinishedGame(game, platform, room, ended, tuple(of_game), parsed))
    games.sort(key=lambda g: g.order)
    return games


def _played_with_hints(options: str) -> bool:
    try:
        data = json.loads(options)
    except (ValueError, TypeError):
        return False
    return isinstance(data, dict) and hints_on(data)


def _seat(platform: str, user_id: str, name: str, kind: str, strategy: str | None) -> SeatOf:
    player = identity(platform, user_id, kind, strategy)
    return SeatOf(player, player.player_id if kind == "bot" else name, kind)


def _result(stored: str | None, players: int) -> GameResult:
    if stored is None:
        raise ValueError("no result")
    data = json.loads(stored)
    if not isinstance(data, dict):
        raise ValueError("the result is not an object")
    lists = [data.get(key) for key in ("scores", "hand_sizes", "winners")]
    if not all(isinstance(v, list) and all(isinstance(x, int) for x in v) for v in lists):
        raise ValueError("the result's lists are not lists of integers")
    scores, hands, winners = (tuple(v) for v in lists if isinstance(v, list))
    if len(scores) != players or len(hands) != players:
        raise ValueError("not one score per seat")
    return GameResult(scores, hands, winners)


def _time(value: object) -> datetime:
    """A stored time (SQLite keeps text with no zone: it is UTC); ValueError if it is none."""
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        moment = datetime.fromisoformat(value)
    else:
        raise ValueError("not a time")
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
