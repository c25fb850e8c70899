"""The things the simulated Telegram holds: accounts, chats, messages, queries, calls."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

PATIENCE = 120.0
"""Seconds a test waits for what the bot is to do before it is taken not to come: far more than
it takes, however loaded the machine (a wait ends as soon as what it waits for happens)."""

JsonDict = dict[str, Any]


@dataclass
class Account:
    """A Telegram account: a person or the bot."""

    id: int
    first_name: str
    username: str | None = None
    last_name: str | None = None
    is_bot: bool = False
    language_code: str | None = None

    def to_wire(self) -> JsonDict:
        """The User object the API sends."""
        user: JsonDict = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if getattr(self, key) is not None:
                user[key] = getattr(self, key)
        return user


@dataclass
class MessageVersion:
    """What a message looked like before one of its edits."""

    text: str | None
    entities: list[JsonDict]
    reply_markup: JsonDict | None
    edit_date: int | None


@dataclass(frozen=True)
class Upload:
    """A file part of a multipart request, as it arrived."""

    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True)
class StoredFile:
    """A file the server keeps (a sent document): its ids and its bytes."""

    file_id: str
    file_unique_id: str
    file_name: str
    mime_type: str
    data: bytes = field(repr=False)

    def to_wire(self) -> JsonDict:
        """The Document object the API sends."""
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_name": self.file_name,
            "mime_type": self.mime_type,
            "file_size": len(self.data),
        }


@dataclass(eq=False)
class StoredMessage:
    """A message as every member of its chat sees it now; earlier versions kept in `versions`."""

    chat: Chat = field(repr=False)
    message_id: int
    sender: Account
    date: int
    text: str | None
    entities: list[JsonDict] = field(default_factory=list)
    reply_markup: JsonDict | None = None
    reply_to: StoredMessage | None = field(default=None, repr=False)
    edit_date: int | None = None
    deleted: bool = False
    versions: list[MessageVersion] = field(default_factory=list, repr=False)
    extra: JsonDict = field(default_factory=dict, repr=False)
    document: StoredFile | None = None
    caption: str | None = None
    caption_entities: list[JsonDict] = field(default_factory=list)
    silent: bool = field(default=False, repr=False)
    """Sent with disable_notification: the reader's device stays quiet (not on the wire)."""

    @property
    def from_bot(self) -> bool:
        """Whether the bot sent this message."""
        return self.sender.is_bot

    @property
    def inline_keyboard(self) -> list[list[JsonDict]]:
        """The rows of inline buttons under the message, empty if none."""
        if self.reply_markup is None:
            return []
        rows: list[list[JsonDict]] = self.reply_markup.get("inline_keyboard", [])
        return rows

    @property
    def button_texts(self) -> list[list[str]]:
        """The labels of the inline buttons, row by row."""
        return [[button["text"] for button in row] for row in self.inline_keyboard]

    def button(self, text_or_data: str) -> JsonDict:
        """The inline button with this label, or else with this callback_data."""
        buttons = [button for row in self.inline_keyboard for button in row]
        for key in ("text", "callback_data"):
            for button in buttons:
                if button.get(key) == text_or_data:
                    return button
        labels = [button["text"] for button in buttons]
        raise LookupError(f"no button {text_or_data!r} on message {self.message_id}: {labels}")

    def to_wire(self, *, with_reply: bool = True) -> JsonDict:
        """The Message object the API sends."""
        message: JsonDict = {
            "message_id": self.message_id,
            "from": self.sender.to_wire(),
            "chat": self.chat.to_wire(),
            "date": self.date,
        }
        if self.text is not None:
            message["text"] = self.text
        if self.entities:
            message["entities"] = self.entities
        if self.reply_markup is not None and "inline_keyboard" in self.reply_markup:
            message["reply_markup"] = self.reply_markup
        if self.document is not None:
            message["document"] = self.document.to_wire()
        if self.caption is not None:
            message["caption"] = self.caption
        if self.caption_entities:
            message["caption_entities"] = self.caption_entities
        if self.edit_date is not None:
            message["edit_date"] = self.edit_date
        if with_reply and self.reply_to is not None:
            message["reply_to_message"] = self.reply_to.to_wire(with_reply=False)
        message.update(self.extra)
        return message


