"""The game on Matrix: a sync loop that feeds the runner, accepts invites and keeps its place.

The sync token is saved once every command of a sync was stored (each with its event id, in the
transaction of what it changed), so a restart continues where the last run stopped: a sync cut
short is fetched again and its stored commands are recognised by their ids; nothing is applied
twice, nothing skipped (a gap the homeserver leaves in a busy room is fetched). What was said
in a room before the bot joined it, or before its very first sync, is not a command to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping

from nio import (
    AsyncClient,
    AsyncClientConfig,
    Event,
    InviteMemberEvent,
    JoinError,
    LoginResponse,
    MegolmEvent,
    MessageDirection,
    RoomGetEventResponse,
    RoomMemberEvent,
    RoomMessagesResponse,
    RoomMessageText,
    SyncResponse,
)
from nio.crypto import ENCRYPTION_ENABLED

from bohnanza.adapters.kit import SettingsError, chat_runner
from bohnanza.adapters.runner_ports import AdapterStore
from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.messages import Message
from bohnanza.core.app.ports import Clock
from bohnanza.core.ports import StoreError

from .port import MatrixPort
from .settings import MatrixSettings
from .state import MatrixState
from .translate import (
    account_id,
    inbound_from_event,
    replied_event,
    with_reply_author,
)

log = logging.getLogger(__name__)

SYNC_TIMEOUT_MS = 30_000
STOP_TIMEOUT = 10.0
RETRY_SECONDS = 5.0
TIMELINE_LIMIT = 50
"""Events per room and sync; the homeserver's default (10) leaves gaps in a busy room."""
GAP_PAGE = 100
MAX_GAP_PAGES = 20
"""A gap longer than this many pages is not fetched: commands that old are stale anyway."""
SYNC_FILTER = {"room": {"timeline": {"limit": TIMELINE_LIMIT}}}
ENCRYPTED_ROOM_NOTICE = (
    "I cannot read this encrypted room (this bot runs without end-to-end encryption). "
    "Play in an unencrypted room, or ask the host to enable encryption support."
)
WELCOME_NOTICE = (
    "Hello! I run games of Bohnanza in this room. Send '{prefix} new' to open one, "
    "'{prefix} help' for every command (anything said before I joined did not reach me)."
)
UNDECRYPTABLE_NOTICE = (
    "I could not decrypt a message here: my device did not receive its key. "
    "If your client blocks unverified devices, allow mine, then send the command again."
)


