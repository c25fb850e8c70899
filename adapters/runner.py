"""Connects a `ChatService` to a platform: input in order, messages out, deadlines on time.

One runner per adapter. Each input is handled to its end (the action durably stored, bots
answered) and its messages delivered before the next input is taken, so the games of a platform
see one command at a time. Message ids of slots (the table, each private hand) are remembered so
the platform edits them rather than posting anew.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from datetime import UTC, datetime

from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Message, Outbound, Reply, ToPlayer, ToRoom
from bohnanza.core.app.ports import ChatPort, Clock, MessageGone, Unreachable
from bohnanza.core.app.service import ChatService

log = logging.getLogger(__name__)

MAX_SLEEP = 60.0
"""The deadline loop looks again at least this often (seconds), should the clock jump."""


class SystemClock:
    """The real time, in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class Runner:
    """Feeds a service from an adapter and delivers what it says through the adapter's port."""

    def __init__(self, service: ChatService, port: ChatPort, clock: Clock | None = None) -> None:
        self.service = service
        self.port = port
        self.clock: Clock = clock or SystemClock()
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._room_slots: dict[tuple[str, str], str] = {}
        self._private_slots: dict[tuple[str, str], str] = {}
        self._shown: dict[tuple[str, str], Message] = {}
        """What each slot's message (by room or user, and slot) shows now: an unchanged one is
        not edited again, which would only spend a call of the platform's rate limit."""
        self._told_unreachable: set[tuple[str, str]] = set()

    async def start(self) -> int:
        """Pick up the stored games of this platform; return how many."""
        async with self._lock:
            return self.service.resume(self.clock.now())

    async def submit(self, inbound: Inbound) -> None:
        """Handle one input and deliver everything it caused, before the next input."""
        async with self._lock:
            try:
                out = self.service.handle(inbound, self.clock.now())
            except Exception:
                log.exception("input from %s in %s failed", inbound.platform, inbound.room)
                tr = self.service.translator(self.service.room_language(inbound.room))
                out = [Reply(inbound, tr.gettext("Something went wrong; nothing was changed."))]
            await self.deliver(out)
        self._wake.set()

    async def tick(self) -> None:
        """Play what deadlines and reminders have made due."""
        async with self._lock:
            await self.deliver(self.service.tick(self.clock.now()))

    async def run_deadlines(self) -> None:
        """Call `tick` whenever something is due; runs until cancelled."""
        while True:
            wake = self.service.next_wakeup()
            delay = MAX_SLEEP
            if wake is not None:
                delay = max(0.0, min(MAX_SLEEP, (wake - self.clock.now()).total_seconds()))
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await self._wake.wait()
            await self.tick()

    async def deliver(self, out: Sequence[Outbound]) -> None:
        """Show each message through the port; a failure is logged and the rest still go."""
        for item in out:
            try:
                if isinstance(item, ToRoom):
                    await self._to_room(item)
                elif isinstance(item, ToPlayer):
                    await self._to_player(item)
                else:
                    await self.port.answer(item.to, item.text)
            except Exception:
                log.exception("delivering a message through %s failed", self.port.platform)

    async def _to_room(self, item: ToRoom) -> None:
        key = (item.room, item.slot) if item.slot else None
        if key and not item.fresh and self.port.capabilities.edits and key in self._room_slots:
            if self._shown.get(key) == item.message:
                return
            try:
                await self.port.edit(item.room, self._room_slots[key], item.message)
                self._shown[key] = item.message
                return
            except MessageGone:
                pass
        message_id = await self.port.send(item.room, item.message)
        if key:
            self._room_slots[key] = message_id
            self._shown[key] = item.message

    async def _to_player(self, item: ToPlayer) -> None:
        key = (item.user_id, item.slot) if item.slot else None
        caps = self.port.capabilities
        try:
            if key and caps.edits and key in self._private_slots:
                if self._shown.get(key) == item.message:
                    return
                try:
                    await self.port.edit_private(
                        item.user_id, self._private_slots[key], item.message
                    )
                    self._shown[key] = item.message
                    return
                except MessageGone:
                    pass
            message_id = await self.port.send_private(item.user_id, item.message)
        except Unreachable:
            await self._tell_unreachable(item)
            return
        if key:
            self._private_slots[key] = message_id
            self._shown[key] = item.message
        self._told_unreachable.discard((item.room, item.user_id))

    async def _tell_unreachable(self, item: ToPlayer) -> None:
        """Tell the room, once per player, that he must open a private chat with the bot."""
        if (item.room, item.user_id) in self._told_unreachable:
            return
        self._told_unreachable.add((item.room, item.user_id))
        tr = self.service.translator(self.service.room_language(item.room))
        name = self._name_of(item.user_id)
        text = tr.gettext(
            "{name}: I cannot write to you privately. Open a private chat with me and send "
            "'start', then 'hand' here."
        ).format(name=name)
        hint = self.port.reach_hint
        await self.port.send(item.room, Message(f"{text} {hint}".strip()))

    def _name_of(self, user_id: str) -> str:
        for session in self.service.sessions_of(user_id):
            seat = session.seat_of(user_id)
            if seat is not None:
                return session.names[seat]
        return user_id
