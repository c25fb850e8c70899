"""Connects a `ChatService` to a platform: input in order, messages out, deadlines on time.

One runner per adapter. Inputs are handled one at a time (the action durably stored with the
input's delivery id, bots answered). One that may make searching bots think (expert bots at its
table), the deadlines while such a game is open, and the pick-up at start are handled in a
thread of the runner's own, so that meanwhile the event loop goes on sending messages and
talking to the platform; the others, which take a millisecond or two, on the event loop (a hop
to a thread and back, and two threads taking turns at the store, would cost them as much
again). Every other call into the service waits for the input in hand (`read`). What inputs
cause goes to the runner's outboxes (`outboxes`), one per chat, paced to the platform; a room's
request of an analysis to its desk (`analysis_desk`), which works it out beside them.

What each slot shows is kept in the store (`shown_slots`): views that fell behind (a send
failed after its retries, or the process stopped between storing a move and showing it) are
brought up to date on start, when their player next writes, and a little later by the deadline
loop.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import TypeVar

from bohnanza.adapters.analysis_desk import AnalysisDesk
from bohnanza.adapters.at_work import AT_WORK_AFTER, AtWork
from bohnanza.adapters.boards import Boards
from bohnanza.adapters.outboxes import Outboxes, chat_of, slot_of
from bohnanza.adapters.page_files import page_filename, send_game_page
from bohnanza.adapters.runner_ports import RunnerStore, ServesFromThread
from bohnanza.adapters.shown_slots import ShownSlots, digest
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Message, Outbound, Reply, ToRoom
from bohnanza.core.app.ports import ChatPort, Clock
from bohnanza.core.app.service import ChatService
from bohnanza.core.ports import StoreError

__all__ = ["Runner", "SystemClock", "chat_of", "digest", "page_filename"]

log = logging.getLogger(__name__)

_T = TypeVar("_T")

MAX_SLEEP = 60.0
"""The deadline loop looks again at least this often (seconds), should the clock jump."""
RETRY_DELAYS = (1.0, 4.0, 15.0)
"""Seconds before each new try of a failed call to the platform."""
TICK_RETRY = (1.0, 5.0, 15.0, 30.0)
"""Seconds before the deadline loop looks again after failures in a row."""
HEAL_AFTER = 30.0
"""Seconds after a message could not be delivered before its room's views are derived again."""
HEALED_AT_START = 20
"""How many games' views (the latest moved) a start brings up to date before it returns."""
HEAL_WHEN_IDLE = 0.25
"""Seconds without input after which the deadline loop brings the views of one more game up
to date after a start (inputs go first: a busy worker heals only between bursts)."""


