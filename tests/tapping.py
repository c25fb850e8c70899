"""People who play by tapping the buttons of their private messages, never typing, and the
figures of their games: taps per turn, notifications per decision, trades made by buttons.

A `Tapper` decides from what the person sees and the buttons he is offered (their commands),
as a player would: plant and stop in one tap unless the next card goes on its own variety, now
and then build a 1-for-1 offer with the picker, accept what fits his fields, tap "No trade",
plant everything at once. The platform drivers (Telegram, Matrix, the recording port) turn a
choice into a press or a typed number and feed `Tally` with what happened.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from dataclasses import dataclass, field

from bohnanza.core.actions import AcceptTrade, CounterTrade, ProposeTrade
from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.picker import Draft
from bohnanza.core.app.screens import current_screen, screen_of
from bohnanza.core.app.session import GameSession
from bohnanza.core.app.updates import seat_numbering
from bohnanza.core.cards import Variety
from bohnanza.core.record import GameRecord, replay_steps
from bohnanza.core.state import Step
from bohnanza.core.view import PlayerView


def command_of(payload: str) -> str:
    """A game button's command: its payload without 'g GAME TOKEN'."""
    words = payload.split(maxsplit=3)
    return words[3] if len(words) == 4 and words[0] == "g" else ""


def listed_numbers(session: GameSession, seat: int, tr: Translator) -> dict[str, tuple[int, str]]:
    """Where choices are numbered: each command of the seat's list, with the number and the
    label it is listed with (as last sent to him, new choices with the numbers they will
    take when it is sent)."""
    screen = current_screen(session, seat)
    message = screen_of(session, seat, tr, screen)
    numbers = seat_numbering(session, seat, message, screen)[0]
    buttons = [b for row in message.buttons for b in row]
    return {
        command_of(b.payload): (number, b.label) for number, b in zip(numbers, buttons, strict=True)
    }


@dataclass
class Tapper:
    """The choices of the people at one table."""

    rng: random.Random
    offer_rate: float = 0.5
    """How often the player on turn makes an offer: a one-tap one if he is shown one, else
    (half as often) one he builds with the picker."""
    plans: dict[int, list[str]] = field(default_factory=dict)
    """Each seat's remaining presses of the offer it is building."""
    offered: dict[int, int] = field(default_factory=dict)
    """The turn in which each seat last built an offer."""

    def choose(self, session: GameSession, seat: int, commands: list[str]) -> str | None:
        """The command of the button to press now, or None to wait."""
        view = session.view(seat)
        plan = self.plans.get(seat)
        if plan:
            if plan[0] in commands:
                return plan.pop(0)
            del self.plans[seat]
            return "back" if "back" in commands else None
        asked = [c for c in commands if not c.startswith(("back", "ask"))]
        if "back" in commands and len(commands) == 2:
            return asked[0]  # the Yes of a sale the player chose
        if view.step is Step.PLANT:
            return self._plant(view, seat, commands)
        if view.step is Step.TRADE:
            return self._trade(session, view, seat, commands)
        if view.step is Step.PLANT_SET_ASIDE:
            return self._plant_aside(view, seat, commands)
        return commands[0] if commands else None

    def _plant(self, view: PlayerView, seat: int, commands: list[str]) -> str | None:
        fields = view.seats[seat].fields
        plants = [c for c in commands if c.startswith("plant ") and ";" not in c]
        if not plants:
            if "done" in commands:
                return "done"
            sale = _best_sale(view, seat, [c for c in commands if not c.endswith(";done")])
            second = view.hand[1] if len(view.hand) > 1 else None
            stays = {f.variety for f in fields} | {view.hand[0]}
            if sale is not None and f"{sale};done" in commands and second not in stays:
                return f"{sale};done"
            return sale
        front = view.hand[0]
        own = [c for c in plants if fields[int(c.split()[1]) - 1].variety is front]
        chosen = (own or plants)[0]
        then_stop = f"{chosen};done"
        if then_stop not in commands:
            # The second planting: only a bean that joins its own variety.
            return chosen if own else ("done" if "done" in commands else chosen)
        after = {f.variety for f in fields} | {front}
        second = view.hand[1] if len(view.hand) > 1 else None
        return chosen if second in after else then_stop

    def _trade(
        self, session: GameSession, view: PlayerView, seat: int, commands: list[str]
    ) -> str | None:
        mine = {f.variety for f in view.seats[seat].fields if f.variety is not None}
        empty = any(f.variety is None for f in view.seats[seat].fields)
        for offer in view.offers:
            if offer.receiver != seat:
                continue
            if offer.stale:
                return f"decline {offer.id}"  # its cards are gone: cleared away
            welcome = all(v in mine for v in offer.give) or (empty and len(set(offer.give)) == 1)
            accept = f"accept {offer.id}"
            if welcome and accept in commands:
                return accept
            return f"decline {offer.id}"
        quick = [c for c in commands if c.startswith("send ")]
        if seat != view.active:
            if quick and self.offered.get(seat) != view.turn and self.rng.random() < 0.3:
                self.offered[seat] = view.turn
                return quick[0]
            return "pass" if "pass" in commands else None
        if any(
            o.proposer == seat and session.seats[o.receiver].is_human and not o.stale
            for o in view.offers
        ):
            return None  # waiting for a person's answer
        if quick and self.offered.get(seat) != view.turn and self.rng.random() < self.offer_rate:
            self.offered[seat] = view.turn
            return quick[0]
        plan = self._offer_plan(view, seat, mine, commands)
        if plan and self.offered.get(seat) != view.turn:
            self.offered[seat] = view.turn
            self.plans[seat] = plan
            return self.plans[seat].pop(0)
        ends = [c for c in commands if c.split(";")[0] == "done"]
        return max(ends, key=len) if ends else None

    def _offer_plan(
        self, view: PlayerView, seat: int, mine: set[Variety], commands: list[str]
    ) -> list[str] | None:
        """A 1-for-1 offer: a hand card that fits none of his fields for a bean that does."""
        if self.rng.random() >= self.offer_rate / 2 or not mine:
            return None
        spare = [p for p, v in enumerate(view.hand) if v not in mine]
        partners = [c.split()[1] for c in commands if c.startswith("pick s")]
        if not spare or not partners:
            return None
        target = self.rng.choice(partners)
        want = self.rng.choice(sorted(mine, key=lambda v: v.value))
        start = Draft(target)
        card = Draft(target, frozenset({spare[0]}))
        full = Draft(target, frozenset({spare[0]}), want=(want,))
        return [
            f"pick {start.words()}",
            f"pick {card.words()}",
            f"pick {full.words()}",
            f"send {full.words()}",
        ]

    def _plant_aside(self, view: PlayerView, seat: int, commands: list[str]) -> str | None:
        everything = [
            c for c in commands if c.startswith(("aside ", "harvest ")) and c.count(";") > 1
        ]
        if everything:
            return everything[0]
        fields = view.seats[seat].fields
        asides = [c for c in commands if c.startswith("aside ")]
        own = [c for c in asides if fields[int(c.split()[2]) - 1].variety is not None]
        if own or asides:
            return (own or asides)[0]
        return _best_sale(view, seat, commands)


