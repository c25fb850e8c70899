"""Trading by buttons: a draft offer that the player builds tap by tap in his private message.

A draft names its target (a partner, anyone, or an offer to counter), the cards ticked from the
hand and the face-up cards, and the beans wanted. The whole draft travels in each button's
payload, so a press is the same however often it arrives; the draft shown last is kept on the
seat, and stored with the game's chat state (a number answering it after a restart means the
same). A 1-for-1 offer takes four
taps: the partner, the card, the bean wanted, Send.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from ..cards import VARIETIES, Variety
from ..table_setup import setup_for
from .i18n import BEAN_NAMES, N_, Translator, bean_name
from .messages import Button
from .seat_screen import PICK

SEND = "send"
"""A button's command word: make the offer of the draft that follows."""
ANYONE = "a"
"""The target of an offer made to every possible partner at once."""
NONE = "-"
MOST_WANTED = 2
"""A wanted variety cycles through 0, 1 and 2 cards with each tap."""
CARDS_PER_ROW = 3

PayloadOf = Callable[[str], str]
"""The payload of a button that carries a command, in the player's game and moment."""


@dataclass(frozen=True)
class Draft:
    """An offer being built: `target` is 's' + seat number (from 1), 'a' (anyone) or 'c' +
    the offer to counter; cards by hand position and face-up position (from 0)."""

    target: str
    hand: frozenset[int] = frozenset()
    face_up: frozenset[int] = frozenset()
    want: tuple[Variety, ...] = ()

    def words(self) -> str:
        """The draft as payload words: target, hand mask, face-up mask, wanted varieties."""
        want = "".join(_CODES[v] for v in self.want) or NONE
        return f"{self.target} {_mask(self.hand):x} {_mask(self.face_up):x} {want}"

    def toggled_hand(self, position: int) -> Draft:
        return replace(self, hand=self.hand ^ {position})

    def toggled_face_up(self, position: int) -> Draft:
        return replace(self, face_up=self.face_up ^ {position})

    def wanting_more(self, variety: Variety) -> Draft:
        """One more of `variety` wanted, or none once the most was reached."""
        count = self.want.count(variety)
        rest = tuple(v for v in self.want if v is not variety)
        more = () if count >= MOST_WANTED else (variety,) * (count + 1)
        return replace(self, want=tuple(sorted(rest + more, key=VARIETIES.index)))

    @property
    def counter(self) -> int | None:
        return int(self.target[1:]) if self.target.startswith("c") else None

    @property
    def partner(self) -> int | None:
        """The partner's seat (from 0), for an offer to one player."""
        return int(self.target[1:]) - 1 if self.target.startswith("s") else None


def parse_draft(words: list[str]) -> Draft:
    """A draft from payload words; ValueError for anything that is not one."""
    if len(words) != 4:
        raise ValueError("a draft has four words")
    target, hand, face_up, want = words
    if not (target == ANYONE or (target[:1] in ("s", "c") and target[1:].isdigit())):
        raise ValueError("unknown target")
    if len(hand) > 8 or len(face_up) > 2:
        raise ValueError("too many cards")
    wanted = () if want == NONE else tuple(_VARIETY_OF[c] for c in want)
    if len(wanted) > len(VARIETIES) * MOST_WANTED:
        raise ValueError("too many beans wanted")
    return Draft(target, _positions(int(hand, 16)), _positions(int(face_up, 16)), wanted)


def _mask(positions: frozenset[int]) -> int:
    return sum(1 << p for p in positions)


def _positions(mask: int) -> frozenset[int]:
    return frozenset(p for p in range(mask.bit_length()) if mask >> p & 1)


_CODES: dict[Variety, str] = {v: "0123456789a"[i] for i, v in enumerate(VARIETIES)}
_VARIETY_OF: dict[str, Variety] = {code: v for v, code in _CODES.items()}


def draft_commands(draft: Draft, partners: tuple[int, ...]) -> list[str]:
    """The typed commands that make the draft's offer (one per partner for 'anyone')."""
    cards = [str(p + 1) for p in sorted(draft.hand)] + [f"f{p + 1}" for p in sorted(draft.face_up)]
    terms = " ".join(cards)
    if draft.want:
        terms += " for " + " ".join(v.value for v in draft.want)
    if draft.counter is not None:
        return [f"counter {draft.counter} {terms}"]
    seats = partners if draft.target == ANYONE else (draft.partner,)
    return [f"offer {seat + 1} {terms}" for seat in seats if seat is not None]


