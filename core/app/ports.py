"""The ports of the chat application: the chat platform and the clock.

The game store port is `bohnanza.core.ports.GameStore`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, NamedTuple, Protocol

from ..ports import ChainLink, ChatState, Delivery, GameStore, NewGame, SeatIdentity
from .i18n import Translator
from .inbound import Inbound
from .messages import Message


@dataclass(frozen=True)
class Capabilities:
    """What a platform can do, so the application degrades gracefully where it cannot."""

    buttons: bool = False
    """Messages may carry buttons."""
    edits: bool = False
    """A sent message can be edited (the table is then kept current in one message)."""
    deletes: bool = False
    private_messages: bool = True
    """The bot can write to a player privately."""
    personal_answers: bool = False
    """The answer to a button press is seen by the one who pressed it only."""
    inline_results: bool = False
    """Players can ask for their own hand inline (results personal to the one asking)."""
    max_text: int = 4000
    """The longest text one message may hold, in characters; a longer one is sent as several
    messages, split between lines (never cut)."""
    line_bytes: int = 0
    """The longest line, in UTF-8 bytes (0: any); a longer line is wrapped between words. For
    line-based platforms such as IRC, where every line is a message of its own."""
    max_label: int = 0
    """The longest button label, in characters (0: any): a longer one is never cut; the
    button gets a short label and the message above the buttons says the whole of it."""
    max_lines: int = 0
    """The most lines one message may hold (0: any); a longer one is sent as several."""
    line_pace: float = 0.0
    """Seconds per line the platform lets the bot send on its connection, all chats together
    (0: no pacing). The runner sends at that pace, answers to the sender first, so a server's
    flood limit is never reached and a queued update that a newer one replaced is never sent."""
    line_burst: int = 1
    """How many lines may go at once before `line_pace` applies."""
    chat_pace: float = 0.0
    """Seconds between two messages in one chat (0: none); other chats are not held back."""
    compact: bool = False
    """Every line costs (IRC): a message's lines are packed into as few as `line_bytes`
    allows, bean names are short, and an answer heads the private message it comes with."""
    private_updates: Literal["", "every change", "decisions"] = ""
    """When a player gets a new private message: at "every change" of what he sees, or only
    for "decisions" (a decision is his, it answers what he did, or an offer to him or of his
    changed; for the rest he asks with `hand`). Empty: "decisions" where a message cannot be
    edited (each change would be a message of its own), "every change" where it can."""
    files: bool = False
    """A file can be sent to a room (`ChatPort.send_file`): the replay page of a finished
    game is offered there."""
    one_screen: bool = False
    """The room and the private messages are read on one screen (a terminal): a private
    message shows up where it was asked for, and needs no word that it was sent."""
    bots_wait: Literal["always", "offers"] = "always"
    """How a bot on turn keeps trading open for a person who chose nothing himself (`set
    trading`): "always" (until he passes, or the trading window closes) or "offers" (only
    while an offer to him waits for his answer; no turn waits on him otherwise)."""
    numbered_buttons: bool = False
    """The buttons are listed numbered and answered by typing the number (a terminal): the
    application numbers them as it numbers lines where there are no buttons."""
    verified_ids: bool = True
    """A user id is an account the platform authenticates (Telegram, Matrix), not a name
    anyone may take (an IRC nick): a seat then moves to a new id only when that id proves
    to be its player (`move NEW`, then `claim CODE` with the code he was given privately),
    and the opener cannot move another's seat."""

    @property
    def numbers(self) -> bool:
        """Whether a player answers his choices with their numbers (there are no buttons, or
        they are listed numbered)."""
        return not self.buttons or self.numbered_buttons

    @property
    def private_on_decisions(self) -> bool:
        """Whether a player is written to privately only for decisions (`private_updates`)."""
        return (self.private_updates or ("every change" if self.edits else "decisions")) == (
            "decisions"
        )


class Unreachable(Exception):
    """A player cannot be written to privately (say, he never opened a chat with the bot)."""


class MessageGone(Exception):
    """The message to edit no longer exists (deleted, or too old to edit)."""


