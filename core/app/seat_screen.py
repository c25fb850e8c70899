"""What a seat's private message shows instead of the game: a move asked about again before it
is made, or an offer the player is building. A value, kept in the game's chat state as its text
(`ask harvest 2`, `pick s2 …`)."""

from __future__ import annotations

from dataclasses import dataclass

ASK = "ask"
"""A button's command word: show what the command that follows does, and ask first."""
PICK = "pick"
"""A button's command word: show the trade picker with the draft that follows."""


@dataclass(frozen=True)
class Screen:
    """A question (`ASK`, `rest`: the move's text) or the offer picker (`PICK`, `rest`: the
    draft)."""

    kind: str
    rest: str

    @property
    def asks(self) -> bool:
        return self.kind == ASK

    @property
    def picks(self) -> bool:
        return self.kind == PICK

    @property
    def text(self) -> str:
        """As the chat state keeps it, and as a decision names it (`numbers.decision_of`)."""
        return f"{self.kind} {self.rest}"

    @classmethod
    def read(cls, text: object) -> Screen | None:
        """A screen as the chat state kept it; None for anything else."""
        if not isinstance(text, str):
            return None
        kind, _, rest = text.partition(" ")
        return cls(kind, rest) if kind in (ASK, PICK) else None
