"""What a chat application needs beyond the game port: finding games by room and player,
and lobbies stored so that any of several workers can serve a room.

A mixin of `SqlGameStore`; each method is one short transaction.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Table,
    Text,
    bindparam,
    delete,
    insert,
    select,
    text,
    tuple_,
    type_coerce,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlmodel import col

from bohnanza.core.app.ports import SeatClaim, StoredLobby
from bohnanza.core.audit import canonical_json
from bohnanza.core.ports import (
    FINISHED,
    IN_PROGRESS,
    ChatState,
    Delivery,
    DuplicateDelivery,
    SeatIdentity,
    UnknownGame,
)

from .appends import insert_delivery, utc, write_chat_state
from .game_reads import listed_time, stored_time
from .prepared import Prepared
from .tables import (
    ChatStateRow,
    DeliveryRow,
    GameRow,
    LobbyRow,
    PlayerSettingsRow,
    SeatClaimRow,
    SeatMoveRow,
    SeatRow,
)


class _LobbyMovedOn(Exception):
    """Another worker changed the lobby first; the transaction is rolled back."""


_GAMES: Table = GameRow.__table__  # type: ignore[attr-defined]
_SEATS: Table = SeatRow.__table__  # type: ignore[attr-defined]
_SEAT_MOVES: Table = SeatMoveRow.__table__  # type: ignore[attr-defined]

_SAT_IN_GAMES = Prepared(
    select(_GAMES.c.id, _GAMES.c.created_at)
    .join(_SEATS, _SEATS.c.game_id == _GAMES.c.id)
    .where(
        _SEATS.c.platform == bindparam("platform"),
        _SEATS.c.user_id == bindparam("user_id"),
        _SEATS.c.kind == "human",
        _GAMES.c.status == IN_PROGRESS,
        tuple_(_SEATS.c.game_id, _SEATS.c.position).not_in(
            select(_SEAT_MOVES.c.game_id, _SEAT_MOVES.c.position)
        ),
    )
)
"""The games in progress where a player sat down, but for seats moved to someone else."""
_MOVED_TO_GAMES = Prepared(
    select(_GAMES.c.id, _GAMES.c.created_at)
    .join(_SEAT_MOVES, _SEAT_MOVES.c.game_id == _GAMES.c.id)
    .where(
        _SEAT_MOVES.c.platform == bindparam("platform"),
        _SEAT_MOVES.c.user_id == bindparam("user_id"),
        _GAMES.c.status == IN_PROGRESS,
    )
)
"""The games in progress where a seat was moved to a player."""


class ChatQueries:
    """Room and player look-ups, lobbies, and a health probe, on the store's database."""

    def _transaction(self, write: bool) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    def ping(self) -> None:
        """Raise StoreError unless the database answers."""
        with self._transaction(write=False) as connection:
            connection.execute(text("SELECT 1"))

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

    def last_finished_in(self, platform: str, room: str) -> tuple[str, str] | None:
        """The game that finished last in a room of a platform, with its language."""
        with self._transaction(write=False) as connection:
            found = connection.execute(
                select(col(GameRow.id), col(GameRow.options))
                .where(
                    col(GameRow.platform) == platform,
                    col(GameRow.room) == room,
                    col(GameRow.status) == FINISHED,
                )
                .order_by(col(GameRow.finished_at).desc())
                .limit(1)
            ).first()
        if found is None:
            return None
        language = json.loads(found[1]).get("language", "en")
        return str(found[0]), str(language)

    def active_games_of(self, platform: str, user_id: str) -> list[str]:
        """The games in progress a player of a platform is seated in (where he sat down, or
        where a seat was moved to him), oldest first. Asked on every private message."""
        player = {"platform": platform, "user_id": user_id}
        with self._transaction(write=False) as connection:
            rows = [
                *_SAT_IN_GAMES.execute(connection, player).all(),
                *_MOVED_TO_GAMES.execute(connection, player).all(),
            ]
        rows.sort(key=lambda row: (listed_time(row[1]), row[0]))
        return list(dict.fromkeys(str(row[0]) for row in rows))

    def seat_moves(self, game_id: str) -> dict[int, SeatIdentity]:
        """The seats of a game that were moved to a new identity, and who plays them now."""
        with self._transaction(write=False) as connection:
            rows = connection.execute(
                select(SeatMoveRow.__table__).where(col(SeatMoveRow.game_id) == game_id)  # type: ignore[attr-defined]
            ).all()
        return {
            int(row.position): SeatIdentity(str(row.platform), str(row.user_id), str(row.name))
            for row in rows
        }

    def move_seat(
        self,
        game_id: str,
        seat: int,
        identity: SeatIdentity,
        now: datetime,
        *,
        asked_by: str,
        reason: str,
    ) -> None:
        """Let a new identity play a game's seat from now on (the seat as sat down stays in
        the game's record), noting who asked and why; a claim waiting for the seat is
        dropped in the same transaction."""
        values = {
            "platform": identity.platform,
            "user_id": identity.user_id,
            "name": identity.name,
            "moved_at": now,
            "asked_by": asked_by,
            "reason": reason,
        }
        with self._transaction(write=True) as connection:
            _known_game(connection, game_id)
            moved = connection.execute(
                update(SeatMoveRow)
                .where(col(SeatMoveRow.game_id) == game_id, col(SeatMoveRow.position) == seat)
                .values(**values)
            )
            if moved.rowcount == 0:
                connection.execute(
                    insert(SeatMoveRow), [{"game_id": game_id, "position": seat, **values}]
                )
            _drop_claim(connection, game_id, seat)

    def save_seat_claim(self, claim: SeatClaim) -> None:
        """Keep a claim waiting for a seat, in place of any before it."""
        row = {
            "game_id": claim.game_id,
            "position": claim.seat,
            "platform": claim.platform,
            "user_id": claim.user_id,
            "name": claim.name,
            "digest": claim.digest,
            "asked_by": claim.asked_by,
            "asked_at": claim.asked_at,
            "wrong": claim.wrong,
        }
        with self._transaction(write=True) as connection:
            _known_game(connection, claim.game_id)
            _drop_claim(connection, claim.game_id, claim.seat)
            connection.execute(insert(SeatClaimRow), [row])

    def seat_claims_of(self, platform: str, user_id: str) -> list[SeatClaim]:
        """The claims waiting for an identity to send its code, oldest first."""
        with self._transaction(write=False) as connection:
            rows = connection.execute(
                select(SeatClaimRow.__table__)  # type: ignore[attr-defined]
                .where(col(SeatClaimRow.platform) == platform, col(SeatClaimRow.user_id) == user_id)
                .order_by(col(SeatClaimRow.asked_at), col(SeatClaimRow.game_id))
            ).all()
        return [
            SeatClaim(
                game_id=str(row.game_id),
                seat=int(row.position),
                platform=str(row.platform),
                user_id=str(row.user_id),
                name=str(row.name),
                digest=str(row.digest),
                asked_by=str(row.asked_by),
                asked_at=utc(row.asked_at),
                wrong=int(row.wrong),
            )
            for row in rows
        ]

    def drop_seat_claim(self, game_id: str, seat: int) -> None:
        """Forget the claim waiting for a seat, if any."""
        with self._transaction(write=True) as connection:
            _drop_claim(connection, game_id, seat)

    # --- inputs applied once ------------------------------------------------------------

    def record_delivery(self, platform: str, delivery_id: str, now: datetime) -> bool:
        """Note an input that changed nothing; False if it was noted already."""
        try:
            with self._transaction(write=True) as connection:
                insert_delivery(connection, Delivery(platform, delivery_id), now)
        except DuplicateDelivery:
            return False
        return True

    def forget_deliveries(self, before: datetime) -> int:
        """Drop the delivery ids received before `before`; return how many."""
        with self._transaction(write=True) as connection:
            gone = connection.execute(
                delete(DeliveryRow).where(col(DeliveryRow.received_at) < before)
            )
        return int(gone.rowcount or 0)

    # --- the chat state of a game ----------------------------------------------------------

    def load_chat_state(self, game_id: str) -> ChatState | None:
        """A game's chat state as last written (None: never, or unreadable)."""
        with self._transaction(write=False) as connection:
            row = connection.execute(
                select(
                    col(ChatStateRow.data),
                    col(ChatStateRow.action_count),
                    col(ChatStateRow.version),
                    type_coerce(col(ChatStateRow.due_at), Text),
                ).where(col(ChatStateRow.game_id) == game_id)
            ).first()
        return None if row is None else chat_state_of(*row)

    def save_chat_state(
        self, game_id: str, state: ChatState, now: datetime, delivery: Delivery | None = None
    ) -> None:
        """Write a game's chat state (and the input that changed it) in one transaction;
        ChatStateMoved, and nothing written, where it names a version no longer stored."""
        with self._transaction(write=True) as connection:
            write_chat_state(connection, game_id, state, now)
            if delivery is not None:
                insert_delivery(connection, delivery, now)

    # --- players' own settings ------------------------------------------------------------

    def _upsert(self, table: Any, keys: dict[str, str], values: dict[str, Any]) -> None:
        """Update the row with these keys, or insert it (portable: SQLite and PostgreSQL)."""
        where = [getattr(table, name) == value for name, value in keys.items()]
        for _ in range(2):
            try:
                with self._transaction(write=True) as connection:
                    moved = connection.execute(update(table).where(*where).values(**values))
                    if moved.rowcount != 1:
                        connection.execute(insert(table), [{**keys, **values}])
                    return
            except IntegrityError:
                continue  # another worker inserted it first: update it

    def load_player_settings(self, platform: str, user_id: str) -> dict[str, str]:
        """A player's settings ({} until he sets one)."""
        return self.players_settings(platform, [user_id]).get(user_id, {})

    def players_settings(self, platform: str, user_ids: Sequence[str]) -> dict[str, dict[str, str]]:
        """The settings of several players at once, by user id (none for one who set none)."""
        with self._transaction(write=False) as connection:
            rows = connection.execute(
                select(col(PlayerSettingsRow.user_id), col(PlayerSettingsRow.data)).where(
                    col(PlayerSettingsRow.platform) == platform,
                    col(PlayerSettingsRow.user_id).in_(list(user_ids)),
                )
            ).all()
        return {str(user_id): settings_of(data) for user_id, data in rows}

    def save_player_settings(
        self, platform: str, user_id: str, settings: dict[str, str], now: datetime
    ) -> None:
        """Replace a player's settings."""
        values = {"data": canonical_json(settings), "updated_at": now}
        self._upsert(PlayerSettingsRow, {"platform": platform, "user_id": user_id}, values)

    # --- lobbies ---------------------------------------------------------------------------

    def lobby_rooms(self, platform: str) -> list[str]:
        """The rooms of a platform where a lobby is gathering."""
        with self._transaction(write=False) as connection:
            rows = connection.execute(
                select(col(LobbyRow.room))
                .where(col(LobbyRow.platform) == platform)
                .order_by(col(LobbyRow.room))
            ).all()
        return [str(row[0]) for row in rows]

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
        self,
        platform: str,
        room: str,
        data: dict[str, Any],
        version: int,
        now: datetime,
        delivery: Delivery | None = None,
    ) -> bool:
        """Store a lobby over the version read (0: a new one); False if it changed meanwhile."""
        values = {"data": canonical_json(data), "version": version + 1, "updated_at": now}
        try:
            with self._transaction(write=True) as connection:
                if delivery is not None:
                    insert_delivery(connection, delivery, now)
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
                if moved.rowcount != 1:
                    raise _LobbyMovedOn
                return True
        except (IntegrityError, _LobbyMovedOn):
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


