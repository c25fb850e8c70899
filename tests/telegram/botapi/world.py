"""The state of the simulated Telegram: one bot, its users, chats, messages and updates.

Everything here is synchronous and runs in the test's event loop; waiting is done through
`changed()`, which every state change wakes.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable, Iterable
from typing import Any

from .errors import bad_request, forbidden
from .formatting import detect_entities
from .records import (
    PATIENCE,
    Account,
    ApiCall,
    CallbackQueryRecord,
    Chat,
    InlineAnswer,
    InlineQueryRecord,
    StoredFile,
    StoredMessage,
    Upload,
    WebhookConfig,
)
from .users import SimUser

JsonDict = dict[str, Any]

# What getUpdates and webhooks deliver when allowed_updates is empty or never set.
DEFAULT_ALLOWED_UPDATES = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "business_connection",
        "business_message",
        "edited_business_message",
        "deleted_business_messages",
        "inline_query",
        "chosen_inline_result",
        "callback_query",
        "shipping_query",
        "pre_checkout_query",
        "purchased_paid_media",
        "poll",
        "poll_answer",
        "my_chat_member",
        "chat_join_request",
        "chat_boost",
        "removed_chat_boost",
    }
)
_MEMBER_STATUSES = ("creator", "administrator", "member")


class World:
    """One bot and everyone it talks to; tests act on it and read it."""

    def __init__(
        self,
        *,
        bot_username: str = "BohnanzaTestBot",
        bot_name: str = "Bohnanza",
        bot_id: int = 7_000_000_001,
        token: str | None = None,
    ) -> None:
        self.bot = Account(bot_id, bot_name, username=bot_username, is_bot=True)
        self.token = token or f"{bot_id}:AAtest-token-{bot_username}"
        # Switches mirroring BotFather settings and server behaviour.
        self.privacy_mode = True
        self.supports_inline_queries = True
        self.inline_cache_enabled = True
        self.query_lifetime: float | None = 15.0
        self.users: dict[int, SimUser] = {}
        self.chats: dict[int, Chat] = {}
        self.updates: list[JsonDict] = []
        self.pending: list[JsonDict] = []
        self.allowed_updates = DEFAULT_ALLOWED_UPDATES
        self.webhook: WebhookConfig | None = None
        self.commands: dict[tuple[str, str], list[JsonDict]] = {}
        self.calls: list[ApiCall] = []
        self.in_flight = 0
        self.at_work: Callable[[], bool] = lambda: False
        """Whether the bot is at work on something it has not shown yet (a bot that runs in the
        test's own process says so; Telegram itself cannot tell)."""
        self.server_errors: list[str] = []
        self.callback_queries: dict[str, CallbackQueryRecord] = {}
        self.inline_queries: dict[str, InlineQueryRecord] = {}
        # (query, offset, person or None for everyone) -> (answer, expiry in monotonic time)
        self.inline_cache: dict[tuple[str, str, int | None], tuple[InlineAnswer, float]] = {}
        self.files: dict[str, StoredFile] = {}
        """Every file the bot sent, by file_id."""
        self.poll_generation = 0
        self._changed = asyncio.Event()
        self._update_ids = itertools.count(100_000_001)
        self._user_ids = itertools.count(1_000_001)
        self._group_ids = itertools.count(4_000_001)
        self._query_ids = itertools.count(1)
        self._file_ids = itertools.count(1)

    # -- people and chats -------------------------------------------------------------------

    def create_user(
        self,
        first_name: str,
        *,
        username: str | None = None,
        last_name: str | None = None,
        language_code: str | None = "en",
    ) -> SimUser:
        """A new person who has not yet started the bot."""
        account = Account(
            next(self._user_ids), first_name, username, last_name, False, language_code
        )
        user = SimUser(self, account)
        self.users[account.id] = user
        return user

    def create_group(
        self, title: str, members: Iterable[SimUser], *, supergroup: bool = False
    ) -> Chat:
        """A group (or supergroup) the first member created; the bot is not in it yet."""
        number = next(self._group_ids)
        chat_id = -(1_000_000_000_000 + number) if supergroup else -number
        chat = Chat(chat_id, "supergroup" if supergroup else "group", title=title)
        for index, member in enumerate(members):
            chat.members[member.id] = "creator" if index == 0 else "member"
        self.chats[chat_id] = chat
        return chat

    def private_chat(self, account: Account) -> Chat:
        """The private chat between this person and the bot."""
        if account.id not in self.chats:
            self.chats[account.id] = Chat(account.id, "private", owner=account)
            self.chats[account.id].members[account.id] = "member"
        return self.chats[account.id]

    def add_bot(self, chat: Chat, by: SimUser, *, admin: bool = False) -> None:
        """`by` adds the bot to a group: a my_chat_member update and a service message."""
        self.set_bot_status(chat, by.account, "administrator" if admin else "member")
        message = self.post(
            chat, by.account, None, extra={"new_chat_members": [self.bot.to_wire()]}
        )
        message.extra["new_chat_member"] = self.bot.to_wire()
        message.extra["new_chat_participant"] = self.bot.to_wire()
        self.enqueue("message", message.to_wire())

    def remove_bot(self, chat: Chat, by: SimUser) -> None:
        """`by` removes the bot from a group."""
        self.set_bot_status(chat, by.account, "left")

    def set_bot_status(self, chat: Chat, by: Account, status: str) -> None:
        """Change the bot's membership in a chat and tell it with my_chat_member."""
        old = chat.bot_status
        chat.bot_status = status
        self.enqueue(
            "my_chat_member",
            {
                "chat": chat.to_wire(),
                "from": by.to_wire(),
                "date": now(),
                "old_chat_member": chat_member(self.bot, old),
                "new_chat_member": chat_member(self.bot, status),
            },
        )

    def find_chat(self, ref: int | str | None) -> Chat:
        """The chat a chat_id parameter names, or 400 chat not found.

        A person the bot could know of has a private chat with it even before /start.
        """
        if isinstance(ref, int) and ref in self.chats:
            return self.chats[ref]
        if isinstance(ref, int) and ref in self.users:
            return self.private_chat(self.users[ref].account)
        raise bad_request("chat not found")

    def check_bot_can_send(self, chat: Chat) -> None:
        """Raise the 403 the real API gives when the bot may not write to this chat."""
        if chat.type == "private":
            if chat.bot_status == "kicked":
                raise forbidden("bot was blocked by the user")
            if chat.bot_status != "member":
                raise forbidden("bot can't initiate conversation with a user")
        elif chat.bot_status == "kicked":
            raise forbidden(f"bot was kicked from the {chat.type} chat")
        elif chat.bot_status not in _MEMBER_STATUSES:
            raise forbidden(f"bot is not a member of the {chat.type} chat")

    # -- messages and updates ---------------------------------------------------------------

    def post(
        self,
        chat: Chat,
        sender: Account,
        text: str | None,
        *,
        entities: list[JsonDict] | None = None,
        reply_markup: JsonDict | None = None,
        reply_to: StoredMessage | None = None,
        extra: JsonDict | None = None,
    ) -> StoredMessage:
        """Store a new message in a chat (no update is sent)."""
        message = StoredMessage(
            chat,
            len(chat.history) + 1,
            sender,
            now(),
            text,
            entities or [],
            reply_markup,
            reply_to,
            extra=extra or {},
        )
        chat.history.append(message)
        if reply_markup is not None and "inline_keyboard" not in reply_markup:
            # Reply keyboards stay on screen until replaced or removed.
            chat.reply_keyboard = None if reply_markup.get("remove_keyboard") else reply_markup
        self.notify()
        return message

    def store_file(self, upload: Upload, mime_type: str) -> StoredFile:
        """Keep an uploaded file under new ids, as Telegram does with every upload."""
        number = next(self._file_ids)
        stored = StoredFile(
            f"BQACAgIAAxkDAAI{number:012d}",
            f"AgAD{number:08d}",
            upload.filename,
            mime_type,
            upload.data,
        )
        self.files[stored.file_id] = stored
        return stored

    def user_says(
        self,
        user: Account,
        chat: Chat,
        text: str,
        reply_to: StoredMessage | None = None,
        extra: JsonDict | None = None,
    ) -> StoredMessage:
        """A person writes in a chat; the bot gets it if privacy mode lets it through."""
        message = self.post(
            chat, user, text, entities=detect_entities(text), reply_to=reply_to, extra=extra
        )
        if self.bot_receives(message):
            self.enqueue("message", message.to_wire())
        return message

    def bot_receives(self, message: StoredMessage) -> bool:
        """Whether a person's message reaches the bot, following privacy mode rules."""
        chat = message.chat
        if chat.type == "private":
            return chat.bot_status == "member"
        if chat.bot_status not in _MEMBER_STATUSES:
            return False
        if not self.privacy_mode or chat.bot_status == "administrator":
            return True
        replied = message.reply_to
        if replied is not None and replied.sender.id == self.bot.id:
            return True
        if message.extra.get("via_bot", {}).get("id") == self.bot.id:
            return True
        return any(self._command_is_ours(message, entity) for entity in message.entities)

    def _command_is_ours(self, message: StoredMessage, entity: JsonDict) -> bool:
        if entity["type"] != "bot_command" or message.text is None:
            return False
        command = message.text.encode("utf-16-le")[
            entity["offset"] * 2 : (entity["offset"] + entity["length"]) * 2
        ].decode("utf-16-le")
        _, _, addressee = command.partition("@")
        return not addressee or addressee.lower() == (self.bot.username or "").lower()

    def enqueue(self, kind: str, body: JsonDict) -> JsonDict:
        """Create an update; it is queued for the bot if allowed_updates lets it through."""
        update = {"update_id": next(self._update_ids), kind: body}
        self.updates.append(update)
        if kind in self.allowed_updates:
            self.pending.append(update)
        self.notify()
        return update

    def redeliver(self, update_id: int | None = None) -> JsonDict:
        """Queue an update again with the same update_id (default: the latest), as after a
        lost confirmation."""
        update = self.updates[-1] if update_id is None else self.update(update_id)
        self.pending.append(update)
        self.notify()
        return update

    def update(self, update_id: int) -> JsonDict:
        """The update with this id."""
        for update in self.updates:
            if update["update_id"] == update_id:
                return update
        raise LookupError(f"no update {update_id}")

    def confirm(self, offset: int | None) -> None:
        """getUpdates offset semantics: forget updates below offset; negative keeps the last."""
        if offset is None:
            return
        if offset < 0:
            self.pending = self.pending[offset:]
        else:
            self.pending = [u for u in self.pending if u["update_id"] >= offset]

    def new_callback_query(
        self, user: Account, message: StoredMessage | None, data: str | None
    ) -> CallbackQueryRecord:
        """A press on an inline button, sent to the bot as a callback_query update."""
        query = CallbackQueryRecord(self._query_id(), user, message, data, time.monotonic())
        self.callback_queries[query.id] = query
        body: JsonDict = {"id": query.id, "from": user.to_wire()}
        if message is not None:
            body["message"] = message.to_wire()
            body["chat_instance"] = message.chat.chat_instance
        if data is not None:
            body["data"] = data
        self.enqueue("callback_query", body)
        return query

    def new_inline_query(
        self, user: Account, query: str, offset: str, chat_type: str | None
    ) -> InlineQueryRecord:
        """Text typed after the bot's @username, sent as an inline_query update."""
        record = InlineQueryRecord(self._query_id(), user, query, offset, time.monotonic())
        self.inline_queries[record.id] = record
        body: JsonDict = {"id": record.id, "from": user.to_wire(), "query": query}
        body["offset"] = offset
        if chat_type is not None:
            body["chat_type"] = chat_type
        self.enqueue("inline_query", body)
        return record

    def cached_inline_answer(self, user: Account, query: str, offset: str) -> InlineAnswer | None:
        """A still-valid cached answer the server would show without asking the bot."""
        if not self.inline_cache_enabled:
            return None
        for personal_to in (user.id, None):
            cached = self.inline_cache.get((query, offset, personal_to))
            if cached is not None and time.monotonic() < cached[1]:
                return cached[0]
        return None

    def _query_id(self) -> str:
        return str(6_000_000_000_000_000 + next(self._query_ids) * 7919)

    # -- bookkeeping and waiting ------------------------------------------------------------

    def record_call(self, call: ApiCall) -> None:
        """Log one API request."""
        self.calls.append(call)
        self.notify()

    def calls_since(self, mark: int = 0, method: str | None = None) -> list[ApiCall]:
        """Calls made after `mark` (a former `len(world.calls)`), optionally of one method."""
        calls = self.calls[mark:]
        if method is None:
            return calls
        return [call for call in calls if call.method.lower() == method.lower()]

    def notify(self) -> None:
        """Wake everyone waiting for a change."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def changed(self, timeout: float) -> bool:
        """Wait until something changes; False if nothing did within `timeout` seconds."""
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def wait_until(
        self, condition: Callable[[], bool], timeout: float = PATIENCE, what: str = "condition"
    ) -> None:
        """Wait until `condition()` holds; TimeoutError naming `what` if it does not in time."""
        deadline = time.monotonic() + timeout
        while not condition():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"{what} did not hold within {timeout} s")
            await self.changed(remaining)

    async def settle(self, quiet: float = 0.2, timeout: float = PATIENCE) -> None:
        """Wait until the bot has fetched every update, is not at work (where it says so:
        `at_work`) and made no request for `quiet` s."""
        deadline = time.monotonic() + timeout
        while True:
            idle = not self.pending and self.in_flight == 0 and not self.at_work()
            if idle and not await self.changed(quiet):
                return
            if time.monotonic() >= deadline:
                raise TimeoutError(f"the bot did not settle within {timeout} s")
            if not idle:
                await self.changed(max(0.0, deadline - time.monotonic()))


def now() -> int:
    """The Unix time stamps the API puts in `date` fields."""
    return int(time.time())


def chat_member(account: Account, status: str) -> JsonDict:
    """A ChatMember object as the API sends it for this status."""
    member: JsonDict = {"status": status, "user": account.to_wire()}
    if status == "creator":
        member["is_anonymous"] = False
    elif status == "administrator":
        member.update(dict.fromkeys(_ADMIN_RIGHTS, True))
        member.update(can_be_edited=False, is_anonymous=False)
    elif status == "kicked":
        member["until_date"] = 0
    return member


_ADMIN_RIGHTS = (
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_pin_messages",
)
