"""A bot that looks ahead: information-set Monte Carlo search over its own view.

For each decision with more than one sensible option it deals the cards it cannot see in many
ways that agree with what it has seen (`sampling.py`), plays every option on each of those deals,
lets heuristic bots play a round of turns on (`rollout.py`), and measures how far its seat ends
ahead of the best other seat. Every option is tried on the same deals with the same dice, so
options are compared deal by deal against the heuristic bot's own choice: another option is
taken only when its mean gain over that choice stands clear of the noise (`DEFAULT_CONFIDENCE`
standard errors), and options clearly behind it stop being played after a few deals.

The options are the legal moves (plantings that lead to the same fields counted once), and for
trading a few offers: what the heuristic bot would offer, gifts of face-up cards to the seats
growing them, and hand cards this seat cannot use for a face-up bean it grows. The 3rd field is
bought when the heuristic bot would buy it: a rollout ends too soon to judge it.

With an iteration count the bot is deterministic for the seed of its `rng`; a time budget is used
only without one, and needs a clock handed in (the core reads no clock itself).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence, Set

from ..actions import (
    AcceptTrade,
    Action,
    BuyField,
    DeclineTrade,
    DiscardFromHand,
    DiscardOffered,
    EndStep,
    Plant,
    PlantFaceUp,
    PlantOffered,
    PlantSetAside,
    ProposeTrade,
    WithdrawTrade,
)
from ..cards import RANK, Variety
from ..legal import LegalActions
from ..state import STEP_DUEL_PLANT, STEP_PLANT, STEP_TRADE
from ..view import PlayerView, SeatView
from .heuristic import HeuristicBot
from .rollout import roll_out
from .sampling import Observations, clone, determinize
from .table_memory import TradingSeen
from .valuation import Plots, spare_cards

DEFAULT_ITERATIONS = 24
"""Deals per decision when no time budget is asked for (chat games use this: reproducible)."""
DEFAULT_TIME_BUDGET = 0.2
"""Seconds per decision when searching against the clock."""
HORIZON_PAST_ROUND = 1
"""Each rollout plays a round of turns and this many more (so the seat's own next turn is in
it) before the table is judged, unless the bot is given another horizon."""
DEFAULT_CONFIDENCE = 2.0
"""Standard errors by which an option must beat the heuristic's choice to be taken instead."""
PRUNE_AFTER = 6
"""Deals after which options clearly behind the heuristic's choice are no longer played."""
PRUNE_MARGIN = 1.5
"""Standard errors by which an option must trail the heuristic's choice to be dropped."""
MAX_CANDIDATES = 6
PROPOSALS_AS_ACTIVE = 4
PROPOSALS_AS_PARTNER = 1

_Choice = Action | None


class ExpertBot:
    """Chooses by sampling the hidden cards and playing each option out with heuristic bots."""

    strategy = "expert"

    def __init__(
        self,
        rng: random.Random,
        *,
        iterations: int | None = DEFAULT_ITERATIONS,
        time_budget: float = DEFAULT_TIME_BUDGET,
        clock: Callable[[], float] | None = None,
        horizon: int | None = None,
        confidence: float = DEFAULT_CONFIDENCE,
    ) -> None:
        if iterations is None and clock is None:
            raise ValueError("searching against a time budget needs a clock")
        if iterations is not None and iterations < 1:
            raise ValueError("the iteration count must be at least 1")
        self._rng = rng
        self._iterations = iterations
        self._time_budget = time_budget
        self._clock = clock
        self._horizon = horizon
        self._confidence = confidence
        self._seen = Observations()
        self._trading = TradingSeen()
        self._guide = HeuristicBot(random.Random(rng.getrandbits(64)))
        self._turn = -1
        self._proposals = 0
        self._tried: set[Hashable] = set()
        self.searches = 0
        """Decisions searched so far (the others had one option)."""

    def choose(self, view: PlayerView, legal: LegalActions) -> Action | None:
        if not legal:
            return None
        self._seen.observe(view)
        self._trading.observe(view)
        if view.turn != self._turn:
            self._turn, self._proposals = view.turn, 0
            self._tried.clear()
        guide = self._guide.choose(view, legal)
        options = self._options(view, legal, guide)
        if len(options) == 1:
            choice = options[0]
        else:
            self.searches += 1
            choice = self._search(view, legal, options)
        if isinstance(choice, ProposeTrade):
            self._proposals += 1
            self._tried.add(offer_key(view, choice))
            self._trading.propose(view, choice)
        return choice

    # --- the options worth comparing ----------------------------------------------------------

    def _options(self, view: PlayerView, legal: LegalActions, guide: _Choice) -> list[_Choice]:
        return options_worth_comparing(view, legal, guide, self._proposals, self._tried)

    # --- the search ---------------------------------------------------------------------------

    def _search(self, view: PlayerView, legal: LegalActions, options: list[_Choice]) -> _Choice:
        seat = legal.player
        planted = planted_so_far(view, legal)
        horizon = self._horizon or len(view.seats) + HORIZON_PAST_ROUND
        trading = self._trading.so_far()
        # Gains over the first option (the heuristic's choice), deal by deal. Options that fall
        # clearly behind it are dropped, and the search ends when none is left to compare.
        gains: list[list[float]] = [[] for _ in options]
        alive = list(range(1, len(options)))
        rng = self._rng
        deals = 0
        clock = self._clock
        deadline = None
        if self._iterations is None and clock is not None:
            deadline = clock() + self._time_budget
        while True:
            if self._iterations is not None:
                if deals >= self._iterations:
                    break
            elif deals and clock is not None and deadline is not None and clock() >= deadline:
                break
            deal_seed = rng.getrandbits(64)
            play_seed = rng.getrandbits(32)
            base = determinize(view, self._seen, random.Random(deal_seed), planted)
            first = roll_out(clone(base), seat, options[0], play_seed, horizon, trading)
            for i in alive:
                value = roll_out(clone(base), seat, options[i], play_seed, horizon, trading)
                gains[i].append(value - first)
            deals += 1
            if deals >= PRUNE_AFTER:
                alive = [i for i in alive if _upper_bound(gains[i], PRUNE_MARGIN) >= 0]
                if not alive:
                    break
        return options[_most_convincing(gains, self._confidence)]


