"""The actions a player can take: small frozen dataclasses with a JSON form both ways.

Positions are 0-based: `field` counts a player's fields from the left, `position` counts his hand
from the front, `index` counts the cards of an area (face-up, set-aside, offered) in the order
shown. A trade names hand cards by position and asks for varieties; the cards are fixed when the
offer is made.

>>> action_from_json({"type": "plant", "player": 1, "field": 0})
Plant(player=1, field=0)
>>> action_to_json(Harvest(player=0, field=2))
{'type': 'harvest', 'player': 0, 'field': 2}
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .cards import Variety


@dataclass(frozen=True)
class Action:
    """Something one player does."""

    kind: ClassVar[str] = ""
    player: int


@dataclass(frozen=True)
class Plant(Action):
    """Plant the front card of the hand (step 1; the duel's step 2)."""

    kind: ClassVar[str] = "plant"
    field: int


@dataclass(frozen=True)
class PlantSetAside(Action):
    """Plant a traded, donated or kept face-up card (step 3)."""

    kind: ClassVar[str] = "plant-set-aside"
    index: int
    field: int


@dataclass(frozen=True)
class PlantFaceUp(Action):
    """Duel, step 3: plant one of the cards just drawn face up."""

    kind: ClassVar[str] = "plant-face-up"
    index: int
    field: int


@dataclass(frozen=True)
class PlantOffered(Action):
    """Duel, step 1: plant a card the opponent left on offer."""

    kind: ClassVar[str] = "plant-offered"
    index: int
    field: int


@dataclass(frozen=True)
class DiscardOffered(Action):
    """Duel, step 1: discard a card the opponent left on offer."""

    kind: ClassVar[str] = "discard-offered"
    index: int


@dataclass(frozen=True)
class DiscardFromHand(Action):
    """Duel, step 2: after planting, discard one card from anywhere in the hand; ends the step."""

    kind: ClassVar[str] = "discard-from-hand"
    position: int


@dataclass(frozen=True)
class EndStep(Action):
    """Finish the current step: stop planting, end trading, or leave the rest on offer (duel)."""

    kind: ClassVar[str] = "end-step"


@dataclass(frozen=True)
class Harvest(Action):
    """Harvest and sell every bean in one field."""

    kind: ClassVar[str] = "harvest"
    field: int


@dataclass(frozen=True)
class BuyField(Action):
    """Buy the 3rd bean field."""

    kind: ClassVar[str] = "buy-field"


@dataclass(frozen=True)
class ProposeTrade(Action):
    """Offer cards to a partner, asking for varieties in return (nothing asked: a donation)."""

    kind: ClassVar[str] = "propose-trade"
    partner: int
    hand: tuple[int, ...] = ()
    face_up: tuple[int, ...] = ()
    want: tuple[Variety, ...] = ()


@dataclass(frozen=True)
class CounterTrade(Action):
    """Answer an offer made to you with an offer of your own; the first one is declined."""

    kind: ClassVar[str] = "counter-trade"
    offer: int
    hand: tuple[int, ...] = ()
    face_up: tuple[int, ...] = ()
    want: tuple[Variety, ...] = ()


@dataclass(frozen=True)
class AcceptTrade(Action):
    """Accept an offer made to you, giving the cards it asks for (by hand position / face-up)."""

    kind: ClassVar[str] = "accept-trade"
    offer: int
    hand: tuple[int, ...] = ()
    face_up: tuple[int, ...] = ()


@dataclass(frozen=True)
class DeclineTrade(Action):
    """Decline an offer made to you."""

    kind: ClassVar[str] = "decline-trade"
    offer: int


@dataclass(frozen=True)
class WithdrawTrade(Action):
    """Withdraw an offer you made."""

    kind: ClassVar[str] = "withdraw-trade"
    offer: int


TradeAction = ProposeTrade | CounterTrade | AcceptTrade | DeclineTrade | WithdrawTrade

ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        Plant,
        PlantSetAside,
        PlantFaceUp,
        PlantOffered,
        DiscardOffered,
        DiscardFromHand,
        EndStep,
        Harvest,
        BuyField,
        ProposeTrade,
        CounterTrade,
        AcceptTrade,
        DeclineTrade,
        WithdrawTrade,
    )
}

_MAX_LIST = 200


class ActionFormatError(ValueError):
    """A JSON action that does not have the shape of any action."""


def action_to_json(action: Action) -> dict[str, Any]:
    """The action as a JSON object: its type, then its fields."""
    out: dict[str, Any] = {"type": action.kind}
    for f in fields(action):
        value = getattr(action, f.name)
        if isinstance(value, tuple):
            value = [v.value if isinstance(v, Variety) else v for v in value]
        out[f.name] = value
    return out


def action_from_json(data: object) -> Action:
    """Read an action from its JSON object, refusing anything not exactly of its shape."""
    if not isinstance(data, dict):
        raise ActionFormatError("an action must be a JSON object")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None or not isinstance(kind, str):
        raise ActionFormatError(f"unknown action type {kind!r}")
    names, allowed = _FIELD_NAMES[cls]
    extra = data.keys() - allowed
    if extra:
        raise ActionFormatError(f"{kind}: unexpected keys {sorted(extra)}")
    values: dict[str, Any] = {}
    for name in names:
        if name not in data:
            if name in ("hand", "face_up", "want"):
                continue
            raise ActionFormatError(f"{kind}: missing {name!r}")
        raw = data[name]
        if name == "want":
            values[name] = _varieties(kind, raw)
        elif name in ("hand", "face_up"):
            values[name] = _ints(kind, name, raw)
        else:
            values[name] = _int(kind, name, raw)
    return cls(**values)


_FIELD_NAMES: dict[type[Action], tuple[tuple[str, ...], frozenset[str]]] = {
    cls: (names, frozenset({"type", *names}))
    for cls in ACTION_TYPES.values()
    for names in [tuple(f.name for f in fields(cls))]
}
"""Each action's field names in order, and every key its JSON object may hold."""


def _int(kind: str, name: str, raw: object) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw < 10_000:
        raise ActionFormatError(f"{kind}: {name!r} must be a small non-negative integer")
    return raw


def _ints(kind: str, name: str, raw: object) -> tuple[int, ...]:
    if not isinstance(raw, list) or len(raw) > _MAX_LIST:
        raise ActionFormatError(f"{kind}: {name!r} must be a list of positions")
    return tuple(_int(kind, name, v) for v in raw)


def _varieties(kind: str, raw: object) -> tuple[Variety, ...]:
    if not isinstance(raw, list) or len(raw) > _MAX_LIST:
        raise ActionFormatError(f"{kind}: 'want' must be a list of variety codes")
    try:
        return tuple(Variety(v) for v in raw)
    except ValueError:
        raise ActionFormatError(f"{kind}: 'want' names an unknown variety") from None
