"""One game being played in a room: the engine's game, who sits where, bots and deadlines.

A session applies each action durably: the action is checked, applied, and stored before anyone
hears of it. When the store refuses (another writer was first, or it failed), the session is
rebuilt from the store, so memory never runs ahead of what is stored.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ..actions import Action
from ..bots import Bot, make_bot
from ..cards import Card
from ..events import Event
from ..game import Game
from ..legal import LegalActions, TradingMoment, trading_moment
from ..ports import Appended, GameStore, SeatIdentity, StoredAction
from ..record import GameRecord
from ..state import GameState, Step
from ..view import PlayerView


class _ResumingShuffler:
    """Hands out the recorded reshuffles first, then shuffles for real."""

    def __init__(self, orders: Sequence[Sequence[Card]], rng: random.Random) -> None:
        self._orders = [list(order) for order in orders]
        self._rng = rng

    def __call__(self, cards: list[Card]) -> list[Card]:
        if self._orders:
            order = self._orders.pop(0)
            if sorted(order) != sorted(cards):
                raise ValueError("a recorded reshuffle is not the discard pile reordered")
            return order
        shuffled = list(cards)
        self._rng.shuffle(shuffled)
        return shuffled


def resume_game(record: GameRecord, rng: random.Random) -> Game:
    """The game a record describes, ready to go on; later reshuffles come from `rng`."""
    game = Game(len(record.seats), record.deck, _ResumingShuffler(record.reshuffles, rng))
    for action in record.actions:
        game.apply(action)
    return game


@dataclass
class SeatControl:
    """Who decides for a seat right now, and how often its player let a deadline pass."""

    identity: SeatIdentity
    bot: Bot | None = None
    """The seat's bot, or a stand-in while its player is away."""
    misses: int = 0
    waiting_since: datetime | None = None
    """When the decision the game waits on from this seat began."""
    reminded: bool = False
    passed: TradingMoment | None = None
    """The trading moment at which the player said he would not trade."""

    @property
    def is_human(self) -> bool:
        return self.identity.kind == "human"

    @property
    def stand_in(self) -> bool:
        return self.is_human and self.bot is not None


@dataclass
class GameSession:
    """A game in a room, with the seats' controllers, as the chat application drives it."""

    game_id: str
    platform: str
    room: str
    language: str
    turn_seconds: int
    game: Game
    seats: list[SeatControl]
    rng: random.Random
    table_key: tuple[object, ...] | None = None
    hand_tokens: dict[int, str] = field(default_factory=dict)
    trade_window_until: datetime | None = None
    unsaved: list[StoredAction] = field(default_factory=list)
    """Actions applied but not yet stored: a player's move and the bots' answers to it are
    stored together, in one transaction, before anyone is told of them."""

    @property
    def names(self) -> list[str]:
        return [seat.identity.name for seat in self.seats]

    @property
    def state(self) -> GameState:
        return self.game.state

    def seat_of(self, user_id: str) -> int | None:
        """The seat of a player of this platform, or None."""
        for index, seat in enumerate(self.seats):
            if (
                seat.is_human
                and seat.identity.platform == self.platform
                and seat.identity.user_id == user_id
            ):
                return index
        return None

    def humans(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.is_human]

    def view(self, seat: int | None) -> PlayerView:
        return self.game.view(seat)

    def legal(self, seat: int) -> LegalActions:
        return self.game.legal_actions(seat)

    def token(self, seat: int) -> str:
        """A short digest of what the seat sees and may do; a button carries the one it was
        made with, so a press from an earlier moment is recognised as stale (even after a
        restart, since it depends on the game alone)."""
        view = self.view(seat)
        legal = self.legal(seat)
        text = repr((view.hand, view.seats[seat].set_aside, view.step, view.turn, legal.actions))
        return hashlib.blake2s(text.encode(), digest_size=3).hexdigest()

    def moment(self, seat: int) -> TradingMoment:
        """The seat's trading moment (`bohnanza.core.legal.trading_moment`)."""
        return trading_moment(self.state, seat)

    def pending(self) -> list[int]:
        """Seats that owe the game a decision: those it waits on, and receivers of offers."""
        seats = list(self.game.waiting_for())
        if self.state.step is Step.TRADE:
            seats += [o.receiver for o in self.state.offers.values()]
        # A player with two offers to answer owes one decision at a time, not two.
        return list(dict.fromkeys(seats))

    def deadline(self, seat: int) -> datetime | None:
        control = self.seats[seat]
        if self.turn_seconds <= 0 or control.waiting_since is None:
            return None
        return control.waiting_since + timedelta(seconds=self.turn_seconds)

    def reminder_at(self, seat: int) -> datetime | None:
        deadline = self.deadline(seat)
        if deadline is None:
            return None
        return deadline - timedelta(seconds=self.turn_seconds // 4)

    def refresh_waiting(self, now: datetime, acted: int | None = None) -> None:
        """Start the clock for seats that now owe a decision; stop it for the others."""
        pending = set(self.pending())
        for index, control in enumerate(self.seats):
            if index not in pending or not control.is_human:
                control.waiting_since = None
                control.reminded = False
            elif control.waiting_since is None or index == acted:
                control.waiting_since = now
                control.reminded = False

    def apply(self, action: Action, now: datetime) -> list[Event]:
        """Apply a legal action; it waits in `unsaved` until `save` stores it."""
        before = len(self.game.reshuffles)
        events = self.game.apply(action)
        self.unsaved.append(
            StoredAction(
                seq=len(self.game.actions) - 1,
                action=action,
                at=now,
                reshuffles=tuple(tuple(order) for order in self.game.reshuffles[before:]),
                result=self.game.result() if self.game.is_over else None,
            )
        )
        return events

    def save(self, store: GameStore) -> str | None:
        """Store the unsaved actions in one transaction; on a refusal, its reason."""
        if not self.unsaved:
            return None
        outcome = store.append_actions(self.game_id, self.unsaved)
        if not isinstance(outcome, Appended):
            return str(outcome)
        self.unsaved.clear()
        return None


def new_controls(seats: Sequence[SeatIdentity], rng: random.Random) -> list[SeatControl]:
    """Controllers for a new or resumed game: a bot of its strategy for each bot seat."""
    return [
        SeatControl(
            seat,
            make_bot(seat.strategy or "heuristic", random.Random(rng.random()))
            if seat.kind == "bot"
            else None,
        )
        for seat in seats
    ]
