"""Views as chat messages: the table for the room, the hand for one player, the final scores.

Everything here reads a `PlayerView` (or the legal actions of the one player it is meant for), so
nothing rendered can hold a card its reader may not see.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime

from ..actions import (
    AcceptTrade,
    Action,
    BuyField,
    DeclineTrade,
    DiscardFromHand,
    DiscardOffered,
    EndStep,
    Harvest,
    Plant,
    PlantFaceUp,
    PlantOffered,
    PlantSetAside,
    WithdrawTrade,
)
from ..cards import Variety
from ..legal import LegalActions
from ..state import Step
from ..view import OfferView, PlayerView, SeatView
from .i18n import N_, Translator, bean_name
from .markup import HTML, PLAIN, Markup
from .messages import Button, Message

STEP_NAMES: dict[Step, str] = {
    Step.PLANT: N_("step 1: planting"),
    Step.TRADE: N_("step 2: trading"),
    Step.PLANT_SET_ASIDE: N_("step 3: planting traded beans"),
    Step.DUEL_OFFERED: N_("step 1: the offered beans"),
    Step.DUEL_PLANT: N_("step 2: planting"),
    Step.DUEL_FACE_UP: N_("step 3: the face-up beans"),
    Step.GAME_OVER: N_("game over"),
}

BUTTONS_PER_ROW = 2
FIELDS_INDENT = "    "
"""Before a seat's fields, on the line under its player in HTML."""


def beans(tr: Translator, varieties: Sequence[Variety], markup: Markup = PLAIN) -> str:
    """'2x Blue Bean, Soy Bean' in the order first seen; '—' for none."""
    if not varieties:
        return "—"
    counts = Counter(varieties)
    return ", ".join(
        f"{n}x {markup.bean(tr, v)}" if n > 1 else markup.bean(tr, v) for v, n in counts.items()
    )


def _field(tr: Translator, count: int, variety: Variety | None, markup: Markup = PLAIN) -> str:
    if variety is None:
        return markup.italic(markup.text(tr.gettext("empty")))
    return f"{markup.bean(tr, variety)} x{count}"


def coins_text(tr: Translator, coins: int) -> str:
    """'1 coin', '3 coins', in the form of the number in the game's language."""
    return tr.ngettext("{count} coin", "{count} coins", coins).format(count=coins)


def _seat_lines(tr: Translator, seat: SeatView, name: str, active: bool, markup: Markup) -> str:
    cards = tr.ngettext("{count} card in hand", "{count} cards in hand", seat.hand_size)
    head = markup.fill(
        tr.gettext("{number}. {name}: {coins}, {cards}"),
        number=seat.seat + 1,
        name=markup.name(name),
        coins=markup.text(coins_text(tr, seat.coins)),
        cards=markup.text(cards.format(count=seat.hand_size)),
    )
    fields = " | ".join(_field(tr, f.count, f.variety, markup) for f in seat.fields)
    if seat.set_aside:
        fields += " · " + markup.fill(
            tr.gettext("set aside: {beans}"), beans=beans(tr, seat.set_aside, markup)
        )
    mark = "▶ " if active else ""
    if markup.html:
        # On a phone a seat reads best as two lines: who, then what grows in his fields.
        return f"{mark}{head}\n{FIELDS_INDENT}{fields}"
    return f"{mark}{head} · {fields}"


def offer_line(
    tr: Translator, offer: OfferView, names: Sequence[str], markup: Markup = PLAIN
) -> str:
    """'#2 Anna → Bruno: Blue Bean for Soy Bean' (a gift says so)."""
    give = beans(tr, offer.give, markup)
    if offer.want:
        terms = markup.fill(
            tr.gettext("{give} for {want}"), give=give, want=beans(tr, offer.want, markup)
        )
    else:
        terms = markup.fill(tr.gettext("{give} as a gift"), give=give)
    proposer, receiver = markup.name(names[offer.proposer]), markup.name(names[offer.receiver])
    line = f"#{offer.id} {proposer} → {receiver}: {terms}"
    if offer.stale:
        line += " " + markup.italic(markup.text(tr.gettext("(stale: its cards are gone)")))
    return line