def _best_sale(view: PlayerView, seat: int, commands: list[str]) -> str | None:
    """The sale that pays most (asked or forced), when a bean fits nowhere."""
    sales = [c for c in commands if c.removeprefix("ask ").startswith("harvest ")]
    if not sales:
        return commands[0] if commands else None
    fields = view.seats[seat].fields

    def pays(command: str) -> tuple[int, int]:
        field_ = fields[int(command.removeprefix("ask ").split(";")[0].split()[1]) - 1]
        coins = field_.variety.coins_for(field_.count) if field_.variety else 0
        return coins, field_.count

    return max(sales, key=pays)


@dataclass
class Tally:
    """What the people of one game did and were told."""

    taps: Counter[tuple[int, int]] = field(default_factory=Counter)
    """Presses (or numbers typed) by the player on turn, per (turn, seat)."""
    other_taps: int = 0
    decisions: Counter[str] = field(default_factory=Counter)
    """Per person: decisions that fell to him through someone else's move."""
    notified: Counter[str] = field(default_factory=Counter)
    """Per person: private messages that notified him."""
    trades_by_buttons: int = 0
    offers_by_buttons: int = 0

    def count_press(self, session: GameSession, seat: int) -> None:
        state = session.state
        if seat == state.active:
            self.taps[(state.turn, seat)] += 1
        else:
            self.other_taps += 1

    def median_taps(self) -> float:
        return statistics.median(self.taps.values())

    def summary(self) -> str:
        values = sorted(self.taps.values())
        return (
            f"{len(values)} turns, taps per turn median {self.median_taps()}, "
            f"max {values[-1]}, mean {statistics.mean(values):.2f}; "
            f"{self.other_taps} taps off turn; offers by buttons {self.offers_by_buttons}, "
            f"trades {self.trades_by_buttons}; decisions {sum(self.decisions.values())}, "
            f"notifications {sum(self.notified.values())}"
        )


def trades_of_people(record: GameRecord, people: int) -> int:
    """Trades a person made: he accepted an offer, or one he made was accepted (offers are
    numbered from 1 in the order they were made)."""
    offers = [a for a in record.actions if isinstance(a, ProposeTrade | CounterTrade)]
    accepted = [a for a in record.actions if isinstance(a, AcceptTrade)]
    return sum(a.player < people or offers[a.offer - 1].player < people for a in accepted)


@dataclass(frozen=True)
class Press:
    """One input of a person: who pressed, and the stored actions it made (from, to)."""

    seat: int
    start: int
    end: int


def decisions_from_record(
    record: GameRecord,
    presses: list[Press],
    people: set[int],
    log: list[tuple[int, int, str]] | None = None,
) -> Counter[int]:
    """Per seat: the inputs of others after which a person owed the game a decision he did
    not owe before (it waits on him, or an offer is made to him), as the stored game tells it
    action by action. One input is one piece of news however many of its actions concern
    him; what follows his own input at once, or was over by the end of the input, is none."""
    press_of: dict[int, int] = {}
    for number, press in enumerate(presses):
        for index in range(press.start, press.end):
            press_of[index] = number
    began: dict[int, int] = {}
    """For each seat that owes a decision: the input during which it began to."""
    news: Counter[int] = Counter()
    for game, index, _, _ in replay_steps(record):
        state = game.state
        owing = set(game.waiting_for())
        if state.step is Step.TRADE:
            owing |= {o.receiver for o in state.offers.values()}
        owing &= people
        number = -1 if index is None else press_of.get(index, -2 - index)
        began = {seat: began.get(seat, number) for seat in owing}
        ends_input = index is not None and press_of.get(index + 1, -3) != number
        if ends_input and number >= 0:
            actor = presses[number].seat
            fresh = [s for s, b in began.items() if b == number and s != actor]
            news.update(fresh)
            if log is not None:
                log += [(seat, state.turn, state.step.value) for seat in fresh]
    return news


def offers_of_people(session: GameSession) -> int:
    """Offers made so far by people (an offer to anyone counts once per partner)."""
    return sum(
        isinstance(a, ProposeTrade | CounterTrade) and session.seats[a.player].is_human
        for a in session.game.actions
    )
