"""The SQLModel tables: games, their seats, and their actions (one row each).

Texts that hold JSON (options, deck, result, an action, its reshuffles) are canonical JSON, so an
action's hash can be checked against exactly the text stored. A migration in `migrations/` creates
these tables; a test checks the two agree.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Double, Index, Text
from sqlmodel import Field, SQLModel


class GameRow(SQLModel, table=True):
    """One game: what is fixed before the first action, its status and its result."""

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_room", "platform", "room", "status"),)

    id: str = Field(primary_key=True, max_length=200)
    players: int
    status: str = Field(max_length=20, index=True)
    options: str = Field(sa_type=Text)
    deck: str = Field(sa_type=Text)
    created_at: datetime = Field(sa_type=DateTime(timezone=True), index=True)
    finished_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    result: str | None = Field(default=None, sa_type=Text)
    header_hash: str = Field(max_length=64)
    """Starts the chain: the hash of the id, seating, options and deck."""
    action_count: int = 0
    head_hash: str = Field(max_length=64)
    """The hash of the last action (the header hash before the first)."""
    platform: str | None = Field(default=None, max_length=40)
    """The chat platform the game is played on (from its options; None for other games)."""
    room: str | None = Field(default=None, max_length=200)
    """The room it is played in, so that any worker finds the game of a room."""


class SeatRow(SQLModel, table=True):
    """Who sits at one seat of a game: an identity on a platform, or a bot."""

    __tablename__ = "seats"
    __table_args__ = (Index("ix_seats_player", "platform", "user_id"),)

    game_id: str = Field(foreign_key="games.id", primary_key=True, max_length=200)
    position: int = Field(primary_key=True)
    platform: str = Field(max_length=40)
    user_id: str = Field(max_length=200)
    name: str = Field(max_length=200)
    kind: str = Field(max_length=10)
    strategy: str | None = Field(default=None, max_length=200)


class ActionRow(SQLModel, table=True):
    """One accepted action; (game_id, seq) is unique, so two writers cannot both store one."""

    __tablename__ = "actions"

    game_id: str = Field(foreign_key="games.id", primary_key=True, max_length=200)
    seq: int = Field(primary_key=True)
    actor: int
    payload: str = Field(sa_type=Text)
    reshuffles: str = Field(sa_type=Text)
    at: datetime = Field(sa_type=DateTime(timezone=True))
    hash: str = Field(max_length=64)


class LobbyRow(SQLModel, table=True):
    """A game being gathered in a room, so that any worker can serve the room's commands.

    `version` grows with every change; a write names the version it read, so of two workers
    changing one lobby at once exactly one succeeds and the other reads it again.
    """

    __tablename__ = "lobbies"

    platform: str = Field(primary_key=True, max_length=40)
    room: str = Field(primary_key=True, max_length=200)
    data: str = Field(sa_type=Text)
    """The lobby as canonical JSON: creator, seats, language, deadline."""
    version: int
    updated_at: datetime = Field(sa_type=DateTime(timezone=True))


class DeliveryRow(SQLModel, table=True):
    """An input of a chat platform that was applied (or refused): seen again, it is skipped.

    Written in the same transaction as what the input changed; old rows expire.
    """

    __tablename__ = "deliveries"

    platform: str = Field(primary_key=True, max_length=40)
    delivery_id: str = Field(primary_key=True, max_length=255)
    received_at: datetime = Field(sa_type=DateTime(timezone=True), index=True)


class ChatStateRow(SQLModel, table=True):
    """What a game's chat application keeps beside the actions: stand-ins, missed deadlines,
    passes on trading, clocks, what each player was shown and what his numbers name; as
    canonical JSON, at the game's `action_count`. `version` grows with every write; a write
    that names the version it read fails if another writer's came between. `due_at`: the
    next moment something is due in the game (a reminder, a deadline, a bot's trading window
    closing), for the clock to find the games it must wake without reading the others."""

    __tablename__ = "chat_states"

    game_id: str = Field(foreign_key="games.id", primary_key=True, max_length=200)
    data: str = Field(sa_type=Text)
    action_count: int
    updated_at: datetime = Field(sa_type=DateTime(timezone=True))
    version: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    due_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True), index=True)


class SeatMoveRow(SQLModel, table=True):
    """Who plays a seat now, when its player moved it to a new identity (a new nick); the
    seat's row keeps who sat down, as the game's hash chain has it."""

    __tablename__ = "seat_moves"
    __table_args__ = (Index("ix_seat_moves_player", "platform", "user_id"),)

    game_id: str = Field(foreign_key="games.id", primary_key=True, max_length=200)
    position: int = Field(primary_key=True)
    platform: str = Field(max_length=40)
    user_id: str = Field(max_length=200)
    name: str = Field(max_length=200)
    moved_at: datetime = Field(sa_type=DateTime(timezone=True))
    asked_by: str = Field(default="", max_length=200, sa_column_kwargs={"server_default": ""})
    """Who asked for the move: the player, the game's opener, or '' (the platform's rename)."""
    reason: str = Field(default="", max_length=40, sa_column_kwargs={"server_default": ""})
    """Why it moved: 'claimed', 'rename', 'asked', 'opener: player gone' ('' before these
    were kept)."""


class SeatClaimRow(SQLModel, table=True):
    """A seat its player asked to hand to a new identity (an account), until that identity
    sends the code he was given privately: a digest of the code, and the wrong tries."""

    __tablename__ = "seat_claims"
    __table_args__ = (Index("ix_seat_claims_claimant", "platform", "user_id"),)

    game_id: str = Field(foreign_key="games.id", primary_key=True, max_length=200)
    position: int = Field(primary_key=True)
    platform: str = Field(max_length=40)
    user_id: str = Field(max_length=200)
    name: str = Field(max_length=200)
    digest: str = Field(max_length=64)
    asked_by: str = Field(max_length=200)
    asked_at: datetime = Field(sa_type=DateTime(timezone=True))
    wrong: int


class ViewRow(SQLModel, table=True):
    """The message a chat shows in one slot (a game's table, a player's hand): its id on the
    platform and a digest of its content, so a view that fell behind is recognised."""

    __tablename__ = "views"

    platform: str = Field(primary_key=True, max_length=40)
    chat: str = Field(primary_key=True, max_length=260)
    slot: str = Field(primary_key=True, max_length=260)
    message_id: str = Field(max_length=200)
    digest: str = Field(max_length=64)
    updated_at: datetime = Field(sa_type=DateTime(timezone=True))


class PlayerSettingsRow(SQLModel, table=True):
    """One chat player's own settings (when to be notified), across his games."""

    __tablename__ = "player_settings"

    platform: str = Field(primary_key=True, max_length=40)
    user_id: str = Field(primary_key=True, max_length=255)
    data: str = Field(sa_type=Text)
    updated_at: datetime = Field(sa_type=DateTime(timezone=True))


