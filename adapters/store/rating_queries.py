"""Reading the boards of ratings, for the chat commands `stats` and `top` and for
`bohnanza stats`: a mixin of `SqlGameStore`, each method one short transaction."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from sqlalchemy import ColumnElement, and_, func, or_, select
from sqlalchemy.engine import Connection
from sqlmodel import col

from bohnanza.core.app.ports import Standing

from .rating_model import Board
from .ratings import ENTRY_COLUMNS, rebuild
from .tables import RatingBoardRow, RatingRow


def leaderboard(connection: Connection, key: Board, limit: int | None = None) -> list[Standing]:
    """A board's players, best first (by ordinal, then more games, then identity)."""
    query = (
        select(*ENTRY_COLUMNS)
        .where(col(RatingRow.platform) == key.platform, col(RatingRow.room) == key.room)
        .order_by(
            col(RatingRow.ordinal).desc(),
            col(RatingRow.games).desc(),
            col(RatingRow.player_platform),
            col(RatingRow.player_id),
        )
    )
    rows = connection.execute(query if limit is None else query.limit(limit)).all()
    players = connection.execute(
        select(func.count()).where(
            col(RatingRow.platform) == key.platform, col(RatingRow.room) == key.room
        )
    ).scalar_one()
    standings: list[Standing] = []
    for index, row in enumerate(rows):
        place = index + 1
        if index and row.ordinal == rows[index - 1].ordinal:
            place = standings[-1].place
        standings.append(_standing(row, place, int(players)))
    return standings


def standings_of(
    connection: Connection,
    player: ColumnElement[bool],
    board: Board | None = None,
    platform: str | None = None,
) -> list[Standing]:
    """The standings of the players matched, on every board they are rated on (or one board,
    or one platform's boards)."""
    where: list[ColumnElement[bool]] = [player]
    if board is not None:
        where += [col(RatingRow.platform) == board.platform, col(RatingRow.room) == board.room]
    if platform is not None:
        where.append(col(RatingRow.platform) == platform)
    rows = connection.execute(
        select(*ENTRY_COLUMNS)
        .where(*where)
        .order_by(
            col(RatingRow.platform),
            col(RatingRow.room),
            col(RatingRow.player_platform),
            col(RatingRow.player_id),
        )
    ).all()
    out = []
    for row in rows:
        same_board = [col(RatingRow.platform) == row.platform, col(RatingRow.room) == row.room]
        better, players = connection.execute(
            select(
                func.count().filter(col(RatingRow.ordinal) > row.ordinal),
                func.count(),
            ).where(*same_board)
        ).one()
        out.append(_standing(row, int(better) + 1, int(players)))
    return out


def boards(connection: Connection) -> list[tuple[Board, int]]:
    """Every board with the number of games rated on it."""
    rows = connection.execute(
        select(col(RatingBoardRow.platform), col(RatingBoardRow.room), col(RatingBoardRow.games))
        .where(col(RatingBoardRow.games) > 0)
        .order_by(col(RatingBoardRow.platform), col(RatingBoardRow.room))
    ).all()
    return [(Board(platform, room), int(games)) for platform, room, games in rows]


def _standing(row: Any, place: int, players: int) -> Standing:
    return Standing(
        platform=row.platform,
        room=row.room,
        player_platform=row.player_platform,
        player_id=row.player_id,
        name=row.name,
        kind=row.kind,
        games=int(row.games),
        wins=int(row.wins),
        coins=int(row.coins),
        mu=float(row.mu),
        sigma=float(row.sigma),
        ordinal=float(row.ordinal),
        place=place,
        players=players,
    )


class RatingQueries:
    """The boards of ratings: a mixin of `SqlGameStore`."""

    def _transaction(self, write: bool) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    def standing(self, platform: str, room: str, user_id: str) -> Standing | None:
        """A player of the platform on a room's board (`room` empty: the platform's)."""
        with self._transaction(write=False) as connection:
            player = and_(
                col(RatingRow.player_platform) == platform, col(RatingRow.player_id) == user_id
            )
            found = standings_of(connection, player, Board(platform, room))
        return found[0] if found else None

    def leaderboard(self, platform: str, room: str, limit: int) -> list[Standing]:
        """The best players of a room's board (`room` empty: the platform's)."""
        with self._transaction(write=False) as connection:
            return leaderboard(connection, Board(platform, room), limit)

    def rating_boards(self) -> list[tuple[Board, int]]:
        """Every board with the number of games rated on it, by platform and room."""
        with self._transaction(write=False) as connection:
            return boards(connection)

    def board_standings(self, board: Board) -> list[Standing]:
        """Every player of a board, best first."""
        with self._transaction(write=False) as connection:
            return leaderboard(connection, board)

    def player_standings(
        self, player: str, board: Board | None = None, platform: str | None = None
    ) -> list[Standing]:
        """A player, by user id or by name (a bot by its strategy), on each board he is rated
        on (or one board, or one platform's)."""
        matched = or_(col(RatingRow.player_id) == player, col(RatingRow.name) == player)
        with self._transaction(write=False) as connection:
            return standings_of(connection, matched, board, platform)

    def rebuild_ratings(self) -> int:
        """Compute every board again from the finished games, in one transaction; return how
        many games were rated."""
        with self._transaction(write=True) as connection:
            return rebuild(connection)
