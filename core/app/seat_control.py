"""Who decides for each seat of a game, and what the chat application keeps of it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from ..bots import Bot, make_bot
from ..legal import TradingMoment
from ..ports import SeatIdentity
from .numbers import SeatNumbers
from .seat_screen import Screen


@dataclass
class SeatControl:
    """Who decides for a seat right now, and how often its player let a deadline pass."""

    identity: SeatIdentity
    bot: Bot | None = None
    """The seat's bot, or a stand-in while its player is away."""
    misses: int = 0
    waiting_since: datetime | None = None
    """When the decision the game waits on from this seat began."""
    reminded: bool = False
    passed: TradingMoment | None = None
    """The trading moment at which the player said he would not trade."""
    notify: str = "turn"
    """When the player is notified: 'off', 'turn' (a decision falls to him) or 'all' (also
    whenever what he sees changes)."""
    trading: str = "always"
    """When a bot on turn keeps trading open for the player: 'always' (until he passes, or the
    trading window closes) or 'offers' (only while an offer to him waits for his answer)."""
    due: bool = False
    """A decision fell to the seat through someone else's move, and he was not told yet."""
    screen: Screen | None = None
    """What the player's private message shows instead of the game: a question (the move
    asked about) or the offer he is building (its draft); kept in the chat state, so a number
    answering it after a restart means what it meant before."""
    screen_at: str = ""
    """The moment the screen belongs to (the seat's token for a question, the turn for an
    offer); the screen is forgotten once the game moved past it."""
    numbers: SeatNumbers | None = field(default_factory=SeatNumbers)
    """What each number of his lists names, and what the lists he may be reading showed
    (`bohnanza.core.app.numbers`); kept in the chat state. None: not known (a number is
    refused until he is sent his list again)."""

    @property
    def is_human(self) -> bool:
        return self.identity.kind == "human"

    @property
    def stand_in(self) -> bool:
        return self.is_human and self.bot is not None


def new_controls(seats: Sequence[SeatIdentity], rng: random.Random) -> list[SeatControl]:
    """Controllers for a new or resumed game: a bot of its strategy for each bot seat."""
    return [
        SeatControl(
            seat,
            make_bot(seat.strategy or "heuristic", random.Random(rng.random()))
            if seat.kind == "bot"
            else None,
        )
        for seat in seats
    ]
