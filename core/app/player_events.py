"""The lines that tell one player what concerned him among a game's latest events.

Where a platform cannot edit a message in place (the terminal), the player reads his screen once
per input: whatever happened in between is told here, one line per event, before his choices.
Offers to him (by number, also those withdrawn or expired meanwhile), his own offers by number
and what became of them and with whom, the trades done at the table, what the others planted
(in the duel, what the opponent did with the beans he was left on offer, and what he left),
his fields sold without his asking (a move played for him when a deadline passed, the final
harvest). Trades and sales are told with the
table's own story lines (story.py), so the story of a game has one renderer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..actions import Action
from ..cards import variety_of
from ..events import (
    BeanDiscarded,
    BeanPlanted,
    Event,
    FieldHarvested,
    LeftOnOffer,
    TradeAccepted,
    TradeClosed,
    TradeProposed,
)
from ..state import TradeOffer
from .event_log import Happened
from .i18n import Translator, bean_name
from .render import beans
from .story import beans_text, story_line

MARK = "• "
"""Before each line, so the events read apart from the table and the choices."""


def player_lines(
    tr: Translator,
    happened: Iterable[Happened],
    seat: int,
    names: Sequence[str],
    typed: Iterable[int] = (),
) -> list[str]:
    """A line for each event of `happened` that concerns `seat`; `typed`: the indexes of the
    actions the player chose himself (the others of his seat were played for him)."""
    chosen = set(typed)
    lines: list[str] = []
    run = _Run(tr, names)
    for item in happened:
        if item.action.player == seat and item.index not in chosen:
            lines += run.told()
            lines.append(MARK + tr.gettext("A move was played for you: your deadline passed."))
        for event in item.events:
            if isinstance(event, BeanPlanted | BeanDiscarded) and event.player != seat:
                lines += run.add(event)
                continue
            line = event_line(tr, event, item.action, seat, names)
            if line is not None:
                lines += run.told()
                lines.append(MARK + line)
    return lines + run.told()


class _Run:
    """Another player's plantings (or discards) in a row, told in one line: 'Bot 1 planted 2x
    Soy Bean → 1, Blue Bean → 2.' Beans a duel opponent left on offer are told apart."""

    def __init__(self, tr: Translator, names: Sequence[str]) -> None:
        self._tr = tr
        self._names = names
        self._key: tuple[int, bool, bool] | None = None
        """Whose, planted (or discarded), from the cards left on offer."""
        self._beans: list[tuple[str, int | None]] = []

    def add(self, event: BeanPlanted | BeanDiscarded) -> list[str]:
        """Take in one event; the line of the run it ends, if it ends one."""
        planted = isinstance(event, BeanPlanted)
        key = (event.player, planted, event.source == "offered")
        told = [] if key == self._key else self.told()
        self._key = key
        field = event.field if isinstance(event, BeanPlanted) else None
        self._beans.append((bean_name(self._tr, variety_of(event.card)), field))
        return told

    def told(self) -> list[str]:
        """The line of the run so far (none if empty), and a new run begins."""
        key, beans = self._key, self._beans
        self._key, self._beans = None, []
        if key is None or not beans:
            return []
        player, planted, offered = key
        tr = self._tr
        counted: list[tuple[tuple[str, int | None], int]] = []
        for bean in beans:
            if counted and counted[-1][0] == bean:
                counted[-1] = (bean, counted[-1][1] + 1)
            else:
                counted.append((bean, 1))
        parts = []
        for (name, field), count in counted:
            part = f"{count}x {name}" if count > 1 else name
            parts.append(part if field is None else f"{part} → {field + 1}")
        shown = {"name": self._names[player], "beans": ", ".join(parts)}
        if planted and offered:
            text = tr.gettext("{name} planted what you left on offer: {beans}.")
        elif planted:
            text = tr.gettext("{name} planted {beans}.")
        elif offered:
            text = tr.gettext("{name} tossed what you left on offer: {beans}.")
        else:
            text = tr.gettext("{name} discarded {beans} from the hand.")
        return [MARK + text.format(**shown)]


