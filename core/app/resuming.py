"""A stored game taken up again: its actions replayed, and the reshuffles it recorded handed out
before any new one is shuffled (also for actions another worker stored since)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..cards import Card
from ..events import Event
from ..game import Game
from ..record import GameRecord


class RecordedShuffles:
    """Hands out the recorded reshuffles first, then shuffles for real."""

    def __init__(self, orders: Sequence[Sequence[Card]], rng: random.Random) -> None:
        self._orders = [list(order) for order in orders]
        self._rng = rng

    def extend(self, orders: Sequence[Sequence[Card]]) -> None:
        """More recorded reshuffles, to hand out before shuffling for real."""
        self._orders.extend(list(order) for order in orders)

    def __call__(self, cards: list[Card]) -> list[Card]:
        if self._orders:
            order = self._orders.pop(0)
            if sorted(order) != sorted(cards):
                raise ValueError("a recorded reshuffle is not the discard pile reordered")
            return order
        shuffled = list(cards)
        self._rng.shuffle(shuffled)
        return shuffled


def resume_game(
    record: GameRecord,
    rng: random.Random,
    seen: Callable[[Game, Sequence[Event]], None] | None = None,
    shuffles: RecordedShuffles | None = None,
) -> Game:
    """The game a record describes, ready to go on; later reshuffles come from `rng` (or from
    `shuffles`, given the record's). `seen` is given the game and the events after every
    action (the story is derived from them)."""
    shuffles = shuffles or RecordedShuffles(record.reshuffles, rng)
    game = Game(len(record.seats), record.deck, shuffles)
    for action in record.actions:
        events = game.apply(action)
        if seen is not None:
            seen(game, events)
    return game
