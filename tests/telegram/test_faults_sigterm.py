"""`bohnanza serve telegram` stopped by SIGTERM (as systemd stops it) in the middle of a command.

The real command runs as a subprocess against the local Bot API server; the signal is sent when
the server hands the command's update out in getUpdates (at once, or a few milliseconds later),
or while the bot is delivering what the command caused (its answer held back by the server).
Whatever the moment, the process finishes the update in hand, exits 0 with one line saying so,
and the command ends up stored exactly once: either the first run stored it, answered it and
confirmed it, or it is still pending at Telegram and the next run takes it. Started again on the
same database, the bot applies nothing twice, confirms everything, and shows the game as stored.
"""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import pytest

from bohnanza.adapters.telegram.translate import PLATFORM
from bohnanza.core.notation import action_text

from .botapi import ApiCall, CallbackQueryRecord, World
from .botapi.ptb import run
from .faults import (
    FaultyServer,
    Serve,
    ServedPlayers,
    action_count,
    bean_table,
    clean_stop,
    delivery_id,
    handed_out,
    human_actions,
    private_shown,
    rendered,
    same_moves,
    stale_after_healing,
    timeless,
)

# The local Bot API server and `bohnanza serve`, started again after each fault: seconds a test.
pytestmark = [pytest.mark.server, pytest.mark.slow]

HOLD = 1.0
"""Seconds the server holds back the first answer of a command's delivery."""


def quiet(output: str) -> bool:
    """Nothing logged above INFO: no failed call, no message left undelivered."""
    return not [line for line in output.splitlines() if " WARNING " in line or " ERROR " in line]


@pytest.mark.parametrize(
    ("how", "moment", "delay", "seed"),
    [
        ("press", "fetched", 0.0, 31),
        ("press", "fetched", 0.01, 32),
        ("typed", "fetched", 0.02, 33),
        ("press", "delivering", 0.0, 34),
    ],
    ids=["press-fetched", "press-fetched+10ms", "typed-fetched+20ms", "press-delivering"],
)
def test_sigterm_mid_command_stores_it_once_and_restart_applies_nothing_twice(
    tmp_path: Path, how: str, moment: str, delay: float, seed: int
) -> None:
    world = World()
    server = FaultyServer(world)
    group, people = bean_table(world, ["Ann", "Bob"])
    db = tmp_path / "games.db"

    async def scenario() -> None:
        first = Serve(server, db, tmp_path / "first.log")
        second = Serve(server, db, tmp_path / "second.log")
        players = ServedPlayers(server, db, group, people, seed=seed)
        async with server:
            try:
                await first.start()
                game_id = await players.gather(["Ann", "bot", "Bob"])
                for _ in range(3):
                    assert await players.step()
                move = await players.upcoming(pressed=how == "press")
                person, action = move.person, move.action
                store = players.store
                before = action_count(store, game_id)
                loop = asyncio.get_running_loop()
                query: CallbackQueryRecord | None = None
                if move.message is not None and move.data is not None:
                    query = person.press(move.message, move.data)
                else:
                    person.say(None, action_text(action))
                update = world.updates[-1]
                update_id = update["update_id"]
                key = delivery_id(update)
                assert key is not None
                players.sent.append(action)
                players.halted = True
                fetched: list[float] = []
                signalled: list[float] = []

                def term() -> None:
                    signalled.append(time.monotonic())
                    first.signal(signal.SIGTERM)

                def watch(call: ApiCall) -> float | None:
                    if not fetched:
                        if handed_out(world, update_id, call):
                            fetched.append(time.monotonic())
                            if moment == "fetched":
                                server.watchers.remove(watch)
                                if delay:
                                    loop.call_later(delay, term)
                                else:
                                    term()
                        return None
                    if call.method == "getUpdates":
                        return None
                    # The first call the command caused: its answer waits while the bot stops.
                    server.watchers.remove(watch)
                    term()
                    return HOLD

                server.watchers.append(watch)
                code = await first.wait(30)
                exited = time.monotonic()
                clean_stop(code, first.output)
                assert quiet(first.output), first.output
                assert fetched and signalled

                applied = store.delivery_seen(PLATFORM, key)
                pending = [u["update_id"] for u in world.pending]
                if applied:
                    # Stored once, answered and confirmed before the process ended.
                    assert same_moves(human_actions(store, game_id), players.sent)
                    assert update_id not in pending
                    if query is not None:
                        assert query.answer is not None and query.answer.text == "✓"
                    wanted = rendered(store, str(group.id)).private[str(person.id)]
                    assert timeless(private_shown(person, game_id)) == wanted.timeless()
                else:
                    # Never taken in hand: not stored, and still waiting at Telegram.
                    assert moment == "fetched"
                    assert action_count(store, game_id) == before
                    assert update_id in pending
                if moment == "delivering":
                    assert applied
                    # The stop waited for the answer the server held back.
                    assert exited - signalled[0] >= HOLD * 0.9

                await second.start()
                await world.wait_until(lambda: not world.pending, what="every update confirmed")
                await players.settle()
                assert store.delivery_seen(PLATFORM, key)
                assert same_moves(human_actions(store, game_id), players.sent)
                count = action_count(store, game_id)
                assert count > before
                if query is not None:
                    assert query.answer is not None and query.answer.text == "✓"

                # Delivered once more, as after a lost confirmation: still applied once.
                world.redeliver(update_id)
                await world.wait_until(lambda: not world.pending, what="the redelivery confirmed")
                await players.settle()
                assert action_count(store, game_id) == count
                assert same_moves(human_actions(store, game_id), players.sent)
                assert world.pending == []
                assert await stale_after_healing(world, store, group, people) == []

                clean_stop(await second.stop(), second.output)
                assert quiet(second.output), second.output
                assert world.pending == []
            finally:
                players.close()
                await first.close()
                await second.close()

    run(scenario())
    assert world.server_errors == []


HELD = 120.0
"""Seconds the answer that confirms the handled updates at stop is held back: far longer than
the stop may wait, however loaded the machine."""


def confirming(call: ApiCall) -> float | None:
    """Holds back the answer to the call that confirms the handled updates at stop."""
    quick = str(call.params.get("timeout")) == "0" and str(call.params.get("limit")) == "1"
    return HELD if call.method == "getUpdates" and quick else None


def test_a_stop_that_hangs_is_given_up_after_the_stop_timeout(tmp_path: Path) -> None:
    """`serve` waits BOHNANZA_STOP_TIMEOUT + 2 s for a platform to stop, then no longer."""
    world = World()
    server = FaultyServer(world)
    bean_table(world, ["Ann"])

    async def scenario() -> tuple[int, float, str]:
        served = Serve(server, tmp_path / "games.db", tmp_path / "serve.log", stop_timeout=1.0)
        async with server:
            try:
                await served.start()
                await world.settle()
                server.watchers.append(confirming)
                started = time.monotonic()
                code = await served.stop(HELD / 2)
                return code, time.monotonic() - started, served.output
            finally:
                await served.close()

    code, took, output = run(scenario(), timeout=HELD)
    assert code == 0, output
    assert "stopped without waiting for 1 platform(s) any longer" in output, output
    # Given up after its stop timeout (1 s + 2 s), long before the held answer would come.
    assert 1.0 + 2.0 <= took < HELD / 2, (took, output)
