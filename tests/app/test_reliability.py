"""Nothing lost, nothing doubled, nobody stuck: inputs are applied once, across restarts and
workers; views that a failed call or a crash left behind are brought up to date; a slow chat
holds back no other; what the chat application keeps of a game survives a restart."""

from __future__ import annotations

import asyncio
import random
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bohnanza.adapters.runner import Runner
from bohnanza.adapters.store import open_store
from bohnanza.core.app.i18n import English
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Message, Outbound
from bohnanza.core.app.service import ChatService
from bohnanza.core.app.updates import private_message, table_message
from bohnanza.core.ports import StoreError

from ..adapters.postgres import postgres_url
from .recording import (
    BUTTONS_AND_EDITS,
    PLATFORM,
    FakeClock,
    People,
    RecordingPort,
    Table,
    user_of,
)

SEATS = ["ann", "bob", "bot"]


class FlakyPort(RecordingPort):
    """A recording port whose calls fail while a test says so."""

    def __init__(self) -> None:
        super().__init__(BUTTONS_AND_EDITS)
        self.failing: set[str] = set()
        """Kinds of call that fail now: 'send', 'edit', 'send_private', 'edit_private',
        'answer'."""
        self.failures = 0
        self.held: dict[str, asyncio.Event] = {}
        """Rooms whose sends wait until their event is set (a rate limit, say)."""

    def _maybe_fail(self, kind: str) -> None:
        if kind in self.failing:
            self.failures += 1
            raise ConnectionError(f"{kind} failed")

    async def send(self, room: str, message: Message) -> str:
        if room in self.held:
            await self.held[room].wait()
        self._maybe_fail("send")
        return await super().send(room, message)

    async def edit(self, room: str, message_id: str, message: Message) -> None:
        if room in self.held:
            await self.held[room].wait()
        self._maybe_fail("edit")
        await super().edit(room, message_id, message)

    async def send_private(self, user_id: str, message: Message) -> str:
        self._maybe_fail("send_private")
        return await super().send_private(user_id, message)

    async def edit_private(self, user_id: str, message_id: str, message: Message) -> None:
        self._maybe_fail("edit_private")
        await super().edit_private(user_id, message_id, message)

    async def answer(self, inbound: Inbound, text: str) -> None:
        self._maybe_fail("answer")
        await super().answer(inbound, text)


def opened(tmp_path: Path, port: RecordingPort | None = None) -> tuple[Table, People]:
    table = Table.open(tmp_path / "games.db", port=port or FlakyPort())
    table.runner.outboxes.retry_delays = (0.01, 0.01)
    table.runner.heal_after = 0.0
    people = People(table, seed=5)
    asyncio.run(people.gather("g1", SEATS))
    return table, people


def assert_views_current(table: Table, whole_table: bool = True) -> None:
    """Every player's latest private message and the room's table show the stored game (the
    table in full after a start; else its turn, which is when it is edited in play)."""
    fresh = table.restarted(seed=9)
    assert fresh.service.resume(fresh.clock.now()) == 1
    session = fresh.session("g1")
    tr = English()
    for seat in session.humans():
        user = user_of(session, seat)
        shown = table.port.hand_message(user, session.game_id)
        assert shown is not None
        assert shown.message == private_message(session, seat, tr, BUTTONS_AND_EDITS), user
    tables = [s for s in table.port.rooms["g1"] if s.text.startswith("Bohnanza · game")]
    wanted = table_message(session, tr, BUTTONS_AND_EDITS)
    if whole_table:
        assert tables[-1].message == wanted
    else:
        assert tables[-1].text.split(" · step")[0] == wanted.text.split(" · step")[0]


def first_waiting_user(table: Table) -> tuple[str, str]:
    session = table.session("g1")
    seat = session.game.waiting_for()[0]
    user = user_of(session, seat)
    shown = table.port.hand_message(user, session.game_id)
    assert shown is not None and shown.payloads
    return user, shown.payloads[0]


