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
