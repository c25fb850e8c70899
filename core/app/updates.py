"""What each audience should now see of a game, derived from it as it stands: the room's
table when it is due, and the private messages of the players whose view changed.

Derivation is pure: the same session gives the same messages, and nothing here changes it.
What was shown is returned beside the messages (`Shown`), and `record` notes it in the session
(its chat state: the table's moment, each private message's moment and numbered choices); the
presenting step (`presenting`) derives and records once an input is decided, and the unit of
work stores it with the move. The room's table is renewed when the turn changes and
when trading opens (and at the end), not after every move; a player's private message whenever
what he sees or may do has changed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..state import Step
from ..view_values import PlayerView
from .hand_keys import AwayKey, HandKey, ShownHand
from .i18n import Translator
from .labels import fitted_labels
from .messages import Button, GamePage, Message, Outbound, ToPlayer, ToRoom
from .numbers import Choice, Numbering, SeatNumbers, numbered, sent
from .ports import Capabilities
from .render import result_html, result_text, table_html, table_text
from .screens import (
    current_screen,
    numbered_lines,
    screen_choices,
    screen_of,
    seat_decision,
    with_numbers,
)
from .seat_screen import Screen
from .session import GameSession
from .story import story_line, table_key_of
from .turns import waits_for


@dataclass
class SeatShown:
    """What one seat's new private message shows."""

    hand: ShownHand
    numbers: SeatNumbers | None
    """What his numbers name now (None: the platform numbers nothing)."""
    screen_dropped: bool
    """The decision that fell to him comes first: the question or draft he had is dropped."""


@dataclass
class Shown:
    """What a derivation showed, for `record` to note in the session."""

    table_key: tuple[object, ...] | None = None
    seats: dict[int, SeatShown] = field(default_factory=dict)
    told_due: set[int] = field(default_factory=set)
    """Seats whose pending notification (`due`) was looked at: told now, or not to be."""

    def then(self, later: Shown) -> Shown:
        """This, followed by what a later derivation showed."""
        return Shown(
            later.table_key if later.table_key is not None else self.table_key,
            {**self.seats, **later.seats},
            self.told_due | later.told_due,
        )


@dataclass
class Update:
    """Messages to send, and what they show."""

    out: list[Outbound] = field(default_factory=list)
    shown: Shown = field(default_factory=Shown)

    def __add__(self, other: Update) -> Update:
        return Update(self.out + other.out, self.shown.then(other.shown))


def record(session: GameSession, shown: Shown) -> None:
    """Note in the session what its players were shown (kept in its chat state): a list a
    number answers, the moment of a message, a notification told. Screens whose moment passed
    are dropped."""
    if shown.table_key is not None:
        session.table_key = shown.table_key
    for seat in shown.told_due:
        session.seats[seat].due = False
    for seat, seen in shown.seats.items():
        control = session.seats[seat]
        if seen.screen_dropped:
            control.screen = None
        session.hand_tokens[seat] = seen.hand
        if seen.numbers is not None:
            control.numbers = seen.numbers
    for seat, control in enumerate(session.seats):
        if control.screen and current_screen(session, seat) is None:
            control.screen = None


def table_slot(game_id: str) -> str:
    return f"table:{game_id}"


def hand_slot(game_id: str) -> str:
    return f"hand:{game_id}"


def table_key(session: GameSession) -> tuple[object, ...]:
    """The table is shown anew when the turn changes and when trading opens (with the story of
    what happened since: sales, trades); a group chat is not edited at every move."""
    return table_key_of(session.state)


def table_of(session: GameSession, message: Message, fresh: bool = False) -> ToRoom:
    """The room's table of the game, in its slot."""
    return ToRoom(session.room, message, table_slot(session.game_id), fresh)


def waited_for(session: GameSession) -> list[int]:
    """The seats the table waits on. While a bot on turn keeps trading open, that is the
    people who may still trade (not the bot, which only waits for them)."""
    pending = session.pending()
    state = session.state
    if state.step is not Step.TRADE or session.seats[state.active].bot is None:
        return pending
    people = [seat for seat in session.humans() if waits_for(session, seat)]
    return list(dict.fromkeys([s for s in pending if s != state.active] + people))


def times_from(now: datetime | None, caps: Capabilities) -> datetime | None:
    """The moment a view tells times from ('due in 4 min'): none where views are edited in
    place, where they tell times of day only. A relative time would be wrong once the view
    is left a while (it is edited when the game changes, not as time passes), and the same
    view drawn again later (a restart bringing views up to date) would differ from it by that
    alone. A screen printed anew at each input (`one_screen`) tells both."""
    return now if caps.one_screen else None


