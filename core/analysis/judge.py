"""Judging one decision: each option played out on the same deals of the unseen cards.

As the expert bot searches (`bots/expert.py`), the cards the deciding seat could not see are
dealt in ways that agree with its view (`sampling.determinize`), and each option is played on
every deal with the same dice (common random numbers: two options differ on a deal only by what
they change), heuristic bots that remember the turn's trading playing on for a round of turns
(`rollout.roll_out`). An option's value is the seat's expected margin there in coins (its coins
and expected coins less the best other seat's).

Options are compared with the chosen one deal by deal. The best other option is the one with the
highest mean gain; the decision's loss is that gain, with its standard error, counted only when
it stands `confidence` standard errors clear of zero (else the search could not tell the options
apart, and the loss is 0). Options clearly behind are dropped after a few deals, as the expert
drops them. A decision that might be a mistake but is not yet sure to be one gets more deals, a
few at a time, up to `most_deals`: the search spends its time where the call is close.

`judge_again` is the second look a game's analysis takes at each player's costliest decisions
and those that might be among them (`ranking.py`): every option played again on new deals, and
rounds further (`ROUNDS_AGAIN`), picks the best two (`MEASURED_AGAIN`); then the chosen option
and those are played to the end of the game on newer deals: what a lost or split field costs
shows rounds after the decision, some of it only in the last harvests, and the option best over
three rounds is not always the best to the end (selling a field to plant a bean may pay at
once, and lose the field's later harvest). A declined gift is measured over the picking's
rounds alone: the beans it would have given count in the seat's margin as expected coins once
planted, and the half coin or so such a gift is worth is lost in the 2.6 coins a deal by which
games played to their end vary. The first look picked the decision as one that looked costly on
its deals, so its gain there carries the luck that made it look so; the second look's figure is
measured on its newest deals alone, without that luck or the luck of the picking, and on many
of them (games played to their end vary more).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..bots.expert import (
    DEFAULT_CONFIDENCE,
    HORIZON_PAST_ROUND,
    PRUNE_AFTER,
    PRUNE_MARGIN,
    mean_and_error,
)
from ..bots.rollout import roll_out
from ..bots.sampling import Observations, clone, determinize
from .moments import Moment, Option

DEFAULT_DEALS = 16
"""Deals per decision: fewer than the expert plays when it decides, for the sake of time."""
MORE_DEALS = 8
"""Deals added at a time to a decision not yet called."""
MISTAKE_COINS = 0.5
"""A mistake loses at least this many expected coins, sure by `confidence` standard errors."""
DEALS_TO_PICK = 2
"""The new deals on which the second look picks the best option, in first looks' deals."""
DEALS_AGAIN = 8
"""The newer deals on which the second look measures that option's gain, in first looks'
deals: games played to their end vary more than a round of turns."""
ROUNDS_AGAIN = 3
"""The second look picks the best option playing on for this many rounds of turns and one turn
more: what a lost or split field costs shows rounds after the decision, beyond the first look's
horizon."""
MEASURED_AGAIN = 2
"""The options the second look measures to the end: the best ones of its picking, which a
shorter horizon can misjudge."""
TO_THE_END = 10_000
"""Turns no game lasts: a rollout this long plays the game to its end."""


@dataclass(frozen=True)
class SearchSize:
    """How hard each decision is searched, and the seed that makes it reproducible."""

    seed: int = 0
    deals: int = DEFAULT_DEALS
    confidence: float = DEFAULT_CONFIDENCE
    horizon: int | None = None
    """Turns played on after the decision; None: a round of turns and one more."""
    most_deals: int | None = None
    """Deals a decision may take in all while it might be a mistake but is not sure to be one;
    None: three times `deals`."""
    again: int | None = None
    """New deals of the second look at a decision whose rank is in doubt (`ranking.py`);
    None: `DEALS_AGAIN` times `deals`."""
    horizon_again: int | None = None
    """Turns the second look plays on after the decision to pick the best option; None:
    `ROUNDS_AGAIN` rounds of turns and one more (`ROUNDS_AGAIN` times `horizon` when that is
    given)."""
    horizon_measured: int | None = None
    """Turns the second look plays on to measure the best option's gain; None: to the end of
    the game, or `horizon_again`'s turns in a search given a shorter horizon (`horizon` or
    `horizon_again`), as tests give one."""

    def __post_init__(self) -> None:
        if self.deals < 1:
            raise ValueError("the number of deals must be at least 1")

    @property
    def deals_at_most(self) -> int:
        return max(self.deals, 3 * self.deals if self.most_deals is None else self.most_deals)

    @property
    def deals_to_pick(self) -> int:
        """New deals on which the second look picks the best option."""
        return max(2, DEALS_TO_PICK * self.deals)

    @property
    def deals_again(self) -> int:
        return max(2, DEALS_AGAIN * self.deals if self.again is None else self.again)

    def turns(self, players: int) -> int:
        """The first look's horizon at a table of `players`."""
        return self.horizon or players + HORIZON_PAST_ROUND

    def turns_again(self, players: int) -> int:
        """The second look's horizon at a table of `players`."""
        if self.horizon_again is not None:
            return self.horizon_again
        if self.horizon is not None:
            return ROUNDS_AGAIN * self.horizon
        return ROUNDS_AGAIN * players + HORIZON_PAST_ROUND

    def turns_measured(self, players: int) -> int:
        """The turns over which the second look measures the best option's gain."""
        if self.horizon_measured is not None:
            return self.horizon_measured
        if self.horizon is not None or self.horizon_again is not None:
            return self.turns_again(players)
        return TO_THE_END


