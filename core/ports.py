"""The game store port: what the application needs from durable storage, and nothing more.

A store keeps each game as its record (seating, options, the shuffled deck) plus every accepted
action, in order, each with the reshuffles it caused and a hash that chains it to the one before.
An adapter (`bohnanza.adapters.store`) implements `GameStore` on a database; tests use a fake.

An action is appended, durably, before anyone is told it happened. Two writers may race to append
the same sequence number: exactly one wins, the other gets a `SequenceConflict` value back and
reloads the game before trying again, so nothing is lost or duplicated.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple, Protocol

from .actions import Action, action_from_json
from .cards import Card
from .errors import RecordError
from .record import GameRecord, SeatRecord
from .scoring import GameResult

IN_PROGRESS = "in-progress"
FINISHED = "finished"
GAME_STATUSES = (IN_PROGRESS, FINISHED)


@dataclass(frozen=True)
class SeatIdentity:
    """Who sits at a seat: an account on a chat platform (or a bot), and its display name."""

    platform: str
    """Where the player comes from, e.g. 'telegram', 'matrix', 'terminal', 'bot', 'record'."""
    user_id: str
    """The player's id on that platform."""
    name: str
    kind: str = "human"
    """'human' or 'bot'."""
    strategy: str | None = None
    """For a bot, its strategy."""


@dataclass(frozen=True)
class NewGame:
    """A game about to be stored: everything fixed before the first action."""

    game_id: str
    seats: tuple[SeatIdentity, ...]
    deck: tuple[Card, ...]
    """The shuffled deck before the deal, top card first."""
    created_at: datetime
    options: Mapping[str, str | int] = field(default_factory=dict)


@dataclass(frozen=True)
class StoredAction:
    """One accepted action as stored: its place, the reshuffles it caused and when."""

    seq: int
    """The action's index in the game, from 0; unique within a game."""
    action: Action
    at: datetime
    reshuffles: tuple[tuple[Card, ...], ...] = ()
    """The new decks of the reshuffles that happened while this action's automatic steps ran."""
    result: GameResult | None = None
    """The final result, when this action ended the game (stored in the same transaction)."""


@dataclass(frozen=True)
class Appended:
    """The action is durably stored; `hash` chains it to the previous one."""

    seq: int
    hash: str


@dataclass(frozen=True)
class SequenceConflict:
    """Another writer stored this sequence number first (or the game has fewer actions).

    Nothing was written. Reload the game, which now has `next_seq` actions, and decide again.
    """

    game_id: str
    seq: int
    next_seq: int

    def __str__(self) -> str:
        return (
            f"game {self.game_id}: action {self.seq} cannot be stored, "
            f"the game has {self.next_seq} action(s)"
        )


AppendResult = Appended | SequenceConflict


@dataclass(frozen=True)
class GameSummary:
    """One line of a store's game list."""

    game_id: str
    players: tuple[str, ...]
    status: str
    created_at: datetime
    actions: int
    result: GameResult | None


class ChainLink(NamedTuple):
    """One stored action exactly as the store holds it, for checking the hash chain.

    A named tuple rather than a dataclass: an audit reads hundreds of thousands of them.
    """

    seq: int
    payload: str
    """The action as canonical JSON text."""
    reshuffles: str
    """The reshuffles it caused, as canonical JSON text (a list of card lists)."""
    hash: str


def read_links(
    links: Sequence[ChainLink],
) -> list[tuple[Action, tuple[tuple[Card, ...], ...]]]:
    """Stored actions, each with the reshuffles it caused; RecordError if one is unreadable."""
    out = []
    for link in links:
        try:
            action = action_from_json(json.loads(link.payload))
            orders = json.loads(link.reshuffles)
            if not isinstance(orders, list) or not all(isinstance(o, list) for o in orders):
                raise ValueError("reshuffles must be lists of cards")
        except ValueError as error:
            raise RecordError(f"the stored action is not readable: {error}", link.seq) from None
        out.append((action, tuple(tuple(order) for order in orders)))
    return out