def options_worth_comparing(
    view: PlayerView,
    legal: LegalActions,
    guide: _Choice,
    proposals: int = 0,
    tried: Set[Hashable] = frozenset(),
) -> list[_Choice]:
    """The options a search compares at this moment, `guide` (the heuristic's choice) first:
    `proposals` offers this seat made this turn, `tried` the offers it made (`offer_key`)."""
    seat = legal.player
    me = view.seats[seat]
    for offer in view.offers:
        if offer.receiver == seat:
            accept = next(
                (a for a in legal.actions if type(a) is AcceptTrade and a.offer == offer.id),
                None,
            )
            decline = DeclineTrade(seat, offer.id)
            if offer.stale or accept is None:
                return [decline]
            return _unique([guide, accept, decline])
    if view.step is STEP_TRADE:
        if any(o.proposer == seat for o in view.offers):
            # Its offer was let be: the guide withdraws it as active, waits as partner.
            return [guide]
        if legal.waiting:
            options: list[_Choice] = [guide, EndStep(seat)]
            if proposals < PROPOSALS_AS_ACTIVE and legal.trade is not None:
                options += _active_offers(view, me, seat)
        else:
            options = [guide, None]
            if proposals < PROPOSALS_AS_PARTNER and legal.trade is not None:
                options += _partner_offers(view, me, seat)
        options = [o for o in _unique(options) if o is None or offer_key(view, o) not in tried]
        if not options:
            return [EndStep(seat) if legal.waiting else None]
        return options[:MAX_CANDIDATES]
    if not legal.waiting:
        return [guide]
    if isinstance(guide, BuyField):
        return [guide]
    return _distinct_moves(view, me, _judged_moves(guide, legal.actions))[: MAX_CANDIDATES + 2]


def _active_offers(view: PlayerView, me: SeatView, seat: int) -> list[_Choice]:
    """Face-up cards this seat could not plant without a harvest, given to seats growing
    them, as gifts (asking for a bean in return as well was measured and gained nothing)."""
    pending = len(me.set_aside)
    spare = [i - pending for i in spare_cards(me.fields, [*me.set_aside, *view.face_up])]
    spare = [i for i in spare if i >= 0]
    offers: list[_Choice] = []
    for index in spare:
        variety = view.face_up[index]
        for partner, other in enumerate(view.seats):
            if partner == seat:
                continue
            if any(f.variety is variety for f in other.fields):
                offers.append(ProposeTrade(seat, partner, (), (index,), ()))
    if len(spare) > 1:
        for partner, other in enumerate(view.seats):
            if partner != seat and sum(1 for f in other.fields if f.variety is None) >= 1:
                offers.append(ProposeTrade(seat, partner, (), tuple(spare), ()))
                break
    return offers[:3]


