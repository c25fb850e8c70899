"""A local Telegram Bot API for end-to-end tests of the unmodified python-telegram-bot.

`World` holds the state (bot, people, chats, updates), `BotApiServer` serves it over HTTP,
`SimUser` acts as a person would.
"""

from .errors import ApiError
from .flood import FloodControl, Storm
from .records import (
    Account,
    ApiCall,
    CallbackAnswer,
    CallbackQueryRecord,
    Chat,
    InlineAnswer,
    InlineQueryRecord,
    MessageVersion,
    StoredFile,
    StoredMessage,
    Upload,
    WebhookConfig,
)
from .server import BotApiServer
from .users import SimUser
from .webhook import SECRET_HEADER
from .world import World

__all__ = [
    "SECRET_HEADER",
    "Account",
    "ApiCall",
    "ApiError",
    "BotApiServer",
    "CallbackAnswer",
    "CallbackQueryRecord",
    "Chat",
    "FloodControl",
    "InlineAnswer",
    "InlineQueryRecord",
    "MessageVersion",
    "SimUser",
    "StoredFile",
    "StoredMessage",
    "Storm",
    "Upload",
    "WebhookConfig",
    "World",
]
