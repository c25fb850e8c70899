"""One worker and many open games: commands per second, restart, views, memory.

    python bench/scale.py [--games 100,1000,10000] [--store sqlite|postgres] [--url URL]
                          [--commands 1000] [--seconds 60]

For stores of N open games (3-5 people each, 100-200 stored actions, a deadline per move; built
once per N by bench/scale_store.py and kept), a worker is built as `serve_chat` builds it (a
`ChatService` and a `Runner` on the store, a port that records what it would send, no network)
and measured, each in a fresh process on a fresh copy of the store:

- views: a worker starts, shows every view (bringing every game's views up to date, as a
  start does game by game) and plays its first deadline tick, and stops; another starts 10
  minutes later (an injected clock) with no input at all and does the same: the platform calls
  (sends and edits) it makes, delivered before it stops;
- restart: seconds from building the worker to `start()` returning, and to the first input
  (a move in one game) answered, with the store's round trips for each (statements and
  commits, counted by SQLAlchemy events);
- commands per second: legal moves of games chosen at random among the 100 being played
  (people's moves chosen by bots on each seat's view, from the store outside the measured
  time), submitted one after another, with the deadline loop (`run_deadlines`) off, then on;
  then spread over every open game (most of them read from the store first), loop on; round
  trips per command;
- memory: the worker's resident memory (VmRSS) after those 3,000 commands.

PostgreSQL: `--url` (or BOHNANZA_TEST_POSTGRES_URL); the stores are kept in schemas
`scale_<N>` of that database, SQLite ones in bench/.scale/. Run from the repository root.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scale_store import (
    CAPABILITIES,
    PLATFORM,
    Built,
    cached_store,
    next_move,
    replayed,
    room_of,
    user_of,
    working_copy,
)

from bohnanza.adapters.base_port import BasePort
from bohnanza.adapters.kit import Inbound, Message, Runner
from bohnanza.adapters.store import SqlGameStore, open_store
from bohnanza.core.app.service import ChatService
from bohnanza.core.bots import Bot, make_bot
from tests.scale.worker import RoundTrips

LATER = timedelta(minutes=10)
IN_PLAY = 100
"""How many of the open games are being played while commands are counted (the others wait,
as asynchronous games do for hours); commands spread over every game are counted apart."""
STOP_TIMEOUT = 600.0


class RecordingPort(BasePort):
    """A platform that takes every call at once and only counts it."""

    platform = PLATFORM
    capabilities = CAPABILITIES

    def __init__(self) -> None:
        self.sends = self.edits = 0

    async def send(self, room: str, message: Message) -> str:
        self.sends += 1
        return str(self.sends)

    async def send_private(self, user_id: str, message: Message) -> str:
        return await self.send(user_id, message)

    async def edit(self, room: str, message_id: str, message: Message) -> None:
        self.edits += 1

    async def edit_private(self, user_id: str, message_id: str, message: Message) -> None:
        self.edits += 1


class MovingClock:
    """The real time's pace from a chosen moment on."""

    def __init__(self, at: datetime) -> None:
        self.at, self.since = at, time.monotonic()

    def now(self) -> datetime:
        return self.at + timedelta(seconds=time.monotonic() - self.since)


def worker(store: SqlGameStore, clock: MovingClock) -> tuple[Runner, RecordingPort]:
    """A runner on the store, as `serve_chat` builds it."""
    port = RecordingPort()
    service = ChatService(
        PLATFORM, CAPABILITIES, store, rng=random.SystemRandom(), codes=random.SystemRandom()
    )
    return Runner(service, port, clock, store=store), port


