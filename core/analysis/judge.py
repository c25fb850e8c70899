"""Judging one decision: each option played out on the same deals of the unseen cards.

As the expert bot searches (`bots/expert.py`), the cards the deciding seat could not see are
dealt in ways that agree with its view (`sampling.determinize`), each option is played on every
deal with the same dice, and heuristic bots play on for a round of turns (`rollout.roll_out`).
An option's value is the seat's expected margin there in coins (its coins and expected coins
less the best other seat's). Options are compared with the chosen one deal by deal: an option
counts as better only when its mean gain stands `confidence` standard errors clear of zero, so
the noise of a small search is not taken for a mistake; options clearly behind are dropped after
a few deals, as the expert drops them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

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


@dataclass(frozen=True)
class SearchSize:
    """How hard each decision is searched, and the seed that makes it reproducible."""

    seed: int = 0
    deals: int = DEFAULT_DEALS
    confidence: float = DEFAULT_CONFIDENCE
    horizon: int | None = None
    """Turns played on after the decision; None: a round of turns and one more."""

    def __post_init__(self) -> None:
        if self.deals < 1:
            raise ValueError("the number of deals must be at least 1")


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
    seen = Observations()
    seen.coin_varieties = [list(stack) for stack in moment.coin_varieties]
    horizon = size.horizon or len(view.seats) + HORIZON_PAST_ROUND
    options = moment.options
    gains: list[list[float]] = [[] for _ in options]
    chosen_values: list[float] = []
    alive = list(range(1, len(options)))
    for _ in range(size.deals):
        deal_seed = rng.getrandbits(64)
        play_seed = rng.getrandbits(32)
        base = determinize(view, seen, random.Random(deal_seed), moment.planted)
        first = roll_out(clone(base), moment.seat, options[0], play_seed, horizon)
        if first == float("-inf"):
            # The chosen action does not fit this deal (an offer it answers was dropped from
            # it): the deal says nothing about the choice.
            continue
        chosen_values.append(first)
        for i in alive:
            value = roll_out(clone(base), moment.seat, options[i], play_seed, horizon)
            gains[i].append(value - first)
        if len(chosen_values) >= PRUNE_AFTER:
            alive = [i for i in alive if _upper_bound(gains[i]) >= 0]
            if not alive:
                break
    best, loss = _clearly_better(gains, size.confidence)
    margin = sum(chosen_values) / len(chosen_values) if chosen_values else 0.0
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
    )


def _upper_bound(row: list[float]) -> float:
    mean, error = mean_and_error(row)
    return mean + PRUNE_MARGIN * error


def _clearly_better(gains: list[list[float]], confidence: float) -> tuple[int, float]:
    """The option with the highest mean gain over the chosen one (option 0) among those whose
    gain stands `confidence` standard errors clear of zero, and that gain; else (0, 0.0)."""
    best, best_mean = 0, 0.0
    for i, row in enumerate(gains[1:], start=1):
        if len(row) < 2:
            continue
        mean, error = mean_and_error(row)
        if mean > best_mean and mean > confidence * error:
            best, best_mean = i, mean
    return best, best_mean