class MatrixBot:
    """One bot account on one homeserver, serving every room it is invited to."""

    def __init__(
        self,
        settings: MatrixSettings,
        store: AdapterStore,
        translators: Mapping[str, Translator],
        clock: Clock | None = None,
    ) -> None:
        self.settings = settings
        self.state_path = settings.state_dir / "state.json"
        self.state = MatrixState.load(self.state_path)
        config = AsyncClientConfig(store_sync_tokens=False, encryption_enabled=ENCRYPTION_ENABLED)
        settings.state_dir.mkdir(parents=True, exist_ok=True)
        self.client = AsyncClient(
            settings.homeserver,
            settings.user_id,
            device_id=self.state.device_id or settings.device_id or None,
            store_path=str(settings.state_dir),
            config=config,
        )
        self.port = MatrixPort(self.client, self.state, self.save)
        self.port.prefix = settings.prefix
        self.runner = chat_runner(self.port, store, translators, clock, user_id_of=account_id)
        self.service = self.runner.service
        self._told_encrypted: set[str] = set()
        self._to_greet: set[str] = set()
        self._synced = False

    def save(self) -> None:
        self.state.save(self.state_path)

    async def log_in(self) -> None:
        """Reuse the kept device and token, or log in once and keep them."""
        state, settings = self.state, self.settings
        if state.access_token and state.user_id == settings.user_id:
            self.client.restore_login(state.user_id, state.device_id, state.access_token)
        elif settings.access_token:
            self.client.restore_login(
                settings.user_id, settings.device_id or "BOHNANZA", settings.access_token
            )
            state.user_id, state.device_id = settings.user_id, self.client.device_id or ""
            state.access_token = settings.access_token
            self.save()
        else:
            response = await self.client.login(settings.password, device_name="bohnanza")
            if not isinstance(response, LoginResponse):
                raise SettingsError(f"the homeserver refused the login: {response.message}")
            state.user_id, state.device_id = settings.user_id, response.device_id
            state.access_token = response.access_token
            self.save()
        if self.client.should_upload_keys:
            await self.client.keys_upload()

    async def run(self, stop_timeout: float = STOP_TIMEOUT) -> None:
        """Sync and handle until cancelled; then finish the command in hand and deliver what
        is queued, within `stop_timeout` seconds."""
        await self.runner.start()
        deadlines = asyncio.create_task(self.runner.run_deadlines())
        try:
            while True:
                try:
                    await self.sync_once()
                except StoreError:
                    # The sync token stayed where it was: the sync comes again, and what of it
                    # was stored already is recognised.
                    await asyncio.sleep(RETRY_SECONDS)
        finally:
            deadlines.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await deadlines
            if not await self.runner.stop(stop_timeout):
                log.warning("stopped with messages not yet delivered; they are shown on restart")

    async def sync_once(self, timeout_ms: int = SYNC_TIMEOUT_MS) -> None:
        """One sync: accept invites, hand over commands, then keep the new token."""
        since = self.state.next_batch
        # The first sync of a run asks for the full state even with a kept token: without it
        # the client knows no rooms, and cannot encrypt for their members.
        response = await self.client.sync(
            timeout=timeout_ms,
            sync_filter=SYNC_FILTER,
            since=since,
            full_state=not self._synced,
        )
        if not isinstance(response, SyncResponse):
            log.warning("sync failed: %s", response)
            await asyncio.sleep(RETRY_SECONDS)
            return
        await self._keys()
        await self._greet(response)
        await self._accept_invites(response)
        self._note_departures(response)
        if since is not None:
            await self._handle_timeline(response, since)
        self.state.next_batch = response.next_batch
        self._synced = True
        self.save()

    async def _keys(self) -> None:
        client = self.client
        if not ENCRYPTION_ENABLED:
            return
        if client.should_upload_keys:
            await client.keys_upload()
        if client.should_query_keys:
            await client.keys_query()
        if client.should_claim_keys:
            await client.keys_claim(client.get_users_for_key_claiming())
        await client.send_to_device_messages()

    async def _accept_invites(self, response: SyncResponse) -> None:
        for room_id, info in response.rooms.invite.items():
            direct_with = None
            for event in info.invite_state:
                if (
                    isinstance(event, InviteMemberEvent)
                    and event.state_key == self.client.user_id
                    and event.content.get("is_direct")
                ):
                    direct_with = event.sender
            joined = await self.client.join(room_id)
            if isinstance(joined, JoinError):
                log.warning("could not join %s: %s", room_id, joined.message)
                continue
            if direct_with is not None:
                self._open_direct(direct_with, room_id)
            else:
                # Greeted once the next sync brought its members (and their keys, should the
                # room be encrypted): a message sent sooner may be unreadable to them.
                self._to_greet.add(room_id)

    async def _greet(self, response: SyncResponse) -> None:
        for room_id in list(self._to_greet):
            if room_id in response.rooms.join:
                self._to_greet.discard(room_id)
                await self._welcome(room_id)

    async def _welcome(self, room_id: str) -> None:
        """Say how to begin, once, in a room the bot was invited to: a command sent before it
        joined was not said to it, and nobody should wait for an answer to that."""
        text = WELCOME_NOTICE.format(prefix=self.settings.prefix)
        try:
            await self.port.send(room_id, Message(text))
        except Exception as error:
            log.warning("could not greet %s: %s", room_id, type(error).__name__)

    def _open_direct(self, user_id: str, room_id: str) -> None:
        """A player invited the bot into a direct room: his hands go there from now on, unless
        the one he already has still holds him."""
        state = self.state
        if user_id in state.unreachable:
            state.unreachable.remove(user_id)
            state.direct_rooms[user_id] = room_id
        else:
            state.direct_rooms.setdefault(user_id, room_id)

    def _note_departures(self, response: SyncResponse) -> None:
        """A player who left or refused his direct room is not written to there any more."""
        state = self.state
        for room_id in response.rooms.leave:
            for user_id, direct in list(state.direct_rooms.items()):
                if direct == room_id:
                    self._unreachable(user_id)
        for room_id, info in response.rooms.join.items():
            for event in [*info.state, *info.timeline.events]:
                if (
                    isinstance(event, RoomMemberEvent)
                    and event.membership in ("leave", "ban")
                    and state.direct_rooms.get(event.state_key) == room_id
                ):
                    self._unreachable(event.state_key)

    def _unreachable(self, user_id: str) -> None:
        log.info("%s left the direct room", user_id)
        self.state.direct_rooms.pop(user_id, None)
        if user_id not in self.state.unreachable:
            self.state.unreachable.append(user_id)

    def _is_private(self, room_id: str, sender: str) -> bool:
        return self.state.direct_rooms.get(sender) == room_id

    async def _handle_timeline(self, response: SyncResponse, since: str) -> None:
        for room_id, info in response.rooms.join.items():
            events: list[Event] = list(info.timeline.events)
            if info.timeline.limited and not self._joins(events):
                events = await self._gap(room_id, info.timeline.prev_batch, since) + events
            for event in self._since_joined(events):
                await self._handle_event(room_id, event)

    def _joins(self, events: list[Event]) -> list[int]:
        """Where in `events` the bot joined the room (a join, not a profile change)."""
        return [
            index
            for index, event in enumerate(events)
            if isinstance(event, RoomMemberEvent)
            and event.state_key == self.client.user_id
            and event.membership == "join"
            and event.prev_membership != "join"
        ]

    def _since_joined(self, events: list[Event]) -> list[Event]:
        """The events after the bot's latest join: what came before was not said to it."""
        joins = self._joins(events)
        return events[joins[-1] + 1 :] if joins else events

    async def _gap(self, room_id: str, start: str | None, since: str) -> list[Event]:
        """The events a limited timeline left out, between the last sync and `start`."""
        missed: list[Event] = []
        for _ in range(MAX_GAP_PAGES):
            page = await self.client.room_messages(
                room_id, start=start, end=since, direction=MessageDirection.back, limit=GAP_PAGE
            )
            if not isinstance(page, RoomMessagesResponse):
                log.warning("could not fetch missed events of %s: %s", room_id, page)
                break
            missed += page.chunk
            if not page.chunk or not page.end or page.end == start or self._joins(page.chunk):
                break
            start = page.end
        return missed[::-1]

    async def _handle_event(self, room_id: str, event: Event) -> None:
        if event.sender == self.client.user_id:
            return
        if isinstance(event, MegolmEvent):
            await self._cannot_read(room_id)
            return
        if not isinstance(event, RoomMessageText):
            return
        body = event.body
        content = event.source.get("content", {})
        relation = content.get("m.relates_to", {})
        original = None
        if relation.get("rel_type") == "m.replace":
            # An edit is no second command; but the edit of a command that changed nothing
            # (a typo answered with "I did not understand") is the command the player meant.
            new = content.get("m.new_content", {})
            original = str(relation.get("event_id"))
            if not isinstance(new.get("body"), str) or not self.runner.take_refused(original):
                return
            body = new["body"]
        room = self.client.rooms.get(room_id)
        name = room.user_name(event.sender) if room is not None else None
        members = {} if room is None else {u: m.display_name for u, m in room.users.items()}
        inbound = inbound_from_event(
            event.sender,
            name or event.sender,
            room_id,
            event.event_id,
            body,
            self.settings.prefix,
            self._is_private(room_id, event.sender),
            members,
        )
        if inbound is None:
            if original is not None:
                self.runner.note_refused(original)  # an edit into no command: still open
            return
        replied = replied_event(content)
        if replied is not None:
            author = await self._author_of(room_id, replied)
            if author is not None:
                inbound = with_reply_author(inbound, author, members.get(author) or author)
        # Stored with its event id before the sync token moves past it; its messages go out
        # per room meanwhile, so a slow room holds back no other.
        work = asyncio.ensure_future(self.runner.submit(inbound, wait=False))
        try:
            await asyncio.shield(work)
        except asyncio.CancelledError:
            await work  # a stop finishes the command in hand first
            raise
        if original is not None and self.runner.refused(event.event_id):
            self.runner.note_refused(original)  # refused again: a later edit may still fix it

    async def _author_of(self, room_id: str, event_id: str) -> str | None:
        """Who sent an event of the room (the message a command answers); None if the
        homeserver does not say."""
        response = await self.client.room_get_event(room_id, event_id)
        if isinstance(response, RoomGetEventResponse):
            return str(response.event.sender)
        log.info("could not read the event a command answers: %s", response)
        return None

    async def _cannot_read(self, room_id: str) -> None:
        """Say plainly, once per room, that a message here could not be read."""
        if room_id in self._told_encrypted:
            return
        self._told_encrypted.add(room_id)
        notice = UNDECRYPTABLE_NOTICE if self.client.olm is not None else ENCRYPTED_ROOM_NOTICE
        try:
            await self.port.send(room_id, Message(notice))
        except Exception as error:  # the room may refuse unencrypted messages too
            log.warning("cannot tell %s that it cannot be read: %s", room_id, error)

    async def close(self) -> None:
        await self.client.close()