def table_message(
    session: GameSession, tr: Translator, caps: Capabilities, now: datetime | None = None
) -> Message:
    """The room's table; the soonest deadline is told as the time of day, and also from
    `now` ('due in 4 min') on a screen printed anew (`times_from`)."""
    now = times_from(now, caps)
    view = session.view(None)
    pending = waited_for(session)
    window = session.trade_window_until
    if caps.one_screen and not session.turn_seconds:
        window = None  # a bot's trading window is no deadline: with deadlines off, none is told
    deadlines = [session.deadline(seat) for seat in pending] + [window]
    soonest = min((d for d in deadlines if d is not None), default=None)
    shown = (tr, session.game_id, view, session.names, pending, soonest, now)
    message = Message(table_text(*shown), html=table_html(*shown))
    story = [story_line(tr, event, session.names) for event in session.story.table_story]
    message = message.with_lines([f"· {line}" for line in story if line])
    buttons: tuple[tuple[Button, ...], ...] = ()
    if caps.buttons and caps.personal_answers and not view.is_over:
        buttons = ((Button(tr.gettext("My hand"), f"h {session.game_id}"),),)
    return message.with_buttons(buttons).cut(caps.max_text)


def table_update(
    session: GameSession,
    tr: Translator,
    caps: Capabilities,
    fresh: bool = False,
    now: datetime | None = None,
) -> Update:
    """The room's table, when it is due (or `fresh`: posted anew), and the result at the end."""
    key = table_key(session)
    if key == session.table_key and not fresh:
        return Update()
    out: list[Outbound] = [table_of(session, table_message(session, tr, caps, now), fresh)]
    if session.game.is_over:
        view = session.view(None)
        shown = (tr, session.game_id, view, session.names)
        out.append(ToRoom(session.room, Message(result_text(*shown), html=result_html(*shown))))
        if caps.files:
            caption = tr.gettext("The whole game to step through in a browser.")
            out.append(GamePage(session.room, session.game_id, session.language, caption))
    return Update(out, Shown(table_key=key))


def private_message(session: GameSession, seat: int, tr: Translator, caps: Capabilities) -> Message:
    """What one player sees privately, with his moves as buttons (numbered, where the platform
    has no buttons): the game, a question he was asked, or the offer he is building."""
    screen = current_screen(session, seat)
    message = screen_of(session, seat, tr, screen)
    numbers = None
    if caps.numbers:
        numbers = seat_numbering(session, seat, message, screen)[0]
    return shown_privately(session, seat, tr, caps, message, numbers)


def seat_numbering(
    session: GameSession, seat: int, message: Message, screen: Screen | None, answer: bool = False
) -> tuple[list[int], Numbered]:
    """The number of each button of the seat's message showing `screen` (`answer`: sent in
    answer to his own input), and what the seat's numbers name once it is shown."""
    decision = seat_decision(session, seat, screen)
    choices = screen_choices(session, seat, message, screen)
    numbers, numbering = numbered(session.seats[seat].numbers, decision, choices, answer)
    return numbers, Numbered(decision, numbering, list(zip(numbers, choices, strict=True)))


def shown_privately(
    session: GameSession,
    seat: int,
    tr: Translator,
    caps: Capabilities,
    screen: Message,
    numbers: list[int] | None = None,
) -> Message:
    """The player's screen (`screen_message`) as the platform shows it: its buttons numbered
    (`numbers`) where there are none or they are listed numbered, labels too long for a button
    said in the text above them."""
    message = screen
    if not caps.buttons:
        # Where lines cost, how to answer is said when a decision is his (and in the help).
        hint = not caps.compact or seat in session.pending()
        message = numbered_lines(tr, message, numbers or [], hint)
    elif caps.numbered_buttons:
        message = with_numbers(message, numbers or [])
    elif caps.max_label:
        message = fitted_labels(tr, message, caps.max_label)
    return message.cut(caps.max_text)


