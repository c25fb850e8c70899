"""A player's input to his game: finding the game and seat it is for (a button's game, `#ID`,
the room's game, or his only game when said privately), then what it asks: a button's screen
(a question, the offer picker), a number answering his list, the table, his hand, or a move."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from ..errors import IllegalActionError
from ..notation import NotationError, action_text
from .commands import Press, pressed
from .context import Context
from .i18n import Translator
from .inbound import Inbound
from .learning import hint_answer
from .messages import Reply
from .numbers import verdict
from .picker import SEND, draft_commands
from .play import UnknownBean, act, parse, welcome_back
from .presenting import Said, Show, seat_view, table_anew
from .refused_numbers import refused_number
from .render import hand_text
from .screens import (
    BACK,
    CHAIN,
    current_draft,
    current_screen,
    screen_choices,
    screen_moment,
    screen_of,
    seat_decision,
)
from .seat_screen import ASK, PICK, Screen
from .session import GameSession
from .updates import table_message
from .work import Work


def button(
    ctx: Context, work: Work, inbound: Inbound, tr: Translator, press: Press, now: datetime
) -> list[Said]:
    """A game's button (`g GAME TOKEN VERB…`) or the hand button (`h GAME`)."""
    session = ctx.tables.button_session(press.game_id) if press.game_id else None
    if session is None:
        return [Reply(inbound, tr.gettext("This button belongs to a game that is over."))]
    seat, back = _seated(ctx, work, session, inbound, now)
    if seat is None:
        return back
    return back + _pressed(ctx, work, session, seat, inbound, press, now)


def _seated(
    ctx: Context, work: Work, session: GameSession, inbound: Inbound, now: datetime
) -> tuple[int | None, list[Said]]:
    """The seat of the game's player who sent the input, with what his coming back from a
    stand-in shows (he has his seat again before what he asked is done); for anyone else
    None, with the answer that he does not play here."""
    seat = session.seat_of(inbound.user_id)
    if seat is None:
        tr = ctx.translator(session.language)
        return None, [Reply(inbound, tr.gettext("You are not playing in this game."))]
    return seat, welcome_back(ctx, work, session, seat, now)


def _pressed(
    ctx: Context,
    work: Work,
    session: GameSession,
    seat: int,
    inbound: Inbound,
    press: Press,
    now: datetime,
) -> list[Said]:
    """What a button of the seat's asks, on its game."""
    tr = ctx.translator(session.language)
    if press.hand:
        if not ctx.capabilities.personal_answers:
            # Here an answer may be read by others: the hand goes to the private chat.
            return hand_privately(ctx, session, seat, inbound)
        return [Reply(inbound, hand_text(tr, session.view(seat), session.names))]
    if press.odd:
        return [Reply(inbound, tr.gettext("This button is not one of mine."))]
    if press.verb == PICK:
        # The draft is checked against the game as it is: others' offers may come and go
        # while a player ticks his cards.
        return _pick(ctx, session, seat, inbound, press.rest)
    if press.token != session.token(seat):
        # Never a dead end: the player gets the moment as it is now, with its buttons.
        earlier = tr.gettext(
            "That button was from an earlier moment: here is the game as it stands now."
        )
        return [seat_view(session, seat, fresh=True), Reply(inbound, earlier)]
    if press.verb == ASK and len(press.asks) > 1:
        return _confirm(ctx, session, seat, inbound, press.rest)
    if press.verb == BACK:
        session.seats[seat].screen = None
        return [seat_view(session, seat)]
    if press.verb == SEND:
        return _send_offer(ctx, work, session, seat, inbound, press.rest, now)
    return act(ctx, work, session, seat, inbound, " ".join(press.asks), now)


def typed(
    ctx: Context,
    work: Work,
    inbound: Inbound,
    tr: Translator,
    words: tuple[str, ...],
    now: datetime,
) -> list[Said]:
    """A typed game command (`#GAME` first where the player has several games)."""
    game_id = words[0][1:].upper() if words[0].startswith("#") else None
    if game_id is not None:
        words = words[1:]
        if not words:
            return [Reply(inbound, tr.gettext("Write the command after the game's id."))]
    if inbound.private or game_id is not None:
        sessions = ctx.tables.player_sessions(inbound.user_id)
        if game_id is not None:
            sessions = [s for s in sessions if s.game_id == game_id]
        if len(sessions) > 1:
            several = tr.gettext(
                "You play in several games; start with the game's id: #{game} {command}"
            )
            game, command = sessions[0].game_id, " ".join(words)
            return [Reply(inbound, several.format(game=game, command=command))]
        session = ctx.tables.up_to_date(sessions[0]) if sessions else None
    else:
        session = ctx.tables.room_session(inbound.room)
    if session is None:
        return [Reply(inbound, tr.gettext("You are not playing in a game here."))]
    seat, back = _seated(ctx, work, session, inbound, now)
    if seat is None:
        return back
    return back + _asked(ctx, work, session, seat, inbound, words, now)


