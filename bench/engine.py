"""Engine benchmark: whole bot games per second by player count, and record replay speed.

Run with `make bench` or `python bench/engine.py [--games N] [--repeat N] [--profile]`. It
prints a table and asserts nothing about timings; the targets it reports against are a 5-player
heuristic-bot game under 10 ms and replay above 100,000 actions per second.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import platform
import pstats
import random
import time
from dataclasses import dataclass
from pathlib import Path

from bohnanza.core.bots import make_bot, play_out
from bohnanza.core.game import Game
from bohnanza.core.record import GameRecord, SeatRecord, replay

PLAYER_COUNTS = range(2, 8)
STRATEGIES = ("heuristic", "random")
TARGET_GAME_MS = 10.0
TARGET_GAME_PLAYERS = 5
TARGET_REPLAY_RATE = 100_000


@dataclass
class Run:
    """Timings of one batch of bot games at one player count."""

    strategy: str
    players: int
    games: int
    seconds: float
    actions: int
    records: list[GameRecord]

    @property
    def ms_per_game(self) -> float:
        return 1000 * self.seconds / self.games


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def play_batch(strategy: str, players: int, games: int, repeat: int = 1) -> Run:
    """Play `games` seeded games (the fastest of `repeat` passes); only `play_out` is timed."""
    best = float("inf")
    for _ in range(repeat):
        seconds, actions, records = 0.0, 0, []
        for seed in range(games):
            game = Game.new(players, random.Random(seed))
            bots = [make_bot(strategy, random.Random(seed * 31 + s)) for s in range(players)]
            start = time.perf_counter()
            actions += play_out(game, bots)
            seconds += time.perf_counter() - start
            seats = tuple(
                SeatRecord(f"{strategy}-{s + 1}", "bot", strategy) for s in range(players)
            )
            records.append(GameRecord.loads(GameRecord.of(game, seats).dumps()))
        best = min(best, seconds)
    return Run(strategy, players, games, best, actions, records)


def replay_rate(records: list[GameRecord], repeat: int = 1) -> tuple[int, float]:
    """Total actions replayed from parsed records and the seconds it took (fastest pass)."""
    actions = sum(len(r.actions) for r in records)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for record in records:
            replay(record)
        best = min(best, time.perf_counter() - start)
    return actions, best


def profile(strategy: str, players: int, games: int) -> str:
    """The hot spots of `play_out` alone (dealing and records are left out)."""
    profiler = cProfile.Profile()
    for seed in range(games):
        game = Game.new(players, random.Random(seed))
        bots = [make_bot(strategy, random.Random(seed * 31 + s)) for s in range(players)]
        profiler.enable()
        play_out(game, bots)
        profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(20)
    return out.getvalue()


def _verdict(met: bool) -> str:
    return "met" if met else "missed"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per row (default 30)")
    parser.add_argument("--repeat", type=int, default=1, help="report the fastest of N passes")
    parser.add_argument("--profile", action="store_true", help="profile 5-player bot games")
    args = parser.parse_args()

    print(f"machine  {platform.platform()}")
    print(f"cpu      {cpu_model()}")
    print(f"python   {platform.python_implementation()} {platform.python_version()}")
    print(f"games    {args.games} per row, fastest of {args.repeat} pass(es), single process\n")

    print(
        f"{'bots':<10}{'players':>8}{'games/s':>10}{'ms/game':>10}{'actions':>9}{'actions/s':>11}"
    )
    runs: list[Run] = []
    for strategy in STRATEGIES:
        for players in PLAYER_COUNTS:
            run = play_batch(strategy, players, args.games, args.repeat)
            runs.append(run)
            print(
                f"{strategy:<10}{players:>8}{run.games / run.seconds:>10.1f}"
                f"{run.ms_per_game:>10.2f}{run.actions / run.games:>9.0f}"
                f"{run.actions / run.seconds:>11,.0f}"
            )

    records = [record for run in runs for record in run.records]
    replayed, seconds = replay_rate(records, args.repeat)
    rate = replayed / seconds
    print(f"\nreplay   {len(records)} parsed records, {replayed:,} actions in {seconds:.2f} s")
    print(f"         {rate:,.0f} actions/s")

    target = next(r for r in runs if r.strategy == "heuristic" and r.players == TARGET_GAME_PLAYERS)
    print("\ntargets")
    game_ms = target.ms_per_game
    print(
        f"  {TARGET_GAME_PLAYERS}-player heuristic game < {TARGET_GAME_MS:.0f} ms: "
        f"{game_ms:.2f} ms ({_verdict(game_ms < TARGET_GAME_MS)})"
    )
    print(
        f"  replay > {TARGET_REPLAY_RATE:,} actions/s: {rate:,.0f} "
        f"({_verdict(rate > TARGET_REPLAY_RATE)})"
    )
    if args.profile:
        print(f"\nprofile of {args.games} {TARGET_GAME_PLAYERS}-player heuristic games")
        print(profile("heuristic", TARGET_GAME_PLAYERS, args.games))


if __name__ == "__main__":
    main()