def relative_time(tr: Translator, delta_seconds: float) -> str:
    """How far away a moment is, roughly: 'in 30 s', 'in 4 min', 'in 2 h', 'in 3 days';
    'now' once it has come."""
    if delta_seconds < 0.5:
        return tr.gettext("now")
    if delta_seconds < 59.5:
        n = max(1, round(delta_seconds))
        return tr.ngettext("in {count} s", "in {count} s", n).format(count=n)
    if delta_seconds < 59.5 * 60:
        n = max(1, round(delta_seconds / 60))
        return tr.ngettext("in {count} min", "in {count} min", n).format(count=n)
    if delta_seconds < 23.5 * 3600:
        n = max(1, round(delta_seconds / 3600))
        return tr.ngettext("in {count} h", "in {count} h", n).format(count=n)
    n = max(1, round(delta_seconds / 86400))
    return tr.ngettext("in {count} day", "in {count} days", n).format(count=n)


def _due(tr: Translator, deadline: datetime | str, now: datetime | None) -> str:
    """'(due in 4 min)' from `now`; without it the time of day: '(until 14:05 UTC)'."""
    if isinstance(deadline, str):
        return tr.gettext("(until {time})").format(time=deadline)
    if now is None:
        return tr.gettext("(until {time})").format(time=deadline.strftime("%H:%M UTC"))
    delta = (deadline - now).total_seconds()
    # The table is not edited every minute: the time of day stays true when 'in 4 min' is old.
    return tr.gettext("(due {time}, at {clock})").format(
        time=relative_time(tr, delta), clock=deadline.strftime("%H:%M UTC")
    )


def table_text(
    tr: Translator,
    game_id: str,
    view: PlayerView,
    names: Sequence[str],
    waiting: Sequence[int],
    deadline: datetime | str | None,
    now: datetime | None = None,
) -> str:
    """The public table: every field, coin count and hand size, the piles, offers and whose move.

    The soonest `deadline` of the players waited for is shown from `now` ('due in 4 min'), or
    without it as the time of day (a text is shown as given)."""
    return _table(tr, game_id, view, names, waiting, deadline, now, PLAIN)


def table_html(
    tr: Translator,
    game_id: str,
    view: PlayerView,
    names: Sequence[str],
    waiting: Sequence[int],
    deadline: datetime | str | None,
    now: datetime | None = None,
) -> str:
    """The table of `table_text` in HTML: names in bold, each seat's fields on a line of their
    own, each bean after its variety's marker."""
    return _table(tr, game_id, view, names, waiting, deadline, now, HTML)


def _table(
    tr: Translator,
    game_id: str,
    view: PlayerView,
    names: Sequence[str],
    waiting: Sequence[int],
    deadline: datetime | str | None,
    now: datetime | None,
    markup: Markup,
) -> str:
    head = markup.fill(
        tr.gettext("Bohnanza · game {game} · turn {turn} · {step}"),
        game=markup.text(game_id),
        turn=view.turn,
        step=markup.text(tr.gettext(STEP_NAMES[view.step])),
    )
    if not view.is_over:
        head += " · " + markup.name(names[view.active])
    top = markup.bean(tr, view.discard[-1]) if view.discard else "—"
    piles_line = tr.gettext(
        "Deck {deck} · discard pile {discard} (top: {top}) · deck exhausted {exhausted} of {final}"
    )
    piles = markup.fill(
        piles_line,
        deck=view.deck_size,
        discard=len(view.discard),
        top=top,
        exhausted=view.exhaustions,
        final=view.final_exhaustion,
    )
    lines = [head, piles]
    if view.face_up:
        lines.append(
            markup.fill(tr.gettext("Face-up: {beans}"), beans=beans(tr, view.face_up, markup))
        )
    if view.offered:
        lines.append(
            markup.fill(tr.gettext("On offer: {beans}"), beans=beans(tr, view.offered, markup))
        )
    if markup.html:
        lines.append("")
    lines += [
        _seat_lines(
            tr, seat, names[seat.seat], seat.seat == view.active and not view.is_over, markup
        )
        for seat in view.seats
    ]
    if view.offers:
        lines.append(markup.text(tr.gettext("Open offers:")))
        lines += ["  " + offer_line(tr, offer, names, markup) for offer in view.offers]
    if waiting and not view.is_over:
        who = ", ".join(markup.name(names[seat]) for seat in waiting)
        wait = markup.fill(tr.gettext("Waiting for: {players}"), players=who)
        if deadline:
            wait += " " + markup.text(_due(tr, deadline, now))
        lines.append(wait)
    if view.final_turn and not view.is_over:
        last = tr.gettext("The deck is exhausted for the last time: this is the last turn.")
        lines.append(markup.bold(markup.text(last)))
    return "\n".join(lines)


