"""python-telegram-bot wiring: handlers that feed the runner, polling or webhook, commands menu.

Runs inside the caller's event loop (`async with application: await application.start()`), so
Telegram can share one process with other platforms. Either way an update is confirmed to
Telegram only once it is stored: by the next getUpdates call when polling, by the answer to its
POST on a webhook (`webhook`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from telegram import BotCommand, InlineQueryResultArticle, InputTextMessageContent, Update
from telegram.error import InvalidToken, NetworkError, TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    BaseRateLimiter,
    CallbackQueryHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    filters,
)

from bohnanza.adapters.kit import SettingsError, chat_runner
from bohnanza.adapters.runner_ports import AdapterStore
from bohnanza.core.app.i18n import LANGUAGES, N_, Translator
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.ports import Clock
from bohnanza.core.ports import StoreError

from .limiter import ChatRateLimiter
from .port import TelegramPort
from .settings import TelegramSettings
from .translate import account_id, inbound_from_callback, inbound_from_message
from .webhook import WebhookServer

log = logging.getLogger(__name__)

POLL_TIMEOUT = 10
"""Seconds a getUpdates call waits for news (long polling)."""
POLL_RETRY = (1.0, 2.0, 5.0, 10.0, 30.0)
"""Seconds before polling again after failures in a row (the last repeats)."""
STOP_TIMEOUT = 10.0

MENU: tuple[tuple[str, str], ...] = (
    ("new", N_("open a game in this group")),
    ("join", N_("join the game being gathered")),
    ("leave", N_("leave the game being gathered")),
    ("bot", N_("add a bot to the game")),
    ("start", N_("start the game (its opener)")),
    ("hand", N_("see your hand privately")),
    ("table", N_("show the table again")),
    ("stats", N_("your games and rating in this group")),
    ("top", N_("this group's best players")),
    ("rules", N_("the rules of the game")),
    ("help", N_("every command")),
)


def build_application(
    settings: TelegramSettings, rate_limiter: BaseRateLimiter[Any] | None = None
) -> Application:  # type: ignore[type-arg]
    """The unmodified python-telegram-bot application, pointed at `settings`."""
    builder = ApplicationBuilder().token(settings.token)
    if settings.base_url:
        root = settings.base_url.rstrip("/").removesuffix("/bot")
        builder = builder.base_url(root + "/bot")
        builder = builder.base_file_url(root + "/file/bot")
    limiter: Any = rate_limiter or ChatRateLimiter(max_retries=5)
    # Updates are fetched by `TelegramBot` itself, so none is confirmed before it is stored.
    return builder.rate_limiter(limiter).updater(None).build()


class TelegramBot:
    """The game on Telegram: a runner fed by python-telegram-bot's handlers."""

    def __init__(
        self,
        application: Application,  # type: ignore[type-arg]
        store: AdapterStore,
        translators: Mapping[str, Translator],
        clock: Clock | None = None,
    ) -> None:
        self.application = application
        self.port = TelegramPort(application.bot)
        self.runner = chat_runner(self.port, store, translators, clock, user_id_of=account_id)
        self.service = self.runner.service
        self.translators = translators
        self._deadlines: asyncio.Task[None] | None = None
        self._polling: asyncio.Task[None] | None = None
        self._webhook: WebhookServer | None = None
        self._offset: int | None = None
        """The id after the last update handled: confirmed to Telegram by the next call."""
        self._settling: set[asyncio.Future[None]] = set()
        self._deferred: set[int] = set()
        """Updates in hand that could not be stored: not confirmed, Telegram sends them again."""
        application.add_handler(MessageHandler(filters.TEXT, self._on_message))
        application.add_handler(CallbackQueryHandler(self._on_button))
        application.add_handler(InlineQueryHandler(self._on_inline_query))

    async def _on_message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if update.effective_message is None:
            return
        inbound = inbound_from_message(update.effective_message, self.application.bot.username)
        if inbound is not None:
            # Returns once the input is stored; its messages go out per chat meanwhile.
            try:
                await self.runner.submit(inbound, wait=False)
            except StoreError:
                self._deferred.add(update.update_id)

    async def _on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        inbound = inbound_from_callback(query)
        if inbound is None:
            await query.answer()
            return
        try:
            delivered = await self.runner.submit(inbound, wait=False)
        except StoreError:
            self._deferred.add(update.update_id)
            return
        settle = asyncio.ensure_future(self._settle(delivered, inbound))
        self._settling.add(settle)
        settle.add_done_callback(self._settling.discard)

    async def _settle(self, delivered: asyncio.Future[None], inbound: Inbound) -> None:
        """Once its answer went out (or none was due), the pressed button stops spinning."""
        await delivered
        try:
            await self.port.settle(inbound)
        except TelegramError as error:
            log.info("a button press could not be settled: %s", type(error).__name__)

    async def _on_inline_query(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Each of the asker's games as only he may see it: results are personal, not cached."""
        query = update.inline_query
        if query is None:
            return
        user_id = str(query.from_user.id)
        hands = await self.runner.read(lambda service: service.hand_of(user_id))
        results = [
            InlineQueryResultArticle(
                id=str(index),
                title=message.text.split("\n", 1)[0],
                # The whole hand line: cut short, it would hide the cards at the back.
                description=message.text.split("\n", 2)[1] if "\n" in message.text else "",
                input_message_content=InputTextMessageContent("🫘"),
            )
            for index, message in enumerate(hands)
        ]
        await query.answer(results, cache_time=0, is_personal=True)

    async def set_commands(self) -> None:
        """The localized command menu, one per language."""
        for language in LANGUAGES:
            tr = self.translators.get(language)
            if tr is None:
                continue
            commands = [BotCommand(name, tr.gettext(meaning)) for name, meaning in MENU]
            code = None if language == "en" else language
            await self.application.bot.set_my_commands(commands, language_code=code)

    async def start(self, settings: TelegramSettings) -> None:
        """Connect and start taking updates (the application must be initialized)."""
        await self.runner.start()
        username = self.application.bot.username
        self.port.reach_hint = f"https://t.me/{username}?start=hand"
        await self.application.start()
        if settings.mode == "webhook":
            await self._listen(settings)
        else:
            # A webhook left from another run would make getUpdates fail.
            await self.application.bot.delete_webhook()
            self._polling = asyncio.create_task(self._poll())
        await self.set_commands()
        self._deadlines = asyncio.create_task(self.runner.run_deadlines())

    async def _listen(self, settings: TelegramSettings) -> None:
        """Serve the webhook, then tell Telegram where it is: nothing is posted before the
        server listens."""
        url = settings.webhook_url or ""
        # Telegram posts to the public URL; a proxy in front passes its path on.
        webhook = WebhookServer(
            self.application.bot, self._handle, urlsplit(url).path, settings.webhook_secret
        )
        try:
            await webhook.start(settings.listen, settings.port)
        except OSError as error:
            raise SettingsError(
                f"cannot listen for the webhook on {settings.listen}:{settings.port} "
                f"(BOHNANZA_TELEGRAM_LISTEN, BOHNANZA_TELEGRAM_PORT): {error.strerror or error}"
            ) from None
        self._webhook = webhook
        if not settings.webhook_secret:
            log.warning(
                "no BOHNANZA_TELEGRAM_WEBHOOK_SECRET: any POST to the webhook passes as Telegram's"
            )
        await self.application.bot.set_webhook(
            url, secret_token=settings.webhook_secret, allowed_updates=Update.ALL_TYPES
        )

    async def wait_stopped(self) -> None:
        """Run until cancelled; raise what ends the polling (a token revoked meanwhile)."""
        if self._polling is not None:
            await asyncio.shield(self._polling)
        else:
            await asyncio.Event().wait()

    async def _poll(self) -> None:
        """Long polling: each update is handed over and stored before the next getUpdates
        call confirms it to Telegram, so a crash at any moment loses none (Telegram sends the
        unconfirmed ones again, and a stored one is recognised by its id)."""
        bot = self.application.bot
        failures = deferred = 0
        while True:
            try:
                updates = await bot.get_updates(
                    offset=self._offset, timeout=POLL_TIMEOUT, allowed_updates=Update.ALL_TYPES
                )
            except InvalidToken:
                raise
            except (NetworkError, TelegramError) as error:
                delay = POLL_RETRY[min(failures, len(POLL_RETRY) - 1)]
                failures += 1
                log.warning("getUpdates failed (%s); again in %.0f s", type(error).__name__, delay)
                await asyncio.sleep(delay)
                continue
            failures = 0
            for update in updates:
                # Finished even when a stop comes meanwhile: a stop waits for the update in hand.
                work = asyncio.ensure_future(self._handle(update))
                try:
                    stored = await asyncio.shield(work)
                except asyncio.CancelledError:
                    if await work:
                        self._offset = update.update_id + 1
                    raise
                if not stored:
                    # Unconfirmed, Telegram hands it out again with the next call.
                    await asyncio.sleep(POLL_RETRY[min(deferred, len(POLL_RETRY) - 1)])
                    deferred += 1
                    break
                deferred = 0
                self._offset = update.update_id + 1

    async def _handle(self, update: Update) -> bool:
        """Hand one update to the handlers; whether it may be confirmed to Telegram: what it
        brings is stored (or was before), or it brings nothing to store. False when the store
        failed: Telegram is to send it again."""
        await self.application.process_update(update)
        if update.update_id in self._deferred:
            self._deferred.discard(update.update_id)
            return False
        return True

    async def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """Stop taking updates, finish the one in hand, deliver what is queued (within
        `timeout` seconds) and confirm the handled updates to Telegram."""
        if self._polling is not None:
            self._polling.cancel()
            # Whatever ended the polling was raised by `wait_stopped` already.
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._polling
            self._polling = None
        if self._webhook is not None:
            # Updates in hand are stored and answered; new ones wait at Telegram.
            await self._webhook.stop(timeout)
            self._webhook = None
        if self._deadlines is not None:
            self._deadlines.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._deadlines
            self._deadlines = None
        if self.application.running:
            await self.application.stop()  # the updates already queued are handled first
        if not await self.runner.stop(timeout):
            log.warning("stopped with messages not yet delivered; they are shown on restart")
        for settle in list(self._settling):
            settle.cancel()
        if self._offset is not None:
            with contextlib.suppress(TelegramError):
                await self.application.bot.get_updates(offset=self._offset, timeout=0, limit=1)
