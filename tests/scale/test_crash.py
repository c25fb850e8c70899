"""A worker killed with SIGKILL at random moments, and started again, while games go on: every
acknowledged action is stored, every game plays on to its end, and the audit passes."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from typer.testing import CliRunner

from bohnanza.adapters.store import open_store
from bohnanza.cli.app import build_app

from ..adapters.postgres import server_url
from .sim import Simulation, Worker, check_acknowledged, fresh_schema, start_workers

pytestmark = pytest.mark.server  # PostgreSQL and worker processes

GAMES = 15
"""Two-player games (about 200 moves each), played to their end."""
LIMIT = 900.0
"""Seconds the games may take at most to end, however loaded the machine."""


async def _kill_now_and_then(workers: list[Worker], rng: random.Random, kills: list[int]) -> None:
    while True:
        await asyncio.sleep(rng.uniform(0.1, 0.5))
        victim = rng.choice(workers)
        victim.kill()
        await victim.wait()
        kills.append(victim.index)
        await victim.start()


async def _run(url: str) -> tuple[Simulation, list[int]]:
    workers = await start_workers(url, 2)
    simulation = Simulation(workers, seed=11, players=(2,))
    simulation.stop_at = time.monotonic() + LIMIT
    kills: list[int] = []
    killer = asyncio.create_task(_kill_now_and_then(workers, random.Random(5), kills))
    with open_store(url) as store:
        try:
            await simulation.play(GAMES, store)
        finally:
            killer.cancel()
            await asyncio.gather(killer, return_exceptions=True)
            await asyncio.gather(*(worker.stop() for worker in workers))
    return simulation, kills


@pytest.mark.slow
def test_games_survive_workers_killed_at_random_moments() -> None:
    with fresh_schema(server_url(), "crash") as url:
        simulation, kills = asyncio.run(_run(url))
        tally = simulation.tally
        assert len(kills) >= 5
        assert tally.lost > 0  # some commands died with their worker
        assert tally.finished == GAMES
        with open_store(url) as store:
            check_acknowledged(store, tally, exact=False)
            assert all(summary.status == "finished" for summary in store.list_games())
        result = CliRunner().invoke(build_app(), ["audit", url])
        assert result.exit_code == 0, result.output
        print(
            f"\n{len(kills)} kills, {tally.commands} commands, {tally.lost} lost with a worker, "
            f"{len(tally.acked)} actions acknowledged"
        )
