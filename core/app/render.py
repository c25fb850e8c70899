"""Views as chat messages: the table for the room, the hand for one player, the final scores.

Everything here reads a `PlayerView` (or the legal actions of the one player it is meant for), so
nothing rendered can hold a card its reader may not see.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

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


def beans(tr: Translator, varieties: Sequence[Variety]) -> str:
    """'2x Blue Bean, Soy Bean' in the order first seen; '—' for none."""
    if not varieties:
        return "—"
    counts = Counter(varieties)
    return ", ".join(
        f"{n}x {bean_name(tr, v)}" if n > 1 else bean_name(tr, v) for v, n in counts.items()
    )


def _field(tr: Translator, count: int, variety: Variety | None) -> str:
    if variety is None:
        return tr.gettext("empty")
    return f"{bean_name(tr, variety)} x{count}"


def _seat_line(tr: Translator, seat: SeatView, name: str, active: bool) -> str:
    fields = " | ".join(_field(tr, f.count, f.variety) for f in seat.fields)
    line = tr.gettext("{mark}{number}. {name}: {coins} coins, {cards} in hand · {fields}").format(
        mark="▶ " if active else "",
        number=seat.seat + 1,
        name=name,
        coins=seat.coins,
        cards=seat.hand_size,
        fields=fields,
    )
    if seat.set_aside:
        line += " · " + tr.gettext("set aside: {beans}").format(beans=beans(tr, seat.set_aside))
    return line


def offer_line(tr: Translator, offer: OfferView, names: Sequence[str]) -> str:
    """'#2 Anna → Bruno: Blue Bean for Soy Bean' (a gift says so)."""
    give = beans(tr, offer.give)
    if offer.want:
        terms = tr.gettext("{give} for {want}").format(give=give, want=beans(tr, offer.want))
    else:
        terms = tr.gettext("{give} as a gift").format(give=give)
    line = f"#{offer.id} {names[offer.proposer]} → {names[offer.receiver]}: {terms}"
    if offer.stale:
        line += " " + tr.gettext("(stale: its cards are gone)")
    return line


def table_text(
    tr: Translator,
    game_id: str,
    view: PlayerView,
    names: Sequence[str],
    waiting: Sequence[int],
    deadline: str | None,
) -> str:
    """The public table: every field, coin count and hand size, the piles, offers and whose move."""
    head = tr.gettext("Bohnanza · game {game} · turn {turn} · {step}").format(
        game=game_id, turn=view.turn, step=tr.gettext(STEP_NAMES[view.step])
    )
    if not view.is_over:
        head += " · " + names[view.active]
    top = bean_name(tr, view.discard[-1]) if view.discard else "—"
    piles = tr.gettext(
        "Deck {deck} · discard pile {discard} (top: {top}) · deck exhausted {exhausted} of {final}"
    ).format(
        deck=view.deck_size,
        discard=len(view.discard),
        top=top,
        exhausted=view.exhaustions,
        final=view.final_exhaustion,
    )
    lines = [head, piles]
    if view.face_up:
        lines.append(tr.gettext("Face-up: {beans}").format(beans=beans(tr, view.face_up)))
    if view.offered:
        lines.append(tr.gettext("On offer: {beans}").format(beans=beans(tr, view.offered)))
    lines += [
        _seat_line(tr, seat, names[seat.seat], seat.seat == view.active and not view.is_over)
        for seat in view.seats
    ]
    if view.offers:
        lines.append(tr.gettext("Open offers:"))
        lines += ["  " + offer_line(tr, offer, names) for offer in view.offers]
    if waiting and not view.is_over:
        who = ", ".join(names[seat] for seat in waiting)
        wait = tr.gettext("Waiting for: {players}").format(players=who)
        if deadline:
            wait += " " + tr.gettext("(until {time})").format(time=deadline)
        lines.append(wait)
    if view.final_turn and not view.is_over:
        lines.append(tr.gettext("The deck is exhausted for the last time: this is the last turn."))
    return "\n".join(lines)


def result_text(tr: Translator, game_id: str, view: PlayerView, names: Sequence[str]) -> str:
    """Final scores, the winners, and how to replay the game."""
    assert view.scores is not None and view.winners is not None
    lines = [tr.gettext("Game {game} is over.").format(game=game_id)]
    ranking = sorted(range(len(names)), key=lambda s: (-view.scores[s], s))  # type: ignore[index]
    for seat in ranking:
        lines.append(
            tr.gettext("{name}: {coins} coins").format(name=names[seat], coins=view.scores[seat])
        )
    winners = ", ".join(names[s] for s in view.winners)
    lines.append(tr.gettext("Winner: {names}").format(names=winners))
    lines.append(
        tr.gettext("Replay it with: bohnanza replay DB --game {game}").format(game=game_id)
    )
    return "\n".join(lines)


def hand_text(tr: Translator, view: PlayerView, names: Sequence[str]) -> str:
    """One player's private view: his hand in order, his set-aside cards and fields, the offers."""
    assert view.seat is not None
    seat = view.seat
    if view.hand:
        cards = " · ".join(f"{i}. {bean_name(tr, v)}" for i, v in enumerate(view.hand, 1))
    else:
        cards = tr.gettext("empty")
    lines = [tr.gettext("Your hand (front first): {cards}").format(cards=cards)]
    mine = view.seats[seat]
    if mine.set_aside:
        aside = " · ".join(f"{i}. {bean_name(tr, v)}" for i, v in enumerate(mine.set_aside, 1))
        lines.append(tr.gettext("To plant: {cards}").format(cards=aside))
    fields = " | ".join(
        f"{i}. {_field(tr, f.count, f.variety)}" for i, f in enumerate(mine.fields, 1)
    )
    lines.append(tr.gettext("Your fields: {fields}").format(fields=fields))
    if view.offers:
        lines.append(tr.gettext("Open offers:"))
        lines += ["  " + offer_line(tr, offer, names) for offer in view.offers]
    return "\n".join(lines)


def action_label(tr: Translator, action: Action, view: PlayerView) -> str:
    """A button's label for a legal action, in the player's language."""
    if isinstance(action, Plant):
        return tr.gettext("Plant in field {field}").format(field=action.field + 1)
    if isinstance(action, PlantSetAside | PlantFaceUp | PlantOffered):
        return tr.gettext("Card {card} → field {field}").format(
            card=action.index + 1, field=action.field + 1
        )
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


_END_STEP: dict[Step, str] = {
    Step.PLANT: N_("No more planting"),
    Step.TRADE: N_("End trading"),
    Step.DUEL_PLANT: N_("No discard"),
    Step.DUEL_FACE_UP: N_("Offer the rest"),
}


def action_buttons(
    tr: Translator, legal: LegalActions, view: PlayerView, payload_of: dict[Action, str]
) -> tuple[tuple[Button, ...], ...]:
    """Rows of buttons for the player's legal actions (`payload_of` gives each its payload)."""
    buttons = [
        Button(action_label(tr, action, view), payload_of[action])
        for action in legal.actions
        if action in payload_of
    ]
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
    text = tr.gettext("Game {game}").format(game=game_id) + "\n" + hand_text(tr, view, names)
    if legal.trade is not None:
        text += "\n" + tr.gettext(
            "Trade: offer PLAYER CARDS [for BEANS], e.g. 'offer 2 1 3 for soy' (cards by hand "
            "position, f1 for face-up card 1)"
        )
    return Message(text, action_buttons(tr, legal, view, payload_of))
