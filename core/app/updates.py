"""The messages that keep a room and its players current after the game has moved.

The room's table is edited when the turn changes and when trading opens (and at the end), not
after every move: a group chat stays readable, and every edit shows the whole current table.
Each player's private message is renewed whenever what he sees or may do has changed.
"""

from __future__ import annotations

from dataclasses import replace

from ..actions import Action
from ..notation import action_text
from ..state import Step
from .i18n import Translator
from .messages import Button, Message, Outbound, ToPlayer, ToRoom
from .ports import Capabilities
from .render import hand_message, result_text, table_text
from .session import GameSession

_OPENING_STEPS = (Step.PLANT, Step.DUEL_OFFERED, Step.DUEL_PLANT)
"""Steps before the face-up cards are out; the room is shown the table once they are."""


def table_slot(game_id: str) -> str:
    return f"table:{game_id}"


def hand_slot(game_id: str) -> str:
    return f"hand:{game_id}"


def game_payload(game_id: str, token: str, command: str) -> str:
    """A game button's payload: the game, the moment it was made for, and the command."""
    return f"g {game_id} {token} {command}"


def table_key(session: GameSession) -> tuple[object, ...]:
    state = session.state
    return (state.turn, state.active, state.step not in _OPENING_STEPS, state.is_over)


def waited_for(session: GameSession) -> list[int]:
    """The seats the table waits on. While a bot on turn keeps trading open, that is the
    people who may still trade (not the bot, which only waits for them)."""
    pending = session.pending()
    state = session.state
    if state.step is not Step.TRADE or session.seats[state.active].bot is None:
        return pending
    people = [
        seat
        for seat in session.humans()
        if seat != state.active
        and not session.seats[seat].stand_in
        and session.seats[seat].passed != session.moment(seat)
    ]
    return list(dict.fromkeys([s for s in pending if s != state.active] + people))


def table_message(session: GameSession, tr: Translator, caps: Capabilities) -> Message:
    view = session.view(None)
    pending = waited_for(session)
    deadlines = [session.deadline(seat) for seat in pending] + [session.trade_window_until]
    soonest = min((d for d in deadlines if d is not None), default=None)
    text = table_text(
        tr,
        session.game_id,
        view,
        session.names,
        pending,
        soonest.strftime("%H:%M UTC") if soonest else None,
    )
    buttons: tuple[tuple[Button, ...], ...] = ()
    if caps.buttons and caps.personal_answers and not view.is_over:
        buttons = ((Button(tr.gettext("My hand"), f"h {session.game_id}"),),)
    return Message(text[: caps.max_text], buttons)


def table_update(
    session: GameSession, tr: Translator, caps: Capabilities, fresh: bool = False
) -> list[Outbound]:
    """The room's table, when it is due (or `fresh`: posted anew), and the result at the end."""
    key = table_key(session)
    if key == session.table_key and not fresh:
        return []
    session.table_key = key
    out: list[Outbound] = [
        ToRoom(session.room, table_message(session, tr, caps), table_slot(session.game_id), fresh)
    ]
    if session.game.is_over:
        view = session.view(None)
        out.append(
            ToRoom(session.room, Message(result_text(tr, session.game_id, view, session.names)))
        )
    return out


def private_message(session: GameSession, seat: int, tr: Translator, caps: Capabilities) -> Message:
    """What one player sees privately, with his moves as buttons (or listed, without buttons)."""
    view = session.view(seat)
    legal = session.legal(seat)
    token = session.token(seat)
    payload_of: dict[Action, str] = {
        action: game_payload(session.game_id, token, action_text(action))
        for action in legal.actions
    }
    message = hand_message(tr, session.game_id, view, session.names, legal, payload_of)
    if seat in session.pending():
        heading, _, rest = message.text.partition("\n")
        message = Message(
            heading + "\n" + tr.gettext("▶ Your move.") + "\n" + rest, message.buttons
        )
    extra: list[Button] = []
    if (
        session.state.step is Step.TRADE
        and seat != session.state.active
        and session.seats[seat].passed != session.moment(seat)
    ):
        extra.append(Button(tr.gettext("No trade"), game_payload(session.game_id, token, "pass")))
    rows = message.buttons + ((tuple(extra),) if extra else ())
    if not caps.buttons:
        commands = [action_text(a) for a in legal.actions] + (["pass"] if extra else [])
        text = message.text
        if commands:
            text += "\n" + tr.gettext("You may: {commands}").format(commands=" | ".join(commands))
        return Message(text[: caps.max_text])
    return Message(message.text[: caps.max_text], rows)


def hand_updates(
    session: GameSession,
    tr: Translator,
    caps: Capabilities,
    force: set[int] | None = None,
    only: set[int] | None = None,
) -> list[Outbound]:
    """Private messages for the players whose view or moves changed (or are in `force`), of
    every person at the table or of the seats in `only`."""
    if not caps.private_messages:
        return []
    out: list[Outbound] = []
    for seat in session.humans():
        if only is not None and seat not in only:
            continue
        control = session.seats[seat]
        # Every open offer is shown to every player, so a change to any offer renews them all.
        key = f"{session.token(seat)} {sorted(session.state.offers)} {control.passed}"
        changed = session.hand_tokens.get(seat) != key
        alert = _alerts(session, seat, changed)
        if not changed and not (force and seat in force) and not alert:
            continue
        session.hand_tokens[seat] = key
        message = private_message(session, seat, tr, caps)
        out.append(
            ToPlayer(
                control.identity.user_id,
                replace(message, alert=alert),
                session.room,
                hand_slot(session.game_id),
                fresh=alert,
                retired=Message(retired_text(session, tr)) if alert else None,
            )
        )
    return out


def _alerts(session: GameSession, seat: int, changed: bool) -> bool:
    """Whether the seat's next private message is to notify him: once per decision that falls
    to him through another's move (or at every change, if he asked for all); never while a
    stand-in plays for him."""
    control = session.seats[seat]
    due, control.due = control.due, False
    if control.stand_in or control.notify == "off" or session.game.is_over:
        return False
    return due or (changed and control.notify == "all")


def retired_text(session: GameSession, tr: Translator) -> str:
    """What a private message becomes once a newer one replaced it."""
    return tr.gettext("Game {game}: moved on; your newest message is below.").format(
        game=session.game_id
    )
