"""In webhook mode Telegram posts each update to the bot, with the secret token; a post without
the token is refused, and the game is played as with polling."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from bohnanza.adapters.telegram import TelegramSettings

from .botapi import SECRET_HEADER, BotApiServer, World
from .botapi.ptb import free_port, run
from .table import Players, RunningBot, settings_for

SECRET = "beans-are-secret_42"


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


def test_a_game_is_played_through_the_webhook_with_the_secret_token(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    ann, bob = world.create_user("Ann"), world.create_user("Bob")
    group = world.create_group("Bean table", [ann, bob])
    world.add_bot(group, by=ann)

    async def scenario() -> tuple[int, int]:
        async with botapi:
            ann.start_bot()
            bob.start_bot()
            settings = webhook_settings(botapi)
            async with RunningBot(botapi, tmp_path / "g.db", seed=31, settings=settings) as tg:
                assert world.webhook is not None
                assert world.webhook.url == settings.webhook_url
                assert world.webhook.secret_token == SECRET
                players = Players(tg, group, [ann, bob], seed=31)
                game_id = await players.gather(["Ann", "bot", "Bob"])
                # PTB sets the webhook just before it listens: a first post may be retried.
                failures = world.webhook.failures
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
                assert world.webhook.failures == failures
                return without, wrong

    without, wrong = run(scenario(), timeout=30)
    assert (without, wrong) == (403, 403)
    assert world.webhook is not None and world.webhook.deliveries > 15
    assert not world.calls_since(0, "getUpdates")