@dataclass(eq=False)
class Chat:
    """A private chat with the bot, a group or a supergroup, and everything said in it."""

    id: int
    type: str
    title: str | None = None
    owner: Account | None = None
    members: dict[int, str] = field(default_factory=dict)
    bot_status: str = "left"
    history: list[StoredMessage] = field(default_factory=list, repr=False)
    reply_keyboard: JsonDict | None = field(default=None, repr=False)
    actions: list[str] = field(default_factory=list, repr=False)

    @property
    def messages(self) -> list[StoredMessage]:
        """The messages still visible, oldest first, edits applied."""
        return [message for message in self.history if not message.deleted]

    @property
    def bot_messages(self) -> list[StoredMessage]:
        """The visible messages the bot sent."""
        return [message for message in self.messages if message.from_bot]

    @property
    def bot_documents(self) -> list[StoredMessage]:
        """The visible messages the bot sent that carry a document."""
        return [message for message in self.bot_messages if message.document is not None]

    def message(self, message_id: int) -> StoredMessage | None:
        """The message with this id, deleted or not."""
        for message in self.history:
            if message.message_id == message_id:
                return message
        return None

    @property
    def chat_instance(self) -> str:
        """The opaque chat_instance string sent with callback queries from this chat."""
        return str(abs(self.id) * 7919 % 10**18 + 10**15)

    def to_wire(self) -> JsonDict:
        """The Chat object the API sends inside messages."""
        chat: JsonDict = {"id": self.id, "type": self.type}
        if self.type == "private" and self.owner is not None:
            chat.update({k: v for k, v in self.owner.to_wire().items() if k in _PRIVATE_CHAT_KEYS})
        else:
            chat["title"] = self.title
        return chat


_PRIVATE_CHAT_KEYS = ("first_name", "last_name", "username")


@dataclass(frozen=True)
class CallbackAnswer:
    """The bot's answerCallbackQuery: the toast or alert the user saw."""

    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int


@dataclass(eq=False)
class CallbackQueryRecord:
    """A button press sent to the bot, and the bot's answer once it came."""

    id: str
    user: Account
    message: StoredMessage | None
    data: str | None
    created: float
    answer: CallbackAnswer | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    async def wait_answer(self, timeout: float = PATIENCE) -> CallbackAnswer:
        """Wait until the bot answered this press; TimeoutError if it did not in time."""
        await asyncio.wait_for(self.answered.wait(), timeout)
        assert self.answer is not None
        return self.answer


@dataclass(frozen=True)
class InlineAnswer:
    """The bot's answerInlineQuery: the results shown above the user's keyboard."""

    results: list[JsonDict]
    cache_time: int
    is_personal: bool
    next_offset: str
    button: JsonDict | None
    from_cache: bool = False

    @property
    def ids(self) -> list[str]:
        """The result ids, in order."""
        return [str(result["id"]) for result in self.results]


@dataclass(eq=False)
class InlineQueryRecord:
    """An inline query sent to the bot, and the bot's answer once it came."""

    id: str
    user: Account
    query: str
    offset: str
    created: float
    answer: InlineAnswer | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event, repr=False)


@dataclass(frozen=True)
class ApiCall:
    """One request the bot made: what, to which chat, when, and how it went."""

    method: str
    params: JsonDict
    chat_id: int | str | None
    time: float
    status: int
    description: str | None = None


@dataclass
class WebhookConfig:
    """A webhook set with setWebhook, and how delivery to it is going."""

    url: str
    secret_token: str | None = None
    max_connections: int = 40
    ip_address: str | None = None
    last_error_date: int | None = None
    last_error_message: str | None = None
    deliveries: int = 0
    failures: int = 0
