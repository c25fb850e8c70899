"""The chat application's speed: one command from input to durable commit to outgoing messages.

    python bench/app.py [--games 1000] [--players 5] [--people 2] [--commands 20000]

Opens GAMES games (PEOPLE people and bots at each table) in one ChatService on a SQLite file,
then hands it people's commands round the games, as a busy bot would receive them, each through
`handle` (parse, check, apply, commit, bots' answers and their commits, the table and private
messages rendered). Prints the latency per command (p50/p99, against the aim of a p99 within
2 ms), how much of it is spent in the store, the CPU time per command (the work itself, which
other load on a shared machine disturbs less than the clock), and the sustained commands per
second with all games open at once in one process. With --profile N, the commands run under
cProfile instead, and the N functions `handle` spends the most time in (cumulative) are
printed. The garbage collector is set as `bohnanza serve` sets it (`adapters/runtime.py`).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import platform
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bohnanza.adapters.runtime import tune_collector
from bohnanza.adapters.store import open_store
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.ports import Capabilities
from bohnanza.core.app.service import ChatService
from bohnanza.core.app.session import GameSession
from bohnanza.core.bots import HeuristicBot
from bohnanza.core.notation import action_text
from bohnanza.core.state import Step

CAPABILITIES = Capabilities(buttons=True, edits=True, personal_answers=True)
AIM_P99_MS = 2.0
"""The aim for a command's p99 latency, input to commit to messages."""


class TimedStore:
    """The store, with the time spent in its calls added up (reset before each command)."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.spent = 0.0

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if not callable(found):
            return found
        return self._timed(found)

    def _timed(self, method: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                self.spent += time.perf_counter() - started

        return call


class Clock:
    def __init__(self) -> None:
        self.at = datetime(2026, 1, 1, tzinfo=UTC)

    def tick(self) -> datetime:
        self.at = self.at.replace(microsecond=(self.at.microsecond + 1) % 1_000_000)
        return self.at


def person_command(session: GameSession, brain: HeuristicBot) -> tuple[str, str] | None:
    """A person's next command in this game (who, what), or None if no person may act."""
    state = session.state
    for seat in session.humans():
        legal = session.legal(seat)
        owes = seat in session.pending() or (
            state.step is Step.TRADE and session.seats[seat].passed != session.moment(seat)
        )
        if not owes or not legal:
            continue
        action = brain.choose(session.view(seat), legal)
        user = session.seats[seat].identity.user_id
        if action is None:
            return (user, "pass") if state.step is Step.TRADE else None
        return user, action_text(action)
    return None


def open_games(service: ChatService, games: int, players: int, people: int) -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    for game in range(games):
        room = f"room-{game}"
        for person in range(people):
            verb = "new" if person == 0 else "join"
            user = f"p{game}-{person}"
            service.handle(Inbound("bench", user, user, room, verb), now)
        for _ in range(players - people):
            service.handle(Inbound("bench", f"p{game}-0", "p", room, "bot"), now)
        service.handle(Inbound("bench", f"p{game}-0", "p", room, "set deadline off"), now)
        service.handle(Inbound("bench", f"p{game}-0", "p", room, "start"), now)


def percentile_ms(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


def run(games: int, players: int, people: int, commands: int, profile: int = 0) -> None:
    tune_collector()  # as `bohnanza serve` runs
    with tempfile.TemporaryDirectory() as folder:
        store = TimedStore(open_store(str(Path(folder) / "bench.db"), create=True))
        service = ChatService("bench", CAPABILITIES, store, rng=random.Random(7))
        started = time.perf_counter()
        open_games(service, games, players, people)
        opening = time.perf_counter() - started
        brain = HeuristicBot(random.Random(3))
        clock = Clock()
        latencies: list[float] = []
        in_store: list[float] = []
        cpu: list[float] = []
        profiler = cProfile.Profile() if profile else None
        delivery = 0
        begun = time.perf_counter()
        while len(latencies) < commands and service.games:
            for session in list(service.games.values()):
                command = person_command(session, brain)
                if command is None:
                    continue
                user, text = command
                delivery += 1
                inbound = Inbound("bench", user, user, session.room, text, str(delivery))
                now = clock.tick()
                store.spent = 0.0
                before, cpu_before = time.perf_counter(), time.thread_time()
                if profiler is None:
                    service.handle(inbound, now)
                else:
                    profiler.runcall(service.handle, inbound, now)
                latencies.append(time.perf_counter() - before)
                cpu.append(time.thread_time() - cpu_before)
                in_store.append(store.spent)
                if len(latencies) >= commands:
                    break
        elapsed = time.perf_counter() - begun
        store.close()
    if profiler is not None:
        print_profile(profiler, profile, len(latencies))
        return
    p50, p99 = percentile_ms(latencies, 0.50), percentile_ms(latencies, 0.99)
    met = "met" if p99 <= AIM_P99_MS else "not met"
    print(f"{games} games of {players} ({people} people, {players - people} bots) on SQLite")
    print(f"  python {platform.python_version()} ({sys.executable})")
    print(f"  opening the games: {opening:.1f} s")
    print(f"  commands: {len(latencies)}, mean {statistics.mean(latencies) * 1000:.2f} ms")
    print(f"  latency per command (input → commit → messages): p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    print(f"  p99 aim ≤ {AIM_P99_MS:.0f} ms: {met}")
    print(
        f"  of which in the store: p50 {percentile_ms(in_store, 0.50):.2f} ms, "
        f"p99 {percentile_ms(in_store, 0.99):.2f} ms, "
        f"{sum(in_store) / sum(latencies):.0%} of all the time"
    )
    print(
        f"  CPU time per command: p50 {percentile_ms(cpu, 0.50):.2f} ms, "
        f"p99 {percentile_ms(cpu, 0.99):.2f} ms (less disturbed by other load than the clock)"
    )
    print(f"  sustained: {len(latencies) / elapsed:,.0f} commands per second, one process")


def print_profile(profiler: cProfile.Profile, top: int, commands: int) -> None:
    """Where `handle` spends its time: the `top` functions by cumulative time."""
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(top)
    print(f"cProfile of ChatService.handle over {commands} commands (times are inflated):")
    print(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--people", type=int, default=2)
    parser.add_argument("--commands", type=int, default=20_000)
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print a profile")
    args = parser.parse_args()
    run(args.games, args.players, args.people, args.commands, args.profile)


if __name__ == "__main__":
    main()