def fitting(draft: Draft, hand_size: int, face_up: int) -> Draft:
    """The draft without ticks on cards that are no longer there."""
    return replace(
        draft,
        hand=frozenset(p for p in draft.hand if p < hand_size),
        face_up=frozenset(p for p in draft.face_up if p < face_up),
    )


def target_name(tr: Translator, draft: Draft, names: list[str], proposers: dict[int, int]) -> str:
    """Whom the draft's offer goes to, in words."""
    if draft.target == ANYONE:
        return tr.gettext("anyone")
    if draft.counter is not None:
        seat = proposers.get(draft.counter)
        return names[seat] if seat is not None else "?"
    partner = draft.partner
    return names[partner] if partner is not None and 0 <= partner < len(names) else "?"


def picker_buttons(
    tr: Translator,
    draft: Draft,
    hand: tuple[Variety, ...],
    face_up: tuple[Variety, ...],
    players: int,
    payload: PayloadOf,
) -> tuple[tuple[Button, ...], ...]:
    """Rows of buttons: the face-up cards and the hand to tick, the beans to ask for, then
    Send (or Give, when nothing is asked) and Cancel."""
    rows: list[tuple[Button, ...]] = []
    ups = [
        Button(
            _ticked(p in draft.face_up, _face_up_card(tr, face_up, p)),
            payload(f"{PICK} {draft.toggled_face_up(p).words()}"),
        )
        for p in range(len(face_up))
    ]
    cards = [
        Button(
            _ticked(p in draft.hand, f"{p + 1}. {short_bean(tr, v)}"),
            payload(f"{PICK} {draft.toggled_hand(p).words()}"),
        )
        for p, v in enumerate(hand)
    ]
    wants = [
        Button(
            _wanted(tr, v, draft.want.count(v)),
            payload(f"{PICK} {draft.wanting_more(v).words()}"),
        )
        for v in setup_for(players).varieties
    ]
    for group in (ups, cards, wants):
        rows += [tuple(group[i : i + CARDS_PER_ROW]) for i in range(0, len(group), CARDS_PER_ROW)]
    last: list[Button] = []
    if draft.hand or draft.face_up:
        label = tr.gettext(_SEND_LABEL if draft.want else _GIFT_LABEL)
        last.append(Button(label, payload(f"{SEND} {draft.words()}")))
    last.append(Button(tr.gettext("Cancel"), payload("back")))
    return (*rows, tuple(last))


def _face_up_card(tr: Translator, face_up: tuple[Variety, ...], position: int) -> str:
    """'Green (face up)'; with its number where two face-up cards are of one variety."""
    bean = short_bean(tr, face_up[position])
    if face_up.count(face_up[position]) > 1:
        return tr.gettext("{bean} (face up {number})").format(bean=bean, number=position + 1)
    return tr.gettext("{bean} (face up)").format(bean=bean)


_SEND_LABEL = N_("📨 Send offer")
_GIFT_LABEL = N_("🎁 Give as a gift")


class ShortBeanNames:
    """A catalog that names beans short everywhere ('Chili' for 'Chili Bean'), for platforms
    where every line costs."""

    def __init__(self, tr: Translator) -> None:
        self.tr = tr

    def gettext(self, message: str) -> str:
        return self.tr.gettext(_SHORTER.get(message, message))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.tr.ngettext(singular, plural, n)


def short_bean(tr: Translator, variety: Variety) -> str:
    """A short bean name for a button ('Chili' rather than 'Chili Bean')."""
    return tr.gettext(SHORT_NAMES[variety])


def _ticked(on: bool, label: str) -> str:
    return f"{'☑' if on else '☐'} {label}"


def _wanted(tr: Translator, variety: Variety, count: int) -> str:
    if not count:
        return f"+ {short_bean(tr, variety)}"
    return f"✔ {short_bean(tr, variety)} x{count}"


def draft_line(
    tr: Translator,
    draft: Draft,
    hand: tuple[Variety, ...],
    face_up: tuple[Variety, ...],
    to: str,
) -> str:
    """The draft in words: what is given, to whom, for what."""
    given = [face_up[p] for p in sorted(draft.face_up) if p < len(face_up)]
    given += [hand[p] for p in sorted(draft.hand) if p < len(hand)]
    if not given:
        hint = tr.gettext("Offer to {partner}: tick the cards to give and the beans you want.")
        return hint.format(partner=to)
    give = ", ".join(bean_name(tr, v) for v in given)
    if not draft.want:
        return tr.gettext("Offer to {partner}: {give} as a gift.").format(partner=to, give=give)
    want = ", ".join(bean_name(tr, v) for v in draft.want)
    return tr.gettext("Offer to {partner}: {give} for {want}.").format(
        partner=to, give=give, want=want
    )