@dataclass
class People:
    """The players of every game, choosing their moves on the game as stored."""

    built: Built
    reader: SqlGameStore
    rng: random.Random = field(default_factory=lambda: random.Random(46))
    bots: dict[str, tuple[list[Bot], dict[int, object]]] = field(default_factory=dict)
    deliveries: int = 0

    def move(self, room: str) -> Inbound | None:
        """A move of the person whose turn it is in `room` (None: nobody may act)."""
        game_id = self.reader.active_game_in(PLATFORM, room)
        if game_id is None:
            return None
        game = replayed(self.reader, game_id)
        if room not in self.bots:
            brains = [make_bot("heuristic", random.Random(self.rng.random())) for _ in range(5)]
            self.bots[room] = (brains, {})
        chosen = next_move(game, *self.bots[room])
        if chosen is None:
            return None
        seat, command = chosen
        self.deliveries += 1
        user = user_of(room, seat)
        return Inbound(PLATFORM, user, user, room, command, f"d{os.getpid()}-{self.deliveries}")

    def any_move(self, among: int | None = None) -> Inbound:
        """A move in a game chosen at random among the first `among` (or all)."""
        games = min(among or self.built.games, self.built.games)
        while (inbound := self.move(room_of(self.rng.randrange(games)))) is None:
            pass
        return inbound


async def submitted(runner: Runner, inbound: Inbound) -> None:
    """Submit an input and wait until its messages are delivered and what it woke (the
    deadline loop's tick, when it runs) is done."""
    await runner.submit(inbound)
    await asyncio.sleep(0)
    await runner.read(lambda _: None)


async def commands(
    runner: Runner,
    people: People,
    count: int,
    seconds: float,
    trips: RoundTrips,
    among: int | None = IN_PLAY,
) -> dict[str, float]:
    """Commands per second over `count` moves (or `seconds`), the median time of one, the
    process's CPU time per command (less disturbed by other load than the clock), and round
    trips per command; choosing the moves is not counted."""
    times: list[float] = []
    sent, cpu = 0, 0.0
    while len(times) < count and sum(times) < seconds:
        inbound = people.any_move(among)
        before, started, cpu_before = trips.count, time.perf_counter(), time.process_time()
        await submitted(runner, inbound)
        times.append(time.perf_counter() - started)
        cpu += time.process_time() - cpu_before
        sent += trips.count - before
    return {
        "rate": len(times) / sum(times),
        "p50_ms": statistics.median(times) * 1000,
        "cpu_ms": cpu / len(times) * 1000,
        "trips": sent / len(times),
    }


def resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def measure_views(built: Built) -> dict[str, Any]:
    """Calls of a worker started 10 minutes after another showed every view, each bringing
    every game's views up to date (which a start does game by game, between inputs)."""
    found: dict[str, Any] = {}
    first = built.played_until + timedelta(minutes=1)
    for name, at in (("first", first), ("later", first + LATER)):
        with open_store(built.url) as store:
            runner, port = worker(store, MovingClock(at))
            await runner.start()
            await runner.heal_some(built.games)
            await runner.tick()
            await runner.stop(STOP_TIMEOUT)
        found[name] = {"sends": port.sends, "edits": port.edits}
    return found


async def measure_worker(built: Built, count: int, seconds: float) -> dict[str, Any]:
    """Restart, commands per second with the deadline loop off and on, memory."""
    trips = RoundTrips()
    found: dict[str, Any] = {}
    with open_store(built.url) as reader, open_store(built.url) as store:
        people = People(built, reader)
        first = people.any_move()
        clock = MovingClock(built.played_until + LATER + timedelta(minutes=2))
        at_start, began = trips.count, time.perf_counter()
        runner, _ = worker(store, clock)
        await runner.start()
        found["start_s"] = time.perf_counter() - began
        found["start_trips"] = trips.count - at_start
        at_first = trips.count
        await submitted(runner, first)
        found["first_s"] = time.perf_counter() - began
        found["first_trips"] = trips.count - at_first
        found["off"] = await commands(runner, people, count, seconds, trips)
        deadlines = asyncio.create_task(runner.run_deadlines())
        found["on"] = await commands(runner, people, count, seconds, trips)
        found["spread"] = await commands(runner, people, count, seconds, trips, among=None)
        found["rss_mb"] = resident_mb()
        deadlines.cancel()
        await asyncio.gather(deadlines, return_exceptions=True)
        await runner.stop(STOP_TIMEOUT)
    return found


