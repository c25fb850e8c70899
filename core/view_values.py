"""The values a view is made of: plain Python classes.

`view.py`, compiled with mypyc (setup.py), makes them. They stay plain classes because the views
of `TableViews` are subclasses that work out their fields when first read (`MomentView`,
`MomentLegal`, below), filling each instance's dict, and a compiled module checks the exact
class of the values it is handed where a plain one's subclasses pass.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from .cards import Variety
from .legal import legal_actions
from .menu import LegalActions
from .state import STEP_GAME_OVER, Step

if TYPE_CHECKING:
    from .view import TableViews


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


class _Part:
    """A field of a `MomentView` not read yet. Reading it works out its part of the view, which
    then sits in the view's own dict and, this being a non-data descriptor, hides this one. The
    parts are the seats, the hand, the face-up cards and the offers, each on its own (most
    decisions read these and little else), and every other field that every seat sees alike,
    all together. One `__get__` tells the parts apart by name: a descriptor object per part,
    each calling a function of its own, cost a heuristic bots' game 1% more machine
    instructions."""

    __slots__ = ("name",)

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, view: MomentView | None, owner: type | None = None) -> Any:
        if view is None:
            return self
        values = view.__dict__
        table: TableViews = values["_table"]
        moment = values["_moment"]
        name = self.name
        if moment is not table._moment:
            raise RuntimeError(f"a view's {name!r} was read after its moment had passed")
        if name == "seats":
            seats = values["seats"] = table._seats()
            return seats
        if name == "hand":
            hand = values["hand"] = table._hand(values["seat"])
            return hand
        if name == "face_up":
            face_up = values["face_up"] = table._face_up()
            return face_up
        if name == "offers":
            # Only while offers are open: a view made while none are shows `()` from its start.
            offers = values["offers"] = table._offers(values["seat"])
            return offers
        values.update(table._public())
        return values[name]


class MomentView(PlayerView):
    """A `PlayerView` from `TableViews`: its fields are worked out when one is first read."""

    hand = _Part()
    seats = _Part()
    deck_size = _Part()
    discard = _Part()
    face_up = _Part()
    offered = _Part()
    offers = _Part()
    exhaustions = _Part()
    final_exhaustion = _Part()
    final_turn = _Part()
    scores = _Part()
    winners = _Part()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerView):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in VIEW_FIELDS)

    __hash__ = PlayerView.__hash__

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in VIEW_FIELDS)
        return f"PlayerView({shown})"


class _Listed:
    """The actions of a `MomentLegal`, listed when first read."""

    def __get__(self, legal: MomentLegal | None, owner: type | None = None) -> Any:
        if legal is None:
            return self
        values = legal.__dict__
        table: TableViews = values["_table"]
        if values["_moment"] is not table._moment:
            raise RuntimeError("legal actions were read after their moment had passed")
        actions = values["actions"] = legal_actions(table._state, values["player"]).actions
        return actions


class MomentLegal(LegalActions):
    """`LegalActions` from `TableViews.legal`: the actions are listed when first read."""

    actions = _Listed()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LegalActions):
            return NotImplemented
        return (self.player, self.actions, self.trade, self.waiting) == (
            other.player,
            other.actions,
            other.trade,
            other.waiting,
        )

    __hash__ = LegalActions.__hash__

    def __repr__(self) -> str:
        return (
            f"LegalActions(player={self.player!r}, actions={self.actions!r}, "
            f"trade={self.trade!r}, waiting={self.waiting!r})"
        )
