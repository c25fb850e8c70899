"""What is played for a player who lets a deadline pass: the least surprising legal move.

Decline offers made to him, end trading and optional planting, plant into the best field (one of
the same variety, else an empty one), and when a card fits nowhere harvest the least valuable field.
"""

from __future__ import annotations

from ..actions import (
    AcceptTrade,
    Action,
    DeclineTrade,
    DiscardOffered,
    EndStep,
    Harvest,
    Plant,
    PlantFaceUp,
    PlantOffered,
    PlantSetAside,
    WithdrawTrade,
)
from ..legal import LegalActions
from ..view import PlayerView

_PLANTING = (Plant, PlantSetAside, PlantFaceUp, PlantOffered)
Planting = Plant | PlantSetAside | PlantFaceUp | PlantOffered


def default_action(view: PlayerView, legal: LegalActions) -> Action | None:
    """The move made for a player at his deadline; None when nothing is pending for him."""
    actions = legal.actions
    if any(isinstance(a, EndStep) for a in actions):
        # Ending a step is only offered where it gives nothing up: optional planting, trading
        # (which closes the open offers), the duel's optional discard.
        return next(a for a in actions if isinstance(a, EndStep))
    declines = [a for a in actions if isinstance(a, DeclineTrade)]
    if declines:
        return declines[0]
    if not legal.waiting:
        return None
    plantings = [a for a in actions if isinstance(a, _PLANTING)]
    if plantings:
        return max(plantings, key=lambda a: _planting_score(view, a))
    discards = [a for a in actions if isinstance(a, DiscardOffered)]
    if discards:
        return discards[0]
    harvests = [a for a in actions if isinstance(a, Harvest)]
    if harvests:
        return min(harvests, key=lambda a: _field_value(view, a.field))
    rest = [a for a in actions if not isinstance(a, AcceptTrade | WithdrawTrade)]
    return rest[0] if rest else None


def _planting_score(view: PlayerView, action: Planting) -> tuple[int, int]:
    """Prefer a field that already grows beans (the fuller the better) over an empty one."""
    assert view.seat is not None
    field = view.seats[view.seat].fields[action.field]
    return (1 if field.variety is not None else 0, field.count)


def _field_value(view: PlayerView, index: int) -> tuple[int, int]:
    assert view.seat is not None
    field = view.seats[view.seat].fields[index]
    coins = field.variety.coins_for(field.count) if field.variety is not None else 0
    return (coins, field.count)
