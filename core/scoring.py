"""Selling beans, the final harvest, and who wins (rulings 1 and 5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import COINS, Card
from .state import CARD_VARIETIES, Field, GameState, PlayerState


def sell(field: Field) -> tuple[list[Card], list[Card]]:
    """Empty a field: (cards that become coins, cards for the discard pile).

    The last cards planted become the coins; the others go to the discard pile oldest first, so
    the newest of them ends on top.
    """
    cards = field.cards
    field.cards = []
    coins = COINS[CARD_VARIETIES[cards[0]]][len(cards)]
    split = len(cards) - coins
    return cards[split:], cards[:split]


def harvest_into(state: GameState, player: PlayerState, field: int) -> tuple[list[Card], int]:
    """Harvest one field: coins onto the earnings stack, the rest onto the discard pile."""
    coins, rest = sell(player.fields[field])
    player.coins.extend(coins)
    player.changes += 1
    state.discard.extend(rest)
    return coins + rest, len(coins)


@dataclass(frozen=True)
class GameResult:
    """Final coins per seat and the winners (more than one on a shared win)."""

    scores: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    winners: tuple[int, ...]

    def __reduce__(self) -> tuple[Any, ...]:
        # Compiled (setup.py), a frozen dataclass is copied and pickled through its constructor.
        return (GameResult, (self.scores, self.hand_sizes, self.winners))


def result_of(state: GameState) -> GameResult:
    """Most coins wins; a tie goes to most cards in hand; a tie on both is shared."""
    scores = tuple(len(p.coins) for p in state.players)
    hands = tuple(len(p.hand) for p in state.players)
    best = max(scores)
    tied = [s for s, score in enumerate(scores) if score == best]
    most = max(hands[s] for s in tied)
    return GameResult(scores, hands, tuple(s for s in tied if hands[s] == most))
