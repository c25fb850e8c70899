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
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path

from bohnanza.adapters.settings import PlatformSettings, SettingsError, settings_by_rules

log = logging.getLogger(__name__)

CONNECTION_RULES: dict[str, tuple[str | None, str, str]] = {
    "SERVER": (None, r"[\w.:-]+", "is not a host name"),
    "PORT": ("", r"\d{0,5}", "must be a port number"),
    "TLS": ("1", "[01]", "must be 1 or 0"),
    "TLS_VERIFY": ("1", "[01]", "must be 1 or 0"),
    "TLS_CA": ("", r".*", ""),
}
"""The settings of a connection to a server, `BOHNANZA_<PLATFORM>_SERVER` and so on: the host,
the port, TLS (on by default), whether to check the server's certificate, a CA file to trust."""

SILENCE = 300.0
"""Seconds without a line from the server after which the connection is taken for dead."""
BACKOFF = (1.0, 2.0, 5.0, 15.0, 30.0, 60.0)
"""Seconds before connecting again after failures in a row (the last repeats)."""
READY_WAIT = 30.0
"""Seconds a line waits for the connection to be ready before it fails."""


def connection_settings(
    env: Mapping[str, str],
    platform: str,
    rules: Mapping[str, tuple[str | None, str, str]],
    ports: tuple[int, int],
    server_required: bool = True,
) -> PlatformSettings:
    """A platform's connection settings (`CONNECTION_RULES`) and its own `rules` (see
    `settings_by_rules`); the port is `ports[0]` with TLS, `ports[1]` without, unless set; a
    CA file named must exist. Without `server_required`, `SERVER` may be left out (""): the
    platform finds its server itself (XMPP: from the domain of the account). SettingsError
    names the first setting that is wrong."""
    optional = {} if server_required else {"SERVER": ("", r"[\w.:-]*", "is not a host name")}
    found = settings_by_rules(env, platform, {**CONNECTION_RULES, **optional, **rules})
    found["PORT"] = found["PORT"] or str(ports[0] if found["TLS"] == "1" else ports[1])
    if found["TLS_CA"] and not Path(found["TLS_CA"]).is_file():
        raise SettingsError(f"BOHNANZA_{platform.upper()}_TLS_CA names no file")
    return found


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

    def __init__(self, settings: Mapping[str, str], host: str = "") -> None:
        """To the server of `connection_settings` (or `host`, when the platform found it)."""
        s = settings
        self.host, self.port = host or s["SERVER"], int(s["PORT"])
        if not self.host:
            raise SettingsError("no server to connect to: set the SERVER setting")
        self.tls = tls_context(s["TLS"] == "1", s["TLS_VERIFY"] == "1", s["TLS_CA"])
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
        after a drop. An untrusted certificate, or a SettingsError from `handle` (a refused
        login), ends it; another failure of `handle` is logged, and the line is lost."""
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
                try:
                    await handle(raw.decode(errors="replace").rstrip("\r\n"))
                except (SettingsError, OSError):
                    raise
                except Exception as error:  # the server sends no line twice: it is lost
                    log.warning("a line from %s was not handled: %r", self.host, error)
        finally:
            self._writer.close()
