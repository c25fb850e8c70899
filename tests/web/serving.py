"""The web platform served in a test's own event loop, and browsers that talk to it over HTTP.

`Serving` runs `serve_boards` (the same code as `bohnanza serve web`) on a free port of
127.0.0.1, beside whatever runners the test starts on the same `Boards`. `Browser` is one
browser: its own cookies, the pages it has open (each following its board's stream), and its
inputs, each with a delivery id of its own, as the page's script sends them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bohnanza.adapters.boards import Boards
from bohnanza.adapters.i18n import load_translators
from bohnanza.adapters.platforms import ServeContext
from bohnanza.adapters.runner_ports import AdapterStore
from bohnanza.adapters.web import serve_boards
from bohnanza.adapters.web.settings import read_settings

SECRET = "a-test-secret-that-is-long-enough-0123456789"
TOKEN = "123456:TEST-TOKEN-for-the-board"
HEADERS = {"X-Bohnanza": "1"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def web_env(port: int, **more: str) -> dict[str, str]:
    return {
        "BOHNANZA_WEB_SECRET": SECRET,
        "BOHNANZA_WEB_PORT": str(port),
        "BOHNANZA_WEB_LISTEN": "127.0.0.1",
        **more,
    }


class Serving:
    """`async with Serving(store, boards)`: the boards served until the block ends."""

    def __init__(self, store: AdapterStore, boards: Boards, **env: str) -> None:
        self.port = free_port()
        self.env = web_env(self.port, **env)
        self.context = ServeContext(store, load_translators(), self.env, 5.0, boards)
        self.settings = read_settings(self.env)
        self._task: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def __aenter__(self) -> Serving:
        self._task = asyncio.ensure_future(serve_boards(self.context, self.settings))
        for _ in range(200):
            if self._task.done():
                self._task.result()
            with contextlib.suppress(OSError):
                _, writer = await asyncio.open_connection("127.0.0.1", self.port)
                writer.close()
                return self
            await asyncio.sleep(0.02)
        raise TimeoutError("the boards did not start")

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


@dataclass
class Page:
    """An open board, following its stream: every state it was sent, the latest last."""

    states: list[dict[str, Any]] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    """When each state arrived (the event loop's monotonic clock)."""
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    refused: str | None = None

    @property
    def state(self) -> dict[str, Any]:
        return self.states[-1]

    async def until(
        self, test: Callable[[dict[str, Any]], bool], timeout: float = 20.0
    ) -> dict[str, Any]:
        """The first state from now on (the latest included) that passes `test`."""
        async with asyncio.timeout(timeout):
            while not (self.states and test(self.state)):
                self.arrived.clear()
                await self.arrived.wait()
        return self.state


class Browser:
    """One browser: its cookies, and the pages it opened."""

    def __init__(self, url: str, headers: Mapping[str, str] | None = None) -> None:
        self.url = url
        self.headers = dict(headers or {})
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.pages: list[Page] = []

    async def close(self) -> None:
        for page in self.pages:
            if page.task is not None:
                page.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await page.task
        await self.http.close()

    async def post(self, path: str, body: Mapping[str, Any]) -> tuple[int, dict[str, Any]]:
        headers = {**HEADERS, **self.headers}
        async with self.http.post(self.url + path, json=body, headers=headers) as response:
            return response.status, await response.json()

    async def name(self, name: str) -> None:
        status, _ = await self.post("/api/player", {"name": name})
        assert status == 200

    async def new_table(self) -> str:
        status, reply = await self.post("/api/tables", {"delivery": secrets.token_hex(16)})
        assert status == 200, reply
        room: str = reply["room"]
        return room

    async def send(
        self, where: Mapping[str, str], text: str, button: bool = True, delivery: str = ""
    ) -> tuple[int, dict[str, Any]]:
        body = {
            "where": dict(where),
            "text": text,
            "button": button,
            "delivery": delivery or secrets.token_hex(16),
        }
        return await self.post("/api/input", body)

    async def state(self, where: Mapping[str, str]) -> tuple[int, dict[str, Any]]:
        async with self.http.get(
            self.url + "/api/state", params=dict(where), headers=self.headers
        ) as response:
            return response.status, await response.json()

    async def open(self, where: Mapping[str, str]) -> Page:
        """A board's page, following its stream (its first state has come when this returns,
        or its refusal)."""
        page = Page()
        first = asyncio.get_running_loop().create_future()

        async def follow() -> None:
            async with self.http.get(
                self.url + "/api/events", params=dict(where), headers=self.headers
            ) as response:
                if response.status != 200:
                    page.refused = (await response.json()).get("refused", str(response.status))
                    first.set_result(None)
                    return
                while True:
                    chunk = await response.content.readuntil(b"\n\n")
                    if not chunk.endswith(b"\n\n"):
                        return  # the server ended the stream
                    lines = chunk.decode().splitlines()
                    data = [line[6:] for line in lines if line.startswith("data: ")]
                    if data:
                        page.times.append(time.monotonic())
                        page.states.append(json.loads("\n".join(data)))
                        page.arrived.set()
                        if not first.done():
                            first.set_result(None)

        page.task = asyncio.ensure_future(follow())
        self.pages.append(page)
        await asyncio.wait_for(first, 20.0)
        return page


async def settled(*conditions: Callable[[], bool] | Callable[[], Awaitable[bool]]) -> None:
    """Wait until every condition holds (a generous bound: never a test of speed)."""
    async with asyncio.timeout(20.0):
        for condition in conditions:
            while True:
                held = condition()
                if not isinstance(held, bool):
                    held = await held
                if held:
                    break
                await asyncio.sleep(0.01)
