"""Set-up per player count: which varieties are removed, fields, deals, draws and the game's end."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import VARIETIES, Card, Variety, cards_of

MIN_PLAYERS = 2
MAX_PLAYERS = 7


@dataclass(frozen=True)
class TableSetup:
    """The rules that change with the number of players (rules/README.md, set-up table)."""

    players: int
    removed: tuple[Variety, ...]
    fields_at_start: int
    third_field_price: int | None
    """Coins for the 3rd field, or None where it cannot be bought."""
    deal: tuple[int, ...]
    """Cards dealt to each seat, starting player first."""
    draw_in_step_4: int
    final_exhaustion: int
    """The deck exhaustion (1st, 2nd, 3rd) that ends the game."""

    @property
    def is_duel(self) -> bool:
        """Two players play the bean duel, with its own turn."""
        return self.players == 2

    @property
    def varieties(self) -> tuple[Variety, ...]:
        """The varieties in play."""
        return tuple(v for v in VARIETIES if v not in self.removed)

    def cards_in_play(self) -> list[Card]:
        """Every card that is shuffled into the deck, in id order."""
        return [card for v in self.varieties for card in cards_of(v)]

    def cards_in_box(self) -> list[Card]:
        """The cards of the removed varieties, which stay in the box."""
        return [card for v in self.removed for card in cards_of(v)]


def setup_for(players: int) -> TableSetup:
    """The set-up for 2 to 7 players.

    >>> setup_for(3).fields_at_start
    3
    >>> setup_for(6).deal
    (3, 4, 5, 6, 6, 6)
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Bohnanza is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    if players == 2:
        return TableSetup(2, (Variety.GARDEN, Variety.COCOA), 2, 3, (5, 5), 2, 1)
    if players == 3:
        return TableSetup(3, (Variety.COCOA,), 3, None, (5,) * 3, 3, 2)
    if players <= 5:
        return TableSetup(players, (Variety.COFFEE,), 2, 3, (5,) * players, 3, 3)
    deal = (3, 4, 5) + (6,) * (players - 3)
    return TableSetup(players, (Variety.COCOA, Variety.GARDEN), 2, 2, deal, 4, 3)
