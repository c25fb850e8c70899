"""The connection a store keeps for the thread that opened it: reads inside reads, other
threads, a connection the server dropped, and closing."""

from __future__ import annotations

import asyncio
import random
import threading
import uuid
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, make_url, text

from bohnanza.adapters.runner import Runner
from bohnanza.adapters.store import database_url, open_store
from bohnanza.adapters.store.sql_store import SqlGameStore
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.service import ChatService
from bohnanza.core.audit import audit_game
from bohnanza.core.ports import Appended, StoreError

from ..app.recording import RecordingPort
from .games import bot_game, new_game, stored_actions
from .postgres import postgres_url


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "kept.db")
    return postgres_url()


def fresh_store(target: str, *game_ids: str) -> SqlGameStore:
    store = open_store(target, create=True)
    for game_id in game_ids:
        store.add_game(new_game(bot_game(players=4), game_id))
    return store


def test_a_store_used_while_it_reads_games_lazily_answers_from_another_connection(
    target: str,
) -> None:
    actions = stored_actions(bot_game(players=4))
    with fresh_store(target, "kept-a", "kept-b") as store:
        assert isinstance(store.append_actions("kept-a", actions[:10]), Appended)
        # `stored_games` reads in one transaction while the loop goes on: every store call
        # made inside the loop runs in a transaction of its own, and writes for good.
        seen = []
        for stored in store.stored_games(["kept-a", "kept-b"]):
            seen.append(stored.game.game_id)
            outcome = store.append_actions("kept-b", actions[len(seen) - 1 : len(seen)])
            assert isinstance(outcome, Appended)
            assert store.game_progress("kept-b").actions == len(seen)  # type: ignore[union-attr]
        assert seen == ["kept-a", "kept-b"]
        assert store.load_stored("kept-a").action_count == 10
        assert store.load_stored("kept-b").action_count == 2


def test_the_opening_thread_and_other_threads_append_at_once_and_lose_nothing(
    target: str,
) -> None:
    actions = stored_actions(bot_game(players=4))[:120]
    with fresh_store(target, "kept-main", "kept-side") as store:
        failures: list[BaseException] = []

        def side() -> None:
            try:
                for action in actions:
                    assert isinstance(store.append_action("kept-side", action), Appended)
            except BaseException as error:  # reported to the test's thread
                failures.append(error)

        worker = threading.Thread(target=side)
        worker.start()
        for action in actions:
            assert isinstance(store.append_action("kept-main", action), Appended)
        worker.join(timeout=120)
        assert not worker.is_alive()
        assert failures == []
        for game_id in ("kept-main", "kept-side"):
            stored = store.load_stored(game_id)
            assert stored.action_count == len(actions)
            assert audit_game(stored) is None


@pytest.mark.server  # PostgreSQL
def test_a_connection_the_server_dropped_fails_one_call_and_the_next_one_works() -> None:
    # The store's sessions carry a name of their own: the other tests' sessions on the same
    # server (parallel workers) are left alone.
    name = f"kept-dropped-{uuid.uuid4().hex[:8]}"
    url = make_url(postgres_url()).update_query_dict({"application_name": name})
    url_text = url.render_as_string(hide_password=False)
    actions = stored_actions(bot_game(players=4))
    with fresh_store(url_text, "kept-dropped") as store:
        assert isinstance(store.append_actions("kept-dropped", actions[:3]), Appended)
        # The server ends every session of the store (a restart, an administrator).
        killer = create_engine(database_url(url_text))
        with killer.begin() as connection:
            ended = connection.execute(
                text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    " WHERE application_name = :name AND pid <> pg_backend_pid()"
                ),
                {"name": name},
            ).scalar()
        killer.dispose()
        assert ended
        outcomes = []
        for _ in range(2):
            try:
                outcomes.append(store.append_actions("kept-dropped", actions[3:4]))
            except StoreError as error:
                outcomes.append(error)
        # At most the first call meets the dropped connection; nothing of it was stored.
        assert isinstance(outcomes[-1], Appended)
        assert store.load_stored("kept-dropped").action_count == 4
        assert audit_game(store.load_stored("kept-dropped")) is None


def test_closing_the_store_hands_back_every_connection(tmp_path: Path) -> None:
    store = fresh_store(str(tmp_path / "closed.db"), "kept-close")
    store.append_action("kept-close", stored_actions(bot_game(players=4))[0])
    pool = store._engine.pool
    assert pool.checkedout() == 1  # the one kept for this thread
    store.close()
    assert pool.checkedout() == 0


def test_a_thread_that_serves_from_there_keeps_a_connection_until_it_releases_it(
    tmp_path: Path,
) -> None:
    store = fresh_store(str(tmp_path / "served.db"), "kept-served")
    actions = stored_actions(bot_game(players=4))
    pool = store._engine.pool
    kept = pool.checkedout()  # the one this thread, which opened the store, keeps
    seen: list[int] = []

    def appending(count: int) -> None:
        for action in actions[len(seen) : len(seen) + count]:
            store.append_action("kept-served", action)
            seen.append(pool.checkedout() - kept)

    def serving() -> None:
        appending(2)  # a thread like any other: its connections go back to the pool
        store.serve_from_this_thread()
        appending(3)  # now it keeps one between its transactions
        store.release_this_thread()
        seen.append(pool.checkedout() - kept)

    worker = threading.Thread(target=serving)
    worker.start()
    worker.join(timeout=60)
    assert seen == [0, 0, 1, 1, 1, 0]
    assert store.load_stored("kept-served").action_count == 5
    store.close()
    assert pool.checkedout() == 0


def test_a_runner_serves_from_its_thread_and_hands_the_connection_back_at_stop(
    tmp_path: Path,
) -> None:
    store = fresh_store(str(tmp_path / "runner.db"))
    port = RecordingPort()
    runner = Runner(
        ChatService("sim", port.capabilities, store, rng=random.Random(1)), port, store=store
    )
    store.list_games()  # this thread, which opened the store, keeps a connection from now on
    pool = store._engine.pool
    kept = pool.checkedout()

    async def lobby() -> tuple[int, int]:
        await runner.start()  # picks up where the store left off, in the runner's thread
        # An input at a table without experts is handled on the loop, on this thread's connection.
        await runner.submit(Inbound("sim", "ann", "Ann", "room", "new", "d1"))
        during = pool.checkedout() - kept
        await runner.stop(5)
        return during, pool.checkedout() - kept

    during, after = asyncio.run(lobby())
    assert (during, after) == (1, 0)  # the one the runner's thread kept, then handed back
    store.close()


class StoreWithoutThreads:
    """A store that keeps nothing for a thread: it has no hooks for one."""

    def __init__(self, store: SqlGameStore) -> None:
        self._store = store
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        if name in ("serve_from_this_thread", "release_this_thread"):
            raise AttributeError(name)
        self.calls.append(name)
        return getattr(self._store, name)


def test_a_runner_over_a_store_without_thread_hooks_serves_all_the_same(tmp_path: Path) -> None:
    store = fresh_store(str(tmp_path / "plain.db"))
    plain = StoreWithoutThreads(store)
    port = RecordingPort()
    service = ChatService("sim", port.capabilities, plain, rng=random.Random(1))  # type: ignore[arg-type]
    runner = Runner(service, port, store=plain)  # type: ignore[arg-type]

    async def lobby() -> None:
        await runner.start()
        await runner.submit(Inbound("sim", "ann", "Ann", "room", "new", "d1"))
        assert await runner.stop(5)

    asyncio.run(lobby())
    assert "save_lobby" in plain.calls
    assert store.load_lobby("sim", "room") is not None
    store.close()
