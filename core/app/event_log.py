"""The events of a game's actions, derived again from its history, for whoever missed them.

A game keeps its actions, not their events. To tell a player what happened since he last looked
(offers made and withdrawn between two of his inputs, say), a second copy of the game follows the
first action by action: each action is applied to it again, with the same recorded reshuffles,
and gives the same events it gave when it was played. The history is the one source.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import Action
from ..cards import Card
from ..engine import Shuffler
from ..events import Event
from ..game import Game


@dataclass(frozen=True)
class Happened:
    """One action of the game, its place in the history, and the events it gave."""

    index: int
    action: Action
    events: tuple[Event, ...]


class _RecordedOrders:
    """Gives the followed game's reshuffles in order, as they were recorded."""

    def __init__(self, orders: Sequence[Sequence[Card]]) -> None:
        self.orders = orders
        self._given = 0

    def __call__(self, cards: list[Card]) -> list[Card]:
        order = list(self.orders[self._given])
        self._given += 1
        return order


class EventLog:
    """Follows a game: `follow` returns what each action since the previous call gave.

    The actions already played when the log is made are taken in silently (`start`, by default
    all of them): a player who comes back is told what happens from then on.
    """

    def __init__(self, game: Game, start: int | None = None) -> None:
        self._orders = _RecordedOrders(game.reshuffles)
        shuffler: Shuffler = self._orders
        self._copy = Game(game.players, game.initial_deck, shuffler)
        known = len(game.actions) if start is None else start
        self._copy.play_through(game.actions[:known], checked=False)

    @property
    def followed(self) -> int:
        """How many of the game's actions the log has taken in."""
        return len(self._copy.actions)

    def follow(self, game: Game) -> list[Happened]:
        """The actions of `game` (the same game, perhaps reloaded) since the last call."""
        self._orders.orders = game.reshuffles
        happened = []
        for index in range(len(self._copy.actions), len(game.actions)):
            action = game.actions[index]
            events = self._copy.apply(action)
            happened.append(Happened(index, action, tuple(events)))
        return happened
