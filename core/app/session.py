"""One game being played in a room: the engine's game, who sits where, bots and deadlines.

A session applies actions in memory only: each is checked and applied, and waits in `unsaved`
until the input's unit of work (`work.Work`) stores it with everything else the input changed,
before anyone hears of it. When the store refuses (another writer was first, or it failed), the
game is read from the store anew (`tables.Tables`), so what players are told never runs ahead
of what is stored.
"""

from __future__ import annotations

import hashlib
import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from typing import TypeVar

from ..actions import Action
from ..bots import SEARCHING, Bot, make_bot
from ..cards import Card, Variety
from ..events import Event
from ..game import Game
from ..legal import LegalActions, TradingMoment, trading_moment, waiting_for
from ..ports import ChatState, StoredAction
from ..state import STEP_TRADE, GameState, Step
from ..view import PlayerView, TableViews
from .event_log import Happened
from .hand_keys import ShownHand
from .resuming import RecordedShuffles
from .seat_control import SeatControl
from .stored_session import chat_state_data, restore_seats, trade_window_kept
from .story import StoryKeeper

_T = TypeVar("_T")

HAPPENED_KEPT = 1_000
"""How many of the latest actions a session keeps with their events: more than bots play
between two inputs of a person."""


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
    hand_tokens: dict[int, ShownHand] = field(default_factory=dict)
    """What each seat's private message was made from (`updates.hand_key`)."""
    trade_window_until: datetime | None = None
    trade_window_seconds: int = 120
    """How long a bot on turn keeps trading open for people (the game's option)."""
    trade_reminded: bool = False
    """The people a bot's trading window waits for were reminded at its half."""
    unsaved: list[StoredAction] = field(default_factory=list)
    """Actions applied but not yet stored: a player's move and the bots' answers to it are
    stored together, in one transaction, before anyone is told of them."""
    saved_state: dict[str, object] | None = None
    """The chat state as last stored, so an unchanged one is not written again."""
    saved_due: datetime | None = None
    """The moment due in the game as last stored (`ChatState.due_at`)."""
    chat_version: int = 0
    """The version of the chat state in the store that this one follows (as read, or as
    last written here): a write names it, and fails if another writer's came between."""
    story: StoryKeeper = field(default_factory=StoryKeeper)
    """The latest events worth a line on the table, derived from the actions."""
    shuffles: RecordedShuffles | None = field(default=None, repr=False, compare=False)
    """Where the game's reshuffles come from: stored ones first (`catch_up`)."""
    creator: str = ""
    """The user id of the player who opened the game (empty for games stored before)."""
    hints: bool = False
    """The room chose learning mode: each player may ask the expert for a hint."""
    happened: deque[Happened] = field(
        default_factory=lambda: deque(maxlen=HAPPENED_KEPT), repr=False, compare=False
    )
    """The latest actions applied here with their events: what an input caused, to answer
    it with (its offers' numbers and what became of them)."""
    _views: dict[int | None, PlayerView] = field(default_factory=dict, repr=False, compare=False)
    """Views, legal actions and tokens of the game as it is, by seat: one command asks for
    each several times. The game changes only by actions (`game.actions` grows), so they are
    dropped once an action was applied (`_worked_at` is the number of actions they are of)."""
    _legal: dict[int, LegalActions] = field(default_factory=dict, repr=False, compare=False)
    _tokens: dict[int, str] = field(default_factory=dict, repr=False, compare=False)
    _worked_at: int = field(default=-1, repr=False, compare=False)
    _table: TableViews | None = field(default=None, repr=False, compare=False)

    def happened_since(self, index: int) -> list[Happened]:
        """The actions applied here from the game's action `index` on, with their events."""
        return [item for item in self.happened if item.index >= index]

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

    @property
    def searching(self) -> bool:
        """A bot at this table searches before it decides (its moves take a while)."""
        return any(seat.identity.strategy in SEARCHING for seat in self.seats)

    def _as_it_is(self) -> None:
        """Forget what was worked out of the game before its latest action."""
        actions = len(self.game.actions)
        if self._worked_at != actions:
            if self._table is None:
                self._table = TableViews(self.game.state)
            self._table.next_moment()
            self._views.clear()
            self._legal.clear()
            self._tokens.clear()
            self._worked_at = actions

    def view(self, seat: int | None) -> PlayerView:
        self._as_it_is()
        view = self._views.get(seat)
        if view is None:
            assert self._table is not None
            view = self._views[seat] = self._table(seat)
        return view

    def bot_view(self, seat: int) -> PlayerView:
        """The seat's view for a bot deciding now: its fields are worked out as the bot reads
        them (`TableViews`), so it is good only until the next action; messages use `view`."""
        self._as_it_is()
        view = self._views.get(seat)
        if view is not None:
            return view
        assert self._table is not None
        return self._table(seat)

    def legal(self, seat: int) -> LegalActions:
        self._as_it_is()
        legal = self._legal.get(seat)
        if legal is None:
            legal = self._legal[seat] = self.game.legal_actions(seat)
        return legal

    def token(self, seat: int) -> str:
        """A short digest of what the seat sees and may do; a button carries the one it was
        made with, so a press from an earlier moment is recognised as stale (even after a
        restart, since it depends on the game alone)."""
        self._as_it_is()
        token = self._tokens.get(seat)
        if token is None:
            view = self.view(seat)
            legal = self.legal(seat)
            text = token_text(
                view.hand, view.seats[seat].set_aside, view.step, view.turn, legal.actions
            )
            token = hashlib.blake2s(text.encode(), digest_size=3).hexdigest()
            self._tokens[seat] = token
        return token

    def moment(self, seat: int) -> TradingMoment:
        """The seat's trading moment (`bohnanza.core.legal.trading_moment`)."""
        return trading_moment(self.state, seat)

    def pending(self) -> list[int]:
        """Seats that owe the game a decision: those it waits on, and receivers of offers."""
        state = self.state
        seats = list(waiting_for(state))
        if state.step is not STEP_TRADE or not state.offers:
            return seats  # each seat once already
        seats += [o.receiver for o in state.offers.values()]
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
                control.due = False
            elif control.waiting_since is None or index == acted:
                # A decision that follows his own move at once finds him acting already.
                control.due = control.waiting_since is None and index != acted
                control.waiting_since = now
                control.reminded = False

    def apply(self, action: Action, now: datetime) -> list[Event]:
        """Apply an action (IllegalActionError changes nothing); it waits in `unsaved` until
        the input's unit of work stores it (`work.Work.commit`)."""
        before = len(self.game.reshuffles)
        # An action on the seat's menu passed the rules when it was listed; any other is
        # checked (and refused with nothing changed).
        events = self.game.apply_listed(action, self.legal(action.player))
        self.story.seen(self.game, events)
        self.happened.append(Happened(len(self.game.actions) - 1, action, tuple(events)))
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

    def catch_up(self, stored: Sequence[tuple[Action, Sequence[Sequence[Card]]]]) -> bool:
        """Apply actions another worker stored after the ones here, each with the reshuffles
        it caused; False (nothing applied) where that cannot be done here."""
        if self.shuffles is None or self.unsaved:
            return False
        for action, orders in stored:
            self.shuffles.extend(orders)
            self.story.seen(self.game, self.game.apply(action))
        return True

    def chat_state(self) -> ChatState:
        """What the chat application keeps of this game beside its actions, as plain data."""
        data = chat_state_data(
            self.seats, self.hand_tokens, self.trade_window_until, self.trade_reminded
        )
        return ChatState(data, len(self.game.actions), self.chat_version)

    def restore(self, state: ChatState) -> bool:
        """Take up a stored chat state (say, after a restart). Stand-ins, missed deadlines and
        passes always; the clocks only if it was written at the game's current action, and
        then True."""
        self.chat_version = state.version or 0
        current = state.action_count == len(self.game.actions)
        if not restore_seats(self.seats, self.hand_tokens, state.data, current, self._stand_in):
            return False
        if current:
            self.trade_window_until, self.trade_reminded = trade_window_kept(state.data)
        self.saved_state = dict(state.data) if current else None
        self.saved_due = state.due_at
        return current

    def _stand_in(self) -> Bot:
        """A stand-in for a player away (its generator drawn from the game's)."""
        return make_bot("heuristic", random.Random(self.rng.random()))


def token_text(
    hand: Sequence[Variety],
    set_aside: Sequence[Variety],
    step: Step,
    turn: int,
    actions: Sequence[Action],
) -> str:
    """`repr((hand, set_aside, step, turn, actions))` of tuples, what a seat's token digests,
    made from the kept texts of each variety and each action: an enum's or a dataclass's
    `repr` is slow, and a command digests several seats. Buttons already sent carry tokens
    made from this text, so it must not change."""
    return (
        f"({_tuple_text(hand, _VARIETY_TEXTS.__getitem__)}, "
        f"{_tuple_text(set_aside, _VARIETY_TEXTS.__getitem__)}, {_STEP_TEXTS[step]}, {turn!r}, "
        f"{_tuple_text(actions, _action_text)})"
    )


def _tuple_text(items: Sequence[_T], text: Callable[[_T], str]) -> str:
    if len(items) == 1:
        return f"({text(items[0])},)"
    return f"({', '.join(map(text, items))})"


_VARIETY_TEXTS = {variety: repr(variety) for variety in Variety}
_STEP_TEXTS = {step: repr(step) for step in Step}
_action_text = lru_cache(maxsize=8192)(repr)