def press(user: str, payload: str, delivery_id: str) -> Inbound:
    return Inbound(PLATFORM, user, user.title(), f"dm:{user}", payload, delivery_id, True, True)


def test_an_input_stored_before_a_crash_and_delivered_again_is_applied_once(
    tmp_path: Path,
) -> None:
    table, _ = opened(tmp_path)
    user, payload = first_waiting_user(table)
    game_id = table.session("g1").game_id
    before = table.action_count(game_id)

    # The move is stored; the process dies before anything about it is sent.
    table.service.handle(press(user, payload, "tg-41"), table.clock.now())
    stored = table.action_count(game_id)
    assert stored > before

    later = table.restarted()
    asyncio.run(later.runner.start())
    asyncio.run(later.runner.submit(press(user, payload, "tg-41")))

    assert later.action_count(game_id) == stored
    assert_views_current(later)


def test_the_next_start_shows_every_view_what_was_stored_before_a_crash(tmp_path: Path) -> None:
    table, people = opened(tmp_path)
    asyncio.run(people.move("g1"))
    user, payload = first_waiting_user(table)
    game_id = table.session("g1").game_id
    stale = table.port.hand_message(user, game_id)
    assert stale is not None
    stale_text = stale.text

    table.service.handle(press(user, payload, "tg-77"), table.clock.now())  # stored, not sent

    later = table.restarted()
    asyncio.run(later.runner.start())
    assert_views_current(later)
    healed = later.port.hand_message(user, game_id)
    assert healed is not None and healed.text != stale_text


def test_a_failed_private_edit_is_tried_again_and_the_player_sees_the_stored_moment(
    tmp_path: Path,
) -> None:
    port = FlakyPort()
    table, people = opened(tmp_path, port)
    port.failing = {"edit_private"}

    async def one_failing_call_then_recovery() -> None:
        user, payload = first_waiting_user(table)
        task = asyncio.ensure_future(people.press(user, payload))
        while port.failures == 0:
            await asyncio.sleep(0.001)
        port.failing.clear()
        await task

    asyncio.run(one_failing_call_then_recovery())
    assert port.failures >= 1
    assert_views_current(table, whole_table=False)


def test_a_view_that_could_not_be_delivered_is_healed_by_the_deadline_loop(
    tmp_path: Path,
) -> None:
    port = FlakyPort()
    table, people = opened(tmp_path, port)
    user, payload = first_waiting_user(table)
    port.failing = {"edit_private", "send_private", "edit"}
    asyncio.run(people.press(user, payload))  # every try fails: the views fall behind
    assert port.failures >= 3
    port.failing.clear()

    asyncio.run(table.runner.tick())
    asyncio.run(table.runner.drain(5))

    assert_views_current(table)


def test_a_button_from_an_earlier_moment_is_answered_with_the_current_view(
    tmp_path: Path,
) -> None:
    table, people = opened(tmp_path)
    user, payload = first_waiting_user(table)
    game_id = table.session("g1").game_id
    asyncio.run(people.press(user, payload))
    count = table.action_count(game_id)
    messages = len(table.port.private[user])

    asyncio.run(people.press(user, payload))  # the same, older button again

    assert table.action_count(game_id) == count
    assert table.port.last_answer(user) == (
        "That button was from an earlier moment: here is the game as it stands now."
    )
    assert len(table.port.private[user]) == messages + 1  # posted anew, with live buttons
    assert_views_current(table, whole_table=False)


def test_two_workers_given_the_same_delivery_apply_it_once(tmp_path: Path) -> None:
    table, _ = opened(tmp_path)
    second = table.restarted(seed=3)  # another worker on the same store
    asyncio.run(second.runner.start())
    user, payload = first_waiting_user(table)
    game_id = table.session("g1").game_id
    before = table.action_count(game_id)

    asyncio.run(table.runner.submit(press(user, payload, "upd-9")))
    after_first = table.action_count(game_id)
    asyncio.run(second.runner.submit(press(user, payload, "upd-9")))

    assert after_first > before
    assert second.action_count(game_id) == after_first


