"""The unmodified python-telegram-bot runs end to end against the simulated Bot API."""

from __future__ import annotations

import time

import pytest
from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    Update,
)
from telegram.error import BadRequest, Forbidden
from telegram.ext import (
    AIORateLimiter,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
)

from .botapi import BotApiServer, World
from .botapi.ptb import AnyApplication, build_application, polling, run, webhook

pytestmark = pytest.mark.server  # the local Bot API server

Context = ContextTypes.DEFAULT_TYPE
SECRET = "s3cret-token_for-tests"


def add_table_handlers(application: AnyApplication) -> None:
    """A tiny bot: /start shows a button, pressing it edits the message, @bot lists beans."""

    async def start(update: Update, context: Context) -> None:
        assert update.effective_chat is not None
        await update.effective_chat.send_message(
            "<b>Welcome</b> to the bean field",
            parse_mode="HTML",
            reply_markup=InlineKeyboardMarkup(
                [[InlineKeyboardButton("Plant", callback_data="plant:blue")]]
            ),
        )

    async def pressed(update: Update, context: Context) -> None:
        query = update.callback_query
        assert query is not None and query.data is not None
        await query.answer(f"Planted {query.data.split(':')[1]}")
        await query.edit_message_text("Blue bean planted")

    async def inline(update: Update, context: Context) -> None:
        query = update.inline_query
        assert query is not None
        beans = [b for b in ("Blue", "Chili", "Stink") if b.lower().startswith(query.query)]
        await query.answer(
            [
                InlineQueryResultArticle(bean, bean, InputTextMessageContent(f"I plant {bean}"))
                for bean in beans
            ],
            cache_time=60,
            is_personal=False,
        )

    application.add_handler(CommandHandler("start", start))
    application.add_handler(CallbackQueryHandler(pressed))
    application.add_handler(InlineQueryHandler(inline))


def test_polling_bot_answers_a_command_and_a_button_press(
    world: World, botapi: BotApiServer
) -> None:
    async def scenario() -> None:
        async with botapi:
            application = build_application(botapi)
            add_table_handlers(application)
            async with polling(application):
                ann = world.create_user("Ann")
                ann.start_bot()
                await world.wait_until(lambda: bool(ann.private_messages), what="welcome")
                welcome = ann.private_messages[0]
                assert welcome.text == "Welcome to the bean field"
                assert welcome.entities == [{"offset": 0, "length": 7, "type": "bold"}]
                assert welcome.button_texts == [["Plant"]]

                answer = await ann.press(welcome, "Plant").wait_answer()
                await world.wait_until(lambda: welcome.text == "Blue bean planted")

        assert answer.text == "Planted blue"
        assert welcome.inline_keyboard == []
        assert [version.text for version in welcome.versions] == ["Welcome to the bean field"]

    run(scenario())


def test_group_commands_reach_the_bot_but_chatter_does_not(
    world: World, botapi: BotApiServer
) -> None:
    async def scenario() -> None:
        async with botapi:
            application = build_application(botapi)
            add_table_handlers(application)
            async with polling(application):
                ann, bob = world.create_user("Ann"), world.create_user("Bob")
                table = world.create_group("Bean table", [ann, bob])
                world.add_bot(table, by=ann)
                bob.say(table, "hello everyone")
                bob.say(table, f"/start@{world.bot.username}")
                await world.wait_until(lambda: bool(table.bot_messages), what="group reply")
                await world.settle()

        kinds = [next(k for k in update if k != "update_id") for update in world.updates]
        assert kinds == ["my_chat_member", "message", "message"]
        assert len(table.bot_messages) == 1

    run(scenario())


def test_inline_query_results_come_back_and_are_cached(world: World, botapi: BotApiServer) -> None:
    async def scenario() -> None:
        async with botapi:
            application = build_application(botapi)
            add_table_handlers(application)
            async with polling(application):
                ann, bob = world.create_user("Ann"), world.create_user("Bob")
                first = await ann.inline_query("b")
                second = await bob.inline_query("b")

        assert first.ids == ["Blue"]
        assert first.cache_time == 60 and not first.is_personal
        assert second.from_cache
        assert len(world.calls_since(0, "answerInlineQuery")) == 1

    run(scenario())


