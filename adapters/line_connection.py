"""A connection to a server that speaks in lines (IRC and the like), kept up.

It connects over TCP or TLS, hands every line it reads on, and after a dropped connection (or
a server silent too long) connects again, waiting longer each time. Lines are written only
while the platform says the connection is `ready` (logged in); a line written meanwhile waits
a while, then fails, and the runner tries it again.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

SILENCE = 300.0
"""Seconds without a line from the server after which the connection is taken for dead."""
BACKOFF = (1.0, 2.0, 5.0, 15.0, 30.0, 60.0)
"""Seconds before connecting again after failures in a row (the last repeats)."""
READY_WAIT = 30.0
"""Seconds a line waits for the connection to be ready before it fails."""


def tls_context(enabled: bool, verify: bool = True, cafile: str = "") -> ssl.SSLContext | None:
    """How to wrap a connection: None for plain text; the system's trust (or `cafile`'s),
    and no check of the server's certificate only when asked."""
    if not enabled:
        return None
    context = ssl.create_default_context(cafile=cafile or None)
    if not verify:
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    return context


class LineConnection:
    """One connection, kept up until cancelled; `ready` is set by the platform once it is
    logged in, and cleared when the connection drops."""

    def __init__(self, host: str, port: int, tls: ssl.SSLContext | None) -> None:
        self.host, self.port, self.tls = host, port, tls
        self.ready = asyncio.Event()
        self._writer: asyncio.StreamWriter | None = None

    def write_now(self, data: bytes) -> None:
        """Write while logging in (before `ready`)."""
        assert self._writer is not None
        self._writer.write(data)

    async def write_line(self, data: bytes) -> None:
        """Write once the connection is ready, and wait until it is sent on."""
        async with asyncio.timeout(READY_WAIT):
            await self.ready.wait()
        self.write_now(data)
        assert self._writer is not None
        await self._writer.drain()

    async def keep_up(
        self, greet: Callable[[], None], handle: Callable[[str], Awaitable[None]]
    ) -> None:
        """Connect, `greet` (write the login), hand each line read to `handle`; connect again
        after a drop. An untrusted certificate, or whatever `handle` raises, ends it."""
        failures = 0
        while True:
            try:
                await self._session(greet, handle)
            except (OSError, EOFError, TimeoutError) as error:
                if isinstance(error, ssl.SSLCertVerificationError):
                    raise
                log.warning("the connection to %s dropped: %r", self.host, error)
            failures = 0 if self.ready.is_set() else failures + 1
            self.ready.clear()
            await asyncio.sleep(BACKOFF[min(failures, len(BACKOFF) - 1)])

    async def _session(
        self, greet: Callable[[], None], handle: Callable[[str], Awaitable[None]]
    ) -> None:
        reader, self._writer = await asyncio.open_connection(self.host, self.port, ssl=self.tls)
        try:
            greet()
            while True:
                async with asyncio.timeout(SILENCE):  # wait_for may swallow a cancel
                    raw = await reader.readline()
                if not raw:
                    return
                await handle(raw.decode(errors="replace").rstrip("\r\n"))
        finally:
            self._writer.close()
