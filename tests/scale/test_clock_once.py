"""Two workers on one store playing the same game's clock: each reminder reaches its player once,
each default move at a deadline is stored once, and what follows from a move is told once.

Both workers hold the game in memory, as they do once each has handled a command for it. "In
turn": one ticks, then the other (their clocks a moment apart). "At once": each reads the game's
progress from the store, waits for the other to have read it too, then both go on together.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bohnanza.adapters.store import SqlGameStore, open_store
from bohnanza.core.actions import EndStep, Plant
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Outbound, ToPlayer, ToRoom
from bohnanza.core.app.service import ChatService
from bohnanza.core.bots import make_bot
from bohnanza.core.notation import action_text
from bohnanza.core.record import replay
from bohnanza.core.state import Step

from ..adapters.postgres import postgres_url
from .worker import CAPABILITIES, PLATFORM

pytestmark = pytest.mark.server  # worker processes on one store

NOW = datetime(2025, 1, 1, tzinfo=UTC)
REMINDER = timedelta(minutes=7, seconds=30)
"""A quarter of the 10-minute deadline before it."""
DEADLINE = timedelta(minutes=10)
SEATS = ["ann", "bot", "bob"]
BOT_SEAT = 1

Workers = tuple[ChatService, ChatService, SqlGameStore]


@pytest.fixture(params=["sqlite", "postgresql"])
def workers(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Workers]:
    url = str(tmp_path / "shared.db") if request.param == "sqlite" else postgres_url()
    with open_store(url, create=True) as one, open_store(url) as two, open_store(url) as reader:
        yield (
            ChatService(PLATFORM, CAPABILITIES, one, rng=random.Random(1)),
            ChatService(PLATFORM, CAPABILITIES, two, rng=random.Random(2)),
            reader,
        )


def say(service: ChatService, user: str, text: str, now: datetime = NOW) -> list[Outbound]:
    return service.handle(Inbound(PLATFORM, user, user, "room", text), now)


def started(workers: Workers) -> str:
    """Ann opens a game with a bot and Bob on the first worker (10-minute deadlines); the
    second worker takes it up from the store, as after a command for it. Its id."""
    one, two, store = workers
    say(one, "ann", "new")
    say(one, "ann", "bot")
    say(one, "bob", "join")
    say(one, "ann", "set deadline 10m")
    say(one, "ann", "start")
    game_id = store.active_game_in(PLATFORM, "room")
    assert game_id is not None
    assert two.resume(NOW) == 1
    return game_id


def tick_in_turn(workers: Workers, now: datetime) -> list[Outbound]:
    one, two, _ = workers
    return one.tick(now) + two.tick(now)


def tick_at_once(workers: Workers, now: datetime) -> list[Outbound]:
    """Both workers tick at `now`; neither goes past reading the game's progress until the
    other has read it too."""
    one, two, _ = workers
    barrier = threading.Barrier(2, timeout=20)
    patched = [(one, one.store.game_progress), (two, two.store.game_progress)]

    def in_step(read: Callable[[str], Any]) -> Callable[[str], Any]:
        def game_progress(game_id: str) -> Any:
            progress = read(game_id)
            barrier.wait()
            return progress

        return game_progress

    for worker, read in patched:
        worker.store.game_progress = in_step(read)  # type: ignore[method-assign]
    try:
        with ThreadPoolExecutor(2) as pool:
            runs = [pool.submit(worker.tick, now) for worker, _ in patched]
            return [item for run in runs for item in run.result(timeout=60)]
    finally:
        for worker, read in patched:
            worker.store.game_progress = read  # type: ignore[method-assign]


TICKS = {"in turn": tick_in_turn, "at once": tick_at_once}


def texts_to(out: list[Outbound], user: str, words: str) -> list[str]:
    return [
        item.message.text
        for item in out
        if isinstance(item, ToPlayer) and item.user_id == user and words in item.message.text
    ]


def room_texts(out: list[Outbound], words: str) -> list[str]:
    return [
        item.message.text for item in out if isinstance(item, ToRoom) and words in item.message.text
    ]


@pytest.mark.parametrize("how", TICKS)
def test_of_two_workers_reminding_at_the_same_moment_one_reminds(
    workers: Workers, how: str
) -> None:
    game_id = started(workers)
    tick = TICKS[how]

    out = tick(workers, NOW + REMINDER)
    out += tick(workers, NOW + REMINDER + timedelta(seconds=30))

    assert texts_to(out, "ann", "is due") == [f"Game {game_id}: your move is due in 2 min."]
    assert texts_to(out, "bob", "is due") == []


def test_a_worker_that_takes_up_the_game_after_the_reminder_does_not_remind_again(
    workers: Workers,
) -> None:
    one, _, store = workers
    started(workers)
    reminded = one.tick(NOW + REMINDER)
    later = ChatService(PLATFORM, CAPABILITIES, store, rng=random.Random(3))
    assert later.resume(NOW + REMINDER) == 1

    out = later.tick(NOW + REMINDER + timedelta(seconds=10))

    assert len(texts_to(reminded, "ann", "is due")) == 1
    assert texts_to(out, "ann", "is due") == []


def bot_trades(workers: Workers, game_id: str) -> None:
    """Ann and Bob play (on the first worker) until the bot is on turn, trading: it holds
    trading open for them."""
    one, _, store = workers
    minds = {seat: make_bot("heuristic", random.Random(seat)) for seat in (0, 2)}
    for _ in range(200):
        game = replay(store.load_record(game_id))
        if game.state.active == BOT_SEAT and game.state.step is Step.TRADE:
            return
        seat = next(s for s in game.waiting_for() if s != BOT_SEAT)
        action = minds[seat].choose(game.view(seat), game.legal_actions(seat))
        assert action is not None
        say(one, SEATS[seat], action_text(action))
    raise AssertionError("the bot never came to trade")


@pytest.mark.parametrize("how", TICKS)
def test_of_two_workers_at_half_a_bots_trading_window_one_reminds(
    workers: Workers, how: str
) -> None:
    _, two, _ = workers
    game_id = started(workers)
    bot_trades(workers, game_id)
    # The second worker follows the game as the store holds it, window and all.
    assert two.resume(NOW) == 0
    say(two, "ann", "table")
    tick = TICKS[how]

    out = tick(workers, NOW + timedelta(minutes=1))
    out += tick(workers, NOW + timedelta(minutes=1, seconds=30))

    for user in ("ann", "bob"):
        assert len(texts_to(out, user, "trading closes in 1 min")) == 1, user


@pytest.mark.parametrize("how", TICKS)
def test_of_two_workers_at_a_deadline_the_default_is_stored_once_and_told_once(
    workers: Workers, how: str
) -> None:
    _, _, store = workers
    game_id = started(workers)
    tick = TICKS[how]

    first = tick(workers, NOW + DEADLINE)
    assert list(store.load_record(game_id).actions) == [Plant(0, 0)]
    second = tick(workers, NOW + 2 * DEADLINE)

    assert list(store.load_record(game_id).actions)[:2] == [Plant(0, 0), EndStep(0)]
    notice = "ann missed 2 deadlines in a row: a bot plays for them until they send a command."
    assert room_texts(first, "missed") == []
    assert room_texts(second, "missed") == [notice]