class ChatPort(Protocol):
    """What an adapter does for the application. Message ids are the platform's, as text."""

    platform: str
    capabilities: Capabilities

    def how_to_reach(self, tr: Translator) -> str:
        """One sentence, in the room's language (`tr`), telling a player how to let the bot
        write to him privately (open a chat with it, stay connected...), for the room's
        notice when he cannot be written to."""
        ...

    async def send(self, room: str, message: Message) -> str:
        """Post a message in a room; return its id."""
        ...

    async def send_file(self, room: str, filename: str, data: bytes, caption: str) -> str:
        """Post a file in a room (only when `capabilities.files`), named `filename`, with a
        one-line `caption`, as one message; return its id."""
        ...

    async def edit(self, room: str, message_id: str, message: Message) -> None:
        """Replace a message's text and buttons (only when `capabilities.edits`); raise
        MessageGone when it cannot be edited any more."""
        ...

    async def delete(self, room: str, message_id: str) -> None:
        """Remove a message (only when `capabilities.deletes`)."""
        ...

    async def send_private(self, user_id: str, message: Message) -> str:
        """Write to one player privately; return the message id; raise Unreachable if impossible."""
        ...

    async def edit_private(self, user_id: str, message_id: str, message: Message) -> None:
        """Replace a private message (only when `capabilities.edits`)."""
        ...

    async def thinking(self, inbound: Inbound, busy: bool) -> None:
        """Show in the chat where `inbound` was said that the bot is working on it (`busy`),
        or no longer, where the platform has such a notice ("typing…"); elsewhere do nothing.
        Asked when an input takes a while (expert bots answering a move), and again every few
        seconds while it does."""

    async def answer(self, inbound: Inbound, text: str) -> None:
        """Tell the sender of `inbound` something short (a button answer where the platform has
        one, otherwise a reply); never shown to anyone else where the platform allows."""
        ...


class Clock(Protocol):
    """The time, for deadlines; tests pass a clock they move by hand."""

    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...


class GameProgress(NamedTuple):
    """How far a stored game is: its status, how many actions it has, and the version of its
    chat state (0: none)."""

    status: str
    actions: int
    chat_version: int = 0


@dataclass(frozen=True)
class GameSince:
    """A game as stored beyond a copy of it: the actions stored after the copy's own, when
    the last action was stored (None: it has none), its chat state, the seats moved to new
    identities (by position), and the people's own settings (by user id)."""

    links: list[ChainLink]
    last_action_at: datetime | None
    chat_state: ChatState | None
    moves: dict[int, SeatIdentity]
    settings: dict[str, dict[str, str]]


@dataclass(frozen=True)
class StoredLobby:
    """A lobby as stored (plain JSON data), and the version a change must name."""

    data: dict[str, Any]
    version: int


@dataclass(frozen=True)
class ShownView:
    """What one slot of a chat (a game's table, a player's hand) shows: the platform's id of
    its message and a digest of the content."""

    message_id: str
    digest: str


@dataclass(frozen=True)
class Standing:
    """A player's figures on one board of ratings: a room, or a whole platform (`room` empty)."""

    platform: str
    room: str
    player_platform: str
    """The player's platform ('bot' for a bot, whose `player_id` is its strategy)."""
    player_id: str
    name: str
    kind: str
    games: int
    wins: int
    coins: int
    """Coins of all his games on the board, summed."""
    mu: float
    sigma: float
    ordinal: float
    """mu - 3 sigma, the board's order."""
    place: int
    """His place on the board, from 1 (players with equal ordinals share one)."""
    players: int
    """How many players the board rates."""

    @property
    def mean_coins(self) -> float:
        return self.coins / self.games if self.games else 0.0


@dataclass(frozen=True)
class SeatClaim:
    """A seat its player asked to hand to a new identity, waiting for that identity to send
    the one-time code he was given privately (only a digest of the code is kept)."""

    game_id: str
    seat: int
    platform: str
    user_id: str
    """The identity the seat is to go to: the only one whose claim counts."""
    name: str
    digest: str
    asked_by: str
    """The seated player who asked."""
    asked_at: datetime
    wrong: int = 0
    """Claims with a wrong code so far."""


