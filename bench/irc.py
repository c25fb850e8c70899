"""The IRC adapter's lines per turn, on a local IRC network started as in tests/irc.

    python bench/irc.py [--pace 0.2] [--people 2] [--seed 4] [--think 6]

One whole 4-player game (people and bots) on InspIRCd: the bot sends at P seconds per line (burst
4), people answer the numbered choices of their private messages as in tests/irc, thinking
`--think` seconds a move, scaled like the pace (P / 2.0): the game stands for one at IRC's usual
1 line per 2 s with real think times, only faster. Printed: the bot's lines per turn (mean,
p90, max) as the people's clients received them, and what they were (the channel's table and
news, private hands and choices, answers); and the seconds of sending per turn at the usual
pace (2 s a line). The aim: a turn's messages sent within 30 s (15 lines).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from contextlib import AsyncExitStack
from pathlib import Path

# The repository root instead of bench/, so that the tests' harness can be imported.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bohnanza.adapters.irc.protocol import casefold  # noqa: E402
from tests.irc.conftest import BotAccount, bot_env  # noqa: E402
from tests.irc.ircd import running_network  # noqa: E402
from tests.irc.people import Heard, Person, connected, register_account  # noqa: E402
from tests.irc.table import RunningIrcBot  # noqa: E402
from tests.irc.test_irc_game import answer_once, seat_people  # noqa: E402
from tests.tapping import Tapper  # noqa: E402

STANDARD_PACE = 2.0
NAMES = ("ann", "bob", "cat")


def kind_of(heard: Heard, channel: str) -> str:
    """What a line of the bot's was part of: the channel's messages, a private message (with
    numbered choices, or without), or an answer (a NOTICE)."""
    if heard.line.command == "NOTICE":
        return "answers"
    if casefold(heard.target) == casefold(channel):
        return "channel"
    if re.search(r"(^|// )\d+ · ", heard.text):
        return "private: with choices"
    return "private: other"


async def play(pace: float, people_count: int, seed: int, think: float) -> None:
    scale = pace / STANDARD_PACE
    with tempfile.TemporaryDirectory() as folder, running_network(Path(folder) / "ircd") as net:
        account = BotAccount("beanbot", "bench-password")
        await register_account(net.host, net.port, account.name, account.password)
        channel = "#beans"
        env = bot_env(net, account, channel, pace=f"{pace:g}")
        bot = await RunningIrcBot(env, Path(folder), seed=seed, burst=4).start()
        turns: list[tuple[float, int]] = []
        async with AsyncExitStack() as stack:
            people: list[Person] = []
            for name in NAMES[:people_count]:
                person = await stack.enter_async_context(connected(net.host, net.port, name))
                await person.join(channel)
                people.append(person)
            await seat_people(bot, channel, people, bots=4 - people_count)
            by_id = {casefold(p.nick): p for p in people}
            tapper, rng = Tapper(random.Random(seed)), random.Random(seed)
            started = time.monotonic()
            while (session := bot.session(channel)) is not None:
                turns.append((time.monotonic(), session.state.turn))
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think * scale)
                if await answer_once(bot, channel, by_id, tapper) is None:
                    raise SystemExit("nobody can answer, and the game does not move")
            took = time.monotonic() - started
            nick = bot.client.nick
            lines = [h for h in people[0].heard if casefold(h.target) == casefold(channel)]
            lines += [h for p in people for h in p.heard if casefold(h.target) == casefold(p.nick)]
            lines = [h for h in lines if h.line.command in ("PRIVMSG", "NOTICE")]
            lines = [h for h in lines if h.line.nick == nick and h.at >= started]
        await bot.stop()
    per_turn: Counter[int] = Counter()
    kinds: defaultdict[str, Counter[int]] = defaultdict(Counter)
    first: dict[int, float] = {}
    last: dict[int, float] = {}
    for heard in lines:
        turn = max((t for at, t in turns if at <= heard.at), default=0)
        per_turn[turn] += 1
        kinds[kind_of(heard, channel)][turn] += 1
        first.setdefault(turn, heard.at)
        last[turn] = heard.at
    counts = sorted(per_turn.values())
    p90 = counts[min(len(counts) - 1, int(len(counts) * 0.9))]
    print(
        f"{people_count} people, {4 - people_count} bots, pace {pace:g} s/line "
        f"(x{1 / scale:g} to the standard {STANDARD_PACE:g} s), {len(counts)} turns, "
        f"{len(lines)} lines, game {took:.0f} s ({took / scale / 60:.0f} min at the standard)"
    )
    print(f"lines per turn: mean {statistics.mean(counts):.1f}, p90 {p90}, max {counts[-1]}")
    for kind, per in sorted(kinds.items()):
        values = [per[t] for t in per_turn]
        print(f"  {kind:16} mean {statistics.mean(values):.1f}, max {max(values)}")
    sending = [n * STANDARD_PACE for n in counts]
    print(
        f"sending per turn at {STANDARD_PACE:g} s/line: mean {statistics.mean(sending):.0f} s, "
        f"p90 {p90 * STANDARD_PACE:.0f} s, max {sending[-1]:.0f} s (aim: 30 s, 15 lines)"
    )
    spans = [(last[t] - first[t]) / scale for t in per_turn]
    print(f"first to last line of a turn, scaled: mean {statistics.mean(spans):.0f} s")


def main() -> None:
    # A stop (SIGTERM) unwinds too, so the IRC servers started for the game are stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pace", type=float, default=0.2)
    parser.add_argument("--people", type=int, default=2, choices=(1, 2, 3))
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--think", type=float, default=6.0, help="seconds a move, standard")
    args = parser.parse_args()
    asyncio.run(play(args.pace, args.people, args.seed, args.think))


if __name__ == "__main__":
    main()
