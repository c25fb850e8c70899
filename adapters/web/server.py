"""The HTTP server of the boards: uvicorn, inside the process's event loop (beside the chat
platforms), on a socket bound here, so that an address in use is one line, not an exit."""

from __future__ import annotations

import logging
import socket

import uvicorn
from starlette.types import ASGIApp

from bohnanza.adapters.kit import SettingsError

log = logging.getLogger(__name__)

SHUTDOWN_SECONDS = 3.0
"""How long requests in hand may take to finish once the server stops."""


class BoardServer:
    """Serves an ASGI app on an address until stopped; `bohnanza serve` handles the signals."""

    def __init__(self, app: ASGIApp, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.config = uvicorn.Config(
            app,
            lifespan="off",
            log_config=None,
            access_log=False,
            proxy_headers=False,
            server_header=False,
            timeout_graceful_shutdown=int(SHUTDOWN_SECONDS),
        )
        self._server: uvicorn.Server | None = None
        self._socket: socket.socket | None = None

    async def start(self) -> None:
        """Listen (SettingsError naming the settings when the address cannot be had)."""
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        try:
            self._socket = socket.create_server((self.host, self.port), family=family)
        except OSError as error:
            raise SettingsError(
                f"cannot listen on {self.host}:{self.port} (BOHNANZA_WEB_LISTEN, "
                f"BOHNANZA_WEB_PORT): {error.strerror or error}"
            ) from None
        self.port = self._socket.getsockname()[1]
        self.config.load()
        server = uvicorn.Server(self.config)
        server.lifespan = self.config.lifespan_class(self.config)
        await server.startup(sockets=[self._socket])
        self._server = server

    async def stop(self) -> None:
        """Take no more requests; those in hand get a moment to finish."""
        if self._server is not None:
            self._server.should_exit = True
            await self._server.shutdown(sockets=[] if self._socket is None else [self._socket])
            self._server = None