class ChatStore(GameStore, Protocol):
    """The game store, plus what a restarted application, or one of several workers sharing
    the store, needs: its games by room and by player, how far each is, and the lobbies."""

    def last_action_at(self, game_id: str) -> datetime | None:
        """When the game's last action was stored (None: it has none yet)."""
        ...

    def atomic(self) -> AbstractContextManager[None]:
        """Everything written inside is one transaction: committed when the block ends,
        rolled back entirely if anything raises out of it; reads inside see the writes made
        before them. A block opened inside another joins it. A call that reports a conflict
        by its value (`save_lobby` False...) wrote nothing and the block goes on."""
        ...

    def reading(self) -> AbstractContextManager[None]:
        """Every read inside is one read transaction, ended once, that sees one committed
        state of the store. Nothing is written inside; inside a unit of work (`atomic`),
        its transaction is the one."""
        ...

    def game_progress(self, game_id: str) -> GameProgress | None:
        """The game's status and number of stored actions (None: no such game)."""
        ...

    def active_game_in(self, platform: str, room: str) -> str | None:
        """The id of the game in progress in a room, if any."""
        ...

    def active_games_of(self, platform: str, user_id: str) -> list[str]:
        """The games in progress a player is seated in."""
        ...

    def last_finished_in(self, platform: str, room: str) -> tuple[str, str] | None:
        """The game that finished last in a room, with its language (None: none did)."""
        ...

    def lobby_rooms(self, platform: str) -> list[str]:
        """The rooms of a platform where a lobby is gathering."""
        ...

    def load_lobby(self, platform: str, room: str) -> StoredLobby | None:
        """The lobby gathering in a room, if any."""
        ...

    def save_lobby(
        self,
        platform: str,
        room: str,
        data: dict[str, Any],
        version: int,
        now: datetime,
        delivery: Delivery | None = None,
    ) -> bool:
        """Store a lobby over the version read (0: new); False if another wrote it first;
        DuplicateDelivery if `delivery` was applied already."""
        ...

    def start_game(
        self, game: NewGame, lobby_version: int, delivery: Delivery | None = None
    ) -> bool:
        """In one transaction: take the room's lobby (if still the version read) and store
        the game it became; False (nothing written) if the lobby changed meanwhile.
        DuplicateGame if the id is taken, DuplicateDelivery if the input was applied."""
        ...

    def seat_moves(self, game_id: str) -> dict[int, SeatIdentity]:
        """The seats of a game moved to a new identity (by position), and who plays them."""
        ...

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
        """Let a new identity play a game's seat from now on, noting who asked and why
        ('claimed', 'rename', ...), and drop a claim waiting for the seat; UnknownGame if
        there is no such game."""
        ...

    def save_seat_claim(self, claim: SeatClaim) -> None:
        """Keep a claim waiting for a seat, in place of any before it; UnknownGame if there
        is no such game."""
        ...

    def seat_claims_of(self, platform: str, user_id: str) -> list[SeatClaim]:
        """The claims waiting for an identity to send its code, oldest first."""
        ...

    def drop_seat_claim(self, game_id: str, seat: int) -> None:
        """Forget the claim waiting for a seat, if any."""
        ...

    def delivery_seen(self, platform: str, delivery_id: str) -> bool:
        """Whether an input with this delivery id was applied (or refused) already."""
        ...

    def delivery_seen_and_progress(
        self, platform: str, delivery_id: str, game_id: str
    ) -> tuple[bool, GameProgress | None]:
        """`delivery_seen` and `game_progress` in one read: what is asked before a command
        to a game."""
        ...

    def record_delivery(self, platform: str, delivery_id: str, now: datetime) -> bool:
        """Note an input that changed nothing as handled; False if it was noted already."""
        ...

    def forget_deliveries(self, before: datetime) -> int:
        """Drop delivery ids received before `before` (platforms redeliver for a day at
        most); return how many."""
        ...

    def load_chat_state(self, game_id: str) -> ChatState | None:
        """A game's chat state as last written (None: never)."""
        ...

    def save_chat_state(
        self, game_id: str, state: ChatState, now: datetime, delivery: Delivery | None = None
    ) -> None:
        """Write a game's chat state alone (a change with no action: a pass, a stand-in);
        DuplicateDelivery if `delivery` was applied already."""
        ...

    def load_player_settings(self, platform: str, user_id: str) -> dict[str, str]:
        """A player's own settings, such as `notify` ({} until he sets one)."""
        ...

    def players_settings(self, platform: str, user_ids: Sequence[str]) -> dict[str, dict[str, str]]:
        """The settings of several players at once, by user id (none for one who set none)."""
        ...

    def game_since(self, game_id: str, seq: int, platform: str) -> GameSince:
        """What a copy of a game holding its first `seq` actions lacks of the game as stored,
        in one read (the settings: of the people of `platform` at its seats)."""
        ...

    def due_games(
        self, platform: str, until: datetime, skip: Collection[str] = (), limit: int = 100
    ) -> list[str]:
        """The platform's games in progress with something due by `until` (their chat
        state's `due_at`), the soonest first, those in `skip` left out."""
        ...

    def next_due(self, platform: str, skip: Collection[str] = ()) -> datetime | None:
        """The soonest moment due in one of the platform's games in progress (None: none)."""
        ...

    def open_games(self, platform: str) -> list[tuple[str, str]]:
        """The platform's games in progress (id and room), the latest moved first."""
        ...

    def save_player_settings(
        self, platform: str, user_id: str, settings: dict[str, str], now: datetime
    ) -> None:
        """Replace a player's own settings."""
        ...

    def drop_lobby(self, platform: str, room: str, version: int) -> bool:
        """Remove a lobby if it is still the version read; False otherwise."""
        ...

    def standing(self, platform: str, room: str, user_id: str) -> Standing | None:
        """A player of the platform on the board of a room (`room` empty: of the whole
        platform); None if he has no finished game there."""
        ...

    def leaderboard(self, platform: str, room: str, limit: int) -> list[Standing]:
        """The best `limit` players of a room's board (`room` empty: the platform's)."""
        ...