class SystemClock:
    """The real time, in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


REFUSED_KEPT = 1_000
"""How many refused inputs a runner remembers (for edits of a command)."""


class Runner:
    """Feeds a service from an adapter and delivers what it says through the adapter's port
    (its outboxes)."""

    def __init__(
        self,
        service: ChatService,
        port: ChatPort,
        clock: Clock | None = None,
        retry_delays: Sequence[float] = RETRY_DELAYS,
        heal_after: float = HEAL_AFTER,
        tick_retry: Sequence[float] = TICK_RETRY,
        at_work_after: float = AT_WORK_AFTER,
        *,
        store: RunnerStore,
        boards: Boards | None = None,
    ) -> None:
        """`store`: the service's store, for what the runner reads and writes in it itself
        (what each chat's slots show, finished games' records); its thread hooks are called
        for the runner's thread if it has them. `boards`: the process's boards, which it joins
        on start and tells of what it sends (`bohnanza.adapters.boards`)."""
        self.service = service
        self.port = port
        self.clock = clock or SystemClock()
        self._slots = ShownSlots(store, port.platform, self.clock)
        self._wake = asyncio.Event()
        """Set when something may have become due (an input handled, a room fell behind)."""
        self._stopping = False
        self.outboxes = Outboxes(
            port,
            self._slots,
            # The service's own set: where ids are nicks, the opener may move their seats.
            service.gone,
            retry_delays,
            send_page=partial(send_game_page, port, store),
            say_unreachable=self._say_unreachable,
            fell_behind=self._wake.set,
        )
        """Where what the service says waits for its chat and is sent at the platform's pace."""
        self.desk = AnalysisDesk(store, self.post)
        """Where the analyses rooms ask for are worked out, beside the outboxes."""
        self.boards = boards
        self.heal_after = heal_after
        self.tick_retry = tuple(tick_retry)
        self.at_work_after = at_work_after
        self._lock = asyncio.Lock()
        """Held by every call into the service: one at a time, never two threads at once."""
        keeper = store if isinstance(store, ServesFromThread) else None
        self._keeper = keeper
        """The store, if it may keep a connection for the runner's thread."""
        self._thread = concurrent.futures.ThreadPoolExecutor(
            1,
            thread_name_prefix=f"{port.platform}-service",
            initializer=None if keeper is None else keeper.serve_from_this_thread,
        )
        """Where inputs that may take a while, and the pick-up at start, are handled."""
        self._at_work = AtWork(port)
        self._refused: collections.OrderedDict[str, None] = collections.OrderedDict()
        """Delivery ids of the latest inputs that changed nothing (only answered)."""
        self._to_heal: collections.deque[str] = collections.deque()
        """Games whose views are still to be brought up to date after the start."""
        self._last_input = 0.0
        """When the latest input came (the event loop's time)."""
        self._taken_up: set[str] = set()
        """Games in progress a start found (their views healed once)."""
        self._told_refused: set[str] = set()
        """Games the log was told are refused (the store holds them altered)."""
        self._renames: collections.deque[tuple[str, str, str]] = collections.deque()
        """Renames the store could not take yet (old id, new id, new name), in order: tried
        again before the next input and by the deadline loop, as a platform would deliver an
        input again."""

    def refused(self, delivery_id: str) -> bool:
        """Whether the input with this delivery id changed nothing: it was only answered (not
        understood, not allowed). A platform where a message can be edited takes the edit of
        such a command as the command the player meant (once: see `take_refused`)."""
        return delivery_id in self._refused

    def take_refused(self, delivery_id: str) -> bool:
        """Whether the input changed nothing, forgetting it: one edit of it is taken."""
        return self._refused.pop(delivery_id, False) is None

    def note_refused(self, delivery_id: str) -> None:
        """Remember an input as one that changed nothing (an edit taken, and refused too)."""
        self._refused[delivery_id] = None
        while len(self._refused) > REFUSED_KEPT:
            self._refused.popitem(last=False)

    async def start(self) -> int:
        """Take up this platform's games in progress: none is read yet (each is, when an
        input or a moment due asks for it); their views are brought up to date (what a crash
        or a failed send left behind) game by game, the latest moved first: the first
        `HEALED_AT_START` before this returns, the others by the deadline loop whenever no
        input came for a moment (`HEAL_WHEN_IDLE`). Return how many games it takes up that
        it had not (those found altered so far left out)."""
        if self.boards is not None:
            self.boards.attach(self)
        async with self._lock:
            stored = await self._in_thread(self.service.open_games)
        games = [game_id for game_id in stored if game_id not in self._taken_up]
        self._taken_up.update(games)
        self._to_heal.extend(games)
        await self.heal_some(HEALED_AT_START)
        return sum(1 for game_id in games if game_id not in self.service.refused)

    async def heal_some(self, count: int) -> None:
        """Bring the views of the next `count` games still to heal after the start up to
        date, one game at a time (an input waits for one game at most)."""
        for _ in range(min(count, len(self._to_heal))):
            healed = partial(self._healed, self._to_heal.popleft())
            async with self._lock:
                out = await self._in_thread(healed) if self.service.may_take_long() else healed()
            self.post(out)

    def _healed(self, game_id: str) -> list[Outbound]:
        service = self.service
        out = service.views_of_game(game_id, self.clock.now())
        for game, reason in list(service.refused.items()):
            if game not in self._told_refused:
                self._told_refused.add(game)
                log.error(
                    "%s: not continued, the store holds it altered: %s", self.port.platform, reason
                )
        return out

    def post(self, out: Sequence[Outbound]) -> asyncio.Future[None]:
        """Queue messages in their chats' outboxes (what the boards take of them aside, a
        room's request of an analysis to the desk, which tells the room where it stands); the
        future is done when all are sent."""
        if self.boards is not None:
            out = self.boards.posted(self, out)
        return self.outboxes.post(self.desk.take_requests(out))

    @property
    def sending(self) -> bool:
        """Whether a message waits in an outbox or is on its way."""
        return self.outboxes.sending

    async def drain(self, timeout: float, analyses: bool = True) -> bool:
        """Wait until every outbox is empty (and, with `analyses`, the desk idle), at most
        `timeout` seconds; True if they are."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, timeout)):
                if analyses:
                    await self.desk.idle()
                await self.outboxes.drain()
        return not self.outboxes.sending and not (analyses and self.desk.busy)

    async def read(self, question: Callable[[ChatService], _T]) -> _T:
        """Ask the service something quick that changes nothing, between inputs (never while
        one is being handled in the runner's thread)."""
        async with self._lock:
            return question(self.service)

    async def _in_thread(self, work: Callable[[], _T], shown_to: Inbound | None = None) -> _T:
        """Run `work` in the runner's thread; the caller holds the lock, which it keeps until
        the work is done even if it is cancelled meanwhile. Should the work take a while, the
        chat of `shown_to` is shown that the bot is at work on it."""
        done = asyncio.get_running_loop().run_in_executor(self._thread, work)
        try:
            if shown_to is not None:
                await self._at_work.shown_until(shown_to, done, self.at_work_after)
            return await asyncio.shield(done)
        except asyncio.CancelledError:
            await asyncio.wait({done})
            raise

    async def submit(self, inbound: Inbound, wait: bool = True) -> asyncio.Future[None]:
        """Handle one input (stored before this returns) and queue what it caused. With
        `wait`, return once those messages were delivered; else at once, with a future that
        is done when they are. The adapter acknowledges the input to its platform once this
        returned; StoreError means nothing was stored, and the input is to be taken again."""
        if self._stopping:
            raise RuntimeError("the runner is stopping")
        self.service.gone.discard(inbound.user_id)  # who writes is back: he is written to again
        self._last_input = asyncio.get_running_loop().time()
        async with self._lock:
            now = self.clock.now()
            try:
                self._apply_renames()  # a player renamed meanwhile is known by his new id
                if self.service.may_take_long(inbound):
                    out, behind = await self._in_thread(
                        lambda: self._handled(inbound, now), shown_to=inbound
                    )
                else:
                    out, behind = self._handled(inbound, now)
                if inbound.delivery_id and out and all(isinstance(o, Reply) for o in out):
                    self.note_refused(inbound.delivery_id)
                out += behind
            except StoreError as error:
                # Nothing was stored: the adapter must not acknowledge the input, so that the
                # platform delivers it again once the store is back.
                log.warning("%s: the store failed; the input waits: %s", inbound.platform, error)
                raise
            except Exception:
                log.exception("input from %s in a room failed", inbound.platform)
                tr = self.service.translator(self.service.room_language(inbound.room))
                out = [Reply(inbound, tr.gettext("Something went wrong; nothing was changed."))]
        done = self.post(out)
        self._wake.set()
        if wait:
            await done
        return done

    def _handled(self, inbound: Inbound, now: datetime) -> tuple[list[Outbound], list[Outbound]]:
        """What the service says to an input, and the views of its player that fell behind: a
        player who writes sees the game as it stands (unless the input itself showed him
        something in that place)."""
        service = self.service
        out = service.handle(inbound, now)
        said = {(chat_of(o), slot_of(o)) for o in out}
        behind = [
            o
            for o in service.views_of(inbound.user_id, inbound.room, inbound.private, now)
            if (chat_of(o), slot_of(o)) not in said
        ]
        return out, behind

    async def tick(self) -> None:
        """Play what deadlines and reminders have made due; heal views that fell behind."""
        service, clock = self.service, self.clock

        def play_due(rooms: list[str]) -> list[Outbound]:
            out = service.tick(clock.now())
            for room in rooms:
                out += service.views(room, clock.now())
            return out

        async with self._lock:
            self._apply_renames()
            rooms = self.outboxes.behind_for(self.heal_after)
            if service.may_take_long():
                out = await self._in_thread(lambda: play_due(rooms))
            else:
                out = play_due(rooms)
        self.post(out)

    async def run_deadlines(self) -> None:
        """Call `tick` whenever something is due; runs until cancelled."""
        failures = 0
        loop = asyncio.get_running_loop()
        while True:
            wake = await self.read(ChatService.next_wakeup)
            delay = MAX_SLEEP
            if wake is not None:
                delay = max(0.0, min(MAX_SLEEP, (wake - self.clock.now()).total_seconds()))
            heal = self.outboxes.next_behind(self.heal_after)
            if heal is not None:
                delay = min(delay, heal)
            if self._to_heal:
                delay = min(delay, max(0.0, self._last_input + HEAL_WHEN_IDLE - loop.time()))
            if self._renames:
                delay = 0.0  # tried again at once (failures in a row are spaced below)
            if await self._woken_within(delay):
                # An input came, or a room fell behind, before anything was due: the moments
                # are read again (an input may have brought the next one nearer), and nothing
                # is played before one comes.
                continue
            try:
                await self.tick()
                if loop.time() - self._last_input >= HEAL_WHEN_IDLE:
                    await self.heal_some(1)
                failures = 0
            except Exception as error:
                # The store may be away for a while: deadlines are played once it is back.
                failures = min(failures + 1, len(self.tick_retry))
                log.warning("%s: deadlines could not be played: %s", self.port.platform, error)
                await asyncio.sleep(self.tick_retry[failures - 1])

    async def _woken_within(self, delay: float) -> bool:
        """Wait `delay` seconds; True if woken before they passed (`_wake`)."""
        self._wake.clear()
        try:
            async with asyncio.timeout(delay):
                await self._wake.wait()
        except TimeoutError:
            return False
        return True

    async def rename(self, old_user_id: str, new_user_id: str, new_name: str) -> None:
        """A player's id changed on the platform (an IRC nick change): his seats follow him,
        stored before this returns; the rooms are told. While the store fails, the rename
        waits in order with those before it and is tried again (before the next input, and
        by the deadline loop) until it is stored: the platform says it once."""
        self._renames.append((old_user_id, new_user_id, new_name))
        async with self._lock:
            try:
                self._apply_renames()
            except StoreError as error:
                log.warning("%s: the store failed; a rename waits: %s", self.port.platform, error)
                self._wake.set()

    def _apply_renames(self) -> None:
        """Store the waiting renames in order and queue what they say (the caller holds the
        lock); StoreError leaves the one that failed, and those after it, waiting."""
        while self._renames:
            old_user_id, new_user_id, new_name = self._renames[0]
            out = self.service.rename(old_user_id, new_user_id, new_name, self.clock.now())
            self._renames.popleft()
            self.post(out)

    async def unreachable(self, user_id: str, tell: bool = True) -> None:
        """The platform learned, after sending, that a player cannot be written to privately
        (on IRC: he is not connected; or it saw him leave). Until he writes again nothing is
        sent to him privately; the rooms of his games are told, once each (`tell`: now, else
        at the next private message meant for him), and what his private views show is
        forgotten, so he gets them anew when he is back."""
        self.service.gone.add(user_id)
        places = await self.read(
            lambda service: [
                (session.room, service.private_slots(session))
                for session in service.sessions_of(user_id)
            ]
        )
        chat = f"u:{user_id}"
        for room, slots in places:
            for slot in slots:
                self._slots.forget(chat, slot)
            if tell:
                await self.outboxes.tell_unreachable(room, user_id)

    async def _say_unreachable(self, room: str, user_id: str) -> asyncio.Future[None]:
        """Tell the room how to let the bot write to the player privately; the future is done
        once the room was told."""
        tr, name = await self.read(
            lambda service: (
                service.translator(service.room_language(room)),
                _name_of(service, user_id),
            )
        )
        text = tr.gettext("{name}: I cannot write to you privately.").format(name=name)
        return self.post([ToRoom(room, Message(f"{text} {self.port.how_to_reach(tr)}".strip()))])

    # --- stopping ------------------------------------------------------------------------

    async def stop(self, timeout: float) -> bool:
        """Take no more input, let the input in hand finish, and deliver what is queued
        (no new tries of failed calls), within `timeout` seconds; True if all was sent."""
        self._stopping = True
        self.outboxes.stop_retrying()
        if self.boards is not None:
            self.boards.detach(self)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                async with self._lock:
                    pass
        # An analysis in hand (minutes of work) is let go: the room may ask again.
        drained = await self.drain(max(0.0, deadline - loop.time()), analyses=False)
        released = None
        with contextlib.suppress(RuntimeError):  # stopped before
            if self._keeper is not None:
                released = loop.run_in_executor(self._thread, self._keeper.release_this_thread)
        self._thread.shutdown(wait=False)
        if released is not None:
            await asyncio.wait({released}, timeout=max(0.0, deadline - loop.time()))
        self._at_work.cancel()
        self.desk.close()
        self.outboxes.abandon()
        return drained


def _name_of(service: ChatService, user_id: str) -> str:
    """A player's name as his games show it (his id if he is in none)."""
    for session in service.sessions_of(user_id):
        seat = session.seat_of(user_id)
        if seat is not None:
            return session.names[seat]
    return user_id
