"""`bohnanza serve telegram` against a Bot API server that refuses the token or cannot be reached:
one line naming the setting, never the token, no traceback, a non-zero exit."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from pathlib import Path

import pytest

from .botapi import BotApiServer, World
from .botapi.ptb import run

pytestmark = pytest.mark.server  # the local Bot API server and `bohnanza serve`

BOHNANZA = Path(sys.executable).with_name("bohnanza")
REVOKED = "7000000001:AAHrevokedTokenThatTheServerDoesNotKnow0"


async def serve(env: dict[str, str], timeout: float = 30) -> tuple[int, str]:
    """Run the real `bohnanza serve telegram` with only these BOHNANZA_ settings."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("BOHNANZA_")}
    process = await asyncio.create_subprocess_exec(
        str(BOHNANZA),
        "serve",
        "telegram",
        env=clean | env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(process.communicate(), timeout)
    assert process.returncode is not None
    return process.returncode, err.decode()


def settings(tmp_path: Path, base_url: str, **more: str) -> dict[str, str]:
    return {
        "BOHNANZA_DB": str(tmp_path / "games.db"),
        "BOHNANZA_TELEGRAM_TOKEN": REVOKED,
        "BOHNANZA_TELEGRAM_BASE_URL": base_url,
        **more,
    }


def error_line(code: int, err: str) -> str:
    """The one line the failure ends in; any line before it is a log line."""
    assert code == 1, err
    assert "Traceback" not in err
    assert REVOKED not in err and REVOKED.split(":")[1] not in err
    last = err.splitlines()[-1]
    assert last.startswith("error: telegram: "), err
    return last


def test_the_bot_api_server_answers_an_unknown_token_with_401(
    world: World, botapi: BotApiServer
) -> None:
    import httpx

    async def scenario() -> tuple[int, int]:
        async with botapi, httpx.AsyncClient() as client:
            known = await client.post(botapi.method_url("getMe"))
            unknown = await client.post(botapi.method_url("getMe", REVOKED))
            return known.status_code, unknown.status_code

    assert run(scenario()) == (200, 401)


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_a_refused_token_ends_serve_in_one_line_naming_the_setting(
    world: World, botapi: BotApiServer, tmp_path: Path, log_format: str
) -> None:
    async def scenario() -> tuple[int, str]:
        async with botapi:
            root = f"http://{botapi.host}:{botapi.port}"
            env = settings(tmp_path, root, BOHNANZA_LOG_FORMAT=log_format)
            return await serve(env | {"BOHNANZA_LOG_LEVEL": "DEBUG"})

    code, err = run(scenario())
    last = error_line(code, err)
    assert "BOHNANZA_TELEGRAM_TOKEN was refused by the Bot API server at http://127.0.0.1:" in last
    logs = err.splitlines()[:-1]
    if log_format == "json":
        assert all(isinstance(json.loads(line), dict) for line in logs), logs


def test_a_refused_token_is_the_only_line_at_warning_level(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    async def scenario() -> tuple[int, str]:
        async with botapi:
            root = f"http://{botapi.host}:{botapi.port}"
            return await serve(settings(tmp_path, root, BOHNANZA_LOG_LEVEL="WARNING"))

    code, err = run(scenario())
    assert err.splitlines() == [error_line(code, err)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_an_unreachable_bot_api_server_ends_serve_in_one_line(
    tmp_path: Path, log_format: str
) -> None:
    root = f"http://127.0.0.1:{free_port()}"
    env = settings(tmp_path, root, BOHNANZA_LOG_FORMAT=log_format, BOHNANZA_LOG_LEVEL="DEBUG")
    code, err = asyncio.run(serve(env))
    last = error_line(code, err)
    assert last.startswith(
        f"error: telegram: cannot reach the Bot API server at {root} (BOHNANZA_TELEGRAM_BASE_URL): "
    ), last
    if log_format == "json":
        assert all(isinstance(json.loads(line), dict) for line in err.splitlines()[:-1])


def test_a_bot_api_server_that_never_answers_ends_serve_in_one_line(tmp_path: Path) -> None:
    """A server that accepts the connection and then says nothing: python-telegram-bot times out."""

    async def scenario() -> tuple[int, str]:
        held: list[asyncio.StreamWriter] = []
        silent = await asyncio.start_server(lambda _r, w: held.append(w), "127.0.0.1", 0)
        port = silent.sockets[0].getsockname()[1]
        async with silent:
            done = await serve(settings(tmp_path, f"http://127.0.0.1:{port}"), timeout=60)
        for writer in held:
            writer.close()
        return done

    code, err = asyncio.run(scenario())
    last = error_line(code, err)
    assert "cannot reach the Bot API server at http://127.0.0.1:" in last
    assert last.endswith("Timed out"), last
