"""The chat port on Telegram's Bot API, through python-telegram-bot's `Bot`."""

from __future__ import annotations

import logging

from telegram import Bot, InputFile, ReplyParameters
from telegram.constants import ChatAction
from telegram.error import BadRequest, Forbidden

from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Message
from bohnanza.core.app.ports import Capabilities, MessageGone, Unreachable

from .translate import (
    MAX_ANSWER,
    MAX_LABEL,
    MAX_TEXT,
    PLATFORM,
    callback_id,
    keyboard,
    replied_message,
    text_and_mode,
)

log = logging.getLogger(__name__)

MAX_CAPTION = 1024
"""The longest caption Telegram takes under a file."""

CAPABILITIES = Capabilities(
    buttons=True,
    edits=True,
    deletes=True,
    private_messages=True,
    personal_answers=True,
    inline_results=True,
    max_text=MAX_TEXT,
    max_label=MAX_LABEL,
    files=True,
    verified_ids=True,
)


def _not_modified(error: BadRequest) -> bool:
    return "message is not modified" in error.message.lower()


def _gone(error: BadRequest) -> bool:
    text = error.message.lower()
    return "message to edit not found" in text or "message can't be edited" in text


class TelegramPort:
    """Sends, edits and answers through the Bot API; the bot must be in the rooms it writes to."""

    platform = PLATFORM
    capabilities = CAPABILITIES

    def __init__(self, bot: Bot, reach_hint: str = "") -> None:
        self.bot = bot
        self.reach_hint = reach_hint
        """The t.me deep link of the private chat with the bot (known once connected)."""
        self._answered: set[str] = set()

    def how_to_reach(self, tr: Translator) -> str:
        """Open the private chat (the deep link, once known) and press Start."""
        text = tr.gettext("Open a private chat with me and press Start, then send /hand here.")
        return f"{text} {self.reach_hint}".strip()

    async def send(self, room: str, message: Message) -> str:
        text, mode = text_and_mode(message)
        sent = await self.bot.send_message(
            chat_id=int(room), text=text, parse_mode=mode, reply_markup=keyboard(message)
        )
        return str(sent.message_id)

    async def send_file(self, room: str, filename: str, data: bytes, caption: str) -> str:
        """A document with its caption (paced by the chat's rate limiter, as every request)."""
        sent = await self.bot.send_document(
            chat_id=int(room),
            document=InputFile(data, filename=filename),
            caption=caption[:MAX_CAPTION] or None,
        )
        return str(sent.message_id)

    async def edit(self, room: str, message_id: str, message: Message) -> None:
        text, mode = text_and_mode(message)
        try:
            await self.bot.edit_message_text(
                chat_id=int(room),
                message_id=int(message_id),
                text=text,
                parse_mode=mode,
                reply_markup=keyboard(message),
            )
        except BadRequest as error:
            if _not_modified(error):
                return
            if _gone(error):
                raise MessageGone(message_id) from None
            raise

    async def delete(self, room: str, message_id: str) -> None:
        await self.bot.delete_message(chat_id=int(room), message_id=int(message_id))

    async def send_private(self, user_id: str, message: Message) -> str:
        """Silent, unless the message is meant to notify (a decision is due)."""
        text, mode = text_and_mode(message)
        try:
            sent = await self.bot.send_message(
                chat_id=int(user_id),
                text=text,
                parse_mode=mode,
                reply_markup=keyboard(message),
                disable_notification=not message.alert,
            )
        except Forbidden:
            raise Unreachable(user_id) from None
        return str(sent.message_id)

    async def edit_private(self, user_id: str, message_id: str, message: Message) -> None:
        try:
            await self.edit(user_id, message_id, message)
        except Forbidden:
            raise Unreachable(user_id) from None

    async def thinking(self, inbound: Inbound, busy: bool) -> None:
        """Telegram shows "typing…" for 5 seconds, or until the bot's next message in the
        chat: there is nothing to take back."""
        if busy:
            await self.bot.send_chat_action(chat_id=int(inbound.room), action=ChatAction.TYPING)

    async def answer(self, inbound: Inbound, text: str) -> None:
        query = callback_id(inbound)
        if query is not None:
            await self._answer_button(inbound, query, text)
            return
        replied = replied_message(inbound)
        await self.bot.send_message(
            chat_id=int(inbound.room),
            text=text,
            reply_parameters=(
                ReplyParameters(replied, allow_sending_without_reply=True) if replied else None
            ),
        )

    async def settle(self, inbound: Inbound) -> None:
        """Answer a button press that got no answer, so the button stops spinning."""
        query = callback_id(inbound)
        if query is None:
            return
        if query in self._answered:
            self._answered.discard(query)
            return
        try:
            await self.bot.answer_callback_query(query)
        except BadRequest as error:
            log.info("a button press could not be answered: %s", error.message)

    async def _answer_button(self, inbound: Inbound, query: str, text: str) -> None:
        """A button answer only its presser sees; a long one goes to his private chat."""
        self._answered.add(query)
        if len(text) <= MAX_ANSWER:
            await self.bot.answer_callback_query(query, text=text, show_alert=len(text) > 60)
            return
        try:
            await self.send_private(inbound.user_id, Message(text))
        except Unreachable:
            await self.bot.answer_callback_query(
                query, text=text[: MAX_ANSWER - 1] + "…", show_alert=True
            )
            return
        await self.bot.answer_callback_query(query, text="✉")