def _partner_offers(view: PlayerView, me: SeatView, seat: int) -> list[_Choice]:
    """A hand card this seat cannot use for a face-up bean that grows one of its fields."""
    plots = Plots(me.fields)
    plots.plant_all(me.set_aside)
    growing = set(plots.growing)
    wanted = plots.wanted(view.hand)
    spare = [i for i, v in enumerate(view.hand) if v not in wanted]
    if not spare:
        return []
    active = view.seats[view.active]
    fits_active = {f.variety for f in active.fields if f.variety is not None}
    spare.sort(key=lambda i: view.hand[i] not in fits_active)
    offers: list[_Choice] = []
    asked: list[Variety] = []
    for variety in view.face_up:
        if variety in growing and variety not in asked:
            asked.append(variety)
            offers.append(ProposeTrade(seat, view.active, (spare[0],), (), (variety,)))
    if view.hand[spare[0]] in fits_active:
        offers.append(ProposeTrade(seat, view.active, (spare[0],), (), ()))
    return offers[:2]


def mean_and_error(row: list[float]) -> tuple[float, float]:
    """The mean gain and its standard error."""
    n = len(row)
    mean = sum(row) / n
    if mean == float("-inf"):
        return mean, 0.0
    spread = sum((g - mean) ** 2 for g in row) / max(1, n - 1)
    return mean, math.sqrt(spread / n)


def _upper_bound(row: list[float], errors: float) -> float:
    """The mean gain plus `errors` standard errors."""
    mean, error = mean_and_error(row)
    return mean + errors * error


def _most_convincing(gains: list[list[float]], confidence: float) -> int:
    """The option with the highest mean gain over option 0, if that gain stands `confidence`
    standard errors clear of zero; else option 0."""
    best, best_mean = 0, 0.0
    for i, row in enumerate(gains[1:], start=1):
        if not row:
            continue
        mean, error = mean_and_error(row)
        if mean > best_mean and mean > confidence * error:
            best, best_mean = i, mean
    return best


def planted_so_far(view: PlayerView, legal: LegalActions) -> int:
    """Cards planted from the hand in this step: at least one once the step may end."""
    if view.step in (STEP_PLANT, STEP_DUEL_PLANT) and any(
        type(a) is EndStep for a in legal.actions
    ):
        return 1
    return 0


def _unique(options: Sequence[_Choice]) -> list[_Choice]:
    seen: list[_Choice] = []
    for option in options:
        if option not in seen:
            seen.append(option)
    return seen


def offer_key(view: PlayerView, option: Action) -> Hashable:
    """What an offer gives and asks, to make each different offer once a turn."""
    if not isinstance(option, ProposeTrade):
        return option
    face = sorted([RANK[view.face_up[i]] for i in option.face_up])
    hand = sorted([RANK[view.hand[i]] for i in option.hand])
    return (option.partner, tuple(face), tuple(hand), option.want)


def _judged_moves(guide: _Choice, actions: Sequence[Action]) -> list[_Choice]:
    """The guide's move and the others, less buying the 3rd field.

    A rollout ends long before a 3rd field pays its price back, so leaving it unbought would
    always look better there than it is: the field is bought as the guide decides.
    """
    return [guide, *(a for a in actions if not isinstance(a, BuyField))]


def _distinct_moves(view: PlayerView, me: SeatView, actions: Sequence[_Choice]) -> list[_Choice]:
    """The moves, each outcome once: plantings onto different empty fields, or of equal cards
    from an area, lead to the same table."""
    keys: set[Hashable] = set()
    moves: list[_Choice] = []
    for action in actions:
        if action is None or isinstance(action, WithdrawTrade):
            continue
        key = outcome_key(view, me, action)
        if key in keys:
            continue
        keys.add(key)
        moves.append(action)
    return moves


def outcome_key(view: PlayerView, me: SeatView, action: Action) -> Hashable:
    def target(field: int) -> Hashable:
        return field if me.fields[field].variety is not None else "empty"

    if isinstance(action, Plant):
        return ("plant", target(action.field))
    if isinstance(action, PlantSetAside):
        return ("aside", me.set_aside[action.index], target(action.field))
    if isinstance(action, PlantFaceUp):
        return ("face-up", view.face_up[action.index], target(action.field))
    if isinstance(action, PlantOffered):
        return ("offered", view.offered[action.index], target(action.field))
    if isinstance(action, DiscardOffered):
        return ("toss", view.offered[action.index])
    if isinstance(action, DiscardFromHand):
        return ("discard", view.hand[action.position])
    return action
