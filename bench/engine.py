"""Engine benchmark: whole bot games by player count, record replay, and the audit.

Run with `make bench` or `python bench/engine.py [--games N] [--repeat N] [--profile]`. It
prints a table and the figures against their aims, and asserts nothing about timings. The aims,
on one core: a 5-player heuristic-bot game in 8 ms and a 5-player random-bot game in 3 ms;
replay of parsed records that already passed the rules (`replay(record, trusted=True)`, as for a
game that passed the audit) at 600,000 actions per second, the replay that checks every action
shown beside it; the audit of stored games (hash chain, rules, reshuffles, card conservation and
result; read from memory, not from a database) at 150,000 actions per second in one process.
Times are the CPU time of this process (`time.process_time`), so other work on a shared machine
disturbs them less than it would a wall clock.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import platform
import pstats
import random
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bohnanza.core.audit import (
    action_payload,
    audit_game,
    check_record,
    header_hash,
    link_hash,
    reshuffles_payload,
)
from bohnanza.core.bots import make_bot, play_out
from bohnanza.core.game import Game
from bohnanza.core.ports import FINISHED, ChainLink, NewGame, SeatIdentity, StoredGame
from bohnanza.core.record import GameRecord, SeatRecord, replay

PLAYER_COUNTS = range(2, 8)
STRATEGIES = ("heuristic", "random")
AIM_PLAYERS = 5
AIM_GAME_MS = {"heuristic": 8.0, "random": 3.0}
AIM_REPLAY_RATE = 600_000
AIM_AUDIT_RATE = 150_000


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
            start = time.process_time()
            actions += play_out(game, bots)
            seconds += time.process_time() - start
            seats = tuple(
                SeatRecord(f"{strategy}-{s + 1}", "bot", strategy) for s in range(players)
            )
            records.append(GameRecord.loads(GameRecord.of(game, seats).dumps()))
        best = min(best, seconds)
    return Run(strategy, players, games, best, actions, records)


def replay_rate(
    records: list[GameRecord], repeat: int = 1, trusted: bool = False
) -> tuple[int, float]:
    """Total actions replayed from parsed records and the seconds it took (fastest pass)."""
    actions = sum(len(r.actions) for r in records)
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for record in records:
            replay(record, trusted=trusted)
        best = min(best, time.process_time() - start)
    return actions, best


def as_stored(record: GameRecord, index: int) -> StoredGame:
    """A record as a store holds it: the header, the hash chain and the result."""
    checked = check_record(record)
    seats = tuple(SeatIdentity("bot", s.name, s.name, s.kind, s.strategy) for s in record.seats)
    game = NewGame(f"bench-{index}", seats, record.deck, datetime.now(UTC), dict(record.options))
    start = prev = header_hash(game)
    links = []
    for seq, action in enumerate(record.actions):
        payload = action_payload(action)
        reshuffles = reshuffles_payload(checked.reshuffles[seq])
        prev = link_hash(prev, payload, reshuffles)
        links.append(ChainLink(seq, payload, reshuffles, prev))
    return StoredGame(game, start, tuple(links), len(links), prev, FINISHED, record.result)


def audit_rate(stored: list[StoredGame], repeat: int = 1) -> tuple[int, float]:
    """Total actions audited and the seconds it took (fastest pass); every game must hold."""
    actions = sum(len(s.links) for s in stored)
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        failures = [audit_game(game) for game in stored]
        best = min(best, time.process_time() - start)
        assert not any(failures), failures
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
    print(
        f"python   {platform.python_implementation()} {platform.python_version()} "
        f"({sys.executable}; how it was built counts: see the README)"
    )
    print(f"games    {args.games} per row, fastest of {args.repeat} pass(es), single process")
    print("timing   CPU time of this process\n")

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
    checked_per_s = replayed / seconds
    print(f"\nreplay   {len(records)} parsed records, {replayed:,} actions in {seconds:.2f} s")
    replayed, seconds = replay_rate(records, args.repeat, trusted=True)
    replay_per_s = replayed / seconds
    print(f"         the same, trusted (rules not asked again): {seconds:.2f} s")

    stored = [
        as_stored(record, index)
        for index, record in enumerate(records)
        if len(record.seats) == AIM_PLAYERS and record.seats[0].strategy == "heuristic"
    ]
    audited, seconds = audit_rate(stored, args.repeat)
    audit_per_s = audited / seconds
    print(f"audit    {len(stored)} stored games, {audited:,} actions in {seconds:.2f} s")

    print("\nfigures against their aims (one core)")
    for strategy in STRATEGIES:
        run = next(r for r in runs if r.strategy == strategy and r.players == AIM_PLAYERS)
        aim = AIM_GAME_MS[strategy]
        label = f"{AIM_PLAYERS}-player {strategy} game"
        print(
            f"  {label:<26}{run.ms_per_game:>10.2f} ms/game   aim <= {aim:.0f} ms"
            f"   {_verdict(run.ms_per_game <= aim)}"
        )
    for label, rate, aim in (
        ("replay, trusted", replay_per_s, AIM_REPLAY_RATE),
        ("audit", audit_per_s, AIM_AUDIT_RATE),
    ):
        print(f"  {label:<26}{rate:>10,.0f} actions/s  aim >= {aim:,}   {_verdict(rate >= aim)}")
    print(f"  {'replay, every action checked':<26}{checked_per_s:>10,.0f} actions/s  (no aim)")
    if args.profile:
        print(f"\nprofile of {args.games} {AIM_PLAYERS}-player heuristic games")
        print(profile("heuristic", AIM_PLAYERS, args.games))


if __name__ == "__main__":
    main()
