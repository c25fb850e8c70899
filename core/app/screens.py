"""A player's private screen, derived from the game as it stands: his view with his moves as
buttons, a question he was asked (`ask`), or the offer he is building (`pick`). Pure: the same
game and seat give the same message, and nothing here changes a session."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from ..actions import Action, BuyField, Harvest
from ..cards import Variety
from ..notation import NotationError, action_text, parse_action
from ..state import Step
from ..view import FieldView
from . import numbers
from .i18n import Translator, bean_name
from .messages import Button, Message
from .numbers import Cards, Choice, decision_of, keyed_choices
from .picker import (
    ANYONE,
    Draft,
    draft_line,
    fitting,
    offer_buttons,
    parse_draft,
    picker_buttons,
    quick_offers,
    short_bean,
    target_name,
)
from .render import action_label, hand_message
from .seat_screen import ASK, Screen
from .session import GameSession
from .turns import waits_for
from .window import window_line

BACK = "back"
"""A button's command word: show the player's message as it was, nothing done."""
CHAIN = numbers.CHAIN
"""Separates the commands of a button that takes several steps at once."""


def game_payload(game_id: str, token: str, command: str) -> str:
    """A game button's payload: the game, the moment it was made for, and the command."""
    return f"g {game_id} {token} {command}"


def screen_message(session: GameSession, seat: int, tr: Translator) -> Message:
    """The player's current screen with its buttons, whatever the platform shows of them."""
    return screen_of(session, seat, tr, current_screen(session, seat))


def screen_of(
    session: GameSession,
    seat: int,
    tr: Translator,
    screen: Screen | None,
    now: datetime | None = None,
) -> Message:
    """The player's message showing `screen` (None: the game, with his moves); a trading
    window that waits for him is told from `now`."""
    if screen is not None and screen.asks:
        action = asked_action(session, seat, screen.rest)
        if action is not None:
            return confirmation(session, seat, tr, action)
    if screen is not None and screen.picks:
        draft = current_draft(session, seat, screen.rest)
        if draft is not None:
            return _picker_message(session, seat, tr, draft)
    return play_message(session, seat, tr, now)


def shown_screen(session: GameSession, seat: int, screen: Screen | None) -> Screen | None:
    """The screen `screen_of` shows for `screen`: None where it shows the game instead (the
    move asked about is no longer legal, the offer being built no longer fits)."""
    if screen is None:
        return None
    if screen.asks and asked_action(session, seat, screen.rest) is not None:
        return screen
    if screen.picks and current_draft(session, seat, screen.rest) is not None:
        return screen
    return None


def seat_decision(session: GameSession, seat: int, screen: Screen | None) -> str:
    """The decision the seat's message showing `screen` asks (`numbers.decision_of`)."""
    state = session.state
    return decision_of(state.turn, state.step.value, shown_screen(session, seat, screen))


def screen_choices(
    session: GameSession, seat: int, message: Message, screen: Screen | None
) -> list[Choice]:
    """The buttons of the seat's message showing `screen`, as choices with their keys."""
    view = session.view(seat)
    mine = view.seats[seat]
    fields = tuple(f.variety for f in mine.fields)
    cards = Cards(view.hand, mine.set_aside, view.face_up, view.offered, fields)
    shown = shown_screen(session, seat, screen)
    draft = current_draft(session, seat, shown.rest) if shown is not None and shown.picks else None
    return keyed_choices([b for row in message.buttons for b in row], cards, draft)


def current_screen(session: GameSession, seat: int) -> Screen | None:
    """The seat's screen; None once the game moved past the moment it belongs to."""
    control = session.seats[seat]
    screen = control.screen
    if screen is not None and control.screen_at != screen_moment(session, seat, screen):
        return None
    return screen


def screen_moment(session: GameSession, seat: int, screen: Screen) -> str:
    """A question holds while nothing changed for the seat; an offer being built holds for
    the rest of the trading of that turn."""
    if screen.picks:
        return f"{session.state.turn}"
    return session.token(seat)


