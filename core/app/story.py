"""The story of a game in a few public lines: who sold what, who traded what, the deck running out.

Only what everyone at the table sees is told (fields, trades and the deck are public in
Bohnanza); a line is made from an event and the seat names, in the reader's language.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Sequence

from ..cards import Card, variety_of
from ..events import (
    DeckExhausted,
    DeckReshuffled,
    Event,
    FieldHarvested,
    ThirdFieldBought,
    TradeAccepted,
)
from ..game import Game
from ..state import GameState, Step
from .i18n import Translator, bean_name

STORY_LINES = 3
"""How many of the latest events the table tells."""
TOLD = (FieldHarvested, TradeAccepted, ThirdFieldBought, DeckExhausted, DeckReshuffled)
"""The events worth a line on the table."""


def is_told(event: Event) -> bool:
    return isinstance(event, TOLD)


def beans_text(tr: Translator, cards: Sequence[Card]) -> str:
    """Cards as counted bean names ('2x Chili Bean, Soy Bean'), or a dash for none."""
    if not cards:
        return "—"
    counts = Counter(variety_of(card) for card in cards)
    return ", ".join(
        f"{n}x {bean_name(tr, v)}" if n > 1 else bean_name(tr, v) for v, n in counts.items()
    )


def story_line(tr: Translator, event: Event, names: Sequence[str]) -> str | None:
    """One line for a told event, or None."""
    if isinstance(event, FieldHarvested) and event.cards:
        return tr.ngettext(
            "{name} sold {count}x {bean} for {coins} coin",
            "{name} sold {count}x {bean} for {coins} coins",
            event.coins,
        ).format(
            name=names[event.player],
            count=len(event.cards),
            bean=bean_name(tr, variety_of(event.cards[0])),
            coins=event.coins,
        )
    if isinstance(event, TradeAccepted):
        # Who gave what to whom: the proposer's beans, and what the other gave back.
        offer = event.offer
        shown = {
            "giver": names[offer.proposer],
            "taker": names[offer.receiver],
            "given": beans_text(tr, offer.give),
        }
        if not event.given:
            return tr.gettext("{giver} gave {given} to {taker} as a gift").format(**shown)
        return tr.gettext("{giver} gave {given} to {taker} for {taken}").format(
            taken=beans_text(tr, event.given), **shown
        )
    if isinstance(event, ThirdFieldBought):
        return tr.gettext("{name} bought a 3rd bean field").format(name=names[event.player])
    if isinstance(event, DeckExhausted):
        if event.final:
            return tr.gettext("The deck ran out for the last time: the game ends.")
        return tr.gettext("The deck ran out.")
    if isinstance(event, DeckReshuffled):
        return tr.gettext("The discard pile became the new deck ({size} cards)").format(
            size=event.size
        )
    return None


_OPENING_STEPS = (Step.PLANT, Step.DUEL_OFFERED, Step.DUEL_PLANT)
"""Steps before the face-up cards are out; the room is shown the table once they are."""


def table_key_of(state: GameState) -> tuple[object, ...]:
    """The moment of the game the room's table shows: it is shown anew when the turn changes
    and when trading opens (and at the end), not at every move."""
    return (state.turn, state.active, state.step not in _OPENING_STEPS, state.is_over)


class StoryKeeper:
    """Follows a game action by action (as it is played, or replayed after a restart, alike):
    its latest told events, and the moment the table last became due."""

    def __init__(self) -> None:
        self._told: deque[tuple[int, Event]] = deque(maxlen=4 * STORY_LINES)
        self._moment: tuple[object, ...] | None = None
        self._moment_began = -1

    def seen(self, game: Game, events: Sequence[Event]) -> None:
        index = len(game.actions) - 1
        self._told.extend((index, event) for event in events if is_told(event))
        moment = table_key_of(game.state)
        if moment != self._moment:
            self._moment, self._moment_began = moment, index

    @property
    def recent(self) -> tuple[Event, ...]:
        """The latest told events."""
        return tuple(event for _, event in self._told)[-STORY_LINES:]

    @property
    def table_story(self) -> tuple[Event, ...]:
        """The told events up to the moment the table shows (it is not edited at every move,
        and what it tells must not depend on when it was last edited)."""
        told = [event for index, event in self._told if index <= self._moment_began]
        return tuple(told[-STORY_LINES:])
