"""A game in progress: the engine, plus the history that makes it replayable.

>>> import random
>>> game = Game.new(4, random.Random(7))
>>> game.state.players[0].hand == game.state.players[0].hand[:5]
True
>>> len(game.legal_actions(0).actions) > 0
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from .actions import Action, CounterTrade, ProposeTrade
from .cards import Card
from .checks import check_action, check_proposal
from .engine import Engine, RandomShuffler, Shuffler, deal
from .events import Event
from .legal import LegalActions, is_listed, legal_actions, waiting_for
from .scoring import GameResult, result_of
from .state import GameState
from .table_setup import setup_for
from .view import PlayerView, view_for


class _RecordingShuffler:
    """Keeps every reshuffle's result, since the record must hold it."""

    def __init__(self, inner: Shuffler) -> None:
        self.inner = inner
        self.orders: list[list[Card]] = []

    def __call__(self, cards: list[Card]) -> list[Card]:
        order = self.inner(cards)
        self.orders.append(list(order))
        return order


class Game:
    """One game: its state, the actions taken and the chance outcomes, in order."""

    def __init__(
        self, players: int, deck: Sequence[Card], shuffler: Shuffler, *, events: bool = True
    ) -> None:
        """`events=False`: actions return no events (a replay or an audit needs only the state)."""
        self.initial_deck: tuple[Card, ...] = tuple(deck)
        self.state: GameState = deal(players, deck)
        self._shuffler = _RecordingShuffler(shuffler)
        self._engine = Engine(self.state, self._shuffler, events=events)
        self.actions: list[Action] = []
        self.opening_events: list[Event] = self._engine.start()

    @classmethod
    def new(cls, players: int, rng: random.Random) -> Game:
        """A freshly shuffled game; `rng` also shuffles every later reshuffle."""
        deck = setup_for(players).cards_in_play()
        rng.shuffle(deck)
        return cls(players, deck, RandomShuffler(rng))

    def shuffle_with(self, shuffler: Shuffler) -> None:
        """Later reshuffles come from `shuffler` (a game replayed, going on)."""
        self._shuffler.inner = shuffler

    @property
    def players(self) -> int:
        return len(self.state.players)

    @property
    def reshuffles(self) -> list[list[Card]]:
        """Every reshuffle's new deck so far, top card first."""
        return self._shuffler.orders

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def legal_actions(self, seat: int) -> LegalActions:
        """What the player at `seat` may do now."""
        return legal_actions(self.state, seat)

    def check(self, action: Action) -> None:
        """Raise IllegalActionError unless `action` is legal now."""
        check_action(self.state, action)

    def waiting_for(self) -> tuple[int, ...]:
        """The seats the game is waiting on."""
        return waiting_for(self.state)

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action (or raise IllegalActionError, changing nothing)."""
        events = self._engine.apply(action)
        self.actions.append(action)
        return events

    def apply_listed(self, action: Action, legal: LegalActions) -> list[Event]:
        """Apply an action chosen from `legal`, the legal actions of the state as it is now.

        An action `legal` lists passed the rules when it was listed (the menu and the checks are
        built from the same rule functions), so only an action it does not list is checked; a
        proposal by the seat `legal` belongs to is checked against the bounds `legal.trade`
        already worked out.
        """
        kind = type(action)
        if kind is ProposeTrade:
            # Offers are never listed: `legal.trade` bounds them, as the rules would.
            trade = legal.trade
            if trade is None or action.player != legal.player:
                return self.apply(action)
            assert isinstance(action, ProposeTrade)
            check_proposal(self.state, action, trade)
        elif kind is CounterTrade:
            return self.apply(action)
        else:
            # `is_listed`, asked first of the listed action itself, as a bot returns it.
            for listed in legal.actions:
                if listed is action:
                    break
            else:
                if not is_listed(legal, action):
                    return self.apply(action)
        events = self._engine.apply_legal(action)
        self.actions.append(action)
        return events

    @contextmanager
    def quiet(self) -> Iterator[None]:
        """Actions applied inside return no events: a game played out where nobody watches."""
        engine = self._engine
        events, engine.events = engine.events, False
        try:
            yield
        finally:
            engine.events = events

    def play_through(self, actions: Iterable[Action], *, checked: bool = True) -> None:
        """Apply actions one after another without gathering their events: a replay.

        Checked, the first illegal action raises IllegalActionError and changes nothing; the
        ones before it stay applied (`len(self.actions)` tells how many). `checked=False` skips
        the rules: only for actions that already passed them, such as those of a game that
        passed the audit or `check_record`.
        """
        self._engine.play_through(actions, self.actions, checked)

    def view(self, seat: int | None) -> PlayerView:
        """What the player at `seat` may see (None: a spectator)."""
        return view_for(self.state, seat)

    def result(self) -> GameResult:
        """Scores and winners; final once the game is over."""
        return result_of(self.state)