def test_a_chat_held_back_by_its_platform_holds_back_no_other_chat(tmp_path: Path) -> None:
    port = FlakyPort()
    table = Table.open(tmp_path / "games.db", port=port)
    people = People(table, seed=5)

    async def scenario() -> None:
        await people.gather("g1", SEATS)
        port.held["g1"] = asyncio.Event()  # say, a 429 with a long retry-after in g1
        slow = await table.runner.submit(
            Inbound(PLATFORM, "ann", "Ann", "g1", "table", "t-1"), wait=False
        )
        async with asyncio.timeout(2):
            await people.gather("g2", ["cat", "bot"])
        assert not slow.done()
        assert any(s.text.startswith("Bohnanza · game") for s in port.rooms["g2"])
        port.held["g1"].set()
        async with asyncio.timeout(2):
            await slow

    asyncio.run(scenario())


def test_stand_ins_and_missed_deadlines_survive_a_restart(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table, seed=5, away={"bob"})

    async def play_until_bob_is_replaced() -> None:
        await people.gather("g1", SEATS, options=("set deadline 10m",))
        for _ in range(400):
            session = table.session("g1")
            seat = session.seat_of("bob")
            assert seat is not None
            if session.seats[seat].stand_in:
                return
            if not await people.move("g1"):
                wake = table.service.next_wakeup()
                assert wake is not None
                table.clock.set(wake)
                await table.runner.tick()
        raise AssertionError("bob was never replaced")

    asyncio.run(play_until_bob_is_replaced())
    session = table.session("g1")
    bob = session.seat_of("bob")
    assert bob is not None
    misses = session.seats[bob].misses

    later = table.restarted()
    asyncio.run(later.runner.start())
    resumed = later.session("g1")
    assert resumed.seats[bob].stand_in
    assert resumed.seats[bob].misses == misses >= 2


def test_two_workers_on_postgresql_given_the_same_delivery_apply_it_once() -> None:
    url = postgres_url()
    port, clock = RecordingPort(), FakeClock()

    def worker(seed: int) -> Table:
        store = open_store(url, create=True)
        service = ChatService(PLATFORM, port.capabilities, store, rng=random.Random(seed))
        return Table(
            Path("unused"), port, clock, store, service, Runner(service, port, clock, store=store)
        )

    first, second = worker(1), worker(2)
    try:
        asyncio.run(People(first, seed=5).gather("g1", SEATS))
        asyncio.run(second.runner.start())
        user, payload = first_waiting_user(first)
        game_id = first.session("g1").game_id
        before = first.action_count(game_id)

        async def both_at_once() -> None:
            await asyncio.gather(
                first.runner.submit(press(user, payload, "pg-1")),
                second.runner.submit(press(user, payload, "pg-1")),
            )

        asyncio.run(both_at_once())
        after = first.action_count(game_id)
        assert after > before
        assert first.store.delivery_seen(PLATFORM, "pg-1")
        # Applied once: the stored game is the one the first worker made, nothing more.
        asyncio.run(second.runner.submit(press(user, payload, "pg-1")))
        assert second.action_count(game_id) == after
    finally:
        first.store.close()
        second.store.close()


def test_the_deadline_loop_goes_on_after_the_store_failed_once(tmp_path: Path) -> None:
    table, _ = opened(tmp_path)
    calls = {"n": 0}
    tick = table.service.tick

    def failing_once(now: datetime) -> list[Outbound]:
        calls["n"] += 1
        if calls["n"] == 1:
            raise StoreError("games.db: database is locked")
        return tick(now)

    table.service.tick = failing_once  # type: ignore[method-assign]
    table.runner.tick_retry = (0.01,)
    # Something is always due: the loop plays it at once, again and again.
    table.service.ctx.tables.next_due = table.clock.now  # type: ignore[method-assign]

    async def run_for_a_moment() -> None:
        loop = asyncio.create_task(table.runner.run_deadlines())
        async with asyncio.timeout(30):
            while calls["n"] < 3:
                await asyncio.sleep(0.02)
        assert not loop.done()
        loop.cancel()

    asyncio.run(run_for_a_moment())


