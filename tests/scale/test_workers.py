"""Several worker processes on one PostgreSQL database, 500 games at once, commands for each
game arriving at different workers: nothing lost, nothing applied twice, every game consistent."""

from __future__ import annotations

import asyncio
import time

import pytest
from typer.testing import CliRunner

from bohnanza.adapters.store import open_store
from bohnanza.cli.app import build_app

from ..adapters.postgres import ENV, SKIP_REASON
from .sim import Simulation, check_acknowledged, fresh_schema, start_workers

GAMES = 500
SECONDS = 35.0
"""How long the players play; the games (2-4 players, hundreds of moves each) do not end in
that time, and need not: what is checked is every action stored up to then."""


def postgres() -> str:
    import os

    url = os.environ.get(ENV)
    if not url:
        pytest.skip(SKIP_REASON)
    return url


async def _run(url: str, workers: int) -> Simulation:
    running = await start_workers(url, workers)
    simulation = Simulation(running, seed=workers)
    simulation.stop_at = time.monotonic() + SECONDS
    with open_store(url) as store:
        try:
            await simulation.play(GAMES, store)
        finally:
            await asyncio.gather(*(worker.stop() for worker in running))
    return simulation


@pytest.mark.parametrize("workers", [2, 4])
def test_workers_sharing_one_database_lose_and_duplicate_no_action(workers: int) -> None:
    with fresh_schema(postgres(), f"scale_{workers}") as url:
        simulation = asyncio.run(_run(url, workers))
        tally = simulation.tally
        assert len(tally.games) == GAMES
        assert tally.lost == 0
        with open_store(url) as store:
            counts = check_acknowledged(store, tally, exact=True)
        assert len(counts) == GAMES
        assert all(count > 0 for count in counts.values())
        by_worker = {worker for _, _, _, worker in tally.acked}
        assert by_worker == set(range(workers))
        result = CliRunner().invoke(build_app(), ["audit", url])
        assert result.exit_code == 0, result.output
        assert f"audited {GAMES} game(s)" in result.output
        print(
            f"\n{workers} workers: {tally.commands} commands, {len(tally.acked)} actions "
            f"stored in {GAMES} games, {tally.refused} refused"
        )
