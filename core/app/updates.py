"""The messages that keep a room and its players current after the game has moved.

The room's table is edited when the turn changes and when trading opens (and at the end), not
after every move: a group chat stays readable, and every edit shows the whole current table.
Each player's private message is renewed whenever what he sees or may do has changed.
"""

from __future__ import annotations

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


def table_message(session: GameSession, tr: Translator, caps: Capabilities) -> Message:
    view = session.view(None)
    pending = session.pending()
    deadlines = [session.deadline(seat) for seat in pending]
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
    session: GameSession, tr: Translator, caps: Capabilities, force: set[int] | None = None
) -> list[Outbound]:
    """Private messages for the players whose view or moves changed (or are in `force`)."""
    if not caps.private_messages:
        return []
    out: list[Outbound] = []
    for seat in session.humans():
        control = session.seats[seat]
        # Every open offer is shown to every player, so a change to any offer renews them all.
        key = f"{session.token(seat)} {sorted(session.state.offers)} {control.passed}"
        if session.hand_tokens.get(seat) == key and not (force and seat in force):
            continue
        session.hand_tokens[seat] = key
        out.append(
            ToPlayer(
                control.identity.user_id,
                private_message(session, seat, tr, caps),
                session.room,
                hand_slot(session.game_id),
            )
        )
    return out
