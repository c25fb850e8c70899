"""Connects a `ChatService` to a platform: input in order, messages out, deadlines on time.

One runner per adapter. Inputs are handled one at a time (the action durably stored with the
input's delivery id, bots answered). One that may make searching bots think (expert bots at its
table), the deadlines while such a game is open, and the pick-up at start are handled in a
thread of the runner's own, so that meanwhile the event loop goes on sending messages and
talking to the platform; the others, which take a millisecond or two, on the event loop (a hop
to a thread and back, and two threads taking turns at the store, would cost them as much
again). Every other call into the service waits for the input in hand (`read`). What inputs
cause goes to an outbox per chat, so a chat that the platform slows down (a rate limit, a
failing call, its pace) holds back no other chat. In an outbox a newer update of a slot (a
game's table, a player's hand) replaces a queued older one, and an answer to the player who
wrote goes first. A message is split to the platform's limits (never cut), and on a paced
connection every line waits for its share of the budget, the most urgent first (see `pacing`).
A player the platform found unreachable is not written to privately until he writes again.

What each slot shows is kept in the store (the platform's message id and a digest of the
content): the platform edits the message it last showed, an unchanged message is not sent again,
and views that fell behind (a send failed after its retries, or the process stopped between
storing a move and showing it) are brought up to date on start, when their player next writes,
and a little later by the deadline loop.

A finished game's page goes to its room as a file, after the result, in the room's outbox; it is
made from the stored record when its turn comes. Views are derived again, the page never is: one
that could not be sent after its retries is not sent again.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import hashlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, TypeVar

from bohnanza.adapters.game_page import game_page
from bohnanza.adapters.pacing import ANSWER, LineBudget, priority_of, split_message
from bohnanza.adapters.runner_ports import ServesFromThread
from bohnanza.core.app.i18n import LANGUAGES
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import GamePage, Message, Outbound, Reply, ToPlayer, ToRoom
from bohnanza.core.app.ports import ChatPort, Clock, MessageGone, ShownView, Unreachable
from bohnanza.core.app.service import ChatService
from bohnanza.core.ports import StoreError

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
AT_WORK_AFTER = 0.5
"""Seconds an input may take before its chat is shown that the bot is at work ("typing…")."""
AT_WORK_AGAIN = 4.0
"""Seconds between two such notices while the work goes on (Telegram's lasts 5)."""
NOTICE_TIMEOUT = 5.0
"""Seconds a notice of work in progress may take to reach the platform before it is let go."""


class SystemClock:
    """The real time, in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


def digest(message: Message) -> str:
    """A short fingerprint of a message's text, buttons and HTML (a message without HTML keeps
    the fingerprint it had before messages had any)."""
    shown: tuple[object, ...] = (message.text, message.buttons)
    if message.html is not None:
        shown += (message.html,)
    return hashlib.blake2s(repr(shown).encode(), digest_size=12).hexdigest()


def chat_of(item: Outbound) -> str:
    """The chat a message goes to: a room ('r:…') or a player's private chat ('u:…')."""
    if isinstance(item, ToPlayer):
        return f"u:{item.user_id}"
    if isinstance(item, ToRoom | GamePage):
        return f"r:{item.room}"
    return f"r:{item.to.room}"


def _slot_of(item: Outbound) -> str | None:
    return item.slot if isinstance(item, ToRoom | ToPlayer) else None


@dataclass
class _Letter:
    """One message waiting in an outbox, and the future its senders wait on."""

    item: Outbound
    done: asyncio.Future[None]


@dataclass
class _Outbox:
    """One chat's messages in order; `busy` while the first is being sent."""

    letters: deque[_Letter] = field(default_factory=deque)
    busy: bool = False
    task: asyncio.Task[None] | None = None
    last_sent: float | None = None
    """When (loop time) its latest message went out, for the platform's pace per chat."""


REFUSED_KEPT = 1_000
"""How many refused inputs a runner remembers (for edits of a command)."""


