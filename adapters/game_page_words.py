"""The words of a game page, in the reader's language: event lines, labels and the result.

The chat table's translated messages are used where they say the same thing (the story lines of
sales, trades and the deck, the offers, the step names, coins and hand sizes); the moves in between
(planting, drawing, turning up) have lines of their own. A card drawn into a hand is named only for
the player who drew it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bohnanza.core.app.i18n import N_, Translator, bean_name
from bohnanza.core.app.render import STEP_NAMES, coins_text, offer_line
from bohnanza.core.app.story import beans_text, story_line
from bohnanza.core.cards import VARIETIES, variety_of
from bohnanza.core.events import (
    BeanDiscarded,
    BeanPlanted,
    CardsDrawn,
    Event,
    FaceUpDrawn,
    GameEnded,
    LeftOnOffer,
    TradeClosed,
    TradeProposed,
    TradingEnded,
    TurnBegan,
)
from bohnanza.core.state import Step
from bohnanza.core.view import OfferView, PlayerView

_CLOSED: dict[str, str] = {
    "declined": N_("Offer #{offer} was declined"),
    "withdrawn": N_("Offer #{offer} was withdrawn"),
}
"""Closed offers worth a line: a countered one is followed by the counter-offer's own line, and
those closed when trading ends go without saying."""


def event_lines(
    tr: Translator, event: Event, names: Sequence[str], viewer: int | None
) -> list[str]:
    """The lines for one event as `viewer` (None: a spectator) saw it; none for an event that
    goes without saying (a step's start, an offer closed by a counter-offer)."""
    told = story_line(tr, event, names)
    if told is not None:
        return [told]
    if isinstance(event, TurnBegan):
        line = tr.gettext("Turn {turn}: {name}").format(turn=event.turn, name=names[event.player])
        return [line]
    if isinstance(event, BeanPlanted):
        planted = tr.gettext("{name} planted {bean} in field {field}")
        bean = bean_name(tr, variety_of(event.card))
        return [planted.format(name=names[event.player], bean=bean, field=event.field + 1)]
    if isinstance(event, BeanDiscarded):
        discarded = tr.gettext("{name} discarded {bean}")
        bean = bean_name(tr, variety_of(event.card))
        return [discarded.format(name=names[event.player], bean=bean)]
    if isinstance(event, FaceUpDrawn):
        return _turned_up(tr, event, names)
    if isinstance(event, CardsDrawn):
        return [_drawn(tr, event, names, viewer)]
    if isinstance(event, TradeProposed):
        return [offer_line(tr, _offer_view(event), names)]
    if isinstance(event, TradeClosed) and event.reason in _CLOSED:
        return [tr.gettext(_CLOSED[event.reason]).format(offer=event.offer.id)]
    if isinstance(event, TradingEnded):
        return [tr.gettext("{name} ended trading").format(name=names[event.player])]
    if isinstance(event, LeftOnOffer):
        left = tr.gettext("{name} left {beans} on offer")
        return [left.format(name=names[event.player], beans=beans_text(tr, event.cards))]
    if isinstance(event, GameEnded):
        return [tr.gettext(STEP_NAMES[Step.GAME_OVER])]
    return []


def _turned_up(tr: Translator, event: FaceUpDrawn, names: Sequence[str]) -> list[str]:
    name = names[event.player]
    turned = tr.gettext("{name} turned up {beans}")
    lines = [turned.format(name=name, beans=beans_text(tr, event.cards))]
    if event.from_discard:
        taken = tr.gettext("{name} took {beans} from the discard pile")
        lines.append(taken.format(name=name, beans=beans_text(tr, event.from_discard)))
    return lines


def _drawn(tr: Translator, event: CardsDrawn, names: Sequence[str], viewer: int | None) -> str:
    name = names[event.player]
    if viewer == event.player:
        drew = tr.gettext("{name} drew {beans}")
        return drew.format(name=name, beans=beans_text(tr, event.cards))
    count = len(event.cards)
    drew_count = tr.ngettext("{name} drew {count} card", "{name} drew {count} cards", count)
    return drew_count.format(name=name, count=count)


def _offer_view(event: TradeProposed) -> OfferView:
    offer = event.offer
    give = tuple(variety_of(card) for card in offer.give)
    return OfferView(offer.id, offer.proposer, offer.receiver, give, offer.want, stale=False)


def labels(tr: Translator, most_coins: int, most_cards: int) -> dict[str, Any]:
    """Every word the page's script shows, translated; counts from 0 up to the most a seat had,
    each in the plural form its number takes."""
    return {
        "head": tr.gettext("Bohnanza · game {game} · turn {turn} · {step}"),
        "piles": tr.gettext(
            "Deck {deck} · discard pile {discard} (top: {top}) · "
            "deck exhausted {exhausted} of {final}"
        ),
        "steps": {step.value: tr.gettext(name) for step, name in STEP_NAMES.items()},
        "seat": tr.gettext("{number}. {name}: {coins}, {cards}"),
        "coins": [coins_text(tr, n) for n in range(most_coins + 1)],
        "cards": [
            tr.ngettext("{count} card in hand", "{count} cards in hand", n).format(count=n)
            for n in range(most_cards + 1)
        ],
        "empty": tr.gettext("empty"),
        "aside": tr.gettext("set aside: {beans}"),
        "faceUp": tr.gettext("Face-up: {beans}"),
        "onOffer": tr.gettext("On offer: {beans}"),
        "offers": tr.gettext("Open offers:"),
        "hand": tr.gettext("Your hand (front first): {cards}"),
        "lastTurn": tr.gettext("The deck is exhausted for the last time: this is the last turn."),
        "action": tr.gettext("Action {number} of {total}"),
        "beans": [bean_name(tr, variety) for variety in VARIETIES],
    }


def page_words(tr: Translator) -> dict[str, str]:
    """The words written into the page itself (its buttons, headings and key hint)."""
    return {
        "first": tr.gettext("First action"),
        "previous": tr.gettext("Previous action"),
        "next": tr.gettext("Next action"),
        "last": tr.gettext("Last action"),
        "keys": tr.gettext("Keys: ← → Home End"),
        "slider": tr.gettext("Move through the actions"),
        "chart": tr.gettext("Coins over the turns"),
        "story": tr.gettext("What happened"),
        "beans": tr.gettext("The beans and their beanometers"),
        "turning": tr.gettext("Turning points"),
    }


def viewer_words(tr: Translator, seat: int | None, names: Sequence[str]) -> str:
    """Whose view the page shows."""
    if seat is None:
        return tr.gettext("As a spectator saw it: no hand is shown.")
    seen = tr.gettext("As {name} saw it: only the hand of {name} is shown.")
    return seen.format(name=names[seat])


def result_lines(
    tr: Translator, game_id: str, view: PlayerView, names: Sequence[str]
) -> dict[str, Any]:
    """The final scores, most coins first, and the winners (the chat's result message)."""
    scores, winners = view.scores, view.winners
    assert scores is not None and winners is not None
    ranked = sorted(range(len(names)), key=lambda s: (-scores[s], s))
    lines = [
        tr.ngettext("{name}: {coins} coin", "{name}: {coins} coins", scores[seat]).format(
            name=names[seat], coins=scores[seat]
        )
        for seat in ranked
    ]
    return {
        "over": tr.gettext("Game {game} is over.").format(game=game_id),
        "scores": [[seat, scores[seat], line] for seat, line in zip(ranked, lines, strict=True)],
        "winners": list(winners),
        "winner": tr.gettext("Winner: {names}").format(names=", ".join(names[s] for s in winners)),
    }