def test_an_input_before_anything_is_due_plays_nothing_and_a_moment_due_is_played(
    tmp_path: Path,
) -> None:
    """The deadline loop wakes at an input to read the moments again (it may have brought the
    next one nearer), and plays what is due only once a moment comes."""
    table, _ = opened(tmp_path, port=RecordingPort())
    ticks: list[datetime] = []
    tick = table.service.tick

    def counted(now: datetime) -> list[Outbound]:
        ticks.append(now)
        return tick(now)

    table.service.tick = counted  # type: ignore[method-assign]
    due: list[datetime | None] = [None]
    table.service.ctx.tables.next_due = lambda: due[0]  # type: ignore[method-assign]
    user, payload = first_waiting_user(table)

    async def inputs_then_a_moment() -> None:
        loop = asyncio.create_task(table.runner.run_deadlines())
        await asyncio.sleep(0.05)
        ticks.clear()  # a start plays what was due while the worker was away
        due[0] = table.clock.now() + timedelta(hours=1)
        for n in range(3):
            await table.runner.submit(press(user, payload, f"early-{n}"))
            await asyncio.sleep(0.05)
        assert ticks == []
        due[0] = table.clock.now()
        await table.runner.submit(press(user, payload, "late"))
        async with asyncio.timeout(30):
            while not ticks:
                await asyncio.sleep(0.01)
        assert not loop.done()
        loop.cancel()

    asyncio.run(inputs_then_a_moment())


def test_a_store_failure_halfway_through_an_input_stores_none_of_it_and_it_is_taken_again(
    tmp_path: Path,
) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    for user, text in (("ann", "new"), ("bob", "join"), ("ann", "bot")):
        asyncio.run(people.say(user, text, "g1"))
    store = table.service.store
    save_chat_state = store.save_chat_state

    def failing(*args: object, **kwargs: object) -> None:
        raise StoreError("games.db: disk I/O error")

    # `start` takes the lobby and stores the game, then the write of its chat state fails:
    # the whole input is one transaction, so none of it is stored.
    store.save_chat_state = failing  # type: ignore[method-assign]
    start = Inbound(PLATFORM, "ann", "Ann", "g1", "start", "start-1")
    with pytest.raises(StoreError):
        table.service.handle(start, table.clock.now())
    store.save_chat_state = save_chat_state  # type: ignore[method-assign]

    assert not table.store.delivery_seen(PLATFORM, "start-1")  # it is to come again...
    assert store.active_game_in(PLATFORM, "g1") is None  # ...and nothing of it is there
    assert store.load_lobby(PLATFORM, "g1") is not None

    # Delivered again, it is applied whole.
    out = table.service.handle(start, table.clock.now())
    game_id = store.active_game_in(PLATFORM, "g1")
    assert game_id is not None and table.store.delivery_seen(PLATFORM, "start-1")
    assert any(getattr(o, "slot", "") == f"table:{game_id}" for o in out)

    async def sent() -> None:
        await table.runner.post(out)

    asyncio.run(sent())
    assert any(s.text.startswith("Bohnanza · game") for s in table.port.rooms["g1"])
    assert table.port.hand_message("bob", game_id) is not None


def test_a_message_the_platform_took_is_not_sent_again_when_noting_it_fails(
    tmp_path: Path,
) -> None:
    port = FlakyPort()
    table = Table.open(tmp_path / "games.db", port=port)
    table.runner.outboxes.retry_delays = (0.01, 0.01)
    store = table.service.store

    def failing(*args: object, **kwargs: object) -> None:
        raise StoreError("games.db: database is locked")

    store.save_view = failing  # type: ignore[method-assign]
    asyncio.run(People(table).say("ann", "new", "g1"))
    lobbies = [s for s in port.rooms["g1"] if "is being gathered" in s.text]
    assert len(lobbies) == 1
