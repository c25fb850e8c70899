"""The chat port on a Matrix homeserver, through matrix-nio's `AsyncClient`."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from typing import Any

from nio import (
    AsyncClient,
    MatrixRoom,
    RoomCreateResponse,
    RoomGetStateResponse,
    RoomPreset,
    RoomSendResponse,
    RoomTypingResponse,
    UploadResponse,
)

from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Message
from bohnanza.core.app.ports import Capabilities, MessageGone, Unreachable

from .state import MatrixState
from .translate import DEFAULT_PREFIX, PLATFORM, edit_content, message_content, reply_content

log = logging.getLogger(__name__)

CAPABILITIES = Capabilities(
    buttons=False,
    edits=True,
    deletes=True,
    private_messages=True,
    personal_answers=False,
    inline_results=False,
    max_text=30_000,
    files=True,
    verified_ids=True,
)

FILE_TYPE = "text/html"
"""What the files the application sends are (a game's page)."""
TYPING_MS = 10_000
"""How long a typing notice lasts unless taken back (the runner renews it sooner)."""


class MatrixSendFailed(RuntimeError):
    """The homeserver refused a message."""


class MatrixPort:
    """Notices in rooms, edits by m.replace, private hands in direct rooms the bot opens."""

    platform = PLATFORM
    capabilities = CAPABILITIES

    def __init__(self, client: AsyncClient, state: MatrixState, save: Callable[[], None]) -> None:
        self.client = client
        self.state = state
        self._save = save
        self.prefix = DEFAULT_PREFIX
        """The command prefix in rooms, as the bot was started with."""
        self.reach_hint = f"https://matrix.to/#/{client.user_id}"
        """Where a player opens a direct chat with the bot (shown when he cannot be reached)."""

    def how_to_reach(self, tr: Translator) -> str:
        """Start a direct chat with the bot's account, then ask for the hand again."""
        text = tr.gettext("Start a direct chat with me, then send '{command}' here.")
        return f"{text.format(command=f'{self.prefix} hand')} {self.reach_hint}"

    async def _known(self, room: str) -> None:
        """Make sure the client knows `room`, and whether it is encrypted, before sending.

        With encryption on, nio sends only to rooms it knows, and it learns of a room only at
        the next sync: a direct room joined in this sync would stay silent until then."""
        client = self.client
        if client.olm is None or room in client.rooms:
            return
        state = await client.room_get_state(room)
        events = state.events if isinstance(state, RoomGetStateResponse) else []
        encrypted = any(event.get("type") == "m.room.encryption" for event in events)
        client.rooms.setdefault(room, MatrixRoom(room, client.user_id, encrypted))

    async def _send(self, room: str, content: dict[str, Any]) -> str:
        await self._known(room)
        response = await self.client.room_send(
            room, "m.room.message", content, ignore_unverified_devices=True
        )
        if not isinstance(response, RoomSendResponse):
            raise MatrixSendFailed(f"{room}: {response}")
        return str(response.event_id)

    async def send(self, room: str, message: Message) -> str:
        return await self._send(room, message_content(message))

    async def send_file(self, room: str, filename: str, data: bytes, caption: str) -> str:
        """The file uploaded to the media repository (encrypted first in an encrypted room),
        then one m.file event: `filename` names the file and `body` is the caption (a media
        caption, Matrix 1.10; clients that know none show it as the file's title)."""
        await self._known(room)
        known = self.client.rooms.get(room)
        encrypted = self.client.olm is not None and known is not None and known.encrypted
        uploaded, keys = await self.client.upload(
            io.BytesIO(data),
            content_type=FILE_TYPE,
            filename=filename,
            encrypt=encrypted,
            filesize=len(data),
        )
        if not isinstance(uploaded, UploadResponse):
            raise MatrixSendFailed(f"{room}: upload of {filename}: {uploaded}")
        return await self._send(
            room, file_content(uploaded.content_uri, filename, data, caption, keys)
        )

    async def edit(self, room: str, message_id: str, message: Message) -> None:
        try:
            await self._send(room, edit_content(message_id, message))
        except MatrixSendFailed:
            raise MessageGone(message_id) from None

    async def delete(self, room: str, message_id: str) -> None:
        await self.client.room_redact(room, message_id)

    async def direct_room(self, user_id: str) -> str:
        """The player's direct room with the bot, opened (and remembered) if there is none.

        A player who left or refused it is Unreachable until he opens one with the bot: he is
        not invited again and again."""
        room = self.state.direct_rooms.get(user_id)
        if room is not None:
            return room
        if user_id in self.state.unreachable:
            raise Unreachable(user_id)
        response = await self.client.room_create(
            is_direct=True, invite=[user_id], preset=RoomPreset.trusted_private_chat
        )
        if not isinstance(response, RoomCreateResponse):
            raise Unreachable(user_id)
        # New and unencrypted: known at once, so the first hand goes out before the next sync.
        self.client.rooms.setdefault(
            response.room_id, MatrixRoom(response.room_id, self.client.user_id)
        )
        self.state.direct_rooms[user_id] = response.room_id
        self._save()
        return str(response.room_id)

    async def send_private(self, user_id: str, message: Message) -> str:
        room = await self.direct_room(user_id)
        try:
            return await self.send(room, message)
        except MatrixSendFailed:
            raise Unreachable(user_id) from None

    async def edit_private(self, user_id: str, message_id: str, message: Message) -> None:
        room = await self.direct_room(user_id)
        await self.edit(room, message_id, message)

    async def thinking(self, inbound: Inbound, busy: bool) -> None:
        """The typing notice, until taken back or for `TYPING_MS` at most."""
        response = await self.client.room_typing(inbound.room, typing_state=busy, timeout=TYPING_MS)
        if not isinstance(response, RoomTypingResponse):
            raise MatrixSendFailed(f"{inbound.room}: typing notice: {response}")

    async def answer(self, inbound: Inbound, text: str) -> None:
        if inbound.delivery_id:
            await self._send(inbound.room, reply_content(inbound.delivery_id, text))
        else:
            await self._send(inbound.room, message_content(Message(text)))


def file_content(
    url: str, filename: str, data: bytes, caption: str, keys: dict[str, Any] | None
) -> dict[str, Any]:
    """An m.file event's content: the file at `url` (with `keys`, an encrypted file's), its
    name, type and size, and the caption as its body."""
    content: dict[str, Any] = {
        "msgtype": "m.file",
        "body": caption or filename,
        "filename": filename,
        "info": {"mimetype": FILE_TYPE, "size": len(data)},
    }
    if keys is None:
        content["url"] = url
    else:
        content["file"] = {"url": url, **keys}
    return content
