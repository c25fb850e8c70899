"""In webhook mode Telegram posts each update to the bot, with the secret token, and posts it
again until the bot answers 2xx. The bot answers a post only once its update is stored (or found
stored already); a post without the token, or one that holds no update, is refused; a store that
fails is answered 503, and the update sent again is applied once. The game is played as with
polling."""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bohnanza.adapters.telegram import SettingsError, TelegramSettings
from bohnanza.adapters.telegram.translate import PLATFORM
from bohnanza.core.ports import StoreError

from .botapi import SECRET_HEADER, BotApiServer, World
from .botapi.ptb import free_port, run
from .faults import delivery_id
from .table import Players, RunningBot, settings_for

pytestmark = pytest.mark.server  # the local Bot API server

SECRET = "beans-are-secret_42"
LOOK_UPS = ("delivery_seen", "delivery_seen_and_room_game", "delivery_seen_and_since")
"""The store's reads that look up an input's delivery id, each with what a command needs first."""


def webhook_settings(botapi: BotApiServer) -> TelegramSettings:
    port = free_port()
    return settings_for(
        botapi,
        mode="webhook",
        webhook_url=f"http://127.0.0.1:{port}/telegram/updates",
        webhook_secret=SECRET,
        listen="127.0.0.1",
        port=port,
    )