def numbered_lines(
    tr: Translator, message: Message, numbers: Sequence[int], hint: bool = True
) -> Message:
    """Buttons as numbered lines (`numbers`: each button's), for a platform without buttons:
    the player answers with the number (which the last line says, with `hint`)."""
    buttons = [button for row in message.buttons for button in row]
    if not buttons:
        return message.with_buttons(())
    lines = [f"{number} · {button.label}" for number, button in zip(numbers, buttons, strict=True)]
    if hint:
        lines.append(tr.gettext("Answer with a number."))
    return message.with_lines(lines).with_buttons(())


def with_numbers(message: Message, numbers: Sequence[int]) -> Message:
    """The buttons with their numbers, for a platform that lists them numbered (a terminal)."""
    counted = iter(numbers)
    return message.with_buttons(
        tuple(tuple(replace(b, number=next(counted)) for b in row) for row in message.buttons)
    )


def asked_action(session: GameSession, seat: int, command: str) -> Action | None:
    """The move a question is about, while it is still legal."""
    try:
        action = parse_action(command, seat)
    except NotationError:
        return None
    return action if action in session.legal(seat).actions else None


def current_draft(session: GameSession, seat: int, words: str) -> Draft | None:
    """The offer being built, while it still fits the game (its partner trades, the offer it
    counters is open); ticks on cards that have gone are dropped."""
    try:
        draft = parse_draft(words.split())
    except (ValueError, KeyError):
        return None
    state = session.state
    options = session.legal(seat).trade
    if options is None:
        return None
    if draft.target == ANYONE:
        fits = seat == state.active and len(options.partners) > 1
    elif draft.counter is not None:
        offer = state.offers.get(draft.counter)
        fits = offer is not None and offer.receiver == seat
    else:
        fits = draft.partner in options.partners
    if not fits:
        return None
    return fitting(draft, options.hand_size, options.face_up)


def _payload_of(session: GameSession, seat: int) -> Callable[[str], str]:
    token = session.token(seat)
    return lambda command: game_payload(session.game_id, token, command)


def _picker_message(session: GameSession, seat: int, tr: Translator, draft: Draft) -> Message:
    view = session.view(seat)
    face_up = view.face_up if seat == view.active else ()
    proposers = {offer.id: offer.proposer for offer in view.offers}
    to = target_name(tr, draft, session.names, proposers)
    shown = play_message(session, seat, tr)
    line = draft_line(tr, draft, view.hand, face_up, to)
    payload = _payload_of(session, seat)
    rows = picker_buttons(tr, draft, view.hand, face_up, session.game.players, payload)
    return shown.with_line(line).with_buttons(rows).with_alert(False)


def play_message(
    session: GameSession, seat: int, tr: Translator, now: datetime | None = None
) -> Message:
    """The player's view of the game, with his legal moves as buttons, and how long a bot's
    trading waits for him (from `now`, or until a time of day)."""
    view = session.view(seat)
    legal = session.legal(seat)
    token = session.token(seat)
    payload_of: dict[Action, str] = {
        action: game_payload(session.game_id, token, action_text(action))
        for action in legal.actions
    }
    # A sale is forced when selling is all the player may do (his front card fits no field).
    forced = legal.waiting and all(isinstance(a, Harvest | BuyField) for a in legal.actions)
    for action in legal.actions:
        if isinstance(action, Harvest) and not forced:
            # Selling cannot be undone and is not needed now: it is asked again first.
            payload_of[action] = game_payload(
                session.game_id, token, f"{ASK} {action_text(action)}"
            )
    message = hand_message(tr, session.game_id, view, session.names, legal, payload_of)
    rows = _with_stop_buttons(session, seat, tr, token, message.buttons)
    rows = _with_planting_after(session, seat, tr, token, rows)
    message = message.with_buttons(_plant_all(session, seat, tr, token) + rows)
    window = window_line(session, seat, tr, now)
    if window:
        message = message.with_line(window, at=1)
    if seat in session.pending():
        message = message.with_line(tr.gettext("▶ Your move."), at=1)
    extra: list[Button] = []
    if _may_pass(session, seat):
        extra.append(Button(tr.gettext("No trade"), game_payload(session.game_id, token, "pass")))
    rows = message.buttons + ((tuple(extra),) if extra else ())
    if legal.trade is not None:
        counters = tuple(
            offer.id for offer in view.offers if offer.receiver == seat and not offer.stale
        )
        payload = _payload_of(session, seat)
        fields = [(f.variety, f.count) for f in view.seats[seat].fields]
        face_up = view.face_up
        rows += quick_offers(
            tr, seat, view.active, view.hand, face_up, fields, session.names, payload
        )
        rows += offer_buttons(tr, legal.trade.partners, session.names, counters, payload)
    return message.with_buttons(rows)