@dataclass(frozen=True)
class Judgement:
    """What one decision cost, in coins."""

    index: int
    seat: int
    turn: int
    step: str
    chosen: Option
    best: Option
    """The best option found: the chosen one unless another was clearly better."""
    loss: float
    """Expected coins lost against `best` (0 when nothing was clearly better)."""
    margin: float
    """The seat's expected margin after the chosen option, in coins."""
    options: int
    forced: bool
    error: float = 0.0
    """The standard error of `loss` (of the best other option's mean gain), in coins."""
    deals: int = 0
    """Deals the decision was judged on."""
    again: bool = False
    """The figure is the second look's (`judge_again`)."""

    @property
    def mistake(self) -> bool:
        """Another option was better by at least `MISTAKE_COINS`, and surely so."""
        return self.loss >= MISTAKE_COINS


def judge(moment: Moment, size: SearchSize) -> Judgement:
    """The judgement of one decision; a forced one costs nothing and is not searched."""
    view = moment.view
    if moment.forced:
        return Judgement(
            moment.index,
            moment.seat,
            view.turn,
            view.step.value,
            moment.chosen,
            moment.chosen,
            0.0,
            0.0,
            1,
            True,
        )
    rng = random.Random(f"{size.seed}:{moment.index}:{moment.seat}")
    horizon = size.turns(len(view.seats))
    gains, chosen_values, deals = _played(moment, rng, horizon, size.deals, size)
    best, loss, error = _clearly_better(gains, size.confidence)
    margin = sum(chosen_values) / len(chosen_values) if chosen_values else 0.0
    options = moment.options
    return Judgement(
        moment.index,
        moment.seat,
        view.turn,
        view.step.value,
        options[0],
        options[best],
        loss,
        margin,
        len(options),
        False,
        error,
        deals,
    )


def judge_again(moment: Moment, first: Judgement, size: SearchSize) -> Judgement:
    """The second look at a decision: every option played again on `size.deals_to_pick` new
    deals, `size.turns_again` turns on, picks the `MEASURED_AGAIN` best that gain, and the
    chosen option and those are compared on `size.deals_again` newer deals, played on for
    `size.turns_measured` turns (to the game's end; a declined gift `size.turns_again`). A
    decision of two options whose cost shows late is not picked over so short a horizon: its
    other option is measured. The loss is the best one's mean gain there, when it is sure: when
    its gain over the picking and the measuring deals together stands `confidence` standard
    errors clear of zero; else 0."""
    if first.forced or first.again:
        return first
    rng = random.Random(f"{size.seed}:{moment.index}:{moment.seat}:again")
    players = len(moment.view.seats)
    candidates, played = [1], 0
    picked: list[list[float]] = [[] for _ in moment.options]
    if len(moment.options) > 2 or not moment.shows_late:
        picked, chosen_values, played = _played(
            moment, rng, size.turns_again(players), size.deals_to_pick, None
        )
        candidates = _best_gains(picked, MEASURED_AGAIN)
    best, mean, error = 0, 0.0, 0.0
    if candidates:
        measured = replace(
            moment, options=(moment.options[0], *(moment.options[i] for i in candidates))
        )
        turns = size.turns_again(players) if moment.declines_gift else size.turns_measured(players)
        gains, chosen_values, deals = _played(measured, rng, turns, size.deals_again, None)
        played += deals
        best, mean, error = _best_gain(gains, range(1, len(gains)))
    margin = sum(chosen_values) / len(chosen_values) if chosen_values else first.margin
    again = replace(
        first,
        best=first.chosen,
        loss=0.0,
        error=0.0,
        margin=margin,
        deals=first.deals + played,
        again=True,
    )
    if best != 0:
        option = candidates[best - 1]
        pooled, pooled_error = mean_and_error(gains[best] + picked[option])
        if pooled > size.confidence * pooled_error:
            return replace(again, best=moment.options[option], loss=mean, error=error)
    return again


