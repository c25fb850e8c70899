"""The Matrix adapter's speed, against a local Synapse started as in tests/matrix.

    python bench/matrix.py [--games 1] [--people 2] [--bots 1]

Plays whole games in a room through real matrix-nio clients, people typing '!bean' commands in
the room and plain commands in their direct rooms as in tests/matrix, each client long-polling
as a chat client does. For every command it measures the round trip player → bot → player:
from the moment the person sends it until his client has received every message the bot sent
about it that he can see; and the share of that round trip spent inside the bot's
`runner.submit` (the game, the store, and the bot's own calls to the homeserver).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# The repository root instead of bench/, so that the tests' harness can be imported.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from tests.matrix.accounts import Account, register_account, unique_localpart  # noqa: E402
from tests.matrix.players import Player, open_player  # noqa: E402
from tests.matrix.synapse import Homeserver, running_synapse  # noqa: E402
from tests.matrix.table import RunningBot, Seat, Table  # noqa: E402

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay", "gil")


class TimedTable(Table):
    """A table that times each command from its sending to its last answer's arrival."""

    def __init__(self, running: RunningBot, room: str, people: list[Player], seed: int) -> None:
        super().__init__(running, room, people, seed)
        self.sent: list[tuple[str, str]] = []
        """(room, event id) of every message the bot sent."""
        self.arrived: dict[str, float] = {}
        """When each event reached a person's client (time.perf_counter)."""
        self.samples: list[tuple[float, float]] = []
        """(round trip, time inside runner.submit) per command, in seconds."""
        self.timing = False
        """Set once every person's client listens: the lobby is not timed."""
        send = running.bot.port._send

        async def recorded(room_id: str, content: dict[str, Any]) -> str:
            event_id = await send(room_id, content)
            self.sent.append((room_id, event_id))
            return event_id

        running.bot.port._send = recorded  # type: ignore[method-assign]

    async def listen(self, person: Player) -> None:
        """The person's client long-polls, noting when each event arrives."""
        while True:
            seen = len(person.events)
            await person.sync(30_000)
            now = time.perf_counter()
            for event in person.events[seen:]:
                self.arrived.setdefault(event.event_id, now)

    async def say(self, person: Player, text: str, room: str | None = None) -> str:
        mark, started = len(self.sent), time.perf_counter()
        event_id = await super().say(person, text, room)
        if not self.timing or event_id not in self.running.submit_took:
            return event_id
        visible = {self.room, self.direct.get(person.user_id)}
        answers = [e for r, e in self.sent[mark:] if r in visible]
        if not answers:
            return event_id
        async with asyncio.timeout(15):
            while not all(a in self.arrived for a in answers):
                await asyncio.sleep(0.001)
        round_trip = max(self.arrived[a] for a in answers) - started
        self.samples.append((round_trip, self.running.submit_took[event_id]))
        return event_id


async def play_one(
    homeserver: Homeserver, folder: Path, seed: int, people: int, bots: int
) -> TimedTable:
    accounts: list[Account] = [
        register_account(homeserver, unique_localpart(name)) for name in NAMES[:people]
    ]
    bot_account = register_account(homeserver, unique_localpart("beanbot"))
    running = await RunningBot(homeserver, bot_account, folder, seed=seed).start()
    try:
        async with contextlib.AsyncExitStack() as stack:
            players = [
                await stack.enter_async_context(open_player(homeserver, a)) for a in accounts
            ]
            host, guests = players[0], players[1:]
            room = await host.create_room(invite=[running.user_id, *(g.user_id for g in guests)])
            for guest in guests:
                await guest.wait_for_invite(room)
                await guest.join(room)
            await host.wait_for_member(room, running.user_id)
            table = TimedTable(running, room, players, seed)
            seats: list[Seat] = [*players, *(["bot"] * bots)]
            await table.gather(seats)
            listeners = [asyncio.create_task(table.listen(p)) for p in players]
            table.timing = True
            try:
                await table.play()
            finally:
                for listener in listeners:
                    listener.cancel()
                await asyncio.gather(*listeners, return_exceptions=True)
            return table
    finally:
        await running.stop()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--people", type=int, default=2)
    parser.add_argument("--bots", type=int, default=1)
    args = parser.parse_args()
    samples: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        with running_synapse(Path(folder) / "synapse") as homeserver:
            ready = time.perf_counter() - started
            for game in range(args.games):
                where = Path(folder) / f"game-{game}"
                where.mkdir()
                table = asyncio.run(play_one(homeserver, where, 100 + game, args.people, args.bots))
                samples += table.samples
        elapsed = time.perf_counter() - started
    trips = [trip for trip, _ in samples]
    inside = [bot for _, bot in samples]
    players = args.people + args.bots
    print(f"{args.games} games of {players} ({args.people} people, {args.bots} bots)")
    print(f"  {len(samples)} commands timed (Synapse on loopback, started in {ready:.1f} s)")
    print(
        f"  round trip player → bot → player: p50 {percentile(trips, 0.5) * 1000:.1f} ms, "
        f"p99 {percentile(trips, 0.99) * 1000:.1f} ms"
    )
    print(
        f"  inside the bot (runner.submit): p50 {percentile(inside, 0.5) * 1000:.1f} ms, "
        f"p99 {percentile(inside, 0.99) * 1000:.1f} ms; "
        f"{sum(inside) / sum(trips):.0%} of all round-trip time"
    )
    print(f"  wall time {elapsed:.1f} s")


if __name__ == "__main__":
    main()