class RatingRow(SQLModel, table=True):
    """One player's standing on one board: a room, or a whole platform (`room` empty).

    Derived from the finished games, never a source of truth: `bohnanza stats --rebuild`
    computes every row again from the games alone.
    """

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_board", "platform", "room", "ordinal"),)

    platform: str = Field(primary_key=True, max_length=40)
    """The board's platform ('local' for games stored with none: simulated, imported)."""
    room: str = Field(primary_key=True, max_length=200)
    """The board's room; empty for the board of the whole platform."""
    player_platform: str = Field(primary_key=True, max_length=40)
    player_id: str = Field(primary_key=True, max_length=200)
    """The player's user id on his platform; for a bot (`player_platform` 'bot'), its strategy."""
    name: str = Field(max_length=200)
    kind: str = Field(max_length=10)
    mu: float = Field(sa_type=Double)
    sigma: float = Field(sa_type=Double)
    ordinal: float = Field(sa_type=Double)
    """mu - 3 sigma: the board's order."""
    games: int
    wins: int
    coins: int
    """Coins of every game played here, summed (their mean is coins / games)."""
    last_game_id: str = Field(max_length=200)
    last_played_at: datetime = Field(sa_type=DateTime(timezone=True))


class RatingBoardRow(SQLModel, table=True):
    """A board's last rated game, so a game that ends out of order has the board recomputed."""

    __tablename__ = "rating_boards"

    platform: str = Field(primary_key=True, max_length=40)
    room: str = Field(primary_key=True, max_length=200)
    games: int
    last_game_id: str = Field(max_length=200)
    last_finished_at: datetime = Field(sa_type=DateTime(timezone=True))