def result_text(tr: Translator, game_id: str, view: PlayerView, names: Sequence[str]) -> str:
    """Final scores, the winners, and how to replay the game."""
    return _result(tr, game_id, view, names, PLAIN)


def result_html(tr: Translator, game_id: str, view: PlayerView, names: Sequence[str]) -> str:
    """The final scores of `result_text` in HTML."""
    return _result(tr, game_id, view, names, HTML)


def _result(
    tr: Translator, game_id: str, view: PlayerView, names: Sequence[str], markup: Markup
) -> str:
    scores, winners = view.scores, view.winners
    assert scores is not None and winners is not None
    over = markup.fill(tr.gettext("Game {game} is over."), game=markup.text(game_id))
    lines = [markup.bold(over)]
    for seat in sorted(range(len(names)), key=lambda s: (-scores[s], s)):
        score = tr.ngettext("{name}: {coins} coin", "{name}: {coins} coins", scores[seat])
        lines.append(markup.fill(score, name=markup.name(names[seat]), coins=scores[seat]))
    champions = ", ".join(markup.name(names[s]) for s in winners)
    won = markup.fill(tr.gettext("Winner: {names}"), names=champions)
    lines.append(f"🏆 {won}" if markup.html else won)
    lines.append(
        markup.fill(
            tr.gettext("Replay it with: bohnanza replay DB --game {game}"),
            game=markup.text(game_id),
        )
    )
    return "\n".join(lines)


def hand_text(tr: Translator, view: PlayerView, names: Sequence[str]) -> str:
    """One player's private view: his hand in order, his set-aside cards and fields, the offers."""
    return _hand(tr, view, names, PLAIN)


def hand_html(tr: Translator, view: PlayerView, names: Sequence[str]) -> str:
    """The private view of `hand_text` in HTML."""
    return _hand(tr, view, names, HTML)


def _hand(tr: Translator, view: PlayerView, names: Sequence[str], markup: Markup) -> str:
    assert view.seat is not None
    seat = view.seat
    if view.hand:
        cards = " · ".join(f"{i}. {markup.bean(tr, v)}" for i, v in enumerate(view.hand, 1))
    else:
        cards = markup.italic(markup.text(tr.gettext("empty")))
    lines = [markup.fill(tr.gettext("Your hand (front first): {cards}"), cards=cards)]
    if view.face_up:
        lines.append(
            markup.fill(tr.gettext("Face-up: {beans}"), beans=beans(tr, view.face_up, markup))
        )
    if view.offered:
        lines.append(
            markup.fill(tr.gettext("On offer: {beans}"), beans=beans(tr, view.offered, markup))
        )
    mine = view.seats[seat]
    if mine.set_aside:
        aside = " · ".join(f"{i}. {markup.bean(tr, v)}" for i, v in enumerate(mine.set_aside, 1))
        lines.append(markup.fill(tr.gettext("To plant: {cards}"), cards=aside))
    fields = " | ".join(
        f"{i}. {_field(tr, f.count, f.variety, markup)}" for i, f in enumerate(mine.fields, 1)
    )
    lines.append(markup.fill(tr.gettext("Your fields: {fields}"), fields=fields))
    if view.offers:
        lines.append(markup.text(tr.gettext("Open offers:")))
        lines += ["  " + offer_line(tr, offer, names, markup) for offer in view.offers]
    return "\n".join(lines)


