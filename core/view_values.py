"""The values a view is made of: plain Python classes of frozen values.

`view.py`, compiled with mypyc (setup.py), makes them. They stay plain classes because the views
made at every decision of every bot fill each instance's dict in one go (`state.frozen_from`),
which a compiled class, keeping its fields as C struct members, would not take. A view holds
values only (numbers, steps, tuples of varieties and of these classes): nothing in it leads to
the game state.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .cards import Variety
from .state import STEP_GAME_OVER, Step


@dataclass(frozen=True)
class FieldView:
    variety: Variety | None
    count: int


@dataclass(frozen=True)
class SeatView:
    """The public side of one seat."""

    seat: int
    fields: tuple[FieldView, ...]
    coins: int
    hand_size: int
    set_aside: tuple[Variety, ...]
    bought_third_field: bool


@dataclass(frozen=True)
class OfferView:
    id: int
    proposer: int
    receiver: int
    give: tuple[Variety, ...]
    want: tuple[Variety, ...]
    stale: bool
    """Some card it gives has left the proposer's hand (or the face-up cards)."""
    give_positions: tuple[int, ...] | None = None
    """The viewer's own hand positions of the cards he offers (his own offers only)."""


@dataclass(frozen=True)
class PlayerView:
    """The table as seen from one seat (or by a spectator, `seat` None)."""

    seat: int | None
    hand: tuple[Variety, ...]
    """The viewer's hand, front first; empty for a spectator."""
    seats: tuple[SeatView, ...]
    active: int
    step: Step
    turn: int
    deck_size: int
    discard: tuple[Variety, ...]
    """The discard pile, bottom first (its top card is last)."""
    face_up: tuple[Variety, ...]
    offered: tuple[Variety, ...]
    offers: tuple[OfferView, ...]
    exhaustions: int
    final_exhaustion: int
    final_turn: bool
    third_field_price: int | None
    scores: tuple[int, ...] | None
    winners: tuple[int, ...] | None

    @property
    def is_over(self) -> bool:
        return self.step is STEP_GAME_OVER


VIEW_FIELDS = tuple(f.name for f in fields(PlayerView))
"""A view's fields, in order."""