def in_fresh_process(what: str, built: Built, count: int, seconds: float) -> dict[str, Any]:
    """Run one measure in a new Python process; what it found."""
    args = [sys.executable, __file__, "--measure", what, "--url", built.url]
    args += ["--games", str(built.games), "--played-until", built.played_until.isoformat()]
    args += ["--commands", str(count), "--seconds", str(seconds)]
    done = subprocess.run(args, check=True, capture_output=True, text=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def measured(
    built: Built, kind: str, url: str | None, count: int, seconds: float
) -> tuple[str, str]:
    """Two lines of the tables (restart, commands): every measure on a fresh copy."""
    with (
        tempfile.TemporaryDirectory() as folder,
        working_copy(built, kind, url, Path(folder)) as copy,
    ):
        views = in_fresh_process("views", copy, count, seconds)
        run = in_fresh_process("worker", copy, count, seconds)
    later, first = views["later"], views["first"]
    where = f"| {kind} | {built.games:,} "
    restart = (
        f"{where}| {run['start_s']:.1f} s ({run['start_trips']:,}) "
        f"| {run['first_s']:.1f} s ({run['first_trips']:,}) "
        f"| {later['sends']:,} + {later['edits']:,} (of {first['sends']:,}) "
        f"| {run['rss_mb']:,.0f} MB |"
    )
    off, on, spread = run["off"], run["on"], run["spread"]
    rates = (
        f"{where}| {_rate(off)} | {_rate(on)} | {on['rate'] / off['rate']:.2f} "
        f"| {_rate(spread)} | {off['trips']:.1f} / {on['trips']:.1f} / {spread['trips']:.1f} |"
    )
    return restart, rates


def _rate(found: dict[str, float]) -> str:
    return f"{found['rate']:,.1f} ({found['p50_ms']:,.1f} ms, CPU {found['cpu_ms']:,.1f} ms)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="100,1000,10000")
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--url", default=os.environ.get("BOHNANZA_TEST_POSTGRES_URL"))
    parser.add_argument("--commands", type=int, default=1000, help="commands per rate measured")
    parser.add_argument("--seconds", type=float, default=60.0, help="at most, per rate measured")
    parser.add_argument("--measure", choices=("views", "worker"), help=argparse.SUPPRESS)
    parser.add_argument("--played-until", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sizes = [int(size) for size in args.games.replace("_", "").split(",")]
    if args.measure:
        built = Built(args.url, sizes[0], datetime.fromisoformat(args.played_until))
        if args.measure == "views":
            found = asyncio.run(measure_views(built))
        else:
            found = asyncio.run(measure_worker(built, args.commands, args.seconds))
        print(json.dumps(found))
        return
    if args.store == "postgres" and not args.url:
        sys.exit("error: give --url or set BOHNANZA_TEST_POSTGRES_URL")
    url = args.url if args.store == "postgres" else None
    lines = []
    for games in sizes:
        built, took = cached_store(args.store, url, games)
        if took is not None:
            print(f"built {games:,} open games in {took:.0f} s", file=sys.stderr)
        lines.append(measured(built, args.store, url, args.commands, args.seconds))
        print(*lines[-1], sep="\n", file=sys.stderr, flush=True)
    print(f"{os.cpu_count()} vCPU, Python {platform.python_version()}; round trips in brackets")
    print(
        "| store | open games | restart: start() returned | first input answered "
        "| calls 10 min later: sends + edits (of sends at first) | memory |"
    )
    print("|---|---|---|---|---|---|")
    print(*(restart for restart, _ in lines), sep="\n")
    print(
        "\n| store | open games | commands/s in 100 games, deadline loop off (p50, CPU per "
        "command) | on | on/off | spread over every game, on | round trips, off / on / spread |"
    )
    print("|---|---|---|---|---|---|---|")
    print(*(rates for _, rates in lines), sep="\n")


if __name__ == "__main__":
    main()
