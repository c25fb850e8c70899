"""The Telegram adapter's cost and speed, against the local Bot API server of the tests.

    python bench/telegram.py [--games 2] [--people 2] [--bots 2] [--strategy heuristic]

Plays whole games in a group through the unmodified python-telegram-bot (long polling), people
pressing buttons and typing commands as in tests/telegram, and prints the Bot API calls per
turn (in the group, which Telegram limits to about 20 messages a minute, and in total) and the
latency from a person's update to the bot's first call about it (p50/p99). The rate limiter
honours 429s but does not pace calls, so the figures are the adapter's own.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

# The repository root instead of bench/, whose telegram.py would hide python-telegram-bot.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bohnanza.core.app.resuming import resume_game  # noqa: E402
from tests.telegram.botapi import ApiCall, BotApiServer, World  # noqa: E402
from tests.telegram.table import Players, RunningBot  # noqa: E402

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gil")


async def play_one(
    seed: int, people: int, bots: int, strategy: str = "heuristic"
) -> tuple[int, list[ApiCall], list[float]]:
    """One game; its turns, the calls made while it was played, and each update's latency."""
    world = World()
    stamps: dict[int, float] = {}
    enqueue = world.enqueue

    def stamped(kind: str, body: dict[str, Any]) -> dict[str, Any]:
        update = enqueue(kind, body)
        stamps[update["update_id"]] = time.monotonic()
        return update

    world.enqueue = stamped  # type: ignore[method-assign]
    persons = [world.create_user(name) for name in NAMES[:people]]
    group = world.create_group("Bean table", persons)
    world.add_bot(group, by=persons[0])
    seats = [*(p.account.first_name for p in persons), *([f"bot:{strategy}"] * bots)]
    random.Random(seed).shuffle(seats[1:])
    async with BotApiServer(world) as botapi:
        for person in persons:
            person.start_bot()
        with tempfile.TemporaryDirectory() as folder:
            async with RunningBot(botapi, Path(folder) / "bench.db", seed=seed) as running:
                await world.settle()
                players = Players(running, group, persons, seed=seed)
                mark, since = len(world.calls), time.monotonic()
                game_id = await players.gather(seats)
                await players.play()
                await world.settle()
                record = running.store.load_stored(game_id).record()
    turns = resume_game(record, random.Random()).state.turn + 1
    calls = [c for c in world.calls[mark:] if c.method != "getUpdates"]
    calls.sort(key=lambda c: c.time)
    latencies = []
    for at in stamps.values():
        if at < since:
            continue
        first = next((c.time for c in calls if c.time >= at), None)
        if first is not None:
            latencies.append(first - at)
    return turns, [c for c in world.calls[mark:]], latencies


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--people", type=int, default=2)
    parser.add_argument("--bots", type=int, default=2)
    parser.add_argument("--strategy", default="heuristic", help="the bots' strategy")
    args = parser.parse_args()
    turns, group, total, polls = 0, 0, 0, 0
    methods: Counter[str] = Counter()
    latencies: list[float] = []
    started = time.perf_counter()
    for game in range(args.games):
        played, calls, waits = asyncio.run(
            play_one(100 + game, args.people, args.bots, args.strategy)
        )
        turns += played
        latencies += waits
        for call in calls:
            if call.method == "getUpdates":
                polls += 1
                continue
            total += 1
            methods[call.method] += 1
            group += isinstance(call.chat_id, int) and call.chat_id < 0
    elapsed = time.perf_counter() - started
    players = args.people + args.bots
    print(
        f"{args.games} games of {players} ({args.people} people, {args.bots} {args.strategy} "
        f"bots), {turns} turns"
    )
    print(f"  Bot API calls per turn: {group / turns:.2f} in the group, {total / turns:.2f} in all")
    print(f"  ({polls / turns:.2f} getUpdates per turn besides; by method: {dict(methods)})")
    print(
        f"  update → first bot call: p50 {percentile(latencies, 0.5) * 1000:.1f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms ({len(latencies)} updates)"
    )
    print(f"  wall time {elapsed:.1f} s")


if __name__ == "__main__":
    main()
