"""The second look: decisions whose place among their player's costliest is in doubt are looked
at again, the chosen option against the best found, on new deals."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bohnanza.core.actions import EndStep
from bohnanza.core.analysis import (
    Judgement,
    SearchSize,
    decisions,
    in_doubt,
    judge,
    judge_game,
)
from bohnanza.core.analysis.judge import judge_again
from bohnanza.core.analysis.ranking import Task, one_by_one

from .test_analysis import SMALL, played

SIZE = SearchSize(deals=16)


def judged(index: int, loss: float, error: float, *, seat: int = 0, deals: int = 16) -> Judgement:
    step = EndStep(seat)
    return Judgement(index, seat, 1, "trade", step, step, loss, 0.0, 3, False, error, deals)


def test_decisions_surely_among_the_costliest_or_surely_not_are_left_alone() -> None:
    # Three losses far above the rest, each sure by its error: nothing is in doubt.
    sure = [judged(1, 3.0, 0.1), judged(2, 2.8, 0.1), judged(3, 2.6, 0.1), judged(4, 0.9, 0.1)]
    assert in_doubt(sure, SIZE) == set()


def test_a_decision_whose_interval_reaches_the_third_costliest_is_in_doubt() -> None:
    rows = [
        judged(1, 3.0, 0.1),
        judged(2, 2.0, 0.3),  # its interval reaches below the third's
        judged(3, 1.6, 0.2),
        judged(4, 1.4, 0.5),  # may be above the third
        judged(5, 0.6, 0.1),  # surely below
        judged(6, 1.2, 0.2, seat=1),  # another player's, alone: left alone
    ]
    assert in_doubt(rows, SIZE) == {2, 3, 4}


def test_a_decision_already_looked_at_again_is_left_alone() -> None:
    rows = [judged(1, 3.0, 0.1), judged(2, 2.0, 0.3), judged(3, 1.6, 0.2)]
    rows += [replace(judged(4, 1.4, 0.5), again=True), judged(5, 1.5, 0.5)]
    assert in_doubt(rows, SIZE) == {2, 3, 5}


def test_the_game_is_looked_at_again_where_in_doubt_and_nowhere_else() -> None:
    record = played(["heuristic", "random", "heuristic"], 4, actions=120)
    moments = list(decisions(record))
    first = [judge(m, SMALL) for m in moments]
    again = in_doubt(first, SMALL)
    assert again
    calls: list[list[int]] = []

    def judge_many(tasks: Sequence[Task], size: SearchSize) -> list[Judgement]:
        calls.append([m.index for m, _ in tasks])
        return one_by_one(tasks, size)

    final = judge_game(moments, SMALL, judge_many)
    assert calls == [[m.index for m in moments], sorted(again)]
    assert [j.index for j in final] == [m.index for m in moments]
    for before, after in zip(first, final, strict=True):
        if before.index in again:
            assert after.again and after.deals == before.deals + SMALL.deals_again
            assert after.chosen == before.chosen
            # The best option found first, or none when it is not clearly better on new deals.
            assert after.best == (before.best if after.loss > 0 else before.chosen)
        else:
            assert after == before


def test_the_second_look_measures_the_gain_on_new_deals_alone() -> None:
    record = played(["heuristic", "random", "heuristic"], 4, actions=120)
    moments = {m.index: m for m in decisions(record)}
    losing = [j for j in (judge(m, SMALL) for m in moments.values()) if j.loss > 0]
    assert losing
    for first in losing[:4]:
        moment = moments[first.index]
        again = judge_again(moment, first, SMALL)
        assert judge_again(moment, first, SMALL) == again  # on its own seed
        assert judge_again(moment, again, SMALL) == again  # once
        # The same new deals whatever the first look found.
        other = judge_again(moment, replace(first, loss=first.loss + 1), SMALL)
        assert (other.loss, other.error) == (again.loss, again.error)
        # The figure is the new deals' mean gain of the best option found first, or nothing.
        assert again.best == (first.best if again.loss > 0 else first.chosen)
