"""The story of a game's latest turns on its boards: every event since the previous turn began
(plantings, cards turned up, offers, trades, sales), told as each viewer saw it.

A game in progress keeps no events, only its actions; a copy of it follows the actions as they
are played (the reshuffles are read from the game itself), and keeps the events of the last two
turns. The lines are the replay page's (`event_lines`): a card drawn is named only to the
player who drew it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bohnanza.adapters.game_page_words import event_lines
from bohnanza.core.app.i18n import Translator
from bohnanza.core.cards import Card
from bohnanza.core.events import Event, TurnBegan
from bohnanza.core.game import Game

KEPT = 60
"""The most events a story keeps."""


class _Following:
    """Hands the copy the reshuffles the game made, in order."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.taken = 0

    def __call__(self, cards: list[Card]) -> list[Card]:
        order = self.game.reshuffles[self.taken]
        self.taken += 1
        return list(order)


class TurnStory:
    """The events of a game's latest turns, kept up with its actions."""

    def __init__(self, game: Game) -> None:
        self._start(game)

    def _start(self, game: Game) -> None:
        self._following = _Following(game)
        self._copy = Game(game.players, game.initial_deck, self._following)
        self._events: list[Event] = list(self._copy.opening_events)

    def follow(self, game: Game) -> None:
        """Catch up with the game's actions (a game rebuilt from the store is the same game)."""
        done = len(self._copy.actions)
        actions = game.actions
        if done > len(actions) or (done and actions[done - 1] != self._copy.actions[-1]):
            self._start(game)  # not the game followed so far
            done = 0
        self._following.game = game
        for action in actions[done:]:
            self._keep(self._copy.apply(action))

    def _keep(self, events: Sequence[Event]) -> None:
        self._events.extend(events)
        starts = [i for i, event in enumerate(self._events) if isinstance(event, TurnBegan)]
        first = starts[-2] if len(starts) >= 2 else 0
        self._events = self._events[max(first, len(self._events) - KEPT) :]

    def lines(self, tr: Translator, names: Sequence[str], viewer: int | None) -> list[str]:
        """The story as `viewer` (None: a spectator) was told it, oldest first."""
        return [line for event in self._events for line in event_lines(tr, event, names, viewer)]
