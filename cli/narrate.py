"""Plain-English text for events and views, for the terminal."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from bohnanza.core.app.render import STEP_NAMES
from bohnanza.core.cards import Card, Variety, variety_of
from bohnanza.core.events import (
    BeanDiscarded,
    BeanPlanted,
    CardsDrawn,
    DeckExhausted,
    DeckReshuffled,
    Event,
    FaceUpDrawn,
    FieldHarvested,
    GameEnded,
    LeftOnOffer,
    StepBegan,
    ThirdFieldBought,
    TradeAccepted,
    TradeClosed,
    TradeProposed,
    TradingEnded,
    TurnBegan,
)
from bohnanza.core.state import TradeOffer
from bohnanza.core.view import PlayerView

_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Controls (escape sequences start with one), formats (the direction overrides among them),
lone surrogates, and line and paragraph separators: shown escaped, never sent to a terminal."""
_JOINERS = frozenset({"\u200c", "\u200d"})
"""Formats that are part of ordinary text (in Persian, Indic scripts, emoji): kept."""


def is_hidden(char: str) -> bool:
    """A character that would act on the terminal, or hide or reorder text, instead of showing."""
    return unicodedata.category(char) in _HIDDEN_CATEGORIES and char not in _JOINERS


def printable(text: str) -> str:
    """Stored text (a name, a game id) fit for a terminal: each hidden character shown as its
    escape, e.g. '\\x1b' or '\\u202e'."""
    if text.isprintable():
        return text
    return "".join(_escape(char) if is_hidden(char) else char for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def json_printable(text: str) -> str:
    """JSON text with each hidden character written as its JSON escape: the same JSON value,
    nothing in it that acts on a terminal."""
    if text.isprintable():
        return text
    return "".join(
        _json_escape(char) if is_hidden(char) and char not in _JSON_WHITESPACE else char
        for char in text
    )


_JSON_WHITESPACE = frozenset("\n\r\t")
"""Outside strings (where JSON escapes them already), the layout of the JSON text itself."""


def _json_escape(char: str) -> str:
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def beans(cards: Sequence[Card]) -> str:
    """Card ids as variety names, e.g. 'Red, Red, Soy'."""
    return varieties(tuple(variety_of(c) for c in cards))


def varieties(kinds: Sequence[Variety]) -> str:
    """Varieties as a short list, or 'nothing'."""
    return ", ".join(v.title.removesuffix(" Bean") for v in kinds) or "nothing"


def describe_offer(offer: TradeOffer, names: Sequence[str]) -> str:
    """One offer in words."""
    asked = f"for {varieties(offer.want)}" if offer.want else "as a gift"
    return (
        f"offer {offer.id}: {names[offer.proposer]} gives {names[offer.receiver]} "
        f"{beans(offer.give)} {asked}"
    )


def describe(event: Event, names: Sequence[str], viewer: int | None = None) -> str | None:
    """A line for one event, or None for events not worth a line.

    Cards drawn into a hand are named only when `viewer` is that player, or for an omniscient
    narrator (viewer -1).
    """
    if isinstance(event, TurnBegan):
        return f"— turn {event.turn}: {names[event.player]} —"
    if isinstance(event, StepBegan):
        return None
    if isinstance(event, BeanPlanted):
        return (
            f"{names[event.player]} plants {beans([event.card])} ({event.source}) "
            f"in field {event.field + 1}"
        )
    if isinstance(event, BeanDiscarded):
        return f"{names[event.player]} discards {beans([event.card])} from the {event.source}"
    if isinstance(event, FieldHarvested):
        return (
            f"{names[event.player]} harvests field {event.field + 1}: "
            f"{len(event.cards)} x {beans(event.cards[:1])} for {event.coins} coin(s)"
        )
    if isinstance(event, ThirdFieldBought):
        return f"{names[event.player]} buys a 3rd field for {len(event.paid)} coins"
    if isinstance(event, FaceUpDrawn):
        extra = (
            f" and from the discard pile {beans(event.from_discard)}" if event.from_discard else ""
        )
        return f"{names[event.player]} turns up {beans(event.cards)}{extra}"
    if isinstance(event, CardsDrawn):
        shown = viewer in (event.player, -1)
        what = beans(event.cards) if shown else f"{len(event.cards)} card(s)"
        return f"{names[event.player]} draws {what}"
    if isinstance(event, DeckExhausted):
        return f"the deck is exhausted ({event.count})" + (
            " for the last time" if event.final else ""
        )
    if isinstance(event, DeckReshuffled):
        return f"the discard pile ({event.size} cards) is shuffled into a new deck"
    if isinstance(event, TradeProposed):
        return describe_offer(event.offer, names)
    if isinstance(event, TradeAccepted):
        offer = event.offer
        return (
            f"{names[offer.receiver]} accepts offer {offer.id}: gets {beans(offer.give)}, "
            f"gives {beans(event.given)}"
        )
    if isinstance(event, TradeClosed):
        return None if event.reason == "trading-ended" else f"offer {event.offer.id} {event.reason}"
    if isinstance(event, TradingEnded):
        kept = f", keeping {beans(event.kept)}" if event.kept else ""
        return f"{names[event.player]} ends trading{kept}"
    if isinstance(event, LeftOnOffer):
        return f"{names[event.player]} leaves {beans(event.cards)} on offer"
    if isinstance(event, GameEnded):
        scores = ", ".join(f"{names[i]} {s}" for i, s in enumerate(event.scores))
        winners = " and ".join(names[w] for w in event.winners)
        return f"game over — {scores}; winner: {winners}"
    return None


def render_view(view: PlayerView, names: Sequence[str]) -> str:
    """The table as one block of text, from one player's side."""
    lines = [
        f"turn {view.turn}, {names[view.active]} — {STEP_NAMES[view.step]}; "
        f"deck {view.deck_size}, discard {len(view.discard)}"
        + (f" (top {varieties(view.discard[-1:])})" if view.discard else "")
        + f", exhausted {view.exhaustions}/{view.final_exhaustion}"
    ]
    for seat in view.seats:
        fields = " | ".join(
            f"{f.count} {varieties([f.variety])}" if f.variety else "empty" for f in seat.fields
        )
        marker = "▶" if seat.seat == view.active else " "
        aside = f"; set aside: {varieties(seat.set_aside)}" if seat.set_aside else ""
        lines.append(
            f"{marker} {names[seat.seat]}: [{fields}] coins {seat.coins}, "
            f"hand {seat.hand_size}{aside}"
        )
    if view.face_up:
        lines.append(f"face up: {_numbered(view.face_up)}")
    if view.offered:
        lines.append(f"on offer: {_numbered(view.offered)}")
    for offer in view.offers:
        asked = f"for {varieties(offer.want)}" if offer.want else "as a gift"
        stale = " (stale)" if offer.stale else ""
        lines.append(
            f"offer {offer.id}: {names[offer.proposer]} → {names[offer.receiver]}: "
            f"{varieties(offer.give)} {asked}{stale}"
        )
    if view.seat is not None:
        lines.append(f"your hand: {_numbered(view.hand) or 'empty'}")
    return "\n".join(lines)


def _numbered(kinds: Sequence[Variety]) -> str:
    return "  ".join(f"{i}.{varieties([v])}" for i, v in enumerate(kinds, start=1))