def test_a_game_is_played_through_the_webhook_each_post_answered_once_stored(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    ann, bob = world.create_user("Ann"), world.create_user("Bob")
    group = world.create_group("Bean table", [ann, bob])
    world.add_bot(group, by=ann)
    answered_unstored: list[dict[str, Any]] = []

    async def scenario() -> tuple[int, int]:
        async with botapi:
            ann.start_bot()
            bob.start_bot()
            settings = webhook_settings(botapi)
            async with RunningBot(botapi, tmp_path / "g.db", seed=31, settings=settings) as tg:

                def answered(update: dict[str, Any], status: int | None) -> bool:
                    key = delivery_id(update)
                    accepted = status is not None and 200 <= status < 300
                    if accepted and key and not tg.store.delivery_seen(PLATFORM, key):
                        answered_unstored.append(update)
                    return False

                botapi.deliverer.answered.append(answered)
                assert world.webhook is not None
                assert world.webhook.url == settings.webhook_url
                assert world.webhook.secret_token == SECRET
                players = Players(tg, group, [ann, bob], seed=31)
                game_id = await players.gather(["Ann", "bot", "Bob"])
                await players.play(stop_after=15)
                count = tg.action_count(game_id)

                forged = {"update_id": 1, "message": {"message_id": 1, "date": 0}}
                async with aiohttp.ClientSession() as http:
                    url = settings.webhook_url or ""
                    async with http.post(url, json=forged) as response:
                        without = response.status
                    headers = {SECRET_HEADER: "guess"}
                    async with http.post(url, json=forged, headers=headers) as response:
                        wrong = response.status
                await world.settle()
                assert tg.action_count(game_id) == count
                assert players.moves >= 15
                # The server listens before the webhook is set: no post ever failed.
                assert world.webhook.failures == 0
                return without, wrong

    without, wrong = run(scenario())
    assert (without, wrong) == (403, 403)
    assert answered_unstored == []
    assert world.webhook is not None and world.webhook.deliveries > 15
    assert not world.calls_since(0, "getUpdates")


def test_posts_that_hold_no_update_are_refused_and_nothing_of_them_is_logged(
    world: World, botapi: BotApiServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    def message(update_id: object) -> dict[str, Any]:
        return {"update_id": update_id, "message": {"message_id": 1, "date": 0, "text": "/new"}}

    secret = {SECRET_HEADER: SECRET}
    posts: list[tuple[str, dict[str, str], bytes]] = [
        ("POST", {}, b"{}"),
        ("POST", {SECRET_HEADER: SECRET[:-1]}, b"{}"),
        ("POST", {SECRET_HEADER: SECRET + "x"}, b"{}"),
        ("POST", secret, b"not json"),
        ("POST", secret, b"\xff\xfe\x00"),
        ("POST", secret, b"[1, 2]"),
        ("POST", secret, b"[" * 200_000),
        ("POST", secret, b'{"message": {"text": "/new"}}'),
        ("POST", secret, json.dumps(message("7")).encode()),
        ("POST", secret, json.dumps(message(True)).encode()),
        ("POST", secret, b'{"update_id": 5, "message": "/new"}'),
        ("POST", secret, b"{" + b" " * (2 * 1024 * 1024) + b"}"),
        ("GET", secret, b""),
    ]

    async def scenario() -> list[int]:
        async with botapi:
            settings = webhook_settings(botapi)
            async with RunningBot(botapi, tmp_path / "g.db", settings=settings) as tg:
                mark = len(world.calls)
                statuses = []
                async with aiohttp.ClientSession() as http:
                    url = settings.webhook_url or ""
                    for method, headers, body in posts:
                        async with http.request(
                            method, url, data=body, headers=headers
                        ) as response:
                            statuses.append(response.status)
                    async with http.post(url + "/other", json={}, headers=secret) as response:
                        statuses.append(response.status)
                await world.settle()
                assert world.calls_since(mark, "sendMessage") == []
                assert tg.store.list_games() == []
                return statuses

    with caplog.at_level(logging.DEBUG):
        statuses = run(scenario())
    assert statuses == [403, 403, 403, 400, 400, 400, 400, 400, 400, 400, 400, 413, 405, 404]
    # The bot's own lines and its web server's (python-telegram-bot's debug lines show the
    # secret it sets: `serve` redacts it from every line).
    said = "\n".join(
        record.getMessage()
        for record in caplog.records
        if record.name.startswith(("bohnanza", "aiohttp"))
    )
    assert "refused" in said
    assert SECRET not in said
    assert "/new" not in said


def test_a_store_failure_is_answered_503_and_the_update_sent_again_is_applied_once(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    ann = world.create_user("Ann")
    group = world.create_group("Bean table", [ann])
    world.add_bot(group, by=ann)

    async def scenario() -> None:
        async with botapi:
            ann.start_bot()
            settings = webhook_settings(botapi)
            async with RunningBot(botapi, tmp_path / "g.db", settings=settings) as tg:
                await world.settle()
                store = tg.store
                seen = store.delivery_seen
                failures = {"left": 2}

                def failing(read: Callable[..., Any]) -> Callable[..., Any]:
                    def locked(*args: Any) -> Any:
                        if failures["left"]:
                            failures["left"] -= 1
                            raise StoreError("games.db: database is locked")
                        return read(*args)

                    return locked

                # Whichever look-up of its delivery id a command begins with fails, twice.
                for name in LOOK_UPS:
                    setattr(store, name, failing(getattr(store, name)))
                said = ann.say(group, "/new")
                update = world.updates[-1]
                await world.wait_until(lambda: not world.pending, what="the update delivered")
                await world.settle()
                assert world.webhook is not None
                assert "503" in (world.webhook.last_error_message or "")
                assert botapi.deliverer.posts[update["update_id"]] == 3
                assert seen(PLATFORM, f"m:{group.id}:{said.message_id}")
                lobbies = [m for m in group.bot_messages if "l join" in repr(m.inline_keyboard)]
                assert len(lobbies) == 1
                # Taken three times, applied once: one lobby.
                assert tg.handled[f"m:{group.id}:{said.message_id}"] == 3

    run(scenario())


def test_an_update_sent_again_once_stored_is_answered_at_once_and_applied_once(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    ann, bob = world.create_user("Ann"), world.create_user("Bob")
    group = world.create_group("Bean table", [ann, bob])
    world.add_bot(group, by=ann)

    async def scenario() -> None:
        async with botapi:
            ann.start_bot()
            bob.start_bot()
            settings = webhook_settings(botapi)
            async with RunningBot(botapi, tmp_path / "g.db", seed=5, settings=settings) as tg:
                players = Players(tg, group, [ann, bob], seed=5)
                game_id = await players.gather(["Ann", "Bob"])
                await players.play(stop_after=4)
                await world.settle()
                count, sent = tg.action_count(game_id), len(group.bot_messages)
                update = world.redeliver()
                key = delivery_id(update)
                assert key is not None
                await world.wait_until(lambda: tg.handled[key] == 2, what="the second delivery")
                await world.settle()
                assert world.webhook is not None and world.webhook.failures == 0
                assert botapi.deliverer.posts[update["update_id"]] == 2
                assert tg.action_count(game_id) == count
                assert len(group.bot_messages) == sent

    run(scenario())


def test_a_port_in_use_stops_the_start_in_one_line_before_the_webhook_is_set(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    async def scenario() -> str:
        async with botapi:
            with socket.socket() as taken:
                taken.bind(("127.0.0.1", 0))
                taken.listen()
                port = taken.getsockname()[1]
                settings = settings_for(
                    botapi,
                    mode="webhook",
                    webhook_url=f"http://127.0.0.1:{port}/hook",
                    listen="127.0.0.1",
                    port=port,
                )
                tg = RunningBot(botapi, tmp_path / "g.db", settings=settings)
                try:
                    with pytest.raises(SettingsError) as refused:
                        await tg.__aenter__()
                finally:
                    await tg.bot.stop()
                    await tg.application.shutdown()
                return str(refused.value)

    said = run(scenario())
    assert said.startswith("cannot listen for the webhook on 127.0.0.1:")
    assert "BOHNANZA_TELEGRAM_PORT" in said and "\n" not in said
    assert world.webhook is None
