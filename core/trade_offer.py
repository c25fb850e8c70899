"""An open trade offer, a plain class: the engine makes one from a dict of its fields
(`state.frozen_from`), which a class compiled with mypyc (setup.py) would not take."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Variety


@dataclass(frozen=True)
class TradeOffer:
    """An open proposal between the active player and one other player (ruling 6)."""

    id: int
    proposer: int
    receiver: int
    give: tuple[Card, ...]
    """The proposer's cards, fixed when the offer was made."""
    want: tuple[Variety, ...]
    """The varieties asked of the receiver; empty for a donation."""

    @property
    def is_donation(self) -> bool:
        """Nothing is asked in return."""
        return not self.want
