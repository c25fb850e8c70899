"""Players: real matrix-nio clients that create and join rooms, talk, edit, and watch."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from nio import (
    AsyncClient,
    AsyncClientConfig,
    ErrorResponse,
    InviteMemberEvent,
    MegolmEvent,
    RoomPreset,
    SyncResponse,
    TypingNoticeEvent,
)

from .accounts import Account
from .messages import JsonDict, ReceivedMessage, TimelineEvent, current_messages
from .synapse import Homeserver

MessageMatch = Callable[[ReceivedMessage], bool]
Found = TypeVar("Found")
WAIT_TIMEOUT = 60.0
"""Seconds to wait for an event before it is taken not to come, however loaded the machine."""
# Long-poll slices: short enough to notice the deadline, long enough to stay idle.
POLL_MS = 1_000


class MatrixRequestFailed(RuntimeError):
    """The homeserver refused a request a player made."""


@dataclass(frozen=True)
class Invite:
    """An invitation a player received."""

    room_id: str
    inviter: str
    is_direct: bool


def _checked(response: Any) -> Any:
    """`response` itself, unless nio answered with an error value."""
    if isinstance(response, ErrorResponse):
        raise MatrixRequestFailed(f"{type(response).__name__}: {response}")
    return response


class Player:
    """One client acting as a person; it records every room event and invite it syncs."""

    def __init__(self, client: AsyncClient) -> None:
        self.client = client
        self.events: list[TimelineEvent] = []
        self.undecryptable: list[MegolmEvent] = []
        self.invites: list[Invite] = []
        self.typing: list[tuple[str, list[str]]] = []
        """Each typing notice synced: the room and who was typing in it."""

    @property
    def user_id(self) -> str:
        return str(self.client.user_id)

    @property
    def next_batch(self) -> str:
        """The sync token to hand back after a restart so old events are not replayed."""
        return str(self.client.next_batch)

    @property
    def encrypts(self) -> bool:
        """Whether this client has end-to-end encryption on."""
        return self.client.olm is not None

    def checkpoint(self) -> int:
        """A mark in the event stream: wait_for_message(after=mark) ignores older messages."""
        return len(self.events)

    def messages(self, room_id: str | None = None) -> list[ReceivedMessage]:
        """Every message received so far (in one room, or all), edits applied."""
        events = [e for e in self.events if room_id is None or e.room_id == room_id]
        return current_messages(events)

    async def sync(self, timeout_ms: int = 0, *, full_state: bool = False) -> None:
        """One sync: record what arrived, then do the key bookkeeping encryption needs."""
        response = _checked(await self.client.sync(timeout=timeout_ms, full_state=full_state))
        self._record(response)
        if self.encrypts:
            await self._exchange_keys()

    async def create_room(
        self,
        *,
        invite: Sequence[str] = (),
        encrypted: bool = False,
        direct: bool = False,
        name: str | None = None,
    ) -> str:
        """Create a private room, inviting `invite`; return its room ID."""
        initial_state = [_encryption_state()] if encrypted else []
        response = await self.client.room_create(
            name=name,
            invite=invite,
            is_direct=direct,
            preset=RoomPreset.trusted_private_chat if direct else RoomPreset.private_chat,
            initial_state=initial_state,
        )
        room_id = str(_checked(response).room_id)
        if direct:
            await self._mark_direct(room_id, invite)
        return room_id

    async def invite(self, room_id: str, user_id: str) -> None:
        """Invite `user_id` into `room_id`."""
        _checked(await self.client.room_invite(room_id, user_id))

    async def join(self, room_id: str) -> None:
        """Join `room_id` (accepting an invite), then sync so the room is known locally."""
        _checked(await self.client.join(room_id))
        await self.sync()

    async def send_text(self, room_id: str, body: str, *, msgtype: str = "m.text") -> str:
        """Send a plain message; return its event ID."""
        return await self.send_content(room_id, {"msgtype": msgtype, "body": body})

    async def edit_text(self, room_id: str, event_id: str, body: str) -> str:
        """Replace the text of our message `event_id` (m.replace); return the edit's ID."""
        new_content = {"msgtype": "m.text", "body": body}
        content = {
            "msgtype": "m.text",
            "body": f"* {body}",
            "m.new_content": new_content,
            "m.relates_to": {"rel_type": "m.replace", "event_id": event_id},
        }
        return await self.send_content(room_id, content)

    async def send_content(self, room_id: str, content: JsonDict) -> str:
        """Send any m.room.message content; encrypted rooms get it encrypted."""
        if self.encrypts:
            # The megolm session must reach members who joined since our last sync.
            await self.sync()
        response = await self.client.room_send(
            room_id, "m.room.message", dict(content), ignore_unverified_devices=True
        )
        return str(_checked(response).event_id)

    async def wait_for_message(
        self, match: MessageMatch, *, after: int = 0, timeout: float = WAIT_TIMEOUT
    ) -> ReceivedMessage:
        """The first message matching `match` that arrived or changed at or after `after`."""

        def found() -> ReceivedMessage | None:
            matches = (m for m in self.messages() if m.sequence >= after and match(m))
            return next(matches, None)

        return await self._wait_for(found, "a matching message", timeout)

    async def wait_for_invite(
        self, room_id: str | None = None, *, timeout: float = WAIT_TIMEOUT
    ) -> Invite:
        """The first invite received (into `room_id` when given)."""

        def found() -> Invite | None:
            invites = (i for i in self.invites if room_id in (None, i.room_id))
            return next(invites, None)

        return await self._wait_for(found, f"an invite into {room_id or 'any room'}", timeout)

    async def wait_for_member(
        self, room_id: str, user_id: str, *, timeout: float = WAIT_TIMEOUT
    ) -> None:
        """Return once this player has seen `user_id` join `room_id` (say, a bot accepting)."""

        def found() -> bool | None:
            room = self.client.rooms.get(room_id)
            joined = room is not None and user_id in room.users
            joined = joined and user_id not in room.invited_users
            return True if joined else None

        await self._wait_for(found, f"{user_id} in {room_id}", timeout)

    async def _wait_for(
        self, found: Callable[[], Found | None], wanted: str, timeout: float
    ) -> Found:
        deadline = time.monotonic() + timeout
        while (result := found()) is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"{self.user_id} saw no {wanted}; received: {self._summary()}")
            await self.sync(min(POLL_MS, int(remaining * 1000)))
        return result

    def _summary(self) -> str:
        lines = [f"{m.sender}: {m.body!r}" for m in self.messages()]
        if self.undecryptable:
            lines.append(f"{len(self.undecryptable)} undecryptable events")
        return "; ".join(lines) or "nothing"

    def _record(self, response: SyncResponse) -> None:
        for room_id, info in response.rooms.join.items():
            for event in info.timeline.events:
                if isinstance(event, MegolmEvent):
                    self.undecryptable.append(event)
                    continue
                encrypted = bool(getattr(event, "decrypted", False))
                sequence = len(self.events)
                self.events.append(TimelineEvent(sequence, room_id, event.source, encrypted))
            for notice in info.ephemeral:
                if isinstance(notice, TypingNoticeEvent):
                    self.typing.append((room_id, list(notice.users)))
        for room_id, invited in response.rooms.invite.items():
            for state in invited.invite_state:
                if isinstance(state, InviteMemberEvent) and state.state_key == self.user_id:
                    is_direct = bool(state.content.get("is_direct", False))
                    self.invites.append(Invite(room_id, state.sender, is_direct))

    async def _exchange_keys(self) -> None:
        # What nio's sync_forever does between syncs; these tests sync by hand.
        if self.client.should_upload_keys:
            _checked(await self.client.keys_upload())
        if self.client.should_query_keys:
            _checked(await self.client.keys_query())
        if self.client.should_claim_keys:
            users = self.client.get_users_for_key_claiming()
            _checked(await self.client.keys_claim(users))
        await self.client.send_to_device_messages()

    async def _mark_direct(self, room_id: str, partners: Sequence[str]) -> None:
        # Clients list their direct rooms in m.direct account data; nio can read it only.
        listed = await self.client.list_direct_rooms()
        direct = {} if isinstance(listed, ErrorResponse) else dict(listed.rooms)
        for partner in partners:
            direct[partner] = [*direct.get(partner, []), room_id]
        path = f"/_matrix/client/v3/user/{self.user_id}/account_data/m.direct"
        headers = {"Authorization": f"Bearer {self.client.access_token}"}
        response = await self.client.send("PUT", path, json.dumps(direct), headers)
        if response.status != 200:
            raise MatrixRequestFailed(f"m.direct not stored: HTTP {response.status}")