@dataclass(frozen=True)
class StoredGame:
    """A game exactly as stored: the header, the raw chain and the stored status and result."""

    game: NewGame
    header_hash: str
    links: tuple[ChainLink, ...]
    action_count: int
    """How many actions the game's own row says it has."""
    head_hash: str
    """The hash of its last action, as the game's own row says (the header hash if none)."""
    status: str
    result: GameResult | None

    def record(self) -> GameRecord:
        """The game as a portable record; RecordError if a stored action is unreadable."""
        actions = []
        reshuffles: list[tuple[Card, ...]] = []
        for action, orders in read_links(self.links):
            actions.append(action)
            reshuffles.extend(orders)
        seats = tuple(SeatRecord(s.name, s.kind, s.strategy) for s in self.game.seats)
        return GameRecord(
            seats=seats,
            deck=self.game.deck,
            reshuffles=tuple(reshuffles),
            actions=tuple(actions),
            options=dict(self.game.options),
            game_id=self.game.game_id,
            result=self.result,
        )


class StoreError(Exception):
    """The store cannot do what was asked; the message is one line a person can read."""


class UnknownGame(StoreError, LookupError):
    """No game with this id is stored."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game with id {game_id!r}")
        self.game_id = game_id


class DuplicateGame(StoreError):
    """A game with this id is already stored."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"a game with id {game_id!r} is already stored")
        self.game_id = game_id


class DuplicateDelivery(StoreError):
    """The input that caused this write was applied already (by this worker or another);
    nothing was written."""

    def __init__(self, platform: str, delivery_id: str) -> None:
        super().__init__(f"the {platform} delivery {delivery_id!r} was applied already")
        self.platform = platform
        self.delivery_id = delivery_id


@dataclass(frozen=True)
class Delivery:
    """The platform's id of the input that caused a write, stored in the same transaction so
    that the input, delivered again, is applied once."""

    platform: str
    delivery_id: str


@dataclass(frozen=True)
class ChatState:
    """What a chat application keeps of a game beside its actions (stand-ins, missed
    deadlines, passes, clocks), as plain JSON data, written with the actions it goes with."""

    data: Mapping[str, object]
    action_count: int
    """How many actions the game had when this was written."""
    version: int | None = field(default=None, compare=False)
    """Its version in the store: as read; for a write, the version it replaces, so that the
    store refuses it (`ChatStateMoved`) where another writer's came between (None: whatever
    is stored)."""
    due_at: datetime | None = field(default=None, compare=False)
    """The next moment something is due in the game (None: nothing is), by which the store
    finds the games a clock must wake (`ChatStore.due_games`)."""


class ChatStateMoved(StoreError):
    """Another writer changed the game's chat state since it was read; nothing was written."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"the chat state of game {game_id!r} changed meanwhile")
        self.game_id = game_id


class GameFinished(StoreError):
    """The game has ended; no further action can be stored."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id!r} has ended; no action can be added")
        self.game_id = game_id


class UnreadableGame(StoreError):
    """A stored game whose own data (options, deck, result) cannot be read back."""

    def __init__(self, game_id: str, reason: str) -> None:
        super().__init__(f"game {game_id}: {reason}")
        self.game_id = game_id


class GameStore(Protocol):
    """Durable storage of games and their actions."""

    def add_game(self, game: NewGame) -> None:
        """Store a new game with no actions yet; DuplicateGame if the id is taken."""

    def append_action(self, game_id: str, action: StoredAction) -> AppendResult:
        """Store one action durably, in one transaction, before it is confirmed to anyone."""

    def append_actions(
        self,
        game_id: str,
        actions: Sequence[StoredAction],
        delivery: Delivery | None = None,
        chat_state: ChatState | None = None,
    ) -> AppendResult:
        """Store consecutive actions (a player's move and the bots' answers) in one
        transaction: all of them or none; a conflict is reported for the first. The input's
        `delivery` and the game's `chat_state` are written in the same transaction
        (DuplicateDelivery, and nothing written, if that delivery is stored already)."""

    def finish_game(self, game_id: str, result: GameResult) -> None:
        """Mark a game as ended with its result."""

    def add_complete_game(
        self, game: NewGame, actions: Sequence[StoredAction], result: GameResult | None
    ) -> None:
        """Store a whole game at once (import, simulation): all of it or, on any error, nothing."""

    def load_record(self, game_id: str) -> GameRecord:
        """The game as a portable record; UnknownGame if there is none."""

    def load_stored(self, game_id: str) -> StoredGame:
        """The game exactly as stored, chain included, for an audit."""

    def stored_games(
        self, game_ids: Sequence[str] | None = None
    ) -> Iterator[StoredGame | UnreadableGame]:
        """Every stored game (or those named) exactly as stored, for an audit of many games."""

    def list_games(self) -> list[GameSummary]:
        """Every stored game, oldest first."""
