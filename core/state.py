"""The game state: where every card is, whose turn and which step.

The state is plain mutable data. Only the engine (`engine.py`) changes it, and only after an action
was found legal, so a refused action leaves it untouched.

This module is compiled with mypyc (setup.py): the engine, the menus and the views, compiled too,
read the table, seats and fields as C structs rather than through dicts. They stay dataclasses
(equality, `repr`, `dataclasses.fields` and `replace`), copy and pickle, and take no attributes
they do not declare. A trade offer is a plain class of its own (`trade_offer.py`): it is made
from a dict of its fields (`frozen_from`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeVar

from .cards import CARD_COUNT, Card, Variety, variety_of
from .table_setup import TableSetup
from .trade_offer import TradeOffer as TradeOffer

_Frozen = TypeVar("_Frozen")

CARD_VARIETIES: tuple[Variety, ...] = tuple(variety_of(card) for card in range(CARD_COUNT))
"""`CARD_VARIETIES[card]` is `variety_of(card)`, looked up without a function call: menus, checks
and views look up every card they show or test."""


def frozen_from(cls: type[_Frozen], values: dict[str, Any]) -> _Frozen:
    """An instance of a frozen dataclass from a dict of every one of its fields, as
    `cls(**values)` makes.

    A frozen dataclass's `__init__` sets each field through `object.__setattr__`; views and
    action lists are built on every decision of every bot, so the hot paths fill the instance's
    dict in one go instead (the hottest inline these two lines). `values` must be a fresh dict
    made for this instance alone, naming every field: the instance takes it over as it is.
    """
    instance = object.__new__(cls)
    object.__setattr__(instance, "__dict__", values)
    return instance


class Step(Enum):
    """Where the turn is. The duel has its own steps 1-3; both share the draw into the hand."""

    PLANT = "plant"
    """Step 1: plant the front card of the hand, then optionally the next."""
    TRADE = "trade"
    """Step 2: the two face-up cards are out; trade and donate."""
    PLANT_SET_ASIDE = "plant-set-aside"
    """Step 3: everyone plants the cards they set aside, in any order."""
    DUEL_OFFERED = "duel-offered"
    """Duel step 1: plant or discard what the opponent left on offer."""
    DUEL_PLANT = "duel-plant"
    """Duel step 2: plant one or two cards, then optionally discard one."""
    DUEL_FACE_UP = "duel-face-up"
    """Duel step 3: plant any of the drawn cards; the rest is offered to the opponent."""
    GAME_OVER = "game-over"


# Reading an Enum member through its class (`Step.TRADE`) runs a descriptor (about 70 ns in
# CPython 3.11, ten times a module constant): the hot paths compare steps with these.
STEP_PLANT = Step.PLANT
STEP_TRADE = Step.TRADE
STEP_PLANT_SET_ASIDE = Step.PLANT_SET_ASIDE
STEP_DUEL_OFFERED = Step.DUEL_OFFERED
STEP_DUEL_PLANT = Step.DUEL_PLANT
STEP_DUEL_FACE_UP = Step.DUEL_FACE_UP
STEP_GAME_OVER = Step.GAME_OVER


@dataclass
class Field:
    """A bean field: cards of one variety, oldest first. Empty when `cards` is empty."""

    cards: list[Card] = field(default_factory=list)

    @property
    def variety(self) -> Variety | None:
        """The variety planted here, or None for an empty field."""
        return variety_of(self.cards[0]) if self.cards else None

    def accepts(self, variety: Variety) -> bool:
        """A card may go onto an empty field or onto its own variety (ruling 10)."""
        return not self.cards or variety_of(self.cards[0]) is variety


@dataclass
class PlayerState:
    """One seat at the table."""

    hand: list[Card] = field(default_factory=list)
    """Front first: index 0 is planted next."""
    fields: list[Field] = field(default_factory=list)
    coins: list[Card] = field(default_factory=list)
    """The earnings stack, newest (top) last."""
    set_aside: list[Card] = field(default_factory=list)
    """Cards received in trades or kept from the face-up cards, to be planted in step 3."""
    bought_third_field: bool = False
    changes: int = field(default=0, compare=False, repr=False)
    """Counts the engine's changes to what everyone sees of this seat (fields, coins, hand size,
    set-aside cards, the 3rd field), so a view of the seat is rebuilt only after one."""


@dataclass
class GameState:
    """Everything on the table. Every card is in exactly one of its lists (ruling 1)."""

    setup: TableSetup
    players: list[PlayerState]
    deck: list[Card]
    """The draw deck, top card last."""
    discard: list[Card] = field(default_factory=list)
    """The discard pile, top card last."""
    box: list[Card] = field(default_factory=list)
    face_up: list[Card] = field(default_factory=list)
    """The active player's face-up cards (step 2; the duel's step 3)."""
    offered: list[Card] = field(default_factory=list)
    """Duel: the cards the last active player left on offer for his opponent."""
    offers: dict[int, TradeOffer] = field(default_factory=dict)
    next_offer_id: int = 1
    active: int = 0
    step: Step = Step.PLANT
    turn: int = 1
    planted_this_step: int = 0
    exhaustions: int = 0
    final_turn: bool = False
    """The final exhaustion happened while drawing face-up cards: the game ends after planting."""

    @property
    def is_over(self) -> bool:
        """The game has ended and been scored."""
        return self.step is STEP_GAME_OVER

    def player(self, seat: int) -> PlayerState:
        """The player at a seat."""
        return self.players[seat]

    def copy(self) -> GameState:
        """An independent copy (for look-ahead and for checking that refusals change nothing)."""
        return copy.deepcopy(self)

    def all_cards(self) -> list[Card]:
        """Every card in every place, for conservation checks."""
        cards = [*self.deck, *self.discard, *self.box, *self.face_up, *self.offered]
        for p in self.players:
            cards += p.hand + p.coins + p.set_aside
            for f in p.fields:
                cards += f.cards
        return cards
