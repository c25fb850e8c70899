"""The simulated Bot API speaks the real wire contract, checked with a bare HTTP client."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from .botapi import SECRET_HEADER, BotApiServer, World
from .botapi.ptb import free_port, run

pytestmark = pytest.mark.server  # the local Bot API server

JsonDict = dict[str, Any]
Call = Callable[..., Coroutine[Any, Any, tuple[int, JsonDict]]]


def with_client(botapi: BotApiServer, body: Callable[[Call], Awaitable[None]]) -> None:
    """Run `body` with a `call(method, **params)` that posts a urlencoded form."""

    async def scenario() -> None:
        async with botapi, aiohttp.ClientSession() as session:

            async def call(method: str, **params: Any) -> tuple[int, JsonDict]:
                form = {k: v if isinstance(v, str) else json.dumps(v) for k, v in params.items()}
                async with session.post(botapi.method_url(method), data=form) as response:
                    return response.status, await response.json()

            await body(call)

    run(scenario())


def test_unknown_token_is_unauthorized_and_unknown_method_not_found(botapi: BotApiServer) -> None:
    async def scenario() -> None:
        async with botapi, aiohttp.ClientSession() as session:
            async with session.get(botapi.method_url("getMe", "123:wrong")) as response:
                assert response.status == 401
                assert await response.json() == {
                    "ok": False,
                    "error_code": 401,
                    "description": "Unauthorized",
                }
            async with session.get(botapi.method_url("fetchBeans")) as response:
                assert response.status == 404
                assert (await response.json())["description"] == "Not Found"

    run(scenario())


def test_method_names_ignore_case_and_bodies_may_be_json_form_or_query(
    world: World, botapi: BotApiServer
) -> None:
    ann = world.create_user("Ann")
    ann.start_bot()
    keyboard = {"inline_keyboard": [[{"text": "Harvest", "callback_data": "harvest"}]]}

    async def scenario() -> None:
        async with botapi, aiohttp.ClientSession() as session:
            async with session.get(botapi.method_url("GETME")) as response:
                assert (await response.json())["result"]["username"] == world.bot.username
            url = botapi.method_url("sendmessage")
            async with session.post(url, json={"chat_id": ann.id, "text": "json"}) as response:
                assert response.status == 200
            form = {"chat_id": str(ann.id), "text": "form", "reply_markup": json.dumps(keyboard)}
            async with session.post(url, data=form) as response:
                assert (await response.json())["result"]["reply_markup"] == keyboard
            multipart = aiohttp.FormData({"chat_id": str(ann.id), "text": "multipart"})
            multipart.add_field("ignored", b"bytes", filename="f.txt")
            async with session.post(url, data=multipart) as response:
                assert response.status == 200
            async with session.get(url, params={"chat_id": ann.id, "text": "query"}) as response:
                assert response.status == 200

    run(scenario())
    assert [m.text for m in ann.private_messages] == ["json", "form", "multipart", "query"]
    assert ann.private_messages[1].button_texts == [["Harvest"]]


def test_long_polling_waits_for_the_timeout_when_nothing_happens(botapi: BotApiServer) -> None:
    async def body(call: Call) -> None:
        started = time.monotonic()
        status, reply = await call("getUpdates", timeout=1)
        assert (status, reply) == (200, {"ok": True, "result": []})
        assert time.monotonic() - started >= 0.95

    with_client(botapi, body)


def test_long_polling_returns_at_once_when_an_update_arrives(
    world: World, botapi: BotApiServer
) -> None:
    ann = world.create_user("Ann")

    async def body(call: Call) -> None:
        asyncio.get_running_loop().call_later(0.2, ann.start_bot)
        started = time.monotonic()
        _, reply = await call("getUpdates", timeout=5)
        assert time.monotonic() - started < 1.0
        kinds = [sorted(update) for update in reply["result"]]
        assert kinds == [["my_chat_member", "update_id"], ["message", "update_id"]]

    with_client(botapi, body)


def test_offset_confirms_updates_and_limit_caps_the_batch(
    world: World, botapi: BotApiServer
) -> None:
    ann = world.create_user("Ann")
    for text in ("one", "two", "three"):
        ann.say(None, text)

    async def body(call: Call) -> None:
        _, first = await call("getUpdates", limit=2)
        ids = [update["update_id"] for update in first["result"]]
        assert len(ids) == 2 and ids[0] < ids[1]
        _, rest = await call("getUpdates", offset=ids[1] + 1)
        assert [u["message"]["text"] for u in rest["result"]] == ["two", "three"]
        _, last = await call("getUpdates", offset=-1)
        assert [u["message"]["text"] for u in last["result"]] == ["three"]

    with_client(botapi, body)


def test_command_entities_are_detected_with_the_bot_name(
    world: World, botapi: BotApiServer
) -> None:
    ann = world.create_user("Ann")
    table = world.create_group("Table", [ann], supergroup=True)
    world.add_bot(table, by=ann)
    ann.say(table, f"🌱 /plant@{world.bot.username} blue")

    async def body(call: Call) -> None:
        _, reply = await call("getUpdates")
        message = reply["result"][-1]["message"]
        assert message["chat"] == {"id": table.id, "type": "supergroup", "title": "Table"}
        assert message["entities"] == [
            {"offset": 3, "length": 7 + len(world.bot.username or ""), "type": "bot_command"}
        ]

    with_client(botapi, body)


def test_get_updates_conflicts_with_a_webhook_and_with_a_second_poller(
    botapi: BotApiServer,
) -> None:
    async def body(call: Call) -> None:
        first = asyncio.create_task(call("getUpdates", timeout=5))
        await asyncio.sleep(0.1)
        second = asyncio.create_task(call("getUpdates", timeout=0))
        status, reply = await first
        assert status == 409 and "terminated by other getUpdates" in reply["description"]
        assert (await second)[0] == 200
        assert (await call("setWebhook", url="https://example.org/hook"))[0] == 200
        status, reply = await call("getUpdates")
        assert status == 409 and "webhook is active" in reply["description"]
        status, reply = await call("setWebhook", url="http://example.org/hook")
        assert status == 400 and "HTTPS URL must be provided" in reply["description"]

    with_client(botapi, body)


def test_a_429_storm_refuses_the_chat_until_retry_after_has_passed(
    world: World, botapi: BotApiServer
) -> None:
    ann = world.create_user("Ann")
    ann.start_bot()
    botapi.flood.inject_429(method="sendMessage", chat_id=ann.id, retry_after=0.4, count=1)

    async def body(call: Call) -> None:
        status, reply = await call("sendMessage", chat_id=ann.id, text="hi")
        assert status == 429
        assert reply["parameters"] == {"retry_after": 1}
        assert reply["description"] == "Too Many Requests: retry after 1"
        await asyncio.sleep(0.5)
        assert (await call("sendChatAction", chat_id=ann.id, action="typing"))[0] == 429
        assert (await call("getMe"))[0] == 200
        await asyncio.sleep(0.55)
        assert (await call("sendMessage", chat_id=ann.id, text="hi"))[0] == 200

    with_client(botapi, body)


def test_webhook_delivery_is_retried_until_the_receiver_accepts(
    world: World, botapi: BotApiServer
) -> None:
    received: list[tuple[str | None, JsonDict]] = []

    async def receive(request: web.Request) -> web.Response:
        received.append((request.headers.get(SECRET_HEADER), await request.json()))
        return web.Response(status=200 if len(received) > 2 else 500)

    async def scenario() -> None:
        receiver = web.Application()
        receiver.router.add_post("/hook", receive)
        runner = web.AppRunner(receiver, access_log=None)
        await runner.setup()
        port = free_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        try:

            async def body(call: Call) -> None:
                url = f"http://127.0.0.1:{port}/hook"
                assert (await call("setWebhook", url=url, secret_token="tok"))[0] == 200
                world.create_user("Ann").say(None, "hello")
                await world.wait_until(lambda: not world.pending, what="delivery")
                _, info = await call("getWebhookInfo")
                assert info["result"]["url"] == url
                assert info["result"]["pending_update_count"] == 0
                assert "500" in info["result"]["last_error_message"]

            async with botapi, aiohttp.ClientSession() as session:

                async def call(method: str, **params: Any) -> tuple[int, JsonDict]:
                    async with session.post(botapi.method_url(method), data=params) as response:
                        return response.status, await response.json()

                await body(call)
        finally:
            await runner.cleanup()

    run(scenario())
    # Every attempt carries the secret token; the message's update is retried until accepted.
    assert {secret for secret, _ in received} == {"tok"}
    assert [next(k for k in u if k != "update_id") for _, u in received][-1] == "message"
    assert len(received) >= 3


def test_html_is_checked_and_edits_without_markup_drop_the_keyboard(
    world: World, botapi: BotApiServer
) -> None:
    ann = world.create_user("Ann")
    ann.start_bot()
    keyboard = {"inline_keyboard": [[{"text": "Go", "callback_data": "go"}]]}

    async def body(call: Call) -> None:
        status, reply = await call(
            "sendMessage", chat_id=ann.id, text="<blink>x", parse_mode="HTML"
        )
        assert status == 400 and 'Unsupported start tag "blink"' in reply["description"]
        status, reply = await call("sendMessage", chat_id=ann.id, text="<b>x", parse_mode="HTML")
        assert status == 400 and "Can't find end tag" in reply["description"]
        _, sent = await call(
            "sendMessage",
            chat_id=ann.id,
            text="a &lt;b&gt; <i>c</i>",
            parse_mode="HTML",
            reply_markup=keyboard,
        )
        message_id = sent["result"]["message_id"]
        await call("editMessageText", chat_id=ann.id, message_id=message_id, text="done")
        assert (await call("deleteMessage", chat_id=ann.id, message_id=message_id))[0] == 200
        status, reply = await call("deleteMessage", chat_id=ann.id, message_id=message_id)
        assert reply["description"] == "Bad Request: message to delete not found"

    with_client(botapi, body)
    deleted = ann.private_chat.history[-1]
    assert ann.private_messages == [] and deleted.deleted
    assert (deleted.text, deleted.reply_markup) == ("done", None)
    assert deleted.versions[0].text == "a <b> c"
    assert deleted.versions[0].entities == [{"offset": 6, "length": 1, "type": "italic"}]


def test_a_callback_query_is_answered_at_most_once(world: World, botapi: BotApiServer) -> None:
    ann = world.create_user("Ann")
    forged = ann.press_data(None, "steal:all")

    async def body(call: Call) -> None:
        assert (await call("answerCallbackQuery", callback_query_id=forged.id))[0] == 200
        status, reply = await call("answerCallbackQuery", callback_query_id=forged.id)
        assert status == 400
        assert reply["description"] == (
            "Bad Request: query is too old and response timeout expired or query ID is invalid"
        )

    with_client(botapi, body)


def test_command_menus_are_kept_per_scope_and_language(botapi: BotApiServer) -> None:
    menu = [{"command": "join", "description": "Join the table"}]
    private = {"type": "all_private_chats"}

    async def body(call: Call) -> None:
        await call("setMyCommands", commands=menu, scope=private, language_code="de")
        assert (await call("getMyCommands", scope=private, language_code="de"))[1]["result"] == menu
        assert (await call("getMyCommands"))[1]["result"] == []
        status, reply = await call(
            "setMyCommands", commands=[{"command": "Bad!", "description": "x"}]
        )
        assert (status, reply["description"]) == (400, "Bad Request: BOT_COMMAND_INVALID")
        await call("deleteMyCommands", scope=private, language_code="de")
        assert (await call("getMyCommands", scope=private, language_code="de"))[1]["result"] == []

    with_client(botapi, body)
