"""The port every bot implements: a choice made from one player's view and legal actions."""

from __future__ import annotations

from typing import Protocol

from ..actions import Action
from ..legal import LegalActions
from ..view import PlayerView


class Bot(Protocol):
    """A player that decides from what its seat may see, never from the game state."""

    strategy: str
    """The strategy's name, as `make_bot` knows it and game records store it."""

    def choose(self, view: PlayerView, legal: LegalActions) -> Action | None:
        """The action to take now, or None for nothing right now.

        A bot whose `legal.waiting` is True must return an action: the game waits on it. The
        view and the legal actions are values that describe this moment, and may be kept:
        nothing in them leads to the game itself.
        """
        ...


class NeedsView:
    """What `Glancing.glance` answers when it cannot decide without the seat's view."""

    __slots__ = ()


NEEDS_VIEW = NeedsView()


class Glancing(Bot, Protocol):
    """A bot that decides most moments from the turn number and its legal actions alone.

    A driver that asks many seats at every moment (`asking.next_action`) calls `glance` first
    and makes the seat's view only when it answers `NEEDS_VIEW`, then calls `choose_seen` with
    the view and the same legal actions. Together they decide exactly as `choose` does, drawing
    the same randomness in the same order; like a view, the turn number is a value.
    """

    def glance(self, turn: int, legal: LegalActions) -> Action | NeedsView | None:
        """The choice `choose` would make at this turn, or NEEDS_VIEW."""
        ...

    def choose_seen(self, view: PlayerView, legal: LegalActions) -> Action | None:
        """The choice, once `glance` answered NEEDS_VIEW for these legal actions."""
        ...
