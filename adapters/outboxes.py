"""The runner's outboxes: what inputs cause, queued per chat and sent at the platform's pace.

A chat that the platform slows down (a rate limit, a failing call, its pace) holds back no other
chat. In an outbox a newer update of a slot (a game's table, a player's hand) replaces a queued
older one, and an answer to the player who wrote goes first. A message is split to the
platform's limits (never cut), and on a paced connection every line waits for its share of the
budget, the most urgent first (see `pacing`). A player the platform found unreachable is not
written to privately until he writes again. A message that cannot be sent after its retries
leaves its room noted as behind, for the runner to derive its views again later.

A finished game's page goes to its room as a file, after the result, in the room's outbox: what
sends it is handed in (`page_files`), and it is never sent again once given up on.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace

from bohnanza.adapters.pacing import ANSWER, LineBudget, priority_of, split_message
from bohnanza.adapters.shown_slots import ShownSlots, digest
from bohnanza.core.app.messages import GamePage, Message, Outbound, Reply, ToPlayer, ToRoom
from bohnanza.core.app.ports import ChatPort, MessageGone, ShownView, Unreachable

log = logging.getLogger("bohnanza.adapters.runner")
"""The runner's log, as operators know it."""


def chat_of(item: Outbound) -> str:
    """The chat a message goes to: a room ('r:…') or a player's private chat ('u:…')."""
    if isinstance(item, ToPlayer):
        return f"u:{item.user_id}"
    if isinstance(item, ToRoom | GamePage):
        return f"r:{item.room}"
    return f"r:{item.to.room}"


def slot_of(item: Outbound) -> str | None:
    """The slot a message shows in (None: a message of its own)."""
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


class Outboxes:
    """Queues messages per chat and shows them through the platform's port (the runner's
    sending half: `post`, `drain`)."""

    def __init__(
        self,
        port: ChatPort,
        slots: ShownSlots,
        gone: set[str],
        retry_delays: Sequence[float],
        *,
        send_page: Callable[[GamePage], Awaitable[None]],
        say_unreachable: Callable[[str, str], Awaitable[asyncio.Future[None]]],
        fell_behind: Callable[[], None],
    ) -> None:
        """`send_page`: sends a finished game's page. `say_unreachable(room, user_id)`: tells
        the room how to let the bot write to the player privately (the runner knows the room's
        language); the future is done once the room was told. `fell_behind`: called when a
        room is noted as behind."""
        self.port = port
        self.retry_delays = tuple(retry_delays)
        self._slots = slots
        self._gone = gone
        """Players the platform found unreachable after a send (or gone): not written to
        privately until they write again."""
        self._send_page = send_page
        self._say_unreachable = say_unreachable
        self._fell_behind = fell_behind
        self._outboxes: dict[str, _Outbox] = {}
        self._behind: dict[str, float] = {}
        """Rooms whose views could not all be delivered, and when (loop time)."""
        self._told_unreachable: set[tuple[str, str]] = set()
        self._retrying = True
        caps = port.capabilities
        self.budget = LineBudget(caps.line_pace, caps.line_burst)
        """The lines the connection may send, all chats together (unlimited if unpaced)."""

    def post(self, out: Sequence[Outbound]) -> asyncio.Future[None]:
        """Queue messages in their chats' outboxes; the future is done when all are sent."""
        return asyncio.ensure_future(all_done([self._queue(item) for item in out]))

    async def tell_unreachable(self, room: str, user_id: str) -> asyncio.Future[None]:
        """Tell the room, once per player until he is reached again, how to let the bot write
        to him privately; the future is done once the room was told."""
        if (room, user_id) in self._told_unreachable:
            return asyncio.ensure_future(all_done([]))
        self._told_unreachable.add((room, user_id))
        return await self._say_unreachable(room, user_id)

    def behind_for(self, after: float) -> list[str]:
        """The rooms noted as behind for at least `after` seconds, no longer noted."""
        loop_now = asyncio.get_running_loop().time()
        rooms = []
        for room, since in list(self._behind.items()):
            if loop_now - since >= after:
                del self._behind[room]
                rooms.append(room)
        return rooms

    def next_behind(self, after: float) -> float | None:
        """Seconds until a room has been behind for `after` seconds (None: none is behind)."""
        if not self._behind:
            return None
        loop_now = asyncio.get_running_loop().time()
        return max(0.0, min(self._behind.values()) + after - loop_now)

    def _queue(self, item: Outbound) -> asyncio.Future[None]:
        chat = chat_of(item)
        box = self._outboxes.setdefault(chat, _Outbox())
        slot = slot_of(item)
        if slot is not None:
            waiting = list(box.letters)[1:] if box.busy else list(box.letters)
            for letter in waiting:
                older = letter.item
                if slot_of(older) == slot and isinstance(older, ToRoom | ToPlayer):
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
                if not self._retrying:
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
            self._fell_behind()

    async def _show(self, item: Outbound, sending: _Sending) -> None:
        if isinstance(item, ToRoom):
            await self._to_room(item, sending)
        elif isinstance(item, ToPlayer):
            await self._to_player(item, sending)
        elif isinstance(item, GamePage):
            await self.budget.take(1, sending.priority)
            await self._send_page(item)
        else:
            for part in split_message(Message(item.text), self.port.capabilities):
                await self.budget.take(_lines(part), ANSWER)
                await self.port.answer(item.to, part.text)

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
            await (await self.tell_unreachable(item.room, user))
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
        shown = self._slots.shown(chat, slot)
        parts = split_message(message, self.port.capabilities)
        if shown is not None and not item.fresh:
            if shown.digest == wanted:
                return None
            if self.port.capabilities.edits and len(parts) == 1:
                await self.budget.take(_lines(message), sending.priority)
                try:
                    await edit(shown.message_id, message)
                    self._slots.note(chat, slot, ShownView(shown.message_id, wanted))
                    return None
                except MessageGone:
                    pass
        if shown is not None:
            self._slots.note_sending(chat, slot)
        message_id = ""
        for part in parts:
            await self.budget.take(_lines(part), sending.priority)
            if sending.superseded():
                return None
            message_id = await send(part)
        self._slots.note(chat, slot, ShownView(message_id, wanted))
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

    @property
    def sending(self) -> bool:
        """Whether a message waits in an outbox or is on its way."""
        return bool(self._outboxes)

    async def drain(self) -> None:
        """Wait until every outbox is empty."""
        while self._outboxes:
            tasks = [b.task for b in self._outboxes.values() if b.task is not None]
            if not tasks:
                break
            await asyncio.wait(tasks)

    def stop_retrying(self) -> None:
        """Try a failed call no more: the platform is being left."""
        self._retrying = False

    def abandon(self) -> None:
        """Stop sending: what waits in the outboxes is dropped, and its senders let go."""
        for box in list(self._outboxes.values()):
            if box.task is not None:
                box.task.cancel()
            for letter in box.letters:
                if not letter.done.done():
                    letter.done.set_result(None)


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
        slot = slot_of(self.item)
        if slot is None:
            return False
        return any(slot_of(letter.item) == slot for letter in list(self.box.letters)[1:])


def _lines(message: Message) -> int:
    return message.text.count("\n") + 1


async def all_done(futures: Sequence[asyncio.Future[None]]) -> None:
    """Wait for each of the futures, in order."""
    for future in futures:
        await future
