"""The second look: each player's costliest decisions, those that might reach them, and those
whose cost shows late are looked at again on new deals and to the game's end, and ranked by it."""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from bohnanza.core.actions import DeclineTrade, EndStep, Plant, PlantSetAside
from bohnanza.core.analysis import (
    Judgement,
    SearchSize,
    decisions,
    in_doubt,
    judge,
    judge_game,
    ranked,
)
from bohnanza.core.analysis.judge import ROUNDS_AGAIN, TO_THE_END, judge_again
from bohnanza.core.analysis.moments import Moment, shows_late
from bohnanza.core.analysis.ranking import Task, one_by_one
from bohnanza.core.cards import Variety
from bohnanza.core.game import Game
from bohnanza.core.view_values import FieldView, OfferView

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
    late = {m.index for m in moments if m.shows_late and not m.forced}
    again = in_doubt(first, SMALL) | late
    assert again and late - in_doubt(first, SMALL)  # (a random seat splits its beans)
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
        # The same new deals and the same figure whatever the first look found: its deals are
        # never pooled with the second look's.
        other = judge_again(moment, replace(first, loss=first.loss + 1), SMALL)
        assert other == again
        # The figure is the new deals' mean gain of their best option, or nothing.
        assert (again.best == first.chosen) == (again.loss == 0)
        assert again.best in moment.options


def test_the_second_look_picks_rounds_longer_than_the_first_and_measures_to_the_end() -> None:
    record = played(["heuristic", "random", "heuristic"], 4, actions=120)
    moments = {m.index: m for m in decisions(record)}
    losing = [j for j in (judge(m, SMALL) for m in moments.values()) if j.loss > 0][:4]
    assert losing
    size = replace(SMALL, again=8, horizon=None, horizon_again=None)
    assert size.turns_again(3) == ROUNDS_AGAIN * 3 + 1 > size.turns(3)
    assert size.turns_measured(3) == TO_THE_END
    # A search given a shorter horizon (as the tests give one) measures over it.
    assert SMALL.turns_measured(3) == SMALL.turns_again(3) == 6
    to_the_end = [judge_again(moments[j.index], j, size) for j in losing]
    assert to_the_end == [
        judge_again(moments[j.index], j, replace(size, horizon_again=10, horizon_measured=10**6))
        for j in losing
    ]
    rounds = replace(size, horizon_again=10, horizon_measured=10)
    shorter = [judge_again(moments[j.index], j, rounds) for j in losing]
    assert [(j.loss, j.margin) for j in to_the_end] != [(j.loss, j.margin) for j in shorter]


def test_a_split_field_or_a_free_gift_declined_shows_late() -> None:
    view = Game.new(3, random.Random(1)).view(0)
    wax, red = Variety.WAX, Variety.RED
    fields = (FieldView(wax, 6), FieldView(None, 0), FieldView(None, 0))
    me = replace(view.seats[0], fields=fields, set_aside=(wax, red))
    view = replace(view, seats=(me, *view.seats[1:]), hand=(wax, red))
    assert shows_late(view, PlantSetAside(0, 0, 1))  # wax beside the wax field: a split
    assert not shows_late(view, PlantSetAside(0, 0, 0))
    assert not shows_late(view, PlantSetAside(0, 1, 1))  # red grows nowhere yet
    assert shows_late(view, Plant(0, 2)) and not shows_late(view, Plant(0, 0))
    gift = OfferView(7, 1, 0, (wax,), (), False)
    asks = OfferView(8, 1, 0, (wax,), (red,), False)
    other = OfferView(9, 1, 0, (red,), (), False)
    view = replace(view, offers=(gift, asks, other))
    assert shows_late(view, DeclineTrade(0, 7))
    assert not shows_late(view, DeclineTrade(0, 8))  # it asks for a bean
    assert not shows_late(view, DeclineTrade(0, 9))  # a bean the seat does not grow


