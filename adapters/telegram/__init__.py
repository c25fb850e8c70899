"""The Telegram adapter: groups, inline keyboards, private hands, on python-telegram-bot."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager

from telegram.error import BadRequest, Forbidden, InvalidToken, NetworkError
from telegram.ext import Application

from bohnanza.adapters.kit import SettingsError
from bohnanza.adapters.logs import RedactingFilter
from bohnanza.adapters.platforms import Platform, ServeContext

from .application import TelegramBot, build_application
from .port import CAPABILITIES, TelegramPort
from .settings import TelegramSettings

log = logging.getLogger(__name__)
TELEGRAM_SERVER = "https://api.telegram.org"


async def _serve(context: ServeContext) -> None:
    settings = TelegramSettings.from_env(context.settings)
    application = build_application(settings)
    async with _started(application, context, settings) as bot:
        log.info("serving Telegram as @%s (%s)", application.bot.username, settings.mode)
        with start_failures(settings):
            await bot.wait_stopped()


@asynccontextmanager
async def _started(
    application: Application,  # type: ignore[type-arg]
    context: ServeContext,
    settings: TelegramSettings,
) -> AsyncIterator[TelegramBot]:
    """The application initialized and the bot taking updates, stopped on the way out.

    A token the Bot API refuses, or a server that cannot be reached, stops the start with a
    one-line SettingsError (a ValueError, which `bohnanza serve` reports as such).
    """
    try:
        with start_failures(settings):
            await application.initialize()
    except Exception:
        # Initializing opened the HTTP clients before the server answered.
        await application.bot.shutdown()
        raise
    try:
        bot = TelegramBot(application, context.store, context.translators)
        bot.runner.boards = context.boards
        try:
            with start_failures(settings):
                await bot.start(settings)
            yield bot
        finally:
            await bot.stop(context.stop_timeout)
    finally:
        await application.shutdown()


@contextmanager
def start_failures(settings: TelegramSettings) -> Iterator[None]:
    """Turn python-telegram-bot's errors at start into one line naming the setting at fault;
    the token never appears in it (python-telegram-bot's own message for a refused token holds
    it)."""
    redact = RedactingFilter([settings.token]).redact
    server = redact(settings.base_url or TELEGRAM_SERVER)
    try:
        yield
    except InvalidToken:
        raise SettingsError(
            f"BOHNANZA_TELEGRAM_TOKEN was refused by the Bot API server at {server} "
            "(revoked, mistyped, or not this server's)"
        ) from None
    except Forbidden as error:
        raise SettingsError(
            f"the Bot API server refused the bot: {redact(_first_line(error))}"
        ) from None
    except BadRequest as error:
        raise SettingsError(
            f"the Bot API server refused to start the bot in {settings.mode} mode: "
            f"{redact(_first_line(error))}"
        ) from None
    except NetworkError as error:
        setting = " (BOHNANZA_TELEGRAM_BASE_URL)" if settings.base_url else ""
        raise SettingsError(
            f"cannot reach the Bot API server at {server}{setting}: {redact(_first_line(error))}"
        ) from None


def _first_line(error: Exception) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def _check(env: Mapping[str, str]) -> None:
    TelegramSettings.from_env(env)


platform = Platform("telegram", "Telegram groups, through python-telegram-bot", _serve, _check)

__all__ = [
    "CAPABILITIES",
    "SettingsError",
    "TelegramBot",
    "TelegramPort",
    "TelegramSettings",
    "build_application",
    "platform",
]
