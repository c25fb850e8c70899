"""Playing: a player's command in his game applied (with the steps a button chains to it), the
bots' answers, a player back from a stand-in, and what the room and the players see after."""

from __future__ import annotations

from datetime import datetime

from ..actions import AcceptTrade, Action
from ..errors import IllegalActionError
from ..notation import NotationError, parse_action
from . import turns
from .context import Context
from .inbound import Inbound
from .messages import Message, Outbound, Reply, ToRoom
from .refusals import refusal
from .screens import CHAIN
from .session import GameSession
from .typed_names import seat_numbers
from .updates import hand_updates, shown_now, table_update
from .work import Work


def act(
    ctx: Context,
    work: Work,
    session: GameSession,
    seat: int,
    inbound: Inbound,
    command: str,
    now: datetime,
) -> list[Outbound]:
    """A player's command in his game: applied, answered by bots, shown to all."""
    tr = ctx.translator(session.language)
    session.seats[seat].screen = None
    if command.strip().lower() == "pass":
        if session.state.step.value != "trade" or seat == session.state.active:
            return [Reply(inbound, tr.gettext("There is no trading to pass on now."))]
        session.seats[seat].passed = session.moment(seat)
        out = after_move(ctx, work, session, now, acting=seat)
        return [*out, Reply(inbound, tr.gettext("You pass on trading this time."))]
    first, *rest = command.split(CHAIN)
    try:
        turns.apply_action(session, parse(session, seat, first), now)
    except NotationError:
        text = tr.gettext("I did not understand that. Send 'help' for the commands.")
        return [Reply(inbound, text)]
    except IllegalActionError as error:
        return [Reply(inbound, refusal(tr, error))]
    for following in rest:
        # A button may carry the steps that usually follow ("plant 2; done"): each is taken
        # while it is still legal, in the same transaction as the first.
        try:
            turns.apply_action(session, parse(session, seat, following), now)
        except (NotationError, IllegalActionError):
            break
    out = after_move(ctx, work, session, now, acting=seat)
    if inbound.button:
        out.append(Reply(inbound, "✓"))
    elif not inbound.private and ctx.capabilities.edits and not ctx.capabilities.personal_answers:
        # Said in the group where no answer is personal: a brief word that it was taken
        # (the table is edited in place, only when the turn or the step changes).
        out.append(Reply(inbound, f"✓ {command}"))
    return out


def parse(session: GameSession, seat: int, command: str) -> Action:
    """A typed or button command as the seat's action (players named or numbered)."""
    action = parse_action(seat_numbers(command, session.names, seat), seat)
    if isinstance(action, AcceptTrade) and not action.hand and not action.face_up:
        # "accept 3" alone gives the first fitting cards, as the button does.
        for legal in session.legal(seat).actions:
            if isinstance(legal, AcceptTrade) and legal.offer == action.offer:
                return legal
    return action


def welcome_back(
    ctx: Context, work: Work, session: GameSession, seat: int, now: datetime
) -> list[Outbound]:
    """Any command from a player a stand-in was playing for gives him his seat back; a table
    that waited for him goes on."""
    if not turns.hand_back(session, seat):
        return []
    turns.close_trade_window(session)
    tr = ctx.translator(session.language)
    text = tr.gettext("{name} is back and plays again.").format(name=session.names[seat])
    return [ToRoom(session.room, Message(text)), *after_move(ctx, work, session, now)]


def after_move(
    ctx: Context,
    work: Work,
    session: GameSession,
    now: datetime,
    fresh: bool = False,
    acting: int | None = None,
) -> list[Outbound]:
    """Bots answer; the table and the private messages that changed are derived, what they
    show noted in the session, and the game given to the work to store."""
    turns.run_bots(session, now, acting)
    turns.close_trade_window(session)
    tr = ctx.translator(session.language)
    caps = ctx.capabilities
    update = table_update(session, tr, caps, fresh=fresh, now=now)
    update += hand_updates(session, tr, caps, acting=acting)
    work.save_game(session)
    if session.game.is_over:
        ctx.tables.games.pop(session.room, None)
    return shown_now(session, update)
