"""Commands per second with 1, 2 and 4 worker processes on one PostgreSQL server.

Simulated people play 2-4 player games (moves chosen by bots on each seat's view) through
worker processes, each a `ChatService` on the same database (see tests/scale/). Every command is
handled to its end: the action durably stored (row lock on the game, sequence number checked),
the table and hands rendered. Two ways of spreading the work:

- any: each command to a random worker, so a worker usually holds an older copy of the game and
  reads it back from the store first (the worst case: a load balancer without affinity);
- sticky: each room's commands to one worker (affinity by room), the copy in memory stays current.

Needs BOHNANZA_TEST_POSTGRES_URL (or a URL as the first argument); run from the repository root:
`python bench/workers.py [URL] [--seconds 20] [--games 200]`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bohnanza.adapters.store import open_store  # noqa: E402
from tests.scale.sim import Simulation, fresh_schema, start_workers  # noqa: E402


async def _measure(url: str, workers: int, games: int, seconds: float, sticky: bool) -> float:
    """Commands answered per second (lobby commands and moves alike)."""
    running = await start_workers(url, workers)
    simulation = Simulation(running, seed=workers, sticky=sticky)
    with open_store(url) as store:
        started = time.monotonic()
        simulation.stop_at = started + seconds
        await simulation.play(games, store)
        elapsed = time.monotonic() - started
    await asyncio.gather(*(worker.stop() for worker in running))
    return simulation.tally.answered / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", nargs="?", default=os.environ.get("BOHNANZA_TEST_POSTGRES_URL"))
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    if not args.url:
        sys.exit("error: give a PostgreSQL URL or set BOHNANZA_TEST_POSTGRES_URL")
    print(
        f"workers on one PostgreSQL server: {args.games} games at once, {args.seconds:.0f} s each; "
        f"{os.cpu_count()} vCPU, Python {platform.python_version()}"
    )
    print("| workers | commands/s, any worker | commands/s, sticky by room |")
    print("|---|---|---|")
    for count in (1, 2, 4):
        rates = []
        for sticky in (False, True):
            with fresh_schema(args.url, f"bench_workers_{count}") as url:
                rates.append(asyncio.run(_measure(url, count, args.games, args.seconds, sticky)))
        print(f"| {count} | {rates[0]:,.0f} | {rates[1]:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
