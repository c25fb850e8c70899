"""What a chat application's clock asks of the store: which games are due, and when the next
one is, without reading any game.

Each game's chat state carries the next moment something is due in it (`ChatState.due_at`:
a reminder, a deadline, a bot's trading window closing), written with every change of it, and
indexed: a worker with ten thousand open games wakes only those whose moment has come.

A mixin of `SqlGameStore`; each method is one short transaction.
"""

from __future__ import annotations

from collections.abc import Collection
from contextlib import AbstractContextManager
from datetime import datetime

from sqlalchemy import Select, Text, func, select, type_coerce
from sqlalchemy.engine import Connection
from sqlmodel import col

from bohnanza.core.ports import IN_PROGRESS

from .appends import utc
from .game_reads import stored_time
from .tables import ChatStateRow, GameRow

DUE_BATCH = 100
"""How many due games one look takes at most (the clock looks again at once for more)."""


class ClockQueries:
    """The games of a platform a clock must wake, by the moment due in each."""

    def _transaction(self, write: bool) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    def due_games(
        self, platform: str, until: datetime, skip: Collection[str] = (), limit: int = DUE_BATCH
    ) -> list[str]:
        """The ids of the platform's games in progress with something due by `until`, the
        soonest first (those in `skip` left out)."""
        query = (
            _open_with_moment(platform, skip)
            .with_only_columns(col(ChatStateRow.game_id))
            .where(col(ChatStateRow.due_at) <= utc(until))
            .order_by(col(ChatStateRow.due_at))
            .limit(limit)
        )
        with self._transaction(write=False) as connection:
            return [str(row[0]) for row in connection.execute(query)]

    def next_due(self, platform: str, skip: Collection[str] = ()) -> datetime | None:
        """The soonest moment something is due in one of the platform's games in progress
        (those in `skip` left out); None if nothing is. A moment the store holds unreadable
        is passed over (the game's next change writes it anew)."""
        query = (
            _open_with_moment(platform, skip)
            .with_only_columns(type_coerce(col(ChatStateRow.due_at), Text))
            .order_by(col(ChatStateRow.due_at))
            .limit(DUE_BATCH)
        )
        with self._transaction(write=False) as connection:
            for (found,) in connection.execute(query):
                try:
                    return stored_time(found)
                except ValueError:
                    continue
        return None

    def open_games(self, platform: str) -> list[tuple[str, str]]:
        """The platform's games in progress (id and room), the latest moved first."""
        moved = func.coalesce(col(ChatStateRow.updated_at), col(GameRow.created_at))
        query = (
            select(col(GameRow.id), col(GameRow.room))
            .outerjoin(ChatStateRow, col(ChatStateRow.game_id) == col(GameRow.id))
            .where(col(GameRow.platform) == platform, col(GameRow.status) == IN_PROGRESS)
            .order_by(moved.desc())
        )
        with self._transaction(write=False) as connection:
            return [(str(row[0]), str(row[1] or "")) for row in connection.execute(query)]


def _open_with_moment(platform: str, skip: Collection[str]) -> Select[str]:
    """The chat states with a moment due of the platform's games in progress, read in the
    order of their moments (the game's row is looked up for each, by its key, until enough
    are found: the database never reads every open game to sort them)."""
    of_platform = (
        select(col(GameRow.id))
        .where(
            col(GameRow.id) == col(ChatStateRow.game_id),
            col(GameRow.platform) == platform,
            col(GameRow.status) == IN_PROGRESS,
        )
        .exists()
    )
    query = select(col(ChatStateRow.game_id)).where(
        col(ChatStateRow.due_at).is_not(None), of_platform
    )
    if skip:
        query = query.where(col(ChatStateRow.game_id).not_in(list(skip)))
    return query
