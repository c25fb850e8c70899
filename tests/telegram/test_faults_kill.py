"""`bohnanza serve telegram` killed with SIGKILL at a random moment while people play.

The real command runs as a subprocess against the local Bot API server. People send a stream of
commands (button presses, commands typed in the group or privately); at a moment drawn from the
seed the process is killed: as the n-th message the bot sends or edits arrives (so it never
reaches Telegram, and a view falls behind the store), a few milliseconds after the server hands
out the n-th command, or while the server answers the n-th call of any kind. Right then, every
update Telegram counts as confirmed must already be stored. Started again on the same database,
the bot takes what was left at Telegram and settles: every command is stored exactly once, the
stored game replays and passes `bohnanza audit`, and the group's table and each person's private
message show the game as stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import sys
from pathlib import Path

import pytest

from bohnanza.adapters.telegram.translate import PLATFORM
from bohnanza.core.record import replay

from .botapi import ApiCall, World
from .botapi.ptb import run
from .faults import (
    FaultyServer,
    Serve,
    ServedPlayers,
    audit,
    bean_table,
    clean_stop,
    delivery_id,
    human_actions,
    same_moves,
    stale_after_healing,
    stale_views,
)

# The local Bot API server and `bohnanza serve`, started again after each fault: seconds a test.
pytestmark = [pytest.mark.server, pytest.mark.slow]

MAX_MOVES = 60


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
@pytest.mark.parametrize(
    ("seed", "moment"), [(41, "message arrives"), (42, "command fetched"), (43, "call answered")]
)
def test_a_kill_9_at_a_random_moment_loses_nothing_and_applies_nothing_twice(
    tmp_path: Path, seed: int, moment: str
) -> None:
    rng = random.Random(seed)
    world = World()
    server = FaultyServer(world)
    group, people = bean_table(world, ["Ann", "Bob"])
    db = tmp_path / "games.db"
    nth = {"message arrives": rng.randint(1, 12), "command fetched": rng.randint(1, 6)}.get(
        moment, rng.randint(1, 40)
    )
    later = rng.uniform(0.0, 0.008) if moment == "command fetched" else 0.0
    killed_on: list[str] = []

    async def scenario() -> None:
        first = Serve(server, db, tmp_path / "first.log")
        second = Serve(server, db, tmp_path / "second.log")
        players = ServedPlayers(server, db, group, people, seed=seed)
        async with server:
            try:
                await first.start()
                game_id = await players.gather(["Ann", "bot", "Bob"])
                assert await players.step()
                loop = asyncio.get_running_loop()
                stream_from = len(world.updates)
                answered = 0

                def kill() -> None:
                    first.signal(signal.SIGKILL)

                def arrives(method: str) -> bool:
                    nonlocal answered
                    if moment != "message arrives" or players.halted:
                        return False
                    if method not in ("sendMessage", "editMessageText"):
                        return False
                    answered += 1
                    if answered < nth:
                        return False
                    players.halted = True  # nobody sends anything more
                    killed_on.append(method)
                    kill()
                    return True

                def watch(call: ApiCall) -> float | None:
                    nonlocal answered
                    if players.halted:
                        return None
                    if moment == "command fetched":
                        fetched = [u for u in world.pending if u in world.updates[stream_from:]]
                        if call.method != "getUpdates" or call.status != 200 or not fetched:
                            return None
                    elif moment != "call answered":
                        return None
                    answered += 1
                    if answered == nth:
                        players.halted = True
                        killed_on.append(call.method)
                        if later:
                            loop.call_later(later, kill)
                        else:
                            kill()
                    return None

                async def stream() -> None:
                    for _ in range(MAX_MOVES):
                        if not await players.step():
                            break
                    players.halted = True
                    kill()  # the stream ended first: killed now, while nothing is in flight

                server.watchers.append(watch)
                server.arrivals.append(arrives)
                playing = asyncio.create_task(stream())
                ended = asyncio.ensure_future(first.wait(60))
                await asyncio.wait([ended, playing], return_when=asyncio.FIRST_COMPLETED)
                if playing.done() and not players.halted:
                    playing.result()  # the stream failed before the kill: the test fails
                code = await ended
                assert code == -signal.SIGKILL, first.output
                playing.cancel()
                with contextlib.suppress(BaseException):
                    await playing

                # Every update Telegram no longer holds was stored before it was confirmed.
                store = players.store
                commands = [u for u in world.updates[stream_from:] if delivery_id(u)]
                assert commands
                unconfirmed = {u["update_id"] for u in world.pending}
                for update in commands:
                    if update["update_id"] not in unconfirmed:
                        key = delivery_id(update)
                        assert key and store.delivery_seen(PLATFORM, key), update

                stale = stale_views(store, group, people)
                if killed_on == ["editMessageText"] and moment == "message arrives":
                    assert stale, "the edit that never arrived left no view behind"

                await second.start()
                await world.wait_until(lambda: not world.pending, what="every update confirmed")
                await players.settle()
                assert world.pending == []
                for update in commands:
                    key = delivery_id(update)
                    assert key and store.delivery_seen(PLATFORM, key), update
                # Each person's move stored once, in the order sent: none lost, none doubled.
                assert same_moves(human_actions(store, game_id), players.sent), (
                    human_actions(store, game_id),
                    players.sent,
                )
                summary = next(s for s in store.list_games() if s.game_id == game_id)
                record = store.load_record(game_id)
                assert summary.actions == len(record.actions)
                assert len(replay(record).actions) == summary.actions
                code, said = await audit(db)
                assert code == 0, said

                assert await stale_after_healing(world, store, group, people) == []
                clean_stop(await second.stop(), second.output)
                assert world.pending == []
            finally:
                players.close()
                await first.close()
                await second.close()

    run(scenario())
    assert world.server_errors == []