def test_webhook_mode_delivers_updates_with_the_secret_token(
    world: World, botapi: BotApiServer
) -> None:
    async def scenario() -> None:
        async with botapi:
            application = build_application(botapi)
            add_table_handlers(application)
            async with webhook(application, secret_token=SECRET) as url:
                assert world.webhook is not None
                assert world.webhook.url == url
                assert world.webhook.secret_token == SECRET
                ann = world.create_user("Ann")
                ann.start_bot()
                await world.wait_until(lambda: bool(ann.private_messages), what="welcome")
                info = await application.bot.get_webhook_info()

        assert info.url == url
        assert world.webhook is not None and world.webhook.failures == 0
        assert not world.calls_since(0, "getUpdates")

    run(scenario())


def test_rate_limiter_waits_out_a_429_and_the_message_arrives(
    world: World, botapi: BotApiServer
) -> None:
    async def scenario() -> None:
        async with botapi:
            application = build_application(botapi, rate_limiter=AIORateLimiter(max_retries=2))
            add_table_handlers(application)
            ann = world.create_user("Ann")
            botapi.flood.inject_429(method="sendMessage", chat_id=ann.id, retry_after=1)
            async with polling(application):
                ann.start_bot()
                await world.wait_until(lambda: bool(ann.private_messages), what="welcome")

        sends = world.calls_since(0, "sendMessage")
        assert [call.status for call in sends] == [429, 200]
        assert sends[1].time - sends[0].time >= 1.0

    run(scenario())


def test_writing_to_a_person_who_never_started_the_bot_is_forbidden(
    world: World, botapi: BotApiServer
) -> None:
    async def scenario() -> None:
        async with botapi:
            application = build_application(botapi)
            stranger, quitter = world.create_user("Stranger"), world.create_user("Quitter")
            quitter.start_bot()
            quitter.block_bot()
            async with application:
                with pytest.raises(Forbidden, match="can't initiate conversation"):
                    await application.bot.send_message(stranger.id, "hi")
                with pytest.raises(Forbidden, match="blocked by the user"):
                    await application.bot.send_message(quitter.id, "hi")
                with pytest.raises(BadRequest, match=r"(?i)chat not found"):
                    await application.bot.send_message(123, "hi")

    run(scenario())


def test_an_edit_that_changes_nothing_is_a_bad_request(world: World, botapi: BotApiServer) -> None:
    async def scenario() -> None:
        async with botapi:
            application = build_application(botapi)
            ann = world.create_user("Ann")
            ann.start_bot()
            async with application:
                sent = await application.bot.send_message(ann.id, "Harvest?")
                with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
                    await sent.edit_text("Harvest?")
                with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
                    await application.bot.edit_message_text("x", chat_id=ann.id, message_id=99)

    run(scenario())


def test_callback_data_over_64_bytes_is_refused(world: World, botapi: BotApiServer) -> None:
    async def scenario() -> None:
        async with botapi:
            application = build_application(botapi)
            ann = world.create_user("Ann")
            ann.start_bot()
            too_long = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="b" * 65)]])
            async with application:
                with pytest.raises(BadRequest, match=r"(?i)button_data_invalid"):
                    await application.bot.send_message(ann.id, "Trade?", reply_markup=too_long)
                with pytest.raises(BadRequest, match=r"(?i)message is too long"):
                    await application.bot.send_message(ann.id, "b" * 4097)

        assert ann.private_messages == []

    run(scenario())


def test_the_same_update_can_be_delivered_twice(world: World, botapi: BotApiServer) -> None:
    async def scenario() -> list[int]:
        seen: list[int] = []

        async def remember(update: Update, context: Context) -> None:
            seen.append(update.update_id)

        async with botapi:
            application = build_application(botapi)
            application.add_handler(CommandHandler("start", remember))
            async with polling(application):
                world.create_user("Ann").start_bot()
                await world.wait_until(lambda: len(seen) == 1)
                world.redeliver()
                await world.wait_until(lambda: len(seen) == 2, what="second delivery")
        return seen

    first, second = run(scenario())
    assert first == second


def test_long_polling_returns_as_soon_as_an_update_arrives(
    world: World, botapi: BotApiServer
) -> None:
    async def scenario() -> float:
        async with botapi:
            application = build_application(botapi)
            add_table_handlers(application)
            async with polling(application, timeout=10):
                ann = world.create_user("Ann")
                await world.wait_until(lambda: bool(world.calls_since(0, "deleteWebhook")))
                await world.settle(quiet=0.3)
                started = time.monotonic()
                ann.start_bot()
                await world.wait_until(lambda: bool(ann.private_messages))
                return time.monotonic() - started

    assert run(scenario()) < 1.0
