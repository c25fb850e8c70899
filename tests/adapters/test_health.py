"""GET /healthz answers 200 while the store answers and 503 when it does not."""

from __future__ import annotations

import asyncio
import socket

from bohnanza.adapters.health import HealthServer, probe
from bohnanza.core.ports import StoreError


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_health_check_follows_the_store() -> None:
    healthy = {"now": True}

    def check() -> None:
        if not healthy["now"]:
            raise StoreError("db: cannot connect: connection refused")

    async def run() -> list[tuple[bool, str]]:
        port = _free_port()
        server = HealthServer(check, "127.0.0.1", port)
        await server.start()
        url = f"http://127.0.0.1:{port}/healthz"
        try:
            first = await asyncio.to_thread(probe, url)
            healthy["now"] = False
            second = await asyncio.to_thread(probe, url)
        finally:
            await server.stop()
        third = await asyncio.to_thread(probe, url)
        return [first, second, third]

    ok, down, gone = asyncio.run(run())
    assert ok == (True, '{"status": "ok"}')
    assert down == (False, "HTTP 503: db: cannot connect: connection refused")
    assert gone[0] is False and "cannot reach" in gone[1]