def _encryption_state() -> dict[str, Any]:
    return {
        "type": "m.room.encryption",
        "state_key": "",
        "content": {"algorithm": "m.megolm.v1.aes-sha2"},
    }


@asynccontextmanager
async def open_player(
    homeserver: Homeserver,
    account: Account,
    *,
    store_dir: Path | None = None,
    since: str | None = None,
) -> AsyncIterator[Player]:
    """A connected player on `account`'s device; encryption on when `store_dir` is given.

    Without `since` the first sync fetches recent history, as a new client would; with it,
    only events after that token arrive, though room state comes in full.
    """
    if store_dir is not None:
        store_dir.mkdir(parents=True, exist_ok=True)
    config = AsyncClientConfig(encryption_enabled=store_dir is not None, store_sync_tokens=False)
    client = AsyncClient(
        homeserver.base_url,
        account.user_id,
        device_id=account.device_id,
        store_path=str(store_dir) if store_dir else "",
        config=config,
    )
    client.restore_login(account.user_id, account.device_id, account.access_token)
    player = Player(client)
    try:
        if since is not None:
            client.next_batch = since
        # Full state after a restart: without it a client that kept only its token
        # would not know its rooms, and could not encrypt for their members.
        await player.sync(full_state=since is not None)
        yield player
    finally:
        await client.close()


async def sync_all(*players: Player) -> None:
    """Sync every player once, concurrently, so each sees what the others did."""
    await asyncio.gather(*(player.sync() for player in players))