def test_a_decision_whose_cost_shows_late_is_looked_at_again_whatever_the_first_look() -> None:
    record = played(["heuristic", "random", "heuristic"], 4, actions=120)
    moments = [m for m in decisions(record) if not m.forced]
    moments = [replace(moments[0], shows_late=True), *moments[1:6]]
    tasks: list[list[int]] = []

    def judge_many(batch: Sequence[Task], size: SearchSize) -> list[Judgement]:
        tasks.append([m.index for m, _ in batch])
        if batch[0][1] is None:  # the first look finds no loss anywhere
            return [replace(judged(m.index, 0.0, 0.0), seat=m.seat) for m, _ in batch]
        return [replace(j, again=True) for _, j in batch if j is not None]

    judge_game(moments, SIZE, judge_many)
    assert tasks == [[m.index for m in moments], [moments[0].index]]


def test_a_late_showing_decision_of_two_options_measures_the_other_without_picking(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    record = played(["heuristic", "random", "heuristic"], 4, actions=120)
    moments = [m for m in decisions(record) if not m.forced]
    two = next(m for m in moments if len(m.options) == 2 and not isinstance(m.chosen, DeclineTrade))
    two = replace(two, shows_late=True)  # a split, say
    gift = next(m for m in moments if m.declines_gift)
    more = next(m for m in moments if len(m.options) > 2)
    horizons: list[tuple[int, int]] = []
    judge_module = sys.modules["bohnanza.core.analysis.judge"]  # (`analysis.judge`: a function)
    real = judge_module._played

    def played_and_noted(moment: Moment, *args: Any, **named: Any) -> Any:
        horizons.append((len(moment.options), args[1]))
        return real(moment, *args, **named)

    monkeypatch.setattr(judge_module, "_played", played_and_noted)
    size = replace(SMALL, horizon_measured=9)
    assert size.turns(3) == 3 and size.turns_again(3) == 6
    first = judge(two, size)
    again = judge_again(two, first, size)
    assert horizons == [(2, 3), (2, 9)]  # the first look, the measuring
    assert first.deals < again.deals <= first.deals + size.deals_again
    horizons.clear()
    # A declined gift is measured over the picking's rounds, not as far as the others.
    assert len(gift.options) == 2
    judge_again(gift, judge(gift, size), size)
    assert horizons == [(2, 3), (2, 6)]
    horizons.clear()
    judge_again(replace(two, shows_late=False), first, SMALL)  # picked over rounds as others are
    assert horizons[0] == (2, SMALL.turns_again(3))
    horizons.clear()
    judge_again(more, judge(more, SMALL), SMALL)
    assert horizons[:2] == [(len(more.options), 3), (len(more.options), SMALL.turns_again(3))]


def test_the_second_look_measures_the_two_best_options_of_its_picking(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    record = played(["heuristic", "random", "heuristic"], 4, actions=120)
    moments = [m for m in decisions(record) if len(m.options) > 3]
    assert moments
    judge_module = sys.modules["bohnanza.core.analysis.judge"]  # (`analysis.judge`: a function)
    real = judge_module._played
    calls: list[tuple[Moment | None, list[list[float]]]] = []

    def played_and_noted(moment: Moment, *args: Any, **named: Any) -> Any:
        gains, values, deals = real(moment, *args, **named)
        calls.append((moment, gains))
        return gains, values, deals

    monkeypatch.setattr(judge_module, "_played", played_and_noted)
    measured_two = 0
    for moment in moments[:6]:
        calls.clear()
        again = judge_again(moment, judge(moment, SMALL), SMALL)
        assert len(calls) in (2, 3)  # the first look, the picking and perhaps the measuring
        picking = calls[1][1]
        measuring, gains = calls[2] if len(calls) == 3 else (None, [])
        means = {
            option: sum(row) / len(row)
            for option, row in zip(moment.options[1:], picking[1:], strict=True)
            if len(row) >= 2
        }
        gaining = sorted((o for o in means if means[o] > 0), key=lambda o: -means[o])[:2]
        if not gaining:
            assert measuring is None and again.loss == 0
            continue
        assert measuring is not None and measuring.options == (moment.chosen, *gaining)
        measured_two += len(gaining) == 2
        # The figure is the better of the two over the measuring deals, or nothing.
        assert again.loss == 0 or again.best in gaining
        if again.loss > 0:
            row = gains[1 + gaining.index(again.best)]
            assert again.loss == pytest.approx(sum(row) / len(row))
    assert measured_two