def _played(
    moment: Moment, rng: random.Random, horizon: int, deals: int, more: SearchSize | None
) -> tuple[list[list[float]], list[float], int]:
    """Every option played on deals drawn from `rng`, `horizon` turns on: per option its gains
    over the chosen one deal by deal, the chosen one's values, and the deals played. Options
    clearly behind the chosen one are dropped after a few deals. With `more`, a decision that
    might be a mistake but is not sure to be one gets more deals, up to `more.deals_at_most`."""
    view = moment.view
    seen = Observations()
    seen.coin_varieties = [list(stack) for stack in moment.coin_varieties]
    options = moment.options
    gains: list[list[float]] = [[] for _ in options]
    chosen_values: list[float] = []
    alive = list(range(1, len(options)))
    played, until = 0, deals
    while played < until and alive:
        played += 1
        deal_seed = rng.getrandbits(64)
        play_seed = rng.getrandbits(32)
        base = determinize(view, seen, random.Random(deal_seed), moment.planted)
        first = roll_out(clone(base), moment.seat, options[0], play_seed, horizon, moment.trading)
        if first != float("-inf"):
            # (Minus infinity: the chosen action does not fit this deal, an offer it answers
            # having been dropped from it; the deal says nothing about the choice.)
            chosen_values.append(first)
            for i in alive:
                value = roll_out(
                    clone(base), moment.seat, options[i], play_seed, horizon, moment.trading
                )
                gains[i].append(value - first)
        if len(chosen_values) >= PRUNE_AFTER:
            alive = [i for i in alive if _upper_bound(gains[i]) >= 0]
        if (
            more is not None
            and played == until
            and until < more.deals_at_most
            and _undecided(gains, alive, more)
        ):
            until = min(until + MORE_DEALS, more.deals_at_most)
    return gains, chosen_values, played


def _best_gains(gains: list[list[float]], most: int) -> list[int]:
    """The options (at most `most`) with the highest mean gains over the chosen one, highest
    first, among those that gain."""
    means = [(mean_and_error(row)[0], i) for i, row in enumerate(gains) if i > 0 and len(row) >= 2]
    return [i for mean, i in sorted(means, key=lambda m: (-m[0], m[1])) if mean > 0.0][:most]


def _upper_bound(row: list[float]) -> float:
    mean, error = mean_and_error(row)
    return mean + PRUNE_MARGIN * error


def _best_gain(gains: list[list[float]], among: Iterable[int]) -> tuple[int, float, float]:
    """The option with the highest mean gain over the chosen one (option 0), that gain and
    its standard error; (0, 0.0, 0.0) when none gains."""
    best, best_mean, best_error = 0, 0.0, 0.0
    for i in among:
        row = gains[i]
        if len(row) < 2:
            continue
        mean, error = mean_and_error(row)
        if mean > best_mean:
            best, best_mean, best_error = i, mean, error
    return best, best_mean, best_error


def _undecided(gains: list[list[float]], alive: list[int], size: SearchSize) -> bool:
    """The best option so far might make the decision a mistake, but not surely yet."""
    best, mean, error = _best_gain(gains, alive)
    if best == 0:
        return False
    sure = mean >= MISTAKE_COINS and mean > size.confidence * error
    return not sure and mean + size.confidence * error >= MISTAKE_COINS


def _clearly_better(gains: list[list[float]], confidence: float) -> tuple[int, float, float]:
    """The option with the highest mean gain over the chosen one (option 0) among those whose
    gain stands `confidence` standard errors clear of zero, that gain and its standard error;
    else (0, 0.0, 0.0)."""
    best, best_mean, best_error = 0, 0.0, 0.0
    for i, row in enumerate(gains[1:], start=1):
        if len(row) < 2:
            continue
        mean, error = mean_and_error(row)
        if mean > best_mean and mean > confidence * error:
            best, best_mean, best_error = i, mean, error
    return best, best_mean, best_error
