"""Commands per second with 1, 2 and 4 worker processes on one PostgreSQL server.

Simulated people play 2-4 player games (moves chosen by bots on each seat's view) through
worker processes, each a `ChatService` on the same database (see tests/scale/). Every command is
handled to its end: the action durably stored (row lock on the game, sequence number checked),
the table and hands rendered. Two ways of spreading the work:

- any: each command to a random worker, so a worker usually holds an older copy of the game and
  reads it back from the store first (the worst case: a load balancer without affinity);
- sticky: each room's commands to one worker (affinity by room), the copy in memory stays current.

Each round plays the same games both ways, one after the other, on a fresh schema and fresh
workers, the order turned from round to round; a round's any/sticky compares two windows a minute
apart, and the median over the rounds is printed, so that a machine whose load changes moves
the rates but not the ratio. Each run begins with a warm-up (`--warm` seconds: the lobbies of all
games, each game's first command on each worker), counted apart from the steady state that
follows (`--seconds`), where the games are long under way.

Needs BOHNANZA_TEST_POSTGRES_URL (or a URL as the first argument); run from the repository root:
`python bench/workers.py [URL] [--rounds 3] [--warm 20] [--seconds 30] [--games 200]`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bohnanza.adapters.store import open_store  # noqa: E402
from tests.scale.sim import Simulation, Tally, fresh_schema, start_workers  # noqa: E402


@dataclass(frozen=True)
class Window:
    """What the workers answered in one stretch of a run."""

    answered: int
    trips: int
    cpu: float
    """Processor seconds the workers spent on the commands answered."""
    seconds: float

    @property
    def rate(self) -> float:
        """Commands answered per second."""
        return self.answered / self.seconds

    @property
    def trips_per_command(self) -> float:
        """The store's round trips (statements and commits) per command."""
        return self.trips / max(1, self.answered)

    @property
    def cpu_per_command(self) -> float:
        """The workers' processor time per command, in milliseconds: what a command costs
        them, however busy the machine was."""
        return 1000 * self.cpu / max(1, self.answered)


@dataclass(frozen=True)
class Run:
    warm: Window
    steady: Window


async def _measure(
    url: str, workers: int, games: int, warm: float, seconds: float, sticky: bool
) -> Run:
    """One run: the warm-up window, then the steady window, on `workers` fresh workers."""
    running = await start_workers(url, workers)
    simulation = Simulation(running, seed=workers, sticky=sticky)
    tally: Tally = simulation.tally
    with open_store(url) as store:
        started = time.monotonic()
        simulation.stop_at = started + warm + seconds
        playing = asyncio.create_task(simulation.play(games, store))
        await asyncio.sleep(warm)
        warmed = time.monotonic()
        at_warm = Window(tally.answered, tally.trips, tally.cpu, warmed - started)
        await playing
        steady = Window(
            tally.answered - at_warm.answered,
            tally.trips - at_warm.trips,
            tally.cpu - at_warm.cpu,
            time.monotonic() - warmed,
        )
    await asyncio.gather(*(worker.stop() for worker in running))
    return Run(at_warm, steady)


def _run(url: str, count: int, args: argparse.Namespace, sticky: bool) -> Run:
    with fresh_schema(url, f"bench_workers_{count}") as scoped:
        return asyncio.run(_measure(scoped, count, args.games, args.warm, args.seconds, sticky))


def _cell(windows: list[Window]) -> str:
    """The median rate of some windows, with their median round trips and processor
    milliseconds per command."""
    rate = statistics.median(window.rate for window in windows)
    trips = statistics.median(window.trips_per_command for window in windows)
    cpu = statistics.median(window.cpu_per_command for window in windows)
    return f"{rate:,.0f} ({trips:.1f}, {cpu:.1f} ms)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", nargs="?", default=os.environ.get("BOHNANZA_TEST_POSTGRES_URL"))
    parser.add_argument("--rounds", type=int, default=3, help="paired runs per worker count")
    parser.add_argument("--warm", type=float, default=20.0, help="seconds of warm-up a run")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds measured a run")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", default="1,2,4", help="worker counts, comma-separated")
    args = parser.parse_args()
    if not args.url:
        sys.exit("error: give a PostgreSQL URL or set BOHNANZA_TEST_POSTGRES_URL")
    print(
        f"workers on one PostgreSQL server: {args.games} games at once; {args.rounds} rounds of "
        f"{args.warm:.0f} s warm-up and {args.seconds:.0f} s steady, any and sticky in turn; "
        f"{os.cpu_count()} vCPU, Python {platform.python_version()}"
    )
    print(
        "commands/s, medians of the rounds (per command: round trips to the store, "
        "the workers' processor time)"
    )
    print(
        "| workers | warm-up: any | sticky | any/sticky "
        "| steady: any | sticky | any/sticky | rounds' any/sticky |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for count in (int(part) for part in args.workers.split(",")):
        runs: dict[bool, list[Run]] = {False: [], True: []}
        for round_ in range(args.rounds):
            for sticky in (False, True) if round_ % 2 == 0 else (True, False):
                runs[sticky].append(_run(args.url, count, args, sticky))
        pairs = list(zip(runs[False], runs[True], strict=True))
        warm_ratios = [a.warm.rate / s.warm.rate for a, s in pairs]
        ratios = [a.steady.rate / s.steady.rate for a, s in pairs]
        print(
            f"| {count} | {_cell([run.warm for run in runs[False]])} "
            f"| {_cell([run.warm for run in runs[True]])} "
            f"| {statistics.median(warm_ratios):.2f} "
            f"| {_cell([run.steady for run in runs[False]])} "
            f"| {_cell([run.steady for run in runs[True]])} "
            f"| {statistics.median(ratios):.2f} "
            f"| {', '.join(f'{ratio:.2f}' for ratio in ratios)} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
