"""The chat port on IRC: every line of a message is one PRIVMSG, answers are NOTICEs.

IRC cannot edit, delete, or carry buttons or files. The runner splits messages to the line
limits in `capabilities` and sends lines at the pace the server's flood limit allows, so the
port writes each line it is given at once.
"""

from __future__ import annotations

from dataclasses import replace

from bohnanza.adapters.kit import Capabilities, LinePort, Translator

from .client import IrcClient
from .protocol import encode

# A line's text holds 400 UTF-8 bytes at most: the server puts `:nick!user@host PRIVMSG #chan :`
# before it when it passes it on, and a line holds 512 bytes in all.
CAPABILITIES = Capabilities(
    personal_answers=True, compact=True, line_bytes=400, verified_ids=False
)  # a nick is anyone's to take: no account behind it


class IrcPort(LinePort):
    """Writes to channels and nicks through the bot's connection."""

    platform = "irc"

    def __init__(self, client: IrcClient, burst: int = 4) -> None:
        super().__init__()
        self.client, pace = client, float(client.settings["PACE"])
        self.capabilities = replace(CAPABILITIES, line_pace=pace, line_burst=burst)

    def how_to_reach(self, tr: Translator) -> str:
        text = tr.gettext(
            "Stay connected under the nick you joined with; then send '{command}' here."
        )
        return text.format(command=self.client.settings["PREFIX"] + "hand")

    async def write(self, target: str, line: str, answer: bool) -> None:
        await self.client.write_line(encode("NOTICE" if answer else "PRIVMSG", target, line))
