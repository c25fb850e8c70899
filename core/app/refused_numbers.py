"""What a player is told when a number he typed is not taken: one line saying what became of
the choice it named (`numbers.Verdict`); his list as it stands comes with it."""

from __future__ import annotations

from ..actions import AcceptTrade, CounterTrade, DeclineTrade, WithdrawTrade
from ..state import Step
from .i18n import Translator
from .numbers import Verdict, step_of
from .render import STEP_NAMES
from .seat_screen import PICK
from .session import GameSession


def refused_number(tr: Translator, session: GameSession, found: Verdict) -> str:
    """The line for a number not taken; nothing was done."""
    number = found.number
    if found.outcome == "earlier":
        return _earlier(tr, session, found)
    if found.outcome == "gone":
        offer = _offer_of(found.key)
        if offer is not None:
            return _offer_gone(tr, session, offer)
        text = tr.gettext("Choice {number} ({label}) is no longer in your list.")
        return text.format(number=number, label=found.label)
    if found.outcome == "changed" and found.choice is not None:
        text = tr.gettext("Choice {number} is now “{label}”: send {number} again to take it.")
        return text.format(number=number, label=found.choice.button.label)
    return tr.gettext("Your list changed since it was sent; here it is as it stands.")


def _earlier(tr: Translator, session: GameSession, found: Verdict) -> str:
    """A number from a list of another decision."""
    number, earlier = found.number, found.earlier
    state = session.state
    turn, step = step_of(earlier)
    if earlier and (turn, step) != (str(state.turn), state.step.value):
        try:
            name = tr.gettext(STEP_NAMES[Step(step)])
        except ValueError:
            name = step
        text = tr.gettext("Choice {number} was for turn {turn} · {step}, which is over.")
        return text.format(number=number, turn=turn, step=name)
    screen = earlier.split(" ", 2)[2] if earlier.count(" ") >= 2 else ""
    if screen.startswith(PICK):
        text = tr.gettext("Choice {number} was for the offer you were building, which is closed.")
    elif screen:
        text = tr.gettext("Choice {number} answered a question that no longer stands.")
    else:
        text = tr.gettext("Choice {number} was from an earlier list of yours.")
    return text.format(number=number)


def _offer_of(key: str) -> int | None:
    """The offer a choice answers (accept, decline, withdraw, counter), if any."""
    words = key.split()
    if len(words) >= 2 and words[0] in ("accept", "decline", "withdraw"):
        offer = words[1]
    elif len(words) >= 2 and words[0] == PICK and words[1].startswith("c"):
        offer = words[1][1:]
    else:
        return None
    return int(offer) if offer.isascii() and offer.isdigit() else None


def _offer_gone(tr: Translator, session: GameSession, offer: int) -> str:
    """What became of an offer: the action that closed it, or why it cannot be answered."""
    for action in reversed(session.game.actions):
        if not isinstance(action, AcceptTrade | DeclineTrade | WithdrawTrade | CounterTrade):
            continue
        if action.offer != offer:
            continue
        if isinstance(action, WithdrawTrade):
            text = tr.gettext("Offer #{offer} was withdrawn.")
        elif isinstance(action, DeclineTrade):
            text = tr.gettext("Offer #{offer} was declined.")
        elif isinstance(action, AcceptTrade):
            text = tr.gettext("Offer #{offer} was accepted.")
        else:
            text = tr.gettext("Offer #{offer} was countered.")
        return text.format(offer=offer)
    if offer in session.state.offers:
        return tr.gettext("Offer #{offer} can no longer be answered that way.").format(offer=offer)
    return tr.gettext("Offer #{offer} is no longer open.").format(offer=offer)
