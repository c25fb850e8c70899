"""What one player may do at a moment: the menu `legal.legal_actions` lists.

The two types live in a module of their own, kept plain Python: `legal.py` is compiled with
mypyc (README: Development), and the menus made at every decision fill each instance's dict in
one go (`state.frozen_from`), which a compiled class would not take. A menu holds values only:
actions, seats and counts, nothing that leads to the game state.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action


@dataclass(frozen=True)
class TradeOptions:
    """What a player may put into trade offers now."""

    partners: tuple[int, ...]
    """Seats he may propose to."""
    hand_size: int
    """He may offer any of his hand positions 0 .. hand_size-1."""
    face_up: int
    """He may offer face-up cards 0 .. face_up-1 (the active player only)."""


@dataclass(frozen=True)
class LegalActions:
    """Everything one player may do at this moment."""

    player: int
    actions: tuple[Action, ...]
    """Every concrete action, trade answers included (accepts with the first fitting cards)."""
    trade: TradeOptions | None
    """Set while he may propose or counter offers."""
    waiting: bool
    """The game cannot go on until this player acts."""

    def __bool__(self) -> bool:
        return self.trade is not None or bool(self.actions)
