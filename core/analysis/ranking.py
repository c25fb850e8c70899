"""The second look: each player's costliest decisions judged again, to the end of the game and
on more deals, and ranked by it.

The first look plays each option a round of turns and one more: enough to tell most decisions
apart, too short for what a lost or split field costs, which shows rounds later. A player's
`LOOK_AGAIN` costliest decisions by the first look, and any other whose interval of
`confidence` standard errors reaches the figure of his `COSTLIEST`-th, are looked at again
(`judge.judge_again`): every option on new deals, `ROUNDS_AGAIN` rounds of turns and one more,
picks the best two, and their gain over the chosen one is measured on `SearchSize.deals_again`
newer deals played to the end of the game (a declined gift over the picking's rounds), without
the luck that made them look best on the first deals: the figure is the better one's. The
others keep their first judgement. A decision whose cost shows only rounds later
(`Moment.shows_late`: a variety split over two fields, a free gift declined) is looked at again
whatever the first look found: that horizon is too short to find its loss at all. The player's
costliest decisions, the page's and the chat's turning points, are those of the second look.
Every decision is judged on its own seed, so the second look gives the same figures in any order
and any number of processes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .judge import Judgement, SearchSize, judge, judge_again
from .moments import Moment
from .summary import COSTLIEST

LOOK_AGAIN = 8
"""Per player, the decisions costliest by the first look that are looked at again, whatever
their errors: the second look's horizon is longer, and its figures are compared with theirs."""

Task = tuple[Moment, Judgement | None]
"""A decision to judge, with its first judgement when it is the second look."""
JudgeMany = Callable[[Sequence[Task], SearchSize], list[Judgement]]
"""Does tasks on a search size, in order (perhaps in other processes)."""


def in_doubt(judgements: Sequence[Judgement], size: SearchSize) -> set[int]:
    """The decisions (by their index in the record) to look at again: per player, his
    `LOOK_AGAIN` costliest by the first look, and any other whose interval reaches the figure
    of his `COSTLIEST`-th."""
    z = size.confidence
    doubtful: set[int] = set()
    for seat in {j.seat for j in judgements}:
        losing = sorted(
            (j for j in judgements if j.seat == seat and j.loss > 0.0 and not j.forced),
            key=lambda j: (-j.loss, j.index),
        )
        if not losing:
            continue
        third = losing[min(COSTLIEST, len(losing)) - 1].loss
        for rank, j in enumerate(losing):
            if (rank < LOOK_AGAIN or j.loss + z * j.error >= third) and not j.again:
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
    again = in_doubt(first, size) | {m.index for m in moments if m.shows_late and not m.forced}
    if not again:
        return first
    tasks = [(m, j) for m, j in zip(moments, first, strict=True) if j.index in again]
    second = {j.index: j for j in judge_many(tasks, size)}
    return [second.get(j.index, j) for j in first]
