"""The second look: more deals where the first judgement leaves a player's costliest decisions
in doubt.

A judgement's loss is a mean over a few deals, with a standard error. Read as an interval of
`confidence` standard errors either side, a player's decisions that stand surely among his
`COSTLIEST` are known, and so are those surely outside; in between, the order of two
decisions (and so which ones the page and the chat show first) is the noise of the deals. Those
decisions are looked at again (`judge.judge_again`): the chosen option and the best one found,
on three times as many new deals, which measures the best option's gain without the luck that
made it look best and with errors near half as large (whether it is surely a loss is asked of
the deals of both looks together); the others keep their first judgement.
Every decision is judged on its own seed, so the second look gives the same figures in any
order and any number of processes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .judge import Judgement, SearchSize, judge, judge_again
from .moments import Moment
from .summary import COSTLIEST

Task = tuple[Moment, Judgement | None]
"""A decision to judge, with its first judgement when it is the second look."""
JudgeMany = Callable[[Sequence[Task], SearchSize], list[Judgement]]
"""Does tasks on a search size, in order (perhaps in other processes)."""


def in_doubt(judgements: Sequence[Judgement], size: SearchSize) -> set[int]:
    """The decisions (by their index in the record) to look at again: per player, those that
    might be among his `COSTLIEST` and might not."""
    z = size.confidence
    doubtful: set[int] = set()
    for seat in {j.seat for j in judgements}:
        losing = [j for j in judgements if j.seat == seat and j.loss > 0.0 and not j.forced]
        lows = [j.loss - z * j.error for j in losing]
        highs = [j.loss + z * j.error for j in losing]
        for j, low, high in zip(losing, lows, highs, strict=True):
            # Surely among the costliest: too few others might stand above it; surely not:
            # enough others stand surely above it.
            above = sum(1 for other in highs if other >= low) - 1
            surely_above = sum(1 for other in lows if other > high)
            if above >= COSTLIEST and surely_above < COSTLIEST and not j.again:
                doubtful.add(j.index)
    return doubtful


def do(task: Task, size: SearchSize) -> Judgement:
    moment, first = task
    return judge(moment, size) if first is None else judge_again(moment, first, size)


def one_by_one(tasks: Sequence[Task], size: SearchSize) -> list[Judgement]:
    return [do(task, size) for task in tasks]


def judge_game(
    moments: Sequence[Moment], size: SearchSize, judge_many: JudgeMany = one_by_one
) -> list[Judgement]:
    """Every moment judged, and looked at again where its rank is in doubt."""
    first = judge_many([(m, None) for m in moments], size)
    again = in_doubt(first, size)
    if not again:
        return first
    tasks = [(m, j) for m, j in zip(moments, first, strict=True) if j.index in again]
    second = {j.index: j for j in judge_many(tasks, size)}
    return [second.get(j.index, j) for j in first]