def _may_pass(session: GameSession, seat: int) -> bool:
    """Whether the player is shown `No trade`: while a bot's turn holds trading open for him
    (he is done with it, and with its offers), or on a person's turn until he passes (the one
    on turn sees who will not trade)."""
    if waits_for(session, seat):
        return True
    state = session.state
    return (
        state.step is Step.TRADE
        and seat != state.active
        and session.seats[state.active].bot is None
        and session.seats[seat].passed != session.moment(seat)
    )


def _with_stop_buttons(
    session: GameSession,
    seat: int,
    tr: Translator,
    token: str,
    rows: tuple[tuple[Button, ...], ...],
) -> tuple[tuple[Button, ...], ...]:
    """On the first planting of a turn, each field's button gets a partner that plants and ends
    the planting at once ('no more planting' is then no screen of its own)."""
    state = session.state
    if state.step is not Step.PLANT or state.active != seat or state.planted_this_step != 0:
        return rows
    out: list[tuple[Button, ...]] = []
    for row in rows:
        for button in row:
            command = button.payload.split(maxsplit=3)[3]
            if not command.startswith("plant "):
                out.append((button,))
                continue
            stop = Button(
                tr.gettext("→ {field}, then stop").format(field=command.split()[1]),
                game_payload(session.game_id, token, f"{command}{CHAIN}done"),
            )
            out.append((button, stop))
    return tuple(out)


def _with_planting_after(
    session: GameSession,
    seat: int,
    tr: Translator,
    token: str,
    rows: tuple[tuple[Button, ...], ...],
) -> tuple[tuple[Button, ...], ...]:
    """Steps with no choice are taken in the same tap: a forced sale plants the bean that
    needed the field there; ending the trading plants every card to plant where it fits best
    (on its own variety, else in an empty field), when all of them fit."""
    view = session.view(seat)
    mine = view.seats[seat]
    out: list[tuple[Button, ...]] = []
    for row in rows:
        buttons: list[Button] = []
        for button in row:
            command = button.payload.split(maxsplit=3)[3]
            label, chained, short = button.label, command, ""
            if command.startswith("harvest ") and view.step is Step.PLANT and view.hand:
                field = command.split()[1]
                chained = f"{command}{CHAIN}plant {field}"
                label = _then(tr, label, view.hand[0], field)
            elif (
                command.startswith("harvest ")
                and view.step is Step.PLANT_SET_ASIDE
                and (mine.set_aside)
            ):
                field = command.split()[1]
                chained = f"{command}{CHAIN}aside 1 {field}"
                label = _then(tr, label, mine.set_aside[0], field)
            elif command == "done" and view.step is Step.TRADE and view.active == seat:
                plan = planting_plan(mine.fields, mine.set_aside + view.face_up, sell=True)
                if plan:
                    chained = CHAIN.join(["done", *_plan_commands(plan)])
                    label = tr.gettext("End trading, plant: {plan}").format(
                        plan=_plan_words(tr, plan)
                    )
                    short = tr.gettext("End trading, plant (see above)")
            payload = game_payload(session.game_id, token, chained)
            if len(payload.encode()) > MAX_PAYLOAD:
                label, payload, short = button.label, button.payload, ""
            buttons.append(Button(label, payload, short))
            if chained.startswith("harvest ") and f"{CHAIN}plant " in chained:
                stop = tr.gettext("→ {field}, then stop").format(field=chained.split()[-1])
                buttons.append(Button(stop, f"{payload}{CHAIN}done"))
        out.append(tuple(buttons))
    return tuple(out)


