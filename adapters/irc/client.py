"""One connection to an IRC server on asyncio streams, kept up: registration (IRCv3 SASL
PLAIN when an account is set), PING answered, channels joined (again after a reconnect, and
when invited), and a new connection after a dropped one, waiting longer each time."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bohnanza.adapters.kit import LineConnection, PlatformSettings, SettingsError

from .protocol import Line, casefold, encode, parse, sasl_plain


class SaslRefused(SettingsError):
    """The server refused the SASL login, or offers none: the account settings are wrong."""


class IrcClient(LineConnection):
    """The bot's connection; `run(handle)` hands on every line it does not handle itself."""

    def __init__(self, settings: PlatformSettings) -> None:
        super().__init__(settings)
        self.settings, self.nick = settings, settings["NICK"]
        self.channels = dict.fromkeys(filter(None, settings["CHANNELS"].split(",")))

    async def run(self, handle: Callable[[Line], Awaitable[None]]) -> None:
        """Stay connected until cancelled; SaslRefused or an untrusted certificate ends it."""

        async def read(raw: str) -> None:
            line = parse(raw)
            if not self._register(line):
                await handle(line)

        await self.keep_up(self._greet, read)

    def _greet(self) -> None:
        self.nick = self.settings["NICK"]
        self.write_now(encode("CAP", "LS", "302") + encode("NICK", self.nick))
        self.write_now(encode("USER", self.nick, "0", "*", "bohnanza"))

    def _register(self, line: Line) -> bool:
        """Answer what the connection itself needs; True if that was all the line asked."""
        (command, params), s, sasl = line[:2], self.settings, bool(self.settings["SASL_USER"])
        replies: list[tuple[str, ...]] = []
        if command == "CAP" and params[1] == "LS" and params[2] != "*":
            replies = [("CAP", "REQ", "sasl") if sasl else ("CAP", "END")]
        elif command == "CAP" and params[1] == "ACK":
            replies = [("AUTHENTICATE", "PLAIN")]
        elif command == "AUTHENTICATE":
            replies = [("AUTHENTICATE", p) for p in sasl_plain(s["SASL_USER"], s["SASL_PASSWORD"])]
        elif command == "903":
            replies = [("CAP", "END")]
        elif command in ("902", "904", "905", "906") or (command, *params[1:2]) == ("CAP", "NAK"):
            raise SaslRefused(f"the IRC server refused the SASL login: {params[-1]}")
        elif command == "433" and not self.ready.is_set():
            self.nick += "_"
            replies = [("NICK", self.nick)]
        elif command == "001":
            self.nick = params[0]
            self.ready.set()
            replies = [("JOIN", channel) for channel in self.channels]
        elif command == "INVITE" and casefold(params[0]) == casefold(self.nick):
            self.channels[params[-1]] = None
            replies = [("JOIN", params[-1])]
        elif command == "PING":
            replies = [("PONG", *params[-1:])]
        for reply in replies:
            self.write_now(encode(*reply))
        return command in ("CAP", "AUTHENTICATE", "PING", "001") or bool(replies)