class Runner:
    """Feeds a service from an adapter and delivers what it says through the adapter's port."""

    def __init__(
        self,
        service: ChatService,
        port: ChatPort,
        clock: Clock | None = None,
        retry_delays: Sequence[float] = RETRY_DELAYS,
        heal_after: float = HEAL_AFTER,
        tick_retry: Sequence[float] = TICK_RETRY,
        at_work_after: float = AT_WORK_AFTER,
    ) -> None:
        self.service = service
        self.port = port
        self.clock: Clock = clock or SystemClock()
        self.retry_delays = tuple(retry_delays)
        self.heal_after = heal_after
        self.tick_retry = tuple(tick_retry)
        self.at_work_after = at_work_after
        self._lock = asyncio.Lock()
        """Held by every call into the service: one at a time, never two threads at once."""
        keeper = service.store if isinstance(service.store, ServesFromThread) else None
        self._keeper = keeper
        """The store, if it may keep a connection for the runner's thread."""
        self._thread = concurrent.futures.ThreadPoolExecutor(
            1,
            thread_name_prefix=f"{port.platform}-service",
            initializer=None if keeper is None else keeper.serve_from_this_thread,
        )
        """Where inputs that may take a while, and the pick-up at start, are handled."""
        self._notices: set[asyncio.Task[None]] = set()
        self._wake = asyncio.Event()
        self._outboxes: dict[str, _Outbox] = {}
        self._behind: dict[str, float] = {}
        """Rooms whose views could not all be delivered, and when (loop time)."""
        self._told_unreachable: set[tuple[str, str]] = set()
        self._gone: set[str] = service.gone
        """Players the platform found unreachable after a send (or gone): not written to
        privately until they write again (the service's own set: where ids are nicks, the
        opener may move their seats)."""
        self._stopping = False
        self._refused: collections.OrderedDict[str, None] = collections.OrderedDict()
        """Delivery ids of the latest inputs that changed nothing (only answered)."""
        caps = port.capabilities
        self.budget = LineBudget(caps.line_pace, caps.line_burst)
        """The lines the connection may send, all chats together (unlimited if unpaced)."""

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
        """Pick up the stored games of this platform and bring their views up to date (what a
        crash or a failed send left behind); return how many games."""
        service = self.service

        def pick_up() -> tuple[int, list[Outbound]]:
            count = service.resume(self.clock.now())
            return count, service.views(now=self.clock.now())

        async with self._lock:
            count, out = await self._in_thread(pick_up)
            refused = list(service.refused.values())
        for reason in refused:
            log.error(
                "%s: not continued, the store holds it altered: %s", self.port.platform, reason
            )
        self.post(out)
        return count

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
                await self._shown_at_work(shown_to, done)
            return await asyncio.shield(done)
        except asyncio.CancelledError:
            await asyncio.wait({done})
            raise

    async def _shown_at_work(self, inbound: Inbound, done: asyncio.Future[Any]) -> None:
        """Wait until `done`; after `at_work_after` seconds, and every `AT_WORK_AGAIN` after
        that, show the input's chat the bot at work, and take it back at the end."""
        wait = self.at_work_after
        last: asyncio.Task[None] | None = None
        while not (await asyncio.wait({done}, timeout=wait))[0]:
            last = self._notice(inbound, busy=True)
            wait = AT_WORK_AGAIN
        if last is not None:
            self._notice(inbound, busy=False, after=last)

    def _notice(
        self, inbound: Inbound, busy: bool, after: asyncio.Task[None] | None = None
    ) -> asyncio.Task[None]:
        """Tell the platform, without waiting for it (but after the notice `after`), that work
        on `inbound` goes on (or ended); a notice that fails is only logged."""

        async def notice() -> None:
            if after is not None:
                await asyncio.wait({after})
            try:
                async with asyncio.timeout(NOTICE_TIMEOUT):
                    await self.port.thinking(inbound, busy)
            except Exception as error:
                log.info(
                    "%s: a notice of work in progress failed: %s",
                    self.port.platform,
                    type(error).__name__,
                )

        task = asyncio.ensure_future(notice())
        self._notices.add(task)
        task.add_done_callback(self._notices.discard)
        return task

    async def submit(self, inbound: Inbound, wait: bool = True) -> asyncio.Future[None]:
        """Handle one input (stored before this returns) and queue what it caused. With
        `wait`, return once those messages were delivered; else at once, with a future that
        is done when they are. The adapter acknowledges the input to its platform once this
        returned; StoreError means nothing was stored, and the input is to be taken again."""
        if self._stopping:
            raise RuntimeError("the runner is stopping")
        self._gone.discard(inbound.user_id)  # who writes is back: he is written to again
        async with self._lock:
            now = self.clock.now()
            try:
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
        said = {(chat_of(o), _slot_of(o)) for o in out}
        behind = [
            o
            for o in service.views_of(inbound.user_id, inbound.room, inbound.private)
            if (chat_of(o), _slot_of(o)) not in said
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
            rooms = self._heal_due()
            if service.may_take_long():
                out = await self._in_thread(lambda: play_due(rooms))
            else:
                out = play_due(rooms)
        self.post(out)

    def _heal_due(self) -> list[str]:
        """The rooms whose views are to be derived again now (no longer noted as behind)."""
        loop_now = asyncio.get_running_loop().time()
        rooms = []
        for room, since in list(self._behind.items()):
            if loop_now - since >= self.heal_after:
                del self._behind[room]
                rooms.append(room)
        return rooms

    def _next_heal(self) -> float | None:
        if not self._behind:
            return None
        loop_now = asyncio.get_running_loop().time()
        return max(0.0, min(self._behind.values()) + self.heal_after - loop_now)

    async def run_deadlines(self) -> None:
        """Call `tick` whenever something is due; runs until cancelled."""
        failures = 0
        while True:
            wake = await self.read(ChatService.next_wakeup)
            delay = MAX_SLEEP
            if wake is not None:
                delay = max(0.0, min(MAX_SLEEP, (wake - self.clock.now()).total_seconds()))
            heal = self._next_heal()
            if heal is not None:
                delay = min(delay, heal)
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await self._wake.wait()
            try:
                await self.tick()
                failures = 0
            except Exception as error:
                # The store may be away for a while: deadlines are played once it is back.
                failures = min(failures + 1, len(self.tick_retry))
                log.warning("%s: deadlines could not be played: %s", self.port.platform, error)
                await asyncio.sleep(self.tick_retry[failures - 1])

    async def deliver(self, out: Sequence[Outbound]) -> None:
        """Queue messages and wait until they were delivered (or given up on)."""
        await self.post(out)

    # --- the outboxes --------------------------------------------------------------------

    def post(self, out: Sequence[Outbound]) -> asyncio.Future[None]:
        """Queue messages in their chats' outboxes; the future is done when all are sent."""
        futures = [self._queue(item) for item in out]
        return asyncio.ensure_future(_all(futures))

    def _queue(self, item: Outbound) -> asyncio.Future[None]:
        chat = chat_of(item)
        box = self._outboxes.setdefault(chat, _Outbox())
        slot = _slot_of(item)
        if slot is not None:
            waiting = list(box.letters)[1:] if box.busy else list(box.letters)
            for letter in waiting:
                older = letter.item
                if _slot_of(older) == slot and isinstance(older, ToRoom | ToPlayer):
                    # The newer update replaces the queued one; a post anew, or a message
                    # meant to notify, stays one.
                    letter.item = _merged(older, item)
                    return letter.done
        letter = _Letter(item, asyncio.get_running_loop().create_future())
        if isinstance(item, Reply):
            # An answer to the one who wrote goes before what waits in his chat.
            first = 1 if box.busy else 0
            at = next(
                (
                    i
                    for i, queued in enumerate(box.letters)
                    if i >= first and not isinstance(queued.item, Reply)
                ),
                len(box.letters),
            )
            box.letters.insert(at, letter)
        else:
            box.letters.append(letter)
        if box.task is None or box.task.done():
            box.task = asyncio.create_task(self._send_all(chat, box))
        return letter.done

    async def _send_all(self, chat: str, box: _Outbox) -> None:
        pace = self.port.capabilities.chat_pace
        loop = asyncio.get_running_loop()
        while box.letters:
            if pace > 0 and box.last_sent is not None:
                # The chat's own pace; a queued update may still be replaced meanwhile.
                await asyncio.sleep(max(0.0, box.last_sent + pace - loop.time()))
            letter = box.letters[0]
            box.busy = True
            try:
                await self._deliver_one(letter.item, _Sending(box, letter.item))
            finally:
                box.last_sent = loop.time()
                box.busy = False
                box.letters.popleft()
                if not letter.done.done():
                    letter.done.set_result(None)
        if self._outboxes.get(chat) is box and not box.letters:
            del self._outboxes[chat]

    async def _deliver_one(self, item: Outbound, sending: _Sending) -> None:
        """Show one message, trying again after a failure; a message that cannot be shown
        leaves its room's views to be derived again later."""
        delays = (0.0, *self.retry_delays)
        for attempt, delay in enumerate(delays):
            if delay:
                if self._stopping:
                    break
                await asyncio.sleep(delay)
            try:
                await self._show(item, sending)
                return
            except Exception as error:
                log.warning(
                    "%s: a %s failed (try %d of %d): %s",
                    self.port.platform,
                    type(item).__name__,
                    attempt + 1,
                    len(delays),
                    type(error).__name__,
                )
        room = item.room if isinstance(item, ToRoom | ToPlayer) else None
        if room is not None:
            self._behind.setdefault(room, asyncio.get_running_loop().time())
            self._wake.set()

    async def _show(self, item: Outbound, sending: _Sending) -> None:
        if isinstance(item, ToRoom):
            await self._to_room(item, sending)
        elif isinstance(item, ToPlayer):
            await self._to_player(item, sending)
        elif isinstance(item, GamePage):
            await self.budget.take(1, sending.priority)
            await self._game_page(item)
        else:
            for part in split_message(Message(item.text), self.port.capabilities):
                await self.budget.take(_lines(part), ANSWER)
                await self.port.answer(item.to, part.text)

    async def _game_page(self, item: GamePage) -> None:
        """The finished game's page, made from its stored record (off the event loop: a long
        game takes a moment), sent to the room as a file."""
        record = self.service.store.load_record(item.game_id)
        language = item.language if item.language in LANGUAGES else "en"
        page = await asyncio.to_thread(game_page, record, language)
        await self.port.send_file(item.room, page_filename(item.game_id), page, item.caption)

    async def _to_room(self, item: ToRoom, sending: _Sending) -> None:
        room = item.room

        async def edit(message_id: str, message: Message) -> None:
            await self.port.edit(room, message_id, message)

        async def send(message: Message) -> str:
            return await self.port.send(room, message)

        await self._in_slot(chat_of(item), item, send, edit, sending)

    async def _to_player(self, item: ToPlayer, sending: _Sending) -> None:
        user = item.user_id

        async def edit(message_id: str, message: Message) -> None:
            await self.port.edit_private(user, message_id, message)

        async def send(message: Message) -> str:
            return await self.port.send_private(user, message)

        try:
            if user in self._gone:
                raise Unreachable(user)
            replaced = await self._in_slot(chat_of(item), item, send, edit, sending)
        except Unreachable:
            await (await self._tell_unreachable(item.room, user))
            return
        if replaced is not None and item.retired is not None and self.port.capabilities.edits:
            await self._retire(user, replaced, item.retired)
        self._told_unreachable.discard((item.room, user))

    async def _in_slot(
        self,
        chat: str,
        item: ToRoom | ToPlayer,
        send: Callable[[Message], Awaitable[str]],
        edit: Callable[[str, Message], Awaitable[None]],
        sending: _Sending,
    ) -> str | None:
        """Show a message in its slot: nothing if the slot shows it already, an edit of the
        slot's message where the platform can edit, else (or `fresh`) a new message, in as
        many parts as the platform needs, each at the connection's pace (the rest is dropped
        once a newer update of the slot waits). Returns the id of the message a new one
        replaced, if any."""
        slot, message = item.slot, item.message
        wanted = digest(message)
        shown = (
            None if slot is None else self.service.store.load_view(self.port.platform, chat, slot)
        )
        if shown is not None and not shown.message_id:
            shown = None  # the player never got it (he was unreachable)
        parts = split_message(message, self.port.capabilities)
        if shown is not None and not item.fresh:
            if shown.digest == wanted:
                return None
            if self.port.capabilities.edits and len(parts) == 1:
                await self.budget.take(_lines(message), sending.priority)
                try:
                    await edit(shown.message_id, message)
                    self._shown(chat, slot, ShownView(shown.message_id, wanted))
                    return None
                except MessageGone:
                    pass
        message_id = ""
        for part in parts:
            await self.budget.take(_lines(part), sending.priority)
            if sending.superseded():
                return None
            message_id = await send(part)
        self._shown(chat, slot, ShownView(message_id, wanted))
        return None if shown is None else shown.message_id

    async def _retire(self, user_id: str, message_id: str, retired: Message) -> None:
        """The slot's previous message becomes a short line without buttons (best effort:
        the new message is what counts)."""
        try:
            await self.port.edit_private(user_id, message_id, retired)
        except Exception as error:
            log.info(
                "%s: an older message was not retired: %s", self.port.platform, type(error).__name__
            )

    def _shown(self, chat: str, slot: str | None, view: ShownView) -> None:
        """Note what the platform took. A failure here must not send the message again: the
        slot is only noted as behind, to be derived and shown again later."""
        if slot is None:
            return
        try:
            self.service.store.save_view(self.port.platform, chat, slot, view, self.clock.now())
        except Exception as error:
            log.warning("%s: what a chat shows was not noted: %s", self.port.platform, error)

    async def rename(self, old_user_id: str, new_user_id: str, new_name: str) -> None:
        """A player's id changed on the platform (an IRC nick change): his seats follow him,
        stored before this returns; the rooms are told."""
        async with self._lock:
            out = self.service.rename(old_user_id, new_user_id, new_name, self.clock.now())
        self.post(out)

    async def unreachable(self, user_id: str, tell: bool = True) -> None:
        """The platform learned, after sending, that a player cannot be written to privately
        (on IRC: he is not connected; or it saw him leave). Until he writes again nothing is
        sent to him privately; the rooms of his games are told, once each (`tell`: now, else
        at the next private message meant for him), and what his private views show is
        forgotten, so he gets them anew when he is back."""
        self._gone.add(user_id)
        places = await self.read(
            lambda service: [
                (session.room, service.private_slots(session))
                for session in service.sessions_of(user_id)
            ]
        )
        chat = f"u:{user_id}"
        for room, slots in places:
            for slot in slots:
                with contextlib.suppress(Exception):
                    self.service.store.save_view(
                        self.port.platform, chat, slot, ShownView("", ""), self.clock.now()
                    )
            if tell:
                await self._tell_unreachable(room, user_id)

    async def _tell_unreachable(self, room: str, user_id: str) -> asyncio.Future[None]:
        """Tell the room, once per player, how to let the bot write to him privately; the
        future is done once the room was told."""
        if (room, user_id) in self._told_unreachable:
            return asyncio.ensure_future(_all([]))
        self._told_unreachable.add((room, user_id))
        tr, name = await self.read(
            lambda service: (
                service.translator(service.room_language(room)),
                _name_of(service, user_id),
            )
        )
        text = tr.gettext("{name}: I cannot write to you privately.").format(name=name)
        return self.post([ToRoom(room, Message(f"{text} {self.port.how_to_reach(tr)}".strip()))])

    # --- stopping ------------------------------------------------------------------------

    async def drain(self, timeout: float) -> bool:
        """Wait until every outbox is empty, at most `timeout` seconds; True if they are."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, timeout)):
                while self._outboxes:
                    tasks = [b.task for b in self._outboxes.values() if b.task is not None]
                    if not tasks:
                        break
                    await asyncio.wait(tasks)
        return not self._outboxes

    async def stop(self, timeout: float) -> bool:
        """Take no more input, let the input in hand finish, and deliver what is queued
        (no new tries of failed calls), within `timeout` seconds; True if all was sent."""
        self._stopping = True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                async with self._lock:
                    pass
        drained = await self.drain(max(0.0, deadline - loop.time()))
        released = None
        with contextlib.suppress(RuntimeError):  # stopped before
            if self._keeper is not None:
                released = loop.run_in_executor(self._thread, self._keeper.release_this_thread)
        self._thread.shutdown(wait=False)
        if released is not None:
            await asyncio.wait({released}, timeout=max(0.0, deadline - loop.time()))
        for notice in list(self._notices):
            notice.cancel()
        for box in list(self._outboxes.values()):
            if box.task is not None:
                box.task.cancel()
            for letter in box.letters:
                if not letter.done.done():
                    letter.done.set_result(None)
        return drained


def _name_of(service: ChatService, user_id: str) -> str:
    """A player's name as his games show it (his id if he is in none)."""
    for session in service.sessions_of(user_id):
        seat = session.seat_of(user_id)
        if seat is not None:
            return session.names[seat]
    return user_id


def page_filename(game_id: str) -> str:
    """The name of a game's page as a file."""
    return f"bohnanza-{game_id}.html"


def _merged(older: Outbound, newer: Outbound) -> Outbound:
    """The newer of two updates of one slot, keeping what the older one promised its reader."""
    if isinstance(older, ToPlayer) and isinstance(newer, ToPlayer):
        alert = newer.message.alert or older.message.alert
        return replace(
            newer,
            message=replace(newer.message, alert=alert),
            fresh=newer.fresh or older.fresh,
            retired=newer.retired or older.retired,
        )
    if isinstance(older, ToRoom) and isinstance(newer, ToRoom):
        return replace(newer, fresh=newer.fresh or older.fresh)
    return newer


@dataclass
class _Sending:
    """The message an outbox is sending: how urgent, and whether a newer update of its slot
    waits behind it (the rest of it is then not worth sending)."""

    box: _Outbox
    item: Outbound

    @property
    def priority(self) -> int:
        return priority_of(self.item)

    def superseded(self) -> bool:
        slot = _slot_of(self.item)
        if slot is None:
            return False
        return any(_slot_of(letter.item) == slot for letter in list(self.box.letters)[1:])


def _lines(message: Message) -> int:
    return message.text.count("\n") + 1


async def _all(futures: Sequence[asyncio.Future[None]]) -> None:
    for future in futures:
        await future
