"""Pure translation between Telegram's objects and the chat application's values."""

from __future__ import annotations

import re

from telegram import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    MessageEntity,
    User,
    WebAppInfo,
)
from telegram import (
    Message as TelegramMessage,
)
from telegram.constants import ParseMode

from bohnanza.adapters.prefix import command_text as addressed
from bohnanza.core.app.inbound import Inbound, Named
from bohnanza.core.app.messages import Message

PLATFORM = "telegram"
MAX_CALLBACK_DATA = 64
"""Telegram refuses a button whose callback data is longer (in bytes)."""
MAX_LABEL = 64
"""The longest button label shown whole; the application keeps its labels within it (a
longer one would be cut here)."""
MAX_ANSWER = 200
"""The longest text a callback answer may show."""
MAX_TEXT = 4096
"""The longest text a message may show, in UTF-16 code units, once its HTML is read: tags do
not count, an entity counts as the character it stands for."""

_TAG = re.compile(r"<[^<>]*>")
_ENTITY = re.compile(r"&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_USERNAME = re.compile(r"@[A-Za-z][A-Za-z0-9_]{3,31}")
"""A Telegram @username as people type it (5 to 32 letters, digits and underscores)."""


def command_text(text: str, bot_username: str, private: bool) -> str | None:
    """The command in a message, without '/' and '@BotName'; None when it is not for the bot.

    In a group only slash commands are read (people talk there too); in a private chat every
    message is a command. A command addressed to another bot (`/join@OtherBot`) is not ours.
    """
    return addressed(text, ["/"], [bot_username], private=private)


def inbound_from_message(message: TelegramMessage, bot_username: str) -> Inbound | None:
    """The application's input for a text message, or None if it holds no command."""
    user = message.from_user
    if user is None or user.is_bot or message.text is None:
        return None
    private = message.chat.type == "private"
    text = command_text(message.text, bot_username, private)
    if text is None:
        return None
    if private and text.split()[0].lower() == "start":
        # A deep link (t.me/bot?start=hand) or the first /start opens the private chat.
        text = "hand" if text.split()[1:] == ["hand"] else "start"
    return Inbound(
        PLATFORM,
        str(user.id),
        user.full_name,
        str(message.chat.id),
        text,
        delivery_id=f"m:{message.chat.id}:{message.message_id}",
        private=private,
        handle=handle_of(user),
        named=named_in(message),
    )


def handle_of(user: User) -> str:
    """The name people on Telegram call an account by: its @username (which Telegram reads
    without regard to case), or '' for an account without one."""
    return f"@{user.username.lower()}" if user.username else ""


def named_in(message: TelegramMessage) -> tuple[Named, ...]:
    """The people a message names that Telegram tells the bot the account of: the author of
    the message it answers, and each person mentioned who has no @username."""
    named: list[Named] = []
    sender = message.from_user
    replied = message.reply_to_message
    author = replied.from_user if replied is not None else None
    if author is not None and not author.is_bot and (sender is None or author.id != sender.id):
        named.append(Named(str(author.id), author.full_name))
    for entity, said in message.parse_entities([MessageEntity.TEXT_MENTION]).items():
        if entity.user is not None and not entity.user.is_bot:
            named.append(Named(str(entity.user.id), entity.user.full_name, said))
    return tuple(named)


def account_id(word: str) -> str:
    """The account a typed word names on Telegram, as a seat may be handed to it: an
    @username (claimed by the account bearing it: `handle_of`), or a numeric user id; ''
    for any other word (a name alone says nothing of an account)."""
    word = word.strip()
    if _USERNAME.fullmatch(word):
        return word.lower()
    if word.isascii() and word.isdigit():
        return word
    return ""


def inbound_from_callback(query: CallbackQuery) -> Inbound | None:
    """The application's input for a button press, or None if it carries no data."""
    if not query.data or query.from_user.is_bot:
        return None
    message = query.message
    room = str(message.chat.id) if message is not None else str(query.from_user.id)
    private = message is not None and message.chat.type == "private"
    return Inbound(
        PLATFORM,
        str(query.from_user.id),
        query.from_user.full_name,
        room,
        query.data,
        delivery_id=f"cb:{query.id}",
        private=private,
        button=True,
        handle=handle_of(query.from_user),
    )


def callback_id(inbound: Inbound) -> str | None:
    """The callback query an input came from, to answer it."""
    if inbound.delivery_id.startswith("cb:"):
        return inbound.delivery_id[3:]
    return None


def replied_message(inbound: Inbound) -> int | None:
    """The id of the message an input came in, to reply to it."""
    if inbound.delivery_id.startswith("m:"):
        return int(inbound.delivery_id.rsplit(":", 1)[1])
    return None


def keyboard(message: Message) -> InlineKeyboardMarkup | None:
    """The message's buttons as an inline keyboard; a button Telegram would refuse is left out.
    A button with a page (`url`) opens it as a Mini App (in a private chat, where they go)."""
    rows = [
        [
            InlineKeyboardButton(button.label[:MAX_LABEL], web_app=WebAppInfo(button.url))
            if button.url
            else InlineKeyboardButton(button.label[:MAX_LABEL], callback_data=button.payload)
            for button in row
            if button.url or len(button.payload.encode()) <= MAX_CALLBACK_DATA
        ]
        for row in message.buttons
    ]
    rows = [row for row in rows if row]
    return InlineKeyboardMarkup(rows) if rows else None


def utf16_length(text: str) -> int:
    """A text's length as Telegram counts it."""
    return len(text.encode("utf-16-le")) // 2


def shown_text(html: str) -> str:
    """What Telegram shows of a message in HTML: its text without the tags, and in place of
    each entity the character it stands for (the named ones Telegram reads, and numbers)."""

    def character(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in _NAMED:
            return _NAMED[name]
        code = int(name[2:], 16) if name[1] in "xX" else int(name[1:])
        return chr(code)

    return _ENTITY.sub(character, _TAG.sub("", html))


def fit(text: str) -> str:
    """The plain text cut to what a message may show, never inside a character."""
    units = text.encode("utf-16-le")[: MAX_TEXT * 2]
    return units.decode("utf-16-le", errors="ignore")


def text_and_mode(message: Message) -> tuple[str, ParseMode | None]:
    """What to send as a message's text, and how Telegram is to read it: the HTML, unless what
    it shows is too long (a cut would fall inside a tag or an entity); then the plain text."""
    if message.html is not None and utf16_length(shown_text(message.html)) <= MAX_TEXT:
        return message.html, ParseMode.HTML
    return fit(message.text), None
