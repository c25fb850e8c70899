"""The second look: each player's costliest decisions, and those that might reach them, are
looked at again on new deals and rounds further, and ranked by it."""

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
    ranked,
)
from bohnanza.core.analysis.judge import ROUNDS_AGAIN, judge_again
from bohnanza.core.analysis.ranking import Task, one_by_one

from .test_analysis import SMALL, played

SIZE = SearchSize(deals=16)


def judged(index: int, loss: float, error: float, *, seat: int = 0, deals: int = 16) -> Judgement:
    step = EndStep(seat)
    return Judgement(index, seat, 1, "trade", step, step, loss, 0.0, 3, False, error, deals)


def test_each_players_costliest_are_looked_at_again_and_those_that_might_reach_them() -> None:
    # Ten losses of one player, each sure by its error: his eight costliest are looked at again,
    # and the ninth, whose interval reaches the third's figure; the tenth cannot.
    losses = [3.0, 2.8, 2.6, 2.4, 2.2, 2.0, 1.8, 1.6, 1.0, 0.9]
    rows = [judged(i + 1, loss, 0.1) for i, loss in enumerate(losses)]
    rows[8] = judged(9, 1.0, 0.8)
    rows += [judged(11, 0.2, 0.1, seat=1), judged(12, 0.0, 0.0, seat=1)]  # another player's
    assert in_doubt(rows, SIZE) == set(range(1, 10)) | {11}


def test_a_decision_already_looked_at_again_is_left_alone() -> None:
    rows = [judged(1, 3.0, 0.1), judged(2, 2.0, 0.3), judged(3, 1.6, 0.2)]
    rows += [replace(judged(4, 1.4, 0.5), again=True), judged(5, 1.5, 0.5)]
    assert in_doubt(rows, SIZE) == {1, 2, 3, 5}


def test_a_decision_whose_cost_shows_later_is_ranked_by_the_second_look() -> None:
    # By the first look (a round of turns) decision 4 costs least; the second look, rounds
    # longer, finds that what it lost shows later, and more than what the others lost at once.
    first = [judged(1, 2.0, 0.1), judged(2, 1.8, 0.1), judged(3, 1.6, 0.1), judged(4, 1.0, 0.1)]
    later = {1: 1.9, 2: 1.7, 3: 1.5, 4: 2.6}

    def judge_many(tasks: Sequence[Task], size: SearchSize) -> list[Judgement]:
        if tasks[0][1] is None:
            return first
        return [replace(j, loss=later[j.index], again=True) for _, j in tasks if j is not None]

    moments = list(decisions(played(["heuristic", "random", "heuristic"], 4, actions=20)))[:4]
    final = judge_game(moments, SIZE, judge_many)
    assert [j.index for j in ranked(final)][:3] == [4, 1, 2]


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
            most = before.deals + SMALL.deals_to_pick + SMALL.deals_again
            assert after.again and before.deals < after.deals <= most
            assert after.chosen == before.chosen
            # The best option on the new deals, or none when it is not clearly better there.
            assert (after.best == after.chosen) == (after.loss == 0)
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
        assert (other.margin, other.deals) == (again.margin, again.deals)
        # (Whether the gain is sure takes in the first look's deals; the figure never does.)
        assert len({other.loss, again.loss} - {0.0}) <= 1
        # The figure is the new deals' mean gain of their best option, or nothing.
        assert (again.best == first.chosen) == (again.loss == 0)
        assert again.best in moment.options


def test_the_second_look_plays_rounds_longer_than_the_first() -> None:
    record = played(["heuristic", "random", "heuristic"], 4, actions=120)
    moments = {m.index: m for m in decisions(record)}
    losing = [j for j in (judge(m, SMALL) for m in moments.values()) if j.loss > 0][:4]
    assert losing
    size = replace(SMALL, again=8, horizon=None, horizon_again=None)
    assert size.turns_again(3) == ROUNDS_AGAIN * 3 + 1 > size.turns(3)
    longer = [judge_again(moments[j.index], j, size) for j in losing]
    assert longer == [
        judge_again(moments[j.index], j, replace(size, horizon_again=10)) for j in losing
    ]
    shorter = [judge_again(moments[j.index], j, replace(size, horizon_again=3)) for j in losing]
    assert [(j.loss, j.margin) for j in longer] != [(j.loss, j.margin) for j in shorter]
