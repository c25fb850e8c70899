"""The Telegram adapter: groups, inline keyboards, private hands, on python-telegram-bot."""

from __future__ import annotations

import asyncio
import logging

from bohnanza.adapters.platforms import Platform, ServeContext

from .application import (
    SettingsError,
    TelegramBot,
    TelegramSettings,
    build_application,
)
from .port import CAPABILITIES, TelegramPort

log = logging.getLogger(__name__)


async def _serve(context: ServeContext) -> None:
    settings = TelegramSettings.from_env(context.settings)
    application = build_application(settings)
    async with application:
        bot = TelegramBot(application, context.store, context.translators)
        await bot.start(settings)
        log.info("serving Telegram as @%s (%s)", application.bot.username, settings.mode)
        try:
            await asyncio.Event().wait()
        finally:
            await bot.stop()


platform = Platform("telegram", "Telegram groups, through python-telegram-bot", _serve)

__all__ = [
    "CAPABILITIES",
    "SettingsError",
    "TelegramBot",
    "TelegramPort",
    "TelegramSettings",
    "build_application",
    "platform",
]
