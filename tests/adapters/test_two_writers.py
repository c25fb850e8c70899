"""Two processes appending to the same game at once: nothing lost, nothing stored twice."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from bohnanza.adapters.store import open_store
from bohnanza.core.audit import audit_game

from .games import bot_game, new_game
from .postgres import postgres_url
from .writers import WriterReport, race_freely, race_in_lockstep


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    url = str(tmp_path / "race.db") if request.param == "sqlite" else postgres_url()
    with open_store(url, create=True) as store:
        store.add_game(new_game(bot_game(players=4), "race"))
    return url


def run_two(target: str, writer: Callable[..., WriterReport], arg: int) -> list[WriterReport]:
    context = multiprocessing.get_context("spawn")
    barrier = context.Manager().Barrier(2, timeout=60)
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        runs = [pool.submit(writer, target, "race", seed, arg, barrier) for seed in (1, 2)]
        return [run.result(timeout=120) for run in runs]


@pytest.mark.slow
def test_of_two_writers_appending_the_same_number_at_once_exactly_one_wins(target: str) -> None:
    rounds = 12
    reports = run_two(target, race_in_lockstep, rounds)
    won = sorted(seq for report in reports for seq in report.won)
    assert won == list(range(rounds))
    assert sum(report.conflicts for report in reports) == rounds
    with open_store(target) as store:
        stored = store.load_stored("race")
    assert [link.seq for link in stored.links] == list(range(rounds))
    assert audit_game(stored) is None


@pytest.mark.slow
def test_two_writers_racing_freely_lose_nothing_and_duplicate_nothing(target: str) -> None:
    until = 40
    reports = run_two(target, race_freely, until)
    won = [seq for report in reports for seq in report.won]
    assert sorted(won) == list(range(until))
    assert len(set(reports[0].won) & set(reports[1].won)) == 0
    with open_store(target) as store:
        stored = store.load_stored("race")
    assert stored.action_count == until
    assert audit_game(stored) is None