def event_line(
    tr: Translator, event: Event, action: Action, seat: int, names: Sequence[str]
) -> str | None:
    """The line for one event as `seat` reads it, or None when it does not concern him."""
    if isinstance(event, TradeProposed):
        return _proposed(tr, event, seat, names)
    if isinstance(event, TradeClosed):
        return _closed(tr, event.offer, event.reason, seat, names)
    if isinstance(event, TradeAccepted):
        return _accepted(tr, event, seat, names)
    if isinstance(event, LeftOnOffer) and event.player != seat and event.cards:
        return tr.gettext("{name} left on offer for you: {beans}.").format(
            name=names[event.player], beans=beans_text(tr, event.cards)
        )
    if isinstance(event, FieldHarvested) and event.player == seat and action.player != seat:
        if not event.cards:
            return None
        return tr.ngettext(
            "Your field of {count}x {bean} was sold for {coins} coin.",
            "Your field of {count}x {bean} was sold for {coins} coins.",
            event.coins,
        ).format(
            count=len(event.cards),
            bean=bean_name(tr, variety_of(event.cards[0])),
            coins=event.coins,
        )
    return None


def terms_text(tr: Translator, offer: TradeOffer) -> str:
    """'Blue Bean for 2x Soy Bean', or 'Blue Bean as a gift'."""
    give = beans_text(tr, offer.give)
    if not offer.want:
        return tr.gettext("{give} as a gift").format(give=give)
    want = beans(tr, offer.want)
    return tr.gettext("{give} for {want}").format(give=give, want=want)


def own_offer_lines(
    tr: Translator, happened: Iterable[Happened], seat: int, names: Sequence[str]
) -> list[str]:
    """The lines on the offers `seat` made among `happened`: each by its number, and what
    became of it there (an answer given at once, by a bot)."""
    mine: set[int] = set()
    lines: list[str] = []
    for item in happened:
        for event in item.events:
            if isinstance(event, TradeProposed) and event.offer.proposer == seat:
                mine.add(event.offer.id)
            elif not isinstance(event, TradeClosed | TradeAccepted) or event.offer.id not in mine:
                continue
            line = event_line(tr, event, item.action, seat, names)
            if line is not None:
                lines.append(line)
    return lines


def _proposed(tr: Translator, event: TradeProposed, seat: int, names: Sequence[str]) -> str | None:
    offer = event.offer
    if offer.proposer == seat:
        # A counter-offer is told as such by the closing of the offer it answers.
        return tr.gettext("Your offer #{number} to {name}: {terms}.").format(
            number=offer.id, name=names[offer.receiver], terms=terms_text(tr, offer)
        )
    if offer.receiver != seat:
        return None
    shown = {"number": offer.id, "name": names[offer.proposer], "terms": terms_text(tr, offer)}
    if event.replaces is not None:
        return tr.gettext(
            "{name} answered your offer #{old} with offer #{number}: {terms}."
        ).format(old=event.replaces, **shown)
    return tr.gettext("Offer #{number} from {name} to you: {terms}.").format(**shown)


def _closed(
    tr: Translator, offer: TradeOffer, reason: str, seat: int, names: Sequence[str]
) -> str | None:
    if seat == offer.receiver:
        name = names[offer.proposer]
        told = {
            "declined": tr.gettext("You declined offer #{number} from {name}."),
            "withdrawn": tr.gettext("{name} withdrew offer #{number}."),
            "countered": tr.gettext("You answered offer #{number} from {name} with your own."),
            "trading-ended": tr.gettext("Offer #{number} from {name} expired: trading ended."),
        }
    elif seat == offer.proposer:
        name = names[offer.receiver]
        told = {
            "declined": tr.gettext("{name} declined your offer #{number}."),
            "withdrawn": tr.gettext("You withdrew your offer #{number} to {name}."),
            # "countered": told by the answer itself, an offer to him that replaces it
            "trading-ended": tr.gettext("Your offer #{number} to {name} expired: trading ended."),
        }
    else:
        return None
    text = told.get(reason)
    return None if text is None else text.format(number=offer.id, name=name)


def _accepted(tr: Translator, event: TradeAccepted, seat: int, names: Sequence[str]) -> str | None:
    offer = event.offer
    if seat not in (offer.proposer, offer.receiver):
        return story_line(tr, event, names)
    mine = seat == offer.proposer
    shown = {
        "name": names[offer.receiver if mine else offer.proposer],
        "number": offer.id,
        "give": beans_text(tr, offer.give),
        "given": beans_text(tr, event.given),
    }
    if mine and event.given:
        text = tr.gettext("{name} accepted your offer #{number}: you gave {give} for {given}.")
    elif mine:
        text = tr.gettext("{name} accepted your offer #{number}: you gave {give} as a gift.")
    elif event.given:
        text = tr.gettext("You accepted offer #{number} from {name}: {give} for your {given}.")
    else:
        text = tr.gettext("You accepted offer #{number} from {name}: {give} as a gift.")
    return text.format(**shown)
