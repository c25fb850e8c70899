"""The Matrix adapter: `!bean` commands in rooms, private hands in direct rooms, on matrix-nio."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from bohnanza.adapters.kit import Platform, ServeContext, SettingsError

from .bot import MatrixBot
from .port import CAPABILITIES, MatrixPort
from .settings import MatrixSettings

log = logging.getLogger(__name__)


async def _serve(context: ServeContext) -> None:
    settings = MatrixSettings.from_env(context.settings)
    bot = MatrixBot(settings, context.store, context.translators)
    bot.runner.boards = context.boards
    try:
        await bot.log_in()
        log.info("serving Matrix as %s", settings.user_id)
        await bot.run(context.stop_timeout)
    finally:
        await bot.close()


def _check(env: Mapping[str, str]) -> None:
    MatrixSettings.from_env(env)


platform = Platform("matrix", "Matrix rooms, through matrix-nio", _serve, _check)

__all__ = ["CAPABILITIES", "MatrixBot", "MatrixPort", "MatrixSettings", "SettingsError", "platform"]