def hand_updates(
    session: GameSession,
    tr: Translator,
    caps: Capabilities,
    force: set[int] | None = None,
    only: set[int] | None = None,
    acting: int | None = None,
    now: datetime | None = None,
) -> Update:
    """Private messages for the players whose view or moves changed (or are in `force`), of
    every person at the table or of the seats in `only`. For decisions only, a change that asks
    nothing of a player, answers nothing he did (`acting` is the seat whose input it was) and
    touches no offer of his is not sent: he sees it when he asks or acts. A bot's trading
    window that waits for him is told as a time of day (see `times_from`)."""
    update = Update()
    if not caps.private_messages:
        return update
    for seat in session.humans():
        if only is not None and seat not in only:
            continue
        control = session.seats[seat]
        key: ShownHand = hand_key(session, seat, caps)
        shown = session.hand_tokens.get(seat)
        changed = shown != key
        away = control.stand_in and not (only is not None and force and seat in force)
        if away:
            # Away: nothing but a word when his turn comes (a stand-in plays it), unless he
            # asked for his view himself.
            key = AwayKey(session.state.turn)
            changed = session.state.active == seat and shown != key
            if not changed:
                continue
        update.shown.told_due.add(seat)
        alert = _alerts(session, seat, changed) or (away and control.notify != "off")
        if not changed and not (force and seat in force) and not alert:
            continue
        if (
            caps.private_on_decisions
            and not (alert or away or seat == acting or (force and seat in force))
            and isinstance(key, HandKey)
            and key.same_but_moves(shown)
        ):
            continue  # only his moves changed, through others: he sees them when he asks
        # The decision that fell to him comes first.
        showing = None if alert else current_screen(session, seat)
        screen = screen_of(session, seat, tr, showing, times_from(now, caps))
        numbers, seen = None, None
        if caps.numbers:
            # Stable numbers; an answer to his own input is the list he reads from now on,
            # any other list one more he may be reading (a view healed included).
            answer = seat == acting
            numbers, shown_numbers = seat_numbering(session, seat, screen, showing, answer)
            seen = shown_numbers.sent(control.numbers, answer)
        update.shown.seats[seat] = SeatShown(key, seen, alert)
        message = shown_privately(session, seat, tr, caps, screen, numbers)
        update.out.append(
            ToPlayer(
                control.identity.user_id,
                message.with_alert(alert),
                session.room,
                hand_slot(session.game_id),
                fresh=alert,
                retired=Message(retired_text(session, tr)) if alert else None,
            )
        )
    return update


@dataclass(frozen=True)
class Numbered:
    """A seat's list numbered: its decision, the decision's numbering with it, and each
    number shown with its choice."""

    decision: str
    numbering: Numbering
    shown: list[tuple[int, Choice]]

    def __reduce__(self) -> tuple[Any, ...]:
        # Compiled (setup.py), a frozen dataclass is copied and pickled through its constructor.
        return (Numbered, (self.decision, self.numbering, self.shown))

    def sent(self, numbers: SeatNumbers | None, answer: bool) -> SeatNumbers:
        """The seat's numbers once this list was sent (`numbers.sent`)."""
        return sent(numbers, self.decision, self.numbering, self.shown, answer)


def hand_key(session: GameSession, seat: int, caps: Capabilities) -> HandKey:
    """What a player's private message depends on: his moves and what it shows of the middle
    of the table (`_middle_of_table`), the open offers, his pass on trading and his screen.
    Every open offer is shown to every player, so a change to any offer renews them all (for
    decisions only, offers of his or made to him)."""
    control = session.seats[seat]
    offers = sorted(
        number
        for number, offer in session.state.offers.items()
        if not caps.private_on_decisions or seat in (offer.proposer, offer.receiver)
    )
    seen = session.token(seat) + _middle_of_table(session.view(seat))
    return HandKey(seen, tuple(offers), control.passed, current_screen(session, seat))


def _middle_of_table(view: PlayerView) -> str:
    """A short digest of the cards the message shows in the middle of the table ('' if none):
    the face-up cards and those offered in a duel. Another player's move can change them and
    leave the seat's moves as they were (the active player gives a face-up card away). An
    offer turned stale needs nothing here: the offer whose trade took its cards closed."""
    if not view.face_up and not view.offered:
        return ""
    cards = repr((view.face_up, view.offered))
    return "+" + hashlib.blake2s(cards.encode(), digest_size=3).hexdigest()


def _alerts(session: GameSession, seat: int, changed: bool) -> bool:
    """Whether the seat's next private message is to notify him: once per decision that falls
    to him through another's move (or at every change, if he asked for all); never while a
    stand-in plays for him."""
    control = session.seats[seat]
    due = control.due
    if control.stand_in or control.notify == "off" or session.game.is_over:
        return False
    return due or (changed and control.notify == "all")


def retired_text(session: GameSession, tr: Translator) -> str:
    """What a private message becomes once a newer one replaced it."""
    return tr.gettext("Game {game}: moved on; your newest message is below.").format(
        game=session.game_id
    )
