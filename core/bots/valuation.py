"""How a bot weighs beans: the varieties it wants, where a card fits, what a harvest costs.

Everything here reads public numbers only (field varieties and counts, the bot's own hand), so
any bot may use it with nothing but its `PlayerView`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import Variety
from ..view import FieldView, PlayerView, SeatView

_STEPS: dict[Variety, tuple[int, ...]] = {
    v: tuple(n for n in v.beanometer if n is not None) for v in Variety
}
TOP_STEP: dict[Variety, int] = {v: steps[-1] for v, steps in _STEPS.items()}
"""Cards needed for a variety's highest beanometer step."""


def cards_to_next_step(variety: Variety, count: int) -> int | None:
    """How many more beans reach the next coin step (None past the top step)."""
    for needed in _STEPS[variety]:
        if needed > count:
            return needed - count
    return None


def reached_step(variety: Variety, count: int) -> int:
    """The cards needed for the coins `count` beans earn (0 when they earn nothing)."""
    reached = 0
    for needed in _STEPS[variety]:
        if needed <= count:
            reached = needed
    return reached


def harvest_score(field: FieldView, upcoming: Sequence[Variety]) -> float:
    """How good harvesting this field is now: coins earned, less the progress thrown away.

    Beans past the last step reached are wasted; a field one bean short of its next step, or
    one the next cards from the hand would grow, is worth keeping.
    """
    variety = field.variety
    if variety is None:
        return float("-inf")
    count = field.count
    score = variety.coins_for(count) - 0.4 * (count - reached_step(variety, count))
    if cards_to_next_step(variety, count) == 1:
        score -= 0.5
    score -= 0.8 * sum(1 for v in upcoming if v is variety)
    return score


class Slot:
    """A field while simulating plantings."""

    __slots__ = ("count", "variety")

    def __init__(self, variety: Variety | None, count: int) -> None:
        self.variety = variety
        self.count = count


def slots_of(fields: Sequence[FieldView]) -> list[Slot]:
    """Mutable copies of the fields for simulating plantings."""
    return [Slot(f.variety, f.count) for f in fields]


def place(slots: list[Slot], variety: Variety) -> str:
    """Plant one bean in the simulation: onto its biggest field ("match"), an empty one
    ("empty"), or nowhere without a harvest ("forced", the slots unchanged)."""
    best: Slot | None = None
    for slot in slots:
        if slot.variety is variety and (best is None or slot.count > best.count):
            best = slot
    if best is not None:
        best.count += 1
        return "match"
    for slot in slots:
        if slot.variety is None:
            slot.variety, slot.count = variety, 1
            return "empty"
    return "forced"


def wanted_varieties(slots: Sequence[Slot], hand: Sequence[Variety]) -> list[Variety]:
    """The varieties growing in the fields, plus those the hand will plant in the empty ones."""
    growing = [s.variety for s in slots if s.variety is not None]
    return _wanted(growing, len(slots) - len(growing), hand)


def _wanted(growing: list[Variety], empty: int, hand: Sequence[Variety]) -> list[Variety]:
    """`growing` (a list of its own), and the first new varieties of the hand while empty
    fields last."""
    for variety in hand:
        if not empty:
            break
        if variety not in growing:
            growing.append(variety)
            empty -= 1
    return growing


_PLACEMENT_GAIN = {"match": 1.0, "empty": 0.3, "forced": -1.5}
"""What a card received is worth, by where it goes: onto its variety, an empty field, or
nowhere without a harvest."""


class Plots:
    """The fields as far as where a bean goes is concerned: the varieties growing and the
    empty fields left. Beans go where `place` puts them on slots of the same fields, without
    counting them."""

    __slots__ = ("empty", "growing")

    def __init__(self, fields: Sequence[FieldView]) -> None:
        growing = []
        for field in fields:  # a loop, not a list comprehension: no call for two or three
            if field.variety is not None:
                growing.append(field.variety)
        self.growing = growing
        """The varieties of the fields planted, one entry a field."""
        self.empty = len(fields) - len(growing)

    def copy(self) -> Plots:
        """Plots of their own, as these are now."""
        plots = Plots(())
        plots.growing = list(self.growing)
        plots.empty = self.empty
        return plots

    def gain(self, received: Iterable[Variety]) -> float:
        """Plant the received cards here, in order, and answer what that is worth: each bean
        goes where `place` would put it on slots of the same fields (which of two fields of one
        variety it joins changes nothing here)."""
        total = 0.0
        growing = self.growing
        for variety in received:
            if variety in growing:
                total += _PLACEMENT_GAIN["match"]
            elif self.empty:
                self.empty -= 1
                growing.append(variety)
                total += _PLACEMENT_GAIN["empty"]
            else:
                total += _PLACEMENT_GAIN["forced"]
        return total

    def plant_all(self, varieties: Iterable[Variety]) -> None:
        """Plant these cards here, in order (what they would be worth is not asked)."""
        self.gain(varieties)

    def wanted(self, hand: Sequence[Variety]) -> list[Variety]:
        """`wanted_varieties` of these fields."""
        return _wanted(list(self.growing), self.empty, hand)


def spare_cards(fields: Sequence[FieldView], cards: Sequence[Variety]) -> list[int]:
    """Indexes of the cards (to be planted in order) that would find no field without a harvest.

    Cards matching a field are placed before cards that need an empty one: a card finds no
    field when its variety grows nowhere and the empty fields went to other varieties first.
    """
    growing = []
    for field in fields:
        if field.variety is not None:
            growing.append(field.variety)
    empty = len(fields) - len(growing)
    spare = []
    for i, variety in enumerate(cards):
        if variety in growing:
            continue
        if empty:
            empty -= 1
            growing.append(variety)
        else:
            spare.append(i)
    return spare


def empty_field_is_free(
    fields: Sequence[FieldView], variety: Variety, next_cards: Sequence[Variety]
) -> bool:
    """Taking an empty field for `variety` leaves room for the next card of the hand."""
    empty = sum(1 for f in fields if f.variety is None)
    if empty >= 2 or not next_cards:
        return True
    front = next_cards[0]
    return front is variety or any(f.variety is front for f in fields)


def worth_buying_field(view: PlayerView, me: SeatView) -> bool:
    """The 3rd field is affordable and enough of the game is left to earn its price back."""
    price = view.third_field_price
    if price is None or me.bought_third_field or me.coins < price:
        return False
    passes_left = view.final_exhaustion - view.exhaustions - 1
    cards_left = view.deck_size + passes_left * 60
    own_turns_left = cards_left / (5 * len(view.seats))
    return own_turns_left >= 5