def _asked(
    ctx: Context,
    work: Work,
    session: GameSession,
    seat: int,
    inbound: Inbound,
    words: tuple[str, ...],
    now: datetime,
) -> list[Said]:
    """What a typed command of the seat's asks, on its game."""
    tr = ctx.translator(session.language)
    verb = words[0].lower()
    if verb.isascii() and verb.isdigit() and len(words) == 1:
        return _numbered_choice(ctx, work, session, seat, inbound, int(verb), now)
    if verb == "table":
        if inbound.private:
            # Asked in private: answered there, not posted to the whole room.
            return [Reply(inbound, table_message(session, tr, ctx.capabilities, now).text)]
        return [table_anew(session)]
    if verb == "hint":
        return [*hint_answer(ctx, session, seat, inbound)]
    if verb == "hand":
        if inbound.private:
            # Here, the private message itself, posted anew with its buttons.
            return [seat_view(session, seat, fresh=True)]
        return hand_privately(ctx, session, seat, inbound)
    return act(ctx, work, session, seat, inbound, " ".join(words), now)


def _numbered_choice(
    ctx: Context,
    work: Work,
    session: GameSession,
    seat: int,
    inbound: Inbound,
    number: int,
    now: datetime,
) -> list[Said]:
    """A number answers the player's list where choices are numbered: it presses the button
    it names, and the message that follows is posted anew, below it. It is taken only for the
    choice it named in the lists he may be reading (`bohnanza.core.app.numbers`); else he is
    told in one line what became of it, with his list as it stands."""
    tr = ctx.translator(session.language)
    if not ctx.capabilities.numbers:
        none = tr.gettext("Your choices here are buttons: tap one in your private message.")
        return [Reply(inbound, none)]
    screen = current_screen(session, seat)
    message = screen_of(session, seat, tr, screen)
    decision = seat_decision(session, seat, screen)
    choices = screen_choices(session, seat, message, screen)
    found = verdict(session.seats[seat].numbers, decision, choices, number)
    if found.outcome == "none":
        none = tr.gettext("There is no choice {number} in your private message.")
        return [Reply(inbound, none.format(number=number))]
    if found.outcome != "take" or found.choice is None:
        line = refused_number(tr, session, found)
        return [Reply(inbound, line), seat_view(session, seat, fresh=True)]
    payload = found.choice.button.payload
    press = pressed(tuple(payload.split())).press
    if press is None:
        return [Reply(inbound, tr.gettext("This button is not one of mine."))]
    out = button(ctx, work, replace(inbound, text=payload), tr, press, now)
    # What it shows him is posted anew, below the number he sent.
    return [replace(o, anew_to=inbound.user_id) if isinstance(o, Show) else o for o in out]


def _show_screen(session: GameSession, seat: int, screen: Screen | None) -> None:
    control = session.seats[seat]
    control.screen = screen
    if screen is not None:
        control.screen_at = screen_moment(session, seat, screen)


def _pick(
    ctx: Context, session: GameSession, seat: int, inbound: Inbound, draft: str
) -> list[Said]:
    """The trade picker with the draft of the button pressed."""
    tr = ctx.translator(session.language)
    if current_draft(session, seat, draft) is None:
        _show_screen(session, seat, None)
        cannot = Reply(inbound, tr.gettext("That offer cannot be made now."))
        return [seat_view(session, seat), cannot]
    _show_screen(session, seat, Screen(PICK, draft))
    return [seat_view(session, seat)]


def _send_offer(
    ctx: Context,
    work: Work,
    session: GameSession,
    seat: int,
    inbound: Inbound,
    words: str,
    now: datetime,
) -> list[Said]:
    """Make the offer the player built: to one partner, to each possible partner, or as the
    counter of an offer made to him."""
    tr = ctx.translator(session.language)
    draft = current_draft(session, seat, words)
    options = session.legal(seat).trade
    _show_screen(session, seat, None)
    if draft is None or options is None:
        cannot = Reply(inbound, tr.gettext("That offer cannot be made now."))
        return [seat_view(session, seat), cannot]
    command = CHAIN.join(draft_commands(draft, options.partners))
    return act(ctx, work, session, seat, inbound, command, now)


def _confirm(
    ctx: Context, session: GameSession, seat: int, inbound: Inbound, command: str
) -> list[Said]:
    """A move that cannot be undone and is not forced (selling a field) is asked again: the
    player's message shows what it does, with Yes and No."""
    tr = ctx.translator(session.language)
    try:
        action = parse(session, seat, command)
        session.game.check(action)
    except (NotationError, IllegalActionError, UnknownBean):
        return [Reply(inbound, tr.gettext("This button is not one of mine."))]
    _show_screen(session, seat, Screen(ASK, action_text(action)))
    return [seat_view(session, seat)]


def hand_privately(ctx: Context, session: GameSession, seat: int, inbound: Inbound) -> list[Said]:
    """The player's private message sent again, and a word where he asked (not on one screen,
    where it shows up right there)."""
    tr = ctx.translator(session.language)
    mine = seat_view(session, seat, fresh=True)
    if ctx.capabilities.one_screen:
        return [mine]
    return [mine, Reply(inbound, tr.gettext("I sent you your hand privately."))]
