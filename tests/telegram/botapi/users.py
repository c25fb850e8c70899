"""Simulated people: they start the bot, write, press buttons and type inline queries."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from .records import PATIENCE, Account, CallbackQueryRecord, Chat, InlineAnswer, StoredMessage

if TYPE_CHECKING:
    from .world import World


class SimUser:
    """A person using Telegram; every action becomes the update the real client would cause."""

    def __init__(self, world: World, account: Account) -> None:
        self.world = world
        self.account = account

    def __repr__(self) -> str:
        return f"SimUser({self.account.first_name!r}, id={self.account.id})"

    @property
    def id(self) -> int:
        """The Telegram user id, also the id of the private chat with the bot."""
        return self.account.id

    @property
    def private_chat(self) -> Chat:
        """The private chat with the bot."""
        return self.world.private_chat(self.account)

    @property
    def private_messages(self) -> list[StoredMessage]:
        """What the bot has written to this person in private, edits and deletions applied."""
        return self.private_chat.bot_messages

    def start_bot(self, payload: str | None = None) -> StoredMessage:
        """Press START in the private chat: sends /start (with a deep-link payload if given)."""
        chat = self.private_chat
        if chat.bot_status != "member":
            self.world.set_bot_status(chat, self.account, "member")
        return self.say(chat, "/start" if payload is None else f"/start {payload}")

    def block_bot(self) -> None:
        """Block the bot: it gets my_chat_member 'kicked' and 403 on further messages."""
        self.world.set_bot_status(self.private_chat, self.account, "kicked")

    def say(
        self, chat: Chat | None, text: str, *, reply_to: StoredMessage | None = None
    ) -> StoredMessage:
        """Write `text` in a chat (None: the private chat with the bot)."""
        chat = self.private_chat if chat is None else chat
        if chat.type == "private":
            if chat.bot_status == "kicked":
                raise RuntimeError(f"{self} blocked the bot and cannot write to it")
            if chat.bot_status != "member":
                # The client shows only START until the person presses it.
                self.world.set_bot_status(chat, self.account, "member")
        elif self.id not in chat.members:
            raise RuntimeError(f"{self} is not a member of {chat.title!r}")
        return self.world.user_says(self.account, chat, text, reply_to)

    def press(self, message: StoredMessage, button: str) -> CallbackQueryRecord:
        """Press the inline button with this label (or callback_data) under `message`."""
        if message.deleted:
            raise LookupError(f"message {message.message_id} was deleted")
        data = message.button(button).get("callback_data")
        if data is None:
            raise LookupError(f"button {button!r} sends no callback_data")
        return self.world.new_callback_query(self.account, message, data)

    def press_data(self, message: StoredMessage | None, data: str | None) -> CallbackQueryRecord:
        """Send a callback_query with any data for any message, as a forged client could."""
        return self.world.new_callback_query(self.account, message, data)

    def press_key(self, chat: Chat, text: str) -> StoredMessage:
        """Press a button of the reply keyboard shown in `chat`: it sends its label."""
        keyboard = chat.reply_keyboard or {}
        labels = [
            button if isinstance(button, str) else button.get("text")
            for row in keyboard.get("keyboard", [])
            for button in row
        ]
        if text not in labels:
            raise LookupError(f"no reply key {text!r} in {chat.title or chat.id}: {labels}")
        return self.say(chat, text)

    async def inline_query(
        self,
        query: str,
        *,
        offset: str = "",
        chat_type: str | None = "sender",
        timeout: float = PATIENCE,
    ) -> InlineAnswer:
        """Type `@bot query` and wait for the results; served from cache as Telegram does."""
        if not self.world.supports_inline_queries:
            raise RuntimeError("inline mode is off for this bot")
        cached = self.world.cached_inline_answer(self.account, query, offset)
        if cached is not None:
            return cached
        record = self.world.new_inline_query(self.account, query, offset, chat_type)
        await asyncio.wait_for(record.answered.wait(), timeout)
        assert record.answer is not None
        return record.answer

    def choose_inline_result(
        self, answer: InlineAnswer, result_id: str, chat: Chat, query: str = ""
    ) -> StoredMessage:
        """Pick an inline result: its message appears in `chat` via the bot, and the bot gets
        chosen_inline_result."""
        result = next(r for r in answer.results if str(r["id"]) == result_id)
        content = result.get("input_message_content") or {}
        text = content.get("message_text") or result.get("title") or ""
        message = self.world.user_says(
            self.account, chat, text, extra={"via_bot": self.world.bot.to_wire()}
        )
        if "reply_markup" in result:
            message.reply_markup = result["reply_markup"]
        self.world.enqueue(
            "chosen_inline_result",
            {"result_id": result_id, "from": self.account.to_wire(), "query": query},
        )
        return message
