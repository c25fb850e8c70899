"""The chat application's speed: one command from input to durable commit to outgoing messages.

    python bench/app.py [--games 1000] [--players 5] [--people 2] [--commands 20000]

Opens GAMES games (PEOPLE people and bots at each table) in one ChatService on a SQLite file,
then hands it people's commands round the games, as a busy bot would receive them, each through
`handle` (parse, check, apply, commit, bots' answers and their commits, the table and private
messages rendered). Prints the latency per command (p50/p99) and the sustained commands per
second with all games open at once in one process.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from bohnanza.adapters.store import open_store
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.ports import Capabilities
from bohnanza.core.app.service import ChatService
from bohnanza.core.app.session import GameSession
from bohnanza.core.bots import HeuristicBot
from bohnanza.core.notation import action_text
from bohnanza.core.state import Step

CAPABILITIES = Capabilities(buttons=True, edits=True, personal_answers=True)


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


def run(games: int, players: int, people: int, commands: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(str(Path(folder) / "bench.db"), create=True)
        service = ChatService("bench", CAPABILITIES, store, rng=random.Random(7))
        started = time.perf_counter()
        open_games(service, games, players, people)
        opening = time.perf_counter() - started
        brain = HeuristicBot(random.Random(3))
        clock = Clock()
        latencies: list[float] = []
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
                before = time.perf_counter()
                service.handle(inbound, clock.tick())
                latencies.append(time.perf_counter() - before)
                if len(latencies) >= commands:
                    break
        elapsed = time.perf_counter() - begun
        store.close()
    ordered = sorted(latencies)
    p50 = ordered[len(ordered) // 2] * 1000
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000
    print(f"{games} games of {players} ({people} people, {players - people} bots) on SQLite")
    print(f"  opening the games: {opening:.1f} s")
    print(f"  commands: {len(latencies)}, mean {statistics.mean(latencies) * 1000:.2f} ms")
    print(f"  latency per command (input → commit → messages): p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    print(f"  sustained: {len(latencies) / elapsed:,.0f} commands per second, one process")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--people", type=int, default=2)
    parser.add_argument("--commands", type=int, default=20_000)
    args = parser.parse_args()
    run(args.games, args.players, args.people, args.commands)


if __name__ == "__main__":
    main()