def _known_game(connection: Connection, game_id: str) -> None:
    """Raise UnknownGame unless the store holds the game."""
    found = connection.execute(select(col(GameRow.id)).where(col(GameRow.id) == game_id)).first()
    if found is None:
        raise UnknownGame(game_id)


def _drop_claim(connection: Connection, game_id: str, seat: int) -> None:
    connection.execute(
        delete(SeatClaimRow).where(
            col(SeatClaimRow.game_id) == game_id, col(SeatClaimRow.position) == seat
        )
    )


def chat_state_of(data: Any, action_count: Any, version: Any, due_at: Any) -> ChatState | None:
    """A chat state from its stored columns (None: its data cannot be read)."""
    try:
        plain = json.loads(data)
    except (TypeError, ValueError):
        return None
    if not isinstance(plain, dict):
        return None
    return ChatState(plain, int(action_count), int(version), due_at=_moment_or_none(due_at))


def _moment_or_none(value: object) -> datetime | None:
    """A stored moment, or None where there is none or it is not one (it is written anew)."""
    try:
        return None if value is None else stored_time(value)
    except ValueError:
        return None


def settings_of(stored: str) -> dict[str, str]:
    """A player's settings as stored ({} where they cannot be read)."""
    try:
        data = json.loads(stored)
    except ValueError:
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