def quick_offers(
    tr: Translator,
    seat: int,
    active: int,
    hand: tuple[Variety, ...],
    face_up: tuple[Variety, ...],
    fields: list[tuple[Variety | None, int]],
    names: list[str],
    payload: PayloadOf,
) -> tuple[tuple[Button, ...], ...]:
    """One-tap offers of the kind players make most: the player on turn gives away a face-up
    card or a hand card that fits none of his fields (to anyone), for more of the bean he
    grows most; another player asks for a face-up card that fits his fields, giving a hand
    card that fits none."""
    counts = {v: n for v, n in fields if v is not None and n}
    grown = sorted(counts, key=lambda v: -counts[v])
    mine = set(grown)
    spare = next((p for p, v in enumerate(hand) if v not in mine), None)
    drafts: list[Draft] = []
    if seat == active:
        want = grown[:1]
        up = next((p for p, v in enumerate(face_up) if v not in mine), None)
        if up is not None:
            drafts.append(Draft(ANYONE, face_up=frozenset({up}), want=tuple(want)))
        if spare is not None:
            drafts.append(Draft(ANYONE, hand=frozenset({spare}), want=tuple(want)))
    elif spare is not None:
        wanted = next((v for v in face_up if v in mine), None)
        if wanted is not None:
            drafts.append(Draft(f"s{active + 1}", hand=frozenset({spare}), want=(wanted,)))
    buttons = []
    for draft in drafts:
        # Said where the card comes from: a face-up card and a hand card of one variety are
        # two different offers.
        give = [
            tr.gettext("{bean} (face up)").format(bean=short_bean(tr, face_up[p]))
            for p in draft.face_up
        ]
        give += [
            tr.gettext("{bean} (hand)").format(bean=short_bean(tr, hand[p])) for p in draft.hand
        ]
        to = tr.gettext("anyone") if draft.target == ANYONE else names[active]
        label = (
            tr.gettext("⚡ {give} for {want} → {to}")
            if draft.want
            else tr.gettext("⚡ {give} as a gift → {to}")
        ).format(
            give=", ".join(give),
            want=", ".join(short_bean(tr, v) for v in draft.want),
            to=to,
        )
        buttons.append(Button(label, payload(f"{SEND} {draft.words()}")))
    return tuple((button,) for button in buttons)


def offer_buttons(
    tr: Translator,
    partners: tuple[int, ...],
    names: list[str],
    counters: tuple[int, ...],
    payload: PayloadOf,
) -> tuple[tuple[Button, ...], ...]:
    """The buttons that open the picker: one per partner (and 'anyone' where there are
    several), and a counter-offer for each offer made to the player."""
    opening = [
        Button(
            tr.gettext("🤝 Offer to {name}").format(name=names[seat]),
            payload(f"{PICK} {Draft(f's{seat + 1}').words()}"),
        )
        for seat in partners
    ]
    if len(partners) > 1:
        opening.append(
            Button(tr.gettext("🤝 Offer to anyone"), payload(f"{PICK} {Draft(ANYONE).words()}"))
        )
    opening += [
        Button(
            tr.gettext("↩ Counter #{offer}").format(offer=offer),
            payload(f"{PICK} {Draft(f'c{offer}').words()}"),
        )
        for offer in counters
    ]
    return tuple(tuple(opening[i : i + 2]) for i in range(0, len(opening), 2))


SHORT_NAMES: dict[Variety, str] = {
    Variety.COFFEE: N_("Coffee"),
    Variety.WAX: N_("Wax"),
    Variety.BLUE: N_("Blue"),
    Variety.CHILI: N_("Chili"),
    Variety.STINK: N_("Stink"),
    Variety.GREEN: N_("Green"),
    Variety.SOY: N_("Soy"),
    Variety.BLACK_EYED: N_("Black-eyed"),
    Variety.RED: N_("Red"),
    Variety.GARDEN: N_("Garden"),
    Variety.COCOA: N_("Cocoa"),
}
"""Bean names short enough for a button on a phone."""

_SHORTER = {BEAN_NAMES[variety]: short for variety, short in SHORT_NAMES.items()}
