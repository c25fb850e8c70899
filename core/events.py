"""What happened, in the past tense: the engine returns these from every action.

Events carry card ids so a narrator can say which beans moved. Events that reveal a hidden card
(a draw into a hand) name the one player who may see it; views and adapters must respect that.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .state import Step, TradeOffer


@dataclass(frozen=True)
class Event:
    """Something that happened."""


@dataclass(frozen=True)
class TurnBegan(Event):
    player: int
    turn: int


@dataclass(frozen=True)
class StepBegan(Event):
    player: int
    step: Step


@dataclass(frozen=True)
class BeanPlanted(Event):
    player: int
    card: Card
    field: int
    source: str
    """hand, set-aside, face-up or offered."""


@dataclass(frozen=True)
class BeanDiscarded(Event):
    player: int
    card: Card
    source: str
    """hand or offered."""


@dataclass(frozen=True)
class FieldHarvested(Event):
    player: int
    field: int
    cards: tuple[Card, ...]
    coins: int


@dataclass(frozen=True)
class ThirdFieldBought(Event):
    player: int
    paid: tuple[Card, ...]


@dataclass(frozen=True)
class FaceUpDrawn(Event):
    player: int
    cards: tuple[Card, ...]
    from_discard: tuple[Card, ...] = ()
    """Duel: the matching chain taken from the discard pile."""


@dataclass(frozen=True)
class CardsDrawn(Event):
    """Cards drawn into a hand: only `player` may see which."""

    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class DeckExhausted(Event):
    count: int
    final: bool


@dataclass(frozen=True)
class DeckReshuffled(Event):
    size: int


@dataclass(frozen=True)
class TradeProposed(Event):
    offer: TradeOffer
    replaces: int | None = None
    """The offer this one counters."""


@dataclass(frozen=True)
class TradeAccepted(Event):
    offer: TradeOffer
    given: tuple[Card, ...]
    """What the receiver gave for it."""


@dataclass(frozen=True)
class TradeClosed(Event):
    offer: TradeOffer
    reason: str
    """declined, withdrawn, countered or trading-ended."""


@dataclass(frozen=True)
class TradingEnded(Event):
    player: int
    kept: tuple[Card, ...]


@dataclass(frozen=True)
class LeftOnOffer(Event):
    """Duel: cards the active player left for his opponent."""

    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class GameEnded(Event):
    scores: tuple[int, ...]
    winners: tuple[int, ...]