def action_label(tr: Translator, action: Action, view: PlayerView) -> str:
    """A button's label for a legal action, in the player's language: which bean goes to
    which field (and what the field holds), what a harvest pays."""
    planted = planted_variety(action, view)
    if planted is not None and isinstance(
        action, Plant | PlantSetAside | PlantFaceUp | PlantOffered
    ):
        return tr.gettext("{bean} → field {field} ({holds})").format(
            bean=bean_name(tr, planted),
            field=action.field + 1,
            holds=_field(tr, *_field_of(view, action.field)),
        )
    if isinstance(action, Plant):
        return tr.gettext("Plant in field {field}").format(field=action.field + 1)
    if isinstance(action, PlantSetAside | PlantFaceUp | PlantOffered):
        return tr.gettext("Card {card} → field {field}").format(
            card=action.index + 1, field=action.field + 1
        )
    if isinstance(action, Harvest):
        count, variety = _field_of(view, action.field)
        if variety is not None:
            coins = variety.coins_for(count)
            return tr.ngettext(
                "Sell {count} {bean}: {coins} coin", "Sell {count} {bean}: {coins} coins", coins
            ).format(count=count, bean=bean_name(tr, variety), coins=coins)
    if isinstance(action, DiscardOffered):
        return tr.gettext("Discard offered card {card}").format(card=action.index + 1)
    if isinstance(action, DiscardFromHand):
        return tr.gettext("Discard hand card {card}").format(card=action.position + 1)
    if isinstance(action, EndStep):
        return tr.gettext(_END_STEP.get(view.step, N_("Done")))
    if isinstance(action, Harvest):
        return tr.gettext("Harvest field {field}").format(field=action.field + 1)
    if isinstance(action, BuyField):
        return tr.gettext("Buy the 3rd field")
    if isinstance(action, AcceptTrade):
        return tr.gettext("Accept #{offer}").format(offer=action.offer)
    if isinstance(action, DeclineTrade):
        return tr.gettext("Decline #{offer}").format(offer=action.offer)
    if isinstance(action, WithdrawTrade):
        return tr.gettext("Withdraw #{offer}").format(offer=action.offer)
    return action.kind


def planted_variety(action: Action, view: PlayerView) -> Variety | None:
    """The bean a planting action puts into a field, as its player sees it."""
    seat = view.seat
    cards: tuple[Variety, ...] = ()
    if isinstance(action, Plant):
        return view.hand[0] if view.hand else None
    if isinstance(action, PlantSetAside) and seat is not None:
        cards = view.seats[seat].set_aside
    elif isinstance(action, PlantFaceUp):
        cards = view.face_up
    elif isinstance(action, PlantOffered):
        cards = view.offered
    else:
        return None
    return cards[action.index] if 0 <= action.index < len(cards) else None


def _field_of(view: PlayerView, field: int) -> tuple[int, Variety | None]:
    if view.seat is None or not 0 <= field < len(view.seats[view.seat].fields):
        return 0, None
    shown = view.seats[view.seat].fields[field]
    return shown.count, shown.variety


_END_STEP: dict[Step, str] = {
    Step.PLANT: N_("No more planting"),
    Step.TRADE: N_("End trading"),
    Step.DUEL_PLANT: N_("No discard"),
    Step.DUEL_FACE_UP: N_("Offer the rest"),
}


def action_buttons(
    tr: Translator, legal: LegalActions, view: PlayerView, payload_of: dict[Action, str]
) -> tuple[tuple[Button, ...], ...]:
    """Rows of buttons for the player's legal actions (`payload_of` gives each its payload).
    Two cards of one variety planted in one field are one choice: one button."""
    buttons: list[Button] = []
    planted: set[str] = set()
    for action in legal.actions:
        if action not in payload_of:
            continue
        label = action_label(tr, action, view)
        if planted_variety(action, view) is not None:
            if label in planted:
                continue
            planted.add(label)
        buttons.append(Button(label, payload_of[action]))
    return tuple(
        tuple(buttons[i : i + BUTTONS_PER_ROW]) for i in range(0, len(buttons), BUTTONS_PER_ROW)
    )


def hand_message(
    tr: Translator,
    game_id: str,
    view: PlayerView,
    names: Sequence[str],
    legal: LegalActions,
    payload_of: dict[Action, str],
) -> Message:
    """The private message of one player: his view and his legal actions as buttons."""
    heading = tr.gettext("Game {game}").format(game=game_id)
    text, html = heading, HTML.bold(HTML.text(heading))
    if not view.is_over:
        step = tr.gettext("turn {turn} · {step}").format(
            turn=view.turn, step=tr.gettext(STEP_NAMES[view.step])
        )
        moment = f"{step} · {names[view.active]}"
        text, html = f"{text}\n{moment}", f"{html}\n{HTML.text(moment)}"
    text += "\n" + hand_text(tr, view, names)
    html += "\n" + hand_html(tr, view, names)
    return Message(text, action_buttons(tr, legal, view, payload_of), html=html)
