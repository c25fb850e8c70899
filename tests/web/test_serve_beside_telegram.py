"""`bohnanza serve telegram web` as an operator runs it: one process, one store, and each
player's private messages carry the Mini App that opens his board."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from bohnanza.adapters.web.passes import telegram_init_data

from ..telegram.botapi import BotApiServer, World
from .process import BOHNANZA
from .serving import Browser, free_port, web_env

pytestmark = pytest.mark.server  # `bohnanza serve telegram web` and the local Bot API server

PUBLIC = "https://beans.example.org"


def test_the_boards_are_served_beside_telegram_in_one_process(tmp_path: Path) -> None:
    world = World()
    ann, bob = world.create_user("Ann"), world.create_user("Bob")
    group = world.create_group("Beans", [ann, bob])
    world.add_bot(group, by=ann)
    port = free_port()

    async def scenario() -> None:
        async with BotApiServer(world) as botapi:
            clean = {k: v for k, v in os.environ.items() if not k.startswith("BOHNANZA_")}
            env = clean | web_env(port, BOHNANZA_WEB_URL=PUBLIC, BOHNANZA_WEB_TABLES="off")
            env |= {
                "BOHNANZA_DB": str(tmp_path / "games.db"),
                "BOHNANZA_TELEGRAM_TOKEN": world.token,
                "BOHNANZA_TELEGRAM_BASE_URL": f"http://{botapi.host}:{botapi.port}",
            }
            with (tmp_path / "serve.log").open("wb") as log:
                process = await asyncio.create_subprocess_exec(
                    str(BOHNANZA),
                    "serve",
                    "telegram",
                    "web",
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            try:
                await world.wait_until(
                    lambda: any(c.method == "getUpdates" for c in world.calls), 30.0, "polling"
                )
                for person in (ann, bob):
                    person.start_bot()
                for person, text in [(ann, "/new"), (bob, "/join"), (ann, "/bot"), (ann, "/start")]:
                    person.say(group, text)
                    await world.settle(timeout=20.0)

                def mini_app() -> str | None:
                    for message in ann.private_messages:
                        for row in message.inline_keyboard:
                            for button in row:
                                if "web_app" in button:
                                    return str(button["web_app"]["url"])
                    return None

                await world.wait_until(lambda: mini_app() is not None, 20.0, "the Mini App")
                url = mini_app() or ""
                assert url.startswith(f"{PUBLIC}/tg/")
                game = url.rsplit("/", 1)[1]
                user = {"id": ann.id, "first_name": "Ann"}
                init = telegram_init_data(world.token, user, int(time.time()))
                board = Browser(f"http://127.0.0.1:{port}", {"Authorization": f"tma {init}"})
                status, state = await board.state({"g": game})
                await board.close()
                assert status == 200, state
                assert state["game"] == game and state["names"][state["viewer"]] == "Ann"
                assert state["hand"] and state["choices"]  # her own hand, her moves
            finally:
                process.send_signal(signal.SIGTERM)
                assert await asyncio.wait_for(process.wait(), 30.0) == 0
        output = (tmp_path / "serve.log").read_text()
        assert "boards on https://beans.example.org" in output, output
        assert "stopped on SIGTERM" in output

    asyncio.run(asyncio.wait_for(scenario(), 120.0))
