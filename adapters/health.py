"""A health check over HTTP for a running bot: GET /healthz answers 200 while the store answers,
503 otherwise, so that a container runtime or a load balancer can tell a live worker. The
server's aiohttp is imported when it starts: `bohnanza health` asks with the standard library
alone, and answers at once."""

from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from aiohttp import web

PATH = "/healthz"


class HealthServer:
    """Serves `/healthz` on `listen:port`; `check` raises when the bot cannot work."""

    def __init__(self, check: Callable[[], None], listen: str, port: int) -> None:
        self._check = check
        self._listen = listen
        self._port = port
        self._runner: web.AppRunner | None = None

    async def _healthz(self, _request: web.Request) -> web.Response:
        from aiohttp import web

        try:
            await asyncio.wait_for(asyncio.to_thread(self._check), timeout=5)
        except Exception as error:
            # The reason is a store error's one line, which never holds a password.
            reason = str(error) or type(error).__name__
            return web.json_response({"status": "unavailable", "reason": reason}, status=503)
        return web.json_response({"status": "ok"})

    async def start(self) -> None:
        from aiohttp import web

        app = web.Application()
        app.router.add_get(PATH, self._healthz)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self._listen, self._port).start()

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


def probe(url: str, timeout: float = 5.0) -> tuple[bool, str]:
    """Ask a health endpoint; (healthy, what it said)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status == 200, response.read().decode(errors="replace").strip()
    except urllib.error.HTTPError as error:
        body = error.read().decode(errors="replace").strip()
        with contextlib.suppress(ValueError, AttributeError):
            body = str(json.loads(body).get("reason", body))
        return False, f"HTTP {error.code}: {body}"
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        return False, f"cannot reach {url}: {reason}"
