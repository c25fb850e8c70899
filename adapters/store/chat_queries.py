"""What a chat application needs beyond the game port: finding games by room and player,
and lobbies stored so that any of several workers can serve a room.

A mixin of `SqlGameStore`; each method is one short transaction.
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlmodel import col

from bohnanza.core.app.ports import GameProgress, StoredLobby
from bohnanza.core.audit import canonical_json
from bohnanza.core.ports import IN_PROGRESS

from .tables import GameRow, LobbyRow, SeatRow


class ChatQueries:
    """Room and player look-ups, lobbies, and a health probe, on the store's database."""

    def _transaction(self, write: bool) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    def ping(self) -> None:
        """Raise StoreError unless the database answers."""
        with self._transaction(write=False) as connection:
            connection.execute(text("SELECT 1"))

    def game_progress(self, game_id: str) -> GameProgress | None:
        """The game's status and number of stored actions (None: no such game)."""
        with self._transaction(write=False) as connection:
            row = connection.execute(
                select(col(GameRow.status), col(GameRow.action_count)).where(
                    col(GameRow.id) == game_id
                )
            ).first()
        return None if row is None else GameProgress(str(row[0]), int(row[1]))

    def active_game_in(self, platform: str, room: str) -> str | None:
        """The id of the game in progress in a room of a platform, if any."""
        with self._transaction(write=False) as connection:
            found = connection.execute(
                select(col(GameRow.id))
                .where(
                    col(GameRow.platform) == platform,
                    col(GameRow.room) == room,
                    col(GameRow.status) == IN_PROGRESS,
                )
                .order_by(col(GameRow.created_at).desc())
                .limit(1)
            ).scalar()
        return None if found is None else str(found)

    def active_games_of(self, platform: str, user_id: str) -> list[str]:
        """The games in progress a player of a platform is seated in, oldest first."""
        with self._transaction(write=False) as connection:
            rows = connection.execute(
                select(col(GameRow.id))
                .join(SeatRow, col(SeatRow.game_id) == col(GameRow.id))
                .where(
                    col(SeatRow.platform) == platform,
                    col(SeatRow.user_id) == user_id,
                    col(SeatRow.kind) == "human",
                    col(GameRow.status) == IN_PROGRESS,
                )
                .order_by(col(GameRow.created_at), col(GameRow.id))
            ).all()
        return list(dict.fromkeys(str(row[0]) for row in rows))

    def load_lobby(self, platform: str, room: str) -> StoredLobby | None:
        """The lobby gathering in a room, with its version (None: there is none)."""
        with self._transaction(write=False) as connection:
            row = connection.execute(
                select(col(LobbyRow.data), col(LobbyRow.version)).where(
                    col(LobbyRow.platform) == platform, col(LobbyRow.room) == room
                )
            ).first()
        if row is None:
            return None
        data = json.loads(row[0])
        return StoredLobby(data if isinstance(data, dict) else {}, int(row[1]))

    def save_lobby(
        self, platform: str, room: str, data: dict[str, Any], version: int, now: datetime
    ) -> bool:
        """Store a lobby over the version read (0: a new one); False if it changed meanwhile."""
        values = {"data": canonical_json(data), "version": version + 1, "updated_at": now}
        try:
            with self._transaction(write=True) as connection:
                if version == 0:
                    connection.execute(
                        insert(LobbyRow), [{"platform": platform, "room": room, **values}]
                    )
                    return True
                moved = connection.execute(
                    update(LobbyRow)
                    .where(
                        col(LobbyRow.platform) == platform,
                        col(LobbyRow.room) == room,
                        col(LobbyRow.version) == version,
                    )
                    .values(**values)
                )
                return bool(moved.rowcount == 1)
        except IntegrityError:
            return False

    def drop_lobby(self, platform: str, room: str, version: int) -> bool:
        """Remove a lobby (started or called off) if it is still the version read."""
        with self._transaction(write=True) as connection:
            gone = connection.execute(
                delete(LobbyRow).where(
                    col(LobbyRow.platform) == platform,
                    col(LobbyRow.room) == room,
                    col(LobbyRow.version) == version,
                )
            )
            return bool(gone.rowcount == 1)
