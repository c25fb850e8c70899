"""Playing: a player's command in his game applied (with the steps a button chains to it), the
bots' answers, a player back from a stand-in; what the room and the players see after is
presented once it is all decided (`presenting.moved`)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from functools import partial

from ..actions import AcceptTrade, Action, CounterTrade, DeclineTrade, ProposeTrade
from ..cards import Variety
from ..errors import IllegalActionError
from ..notation import NotationError, parse_action
from ..state import Step
from . import turns
from .context import Context
from .i18n import Translator, bean_name
from .inbound import Inbound
from .messages import Message, Reply, ToRoom
from .player_events import own_offer_lines
from .presenting import Said, Show, moved
from .refusals import refusal
from .screens import CHAIN
from .session import GameSession
from .typed_names import seat_numbers
from .work import Work


def act(
    ctx: Context,
    work: Work,
    session: GameSession,
    seat: int,
    inbound: Inbound,
    command: str,
    now: datetime,
) -> list[Said]:
    """A player's command in his game: applied, answered by bots, shown to all."""
    tr = ctx.translator(session.language)
    session.seats[seat].screen = None
    if command.strip().lower() == "pass":
        return pass_on_trading(ctx, work, session, seat, inbound, now)
    first, *rest = command.split(CHAIN)
    since = len(session.game.actions)
    try:
        turns.apply_action(session, parse(session, seat, first), now)
    except NotationError:
        text = tr.gettext("I did not understand that. Send 'help' for the commands.")
        return [Reply(inbound, text)]
    except IllegalActionError as error:
        return [Reply(inbound, refusal(tr, error))]
    except UnknownBean as error:
        return [Reply(inbound, _not_in_this_game(tr, session, error.variety))]
    for following in rest:
        # A button may carry the steps that usually follow ("plant 2; done"): each is taken
        # while it is still legal, in the same transaction as the first.
        try:
            turns.apply_action(session, parse(session, seat, following), now)
        except (NotationError, IllegalActionError, UnknownBean):
            break
    shown = after_move(ctx, work, session, now, acting=seat)
    return answer_to_move(ctx, session, seat, inbound, command, since, shown)


def answer_to_move(
    ctx: Context,
    session: GameSession,
    seat: int,
    inbound: Inbound,
    command: str,
    since: int,
    shown: Show,
) -> list[Said]:
    """What the room and the players now see (`shown`), and the move answered at once: an
    offer by its number and what became of it (a bot answers at once), where his private
    message does not tell it already."""
    caps = ctx.capabilities
    if caps.one_screen:
        # His screen, printed anew when nothing else was: the lines on what happened since
        # the last one come above it (what the bots answered, what they did).
        return [replace(shown, reprint=seat)]
    tr = ctx.translator(session.language)
    lines = own_offer_lines(tr, session.happened_since(since), seat, session.names)
    if lines:
        return [shown, Reply(inbound, "\n".join(lines))]
    if inbound.button:
        return [shown, Reply(inbound, "✓")]
    if not inbound.private and caps.edits and not caps.personal_answers:
        # Said in the group where no answer is personal: a brief word that it was taken
        # (the table is edited in place, only when the turn or the step changes).
        return [shown, Reply(inbound, f"✓ {command}")]
    return [shown]


def pass_on_trading(
    ctx: Context, work: Work, session: GameSession, seat: int, inbound: Inbound, now: datetime
) -> list[Said]:
    """`pass`: no trading for this player this turn; the offers made to him are declined."""
    tr = ctx.translator(session.language)
    state = session.state
    if state.step is not Step.TRADE:
        return [Reply(inbound, tr.gettext("There is no trading to pass on now."))]
    if seat == state.active:
        text = tr.gettext("It is your turn: trading ends when you choose End trading (`done`).")
        return [Reply(inbound, text)]
    for action in session.legal(seat).actions:
        if isinstance(action, DeclineTrade):
            turns.apply_action(session, action, now, acting=seat)
    session.seats[seat].passed = session.moment(seat)
    shown = after_move(ctx, work, session, now, acting=seat)
    return [shown, Reply(inbound, tr.gettext("You pass on trading this time."))]


class UnknownBean(ValueError):
    """An offer asks for a bean this game is played without."""

    def __init__(self, variety: Variety) -> None:
        super().__init__(variety.title)
        self.variety = variety


def parse(session: GameSession, seat: int, command: str) -> Action:
    """A typed or button command as the seat's action (players named or numbered). An offer
    that asks for a bean this game leaves out raises UnknownBean: nobody could give it."""
    action = parse_action(seat_numbers(command, session.names, seat), seat)
    if isinstance(action, ProposeTrade | CounterTrade):
        for variety in action.want:
            if variety in session.state.setup.removed:
                raise UnknownBean(variety)
    if isinstance(action, AcceptTrade) and not action.hand and not action.face_up:
        # "accept 3" alone gives the first fitting cards, as the button does.
        for legal in session.legal(seat).actions:
            if isinstance(legal, AcceptTrade) and legal.offer == action.offer:
                return legal
    return action


def _not_in_this_game(tr: Translator, session: GameSession, variety: Variety) -> str:
    """Why an offer asking for a bean the game leaves out is refused, and which it leaves out."""
    removed = ", ".join(bean_name(tr, v) for v in session.state.setup.removed)
    return tr.gettext("There is no {bean} in this game: it is played without {beans}.").format(
        bean=bean_name(tr, variety), beans=removed
    )


def welcome_back(
    ctx: Context, work: Work, session: GameSession, seat: int, now: datetime
) -> list[Said]:
    """Any command from a player a stand-in was playing for gives him his seat back; a table
    that waited for him goes on."""
    if not turns.hand_back(session, seat):
        return []
    turns.close_trade_window(session)
    tr = ctx.translator(session.language)
    text = tr.gettext("{name} is back and plays again.").format(name=session.names[seat])
    return [ToRoom(session.room, Message(text)), after_move(ctx, work, session, now)]


def after_move(
    ctx: Context,
    work: Work,
    session: GameSession,
    now: datetime,
    fresh: bool = False,
    acting: int | None = None,
) -> Show:
    """Bots answer and the game is given to the work to store; what the table and the
    players then see is presented where the `Show` returned stands (`fresh`: the table posted
    anew; `acting`: the seat whose input it answers)."""
    turns.run_bots(session, now, acting)
    turns.close_trade_window(session)
    work.save_game(session)
    if session.game.is_over:
        # Over once it is stored: memory drops it then.
        work.after_commit(partial(ctx.tables.forget_game, session.game_id))
    return moved(session, acting, fresh)
