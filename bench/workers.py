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


async def _measure(
    url: str, workers: int, games: int, seconds: float, sticky: bool
) -> tuple[float, float]:
    """Commands answered per second (lobby commands and moves alike), and the store's round
    trips (statements and commits) per command."""
    running = await start_workers(url, workers)
    simulation = Simulation(running, seed=workers, sticky=sticky)
    with open_store(url) as store:
        started = time.monotonic()
        simulation.stop_at = started + seconds
        await simulation.play(games, store)
        elapsed = time.monotonic() - started
    await asyncio.gather(*(worker.stop() for worker in running))
    tally = simulation.tally
    return tally.answered / elapsed, tally.trips / max(1, tally.answered)


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
    print("commands/s (round trips to the store per command)")
    print("| workers | any worker | sticky by room | any/sticky |")
    print("|---|---|---|---|")
    for count in (1, 2, 4):
        found = []
        for sticky in (False, True):
            with fresh_schema(args.url, f"bench_workers_{count}") as url:
                found.append(asyncio.run(_measure(url, count, args.games, args.seconds, sticky)))
        (any_rate, any_trips), (sticky_rate, sticky_trips) = found
        print(
            f"| {count} | {any_rate:,.0f} ({any_trips:.1f}) | {sticky_rate:,.0f} "
            f"({sticky_trips:.1f}) | {any_rate / sticky_rate:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
