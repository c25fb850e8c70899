"""Several worker processes on one PostgreSQL database, 500 games at once, commands for each
game arriving at different workers: nothing lost, nothing applied twice, every game consistent."""

from __future__ import annotations

import asyncio
import time

import pytest
from typer.testing import CliRunner

from bohnanza.adapters.store import open_store
from bohnanza.cli.app import build_app

from ..adapters.postgres import server_url
from .sim import Simulation, check_acknowledged, fresh_schema, start_workers

pytestmark = pytest.mark.server  # PostgreSQL and worker processes

GAMES = 500
MOVES = 10
"""Actions stored per game before its players stop (2-4 players, hundreds of moves a game):
what is checked is every action stored up to then."""
BOUND = 600.0
"""Seconds the players may take for that at most, however loaded the machine."""


async def _run(url: str, workers: int) -> Simulation:
    running = await start_workers(url, workers)
    simulation = Simulation(running, seed=workers)
    simulation.stop_at = time.monotonic() + BOUND
    simulation.moves_per_game = MOVES
    with open_store(url) as store:
        try:
            await simulation.play(GAMES, store)
        finally:
            await asyncio.gather(*(worker.stop() for worker in running))
    return simulation


@pytest.mark.slow
@pytest.mark.parametrize("workers", [2, 4])
def test_workers_sharing_one_database_lose_and_duplicate_no_action(workers: int) -> None:
    with fresh_schema(server_url(), f"scale_{workers}") as url:
        simulation = asyncio.run(_run(url, workers))
        tally = simulation.tally
        assert len(tally.games) == GAMES
        assert tally.lost == 0
        with open_store(url) as store:
            counts = check_acknowledged(store, tally, exact=True)
        assert len(counts) == GAMES
        assert all(count >= MOVES for count in counts.values())
        by_worker = {worker for _, _, _, worker in tally.acked}
        assert by_worker == set(range(workers))
        result = CliRunner().invoke(build_app(), ["audit", url])
        assert result.exit_code == 0, result.output
        assert f"audited {GAMES} game(s)" in result.output
        print(
            f"\n{workers} workers: {tally.commands} commands, {len(tally.acked)} actions "
            f"stored in {GAMES} games, {tally.refused} refused"
        )
