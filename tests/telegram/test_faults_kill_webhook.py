"""`bohnanza serve telegram` in webhook mode killed with SIGKILL at a moment drawn from the seed.

Telegram posts each update to the bot's webhook and posts it again until the bot answers 2xx.
People send a stream of commands; the process is killed: a few milliseconds after the n-th
command's POST leaves (before or after it is stored), while the n-th command waits for the
store (received, not stored: the test holds the database's write lock), as the bot answers the
n-th command (stored, but the answer is lost on its way back), or as the n-th message the bot
sends or edits arrives. Right then, every update Telegram counts as delivered is stored.
Started again on the same database, the bot is sent what Telegram still holds and settles:
every command is stored exactly once, in order, the stored game replays and passes `bohnanza
audit`, and the table and each person's private message show the game as stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from bohnanza.adapters.telegram.translate import PLATFORM
from bohnanza.core.record import replay

from .botapi import World
from .botapi.ptb import free_port, run
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
)

# The local Bot API server and `bohnanza serve`, started again after each fault: seconds a test.
pytestmark = [pytest.mark.server, pytest.mark.slow]

MAX_MOVES = 40
LOCK_HELD = 0.3
"""Seconds the n-th command waits for the store before the kill (at "store locked")."""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
@pytest.mark.parametrize(
    ("seed", "moment"),
    [
        (51, "post sent"),
        (53, "store locked"),
        (54, "answer lost"),
        (55, "message arrives"),
    ],
)
def test_a_kill_9_in_webhook_mode_loses_nothing_and_applies_nothing_twice(
    tmp_path: Path, seed: int, moment: str
) -> None:
    rng = random.Random(seed)
    world = World()
    server = FaultyServer(world)
    group, people = bean_table(world, ["Ann", "Bob"])
    db = tmp_path / "games.db"
    nth = rng.randint(1, 12) if moment == "message arrives" else rng.randint(1, 6)
    later = rng.uniform(0.0, 0.03)
    url = f"http://127.0.0.1:{free_port()}/telegram/updates"
    held: list[dict[str, Any]] = []
    """The n-th command, at the moments that pick one."""
    lock: list[sqlite3.Connection] = []

    async def scenario() -> None:
        first = Serve(server, db, tmp_path / "first.log", webhook=url)
        second = Serve(server, db, tmp_path / "second.log", webhook=url)
        players = ServedPlayers(server, db, group, people, seed=seed)
        async with server:
            try:
                await first.start()
                game_id = await players.gather(["Ann", "bot", "Bob"])
                assert await players.step()
                loop = asyncio.get_running_loop()
                stream_from = world.updates[-1]["update_id"] + 1
                counted = 0

                def kill() -> None:
                    first.signal(signal.SIGKILL)

                def command(update: dict[str, Any]) -> bool:
                    return update["update_id"] >= stream_from and delivery_id(update) is not None

                def posting(update: dict[str, Any]) -> None:
                    nonlocal counted
                    if moment not in ("post sent", "store locked") or players.halted:
                        return
                    if not command(update) or server.deliverer.posts[update["update_id"]] > 1:
                        return
                    counted += 1
                    if counted < nth:
                        return
                    players.halted = True  # nobody sends anything more
                    held.append(update)
                    if moment == "store locked":
                        # The bot may read, but its write waits (SQLite's busy timeout).
                        lock.append(sqlite3.connect(db, isolation_level=None))
                        lock[0].execute("BEGIN IMMEDIATE")
                        loop.call_later(LOCK_HELD, kill)
                    else:
                        loop.call_later(later, kill)

                def answered(update: dict[str, Any], status: int | None) -> bool:
                    nonlocal counted
                    if moment != "answer lost" or players.halted or not command(update):
                        return False
                    if status is None or not 200 <= status < 300:
                        return False
                    counted += 1
                    if counted < nth:
                        return False
                    players.halted = True
                    held.append(update)
                    kill()  # as the bot answered: the answer never reaches Telegram
                    return True

                def arrives(method: str) -> bool:
                    nonlocal counted
                    if moment != "message arrives" or players.halted:
                        return False
                    if method not in ("sendMessage", "editMessageText"):
                        return False
                    counted += 1
                    if counted < nth:
                        return False
                    players.halted = True
                    kill()
                    return True

                async def stream() -> None:
                    for _ in range(MAX_MOVES):
                        if not await players.step():
                            break
                    players.halted = True
                    kill()  # the stream ended first: killed now, while nothing is in flight

                server.deliverer.posting.append(posting)
                server.deliverer.answered.append(answered)
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

                # Every update Telegram no longer holds was stored before it was answered.
                store = players.store
                commands = [u for u in world.updates if command(u)]
                assert commands
                pending = {u["update_id"] for u in world.pending}
                for update in commands:
                    if update["update_id"] not in pending:
                        key = delivery_id(update)
                        assert key and store.delivery_seen(PLATFORM, key), update
                if moment in ("store locked", "answer lost"):
                    assert held, "the n-th command never came"
                    key = delivery_id(held[0])
                    assert key is not None and held[0]["update_id"] in pending
                    # Received but not stored, or stored but not answered: sent again.
                    assert store.delivery_seen(PLATFORM, key) == (moment == "answer lost")
                if lock:
                    lock[0].execute("ROLLBACK")
                    lock.pop().close()

                await second.start()
                await world.wait_until(lambda: not world.pending, what="every update delivered")
                await players.settle()
                for update in commands:
                    key = delivery_id(update)
                    assert key and store.delivery_seen(PLATFORM, key), update
                if held and held[0]["update_id"] in pending:
                    # Not answered 2xx before the kill: posted again to the bot started anew.
                    assert server.deliverer.posts[held[0]["update_id"]] >= 2
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
                assert "Traceback" not in first.output, first.output
            finally:
                for connection in lock:
                    connection.close()
                players.close()
                await first.close()
                await second.close()

    run(scenario())
    assert world.server_errors == []