MAX_PAYLOAD = 64
"""The longest button payload every platform carries (Telegram's callback data)."""


def _then(tr: Translator, label: str, bean: Variety, field: str) -> str:
    return tr.gettext("{sale}, then {bean} → {field}").format(
        sale=label, bean=bean_name(tr, bean), field=field
    )


PlanStep = tuple[str, Variety, int, int]
"""One step of a planting plan: ('plant', bean, field, 0) or ('sell', variety, field, coins)."""


def planting_plan(
    fields: Sequence[FieldView], cards: Sequence[Variety], sell: bool = False
) -> list[PlanStep] | None:
    """Where each card goes when planted in order: on its own variety, else in an empty
    field; a card that fits nowhere first empties the field whose sale pays most (with
    `sell`), else the plan is None (the sale is the player's choice)."""
    holds = [(f.variety, f.count) for f in fields]
    plan: list[PlanStep] = []
    for card in cards:
        same = [i for i, (v, _) in enumerate(holds) if v is card]
        empty = [i for i, (v, _) in enumerate(holds) if v is None]
        if same or empty:
            target = same[0] if same else empty[0]
        elif sell:
            target = _best_sale(holds)
            variety, count = holds[target]
            assert variety is not None
            plan.append(("sell", variety, target, variety.coins_for(count)))
            holds[target] = (None, 0)
        else:
            return None
        holds[target] = (card, holds[target][1] + 1)
        plan.append(("plant", card, target, 0))
    return plan


def _best_sale(holds: list[tuple[Variety | None, int]]) -> int:
    """The field to sell: one the rules let go (a single bean only when no field holds more),
    paying most, then holding most."""
    most = max(count for _, count in holds)
    allowed = [i for i, (_, count) in enumerate(holds) if count > 1 or most <= 1]

    def value(i: int) -> tuple[int, int]:
        variety, count = holds[i]
        return (variety.coins_for(count) if variety else 0, count)

    return max(allowed, key=value)


def _plan_commands(plan: list[PlanStep]) -> list[str]:
    return [
        f"harvest {field + 1}" if kind == "sell" else f"aside 1 {field + 1}"
        for kind, _, field, _ in plan
    ]


def _plan_words(tr: Translator, plan: list[PlanStep]) -> str:
    words = []
    for kind, bean, field, coins in plan:
        if kind == "sell":
            words.append(
                tr.ngettext(
                    "sell {bean} ({coins} coin)", "sell {bean} ({coins} coins)", coins
                ).format(bean=short_bean(tr, bean), coins=coins)
            )
        else:
            words.append(f"{short_bean(tr, bean)} → {field + 1}")
    return ", ".join(words)


def _plant_all(
    session: GameSession, seat: int, tr: Translator, token: str
) -> tuple[tuple[Button, ...], ...]:
    """In step 3, one button that plants every card to plant where it fits best, when all
    of them fit."""
    view = session.view(seat)
    cards = view.seats[seat].set_aside
    if view.step is not Step.PLANT_SET_ASIDE or len(cards) < 2:
        return ()
    plan = planting_plan(view.seats[seat].fields, cards, sell=True)
    if not plan:
        return ()
    commands = CHAIN.join(_plan_commands(plan))
    if len(game_payload(session.game_id, token, commands).encode()) > MAX_PAYLOAD:
        return ()
    label = tr.gettext("Plant all: {plan}").format(plan=_plan_words(tr, plan))
    short = tr.gettext("Plant all (see above)")
    return ((Button(label, game_payload(session.game_id, token, commands), short),),)


def confirmation(session: GameSession, seat: int, tr: Translator, action: Action) -> Message:
    """The player's message asking whether to make a move that cannot be undone."""
    view = session.view(seat)
    token = session.token(seat)
    shown = play_message(session, seat, tr)
    question = tr.gettext("{move}? It cannot be undone.").format(
        move=action_label(tr, action, view)
    )
    yes = Button(tr.gettext("Yes"), game_payload(session.game_id, token, action_text(action)))
    no = Button(tr.gettext("No"), game_payload(session.game_id, token, BACK))
    return shown.with_line(question).with_buttons(((yes, no),)).with_alert(False)
