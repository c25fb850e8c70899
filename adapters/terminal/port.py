"""The terminal as a chat platform: one room, one person at the keyboard, buttons by number.

Messages are printed as they come, fit to the terminal's width; a message with buttons lists them
with the numbers the application gave them, and a typed number goes to the application, which
takes it for the choice it named when it was shown (as on any platform without buttons). Before each
message come the lines of what happened since the last one (`news`: offers, trades, sales; a
terminal has no message to edit, so nothing would tell them otherwise). The replay command of a
finished game names the program as it runs and the store the game is kept in, when the port knows
them, so it can be run as printed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Message
from bohnanza.core.app.ports import Capabilities

from .layout import choices, fitted, terminal_width

PLATFORM = "terminal"
CAPABILITIES = Capabilities(
    buttons=True,
    edits=False,
    private_messages=True,
    max_text=20_000,
    files=False,
    one_screen=True,
    numbered_buttons=True,
    verified_ids=False,
)
REPLAY_COMMAND = "bohnanza replay DB "
"""How the application's final message names the replay command, in every language."""
AT_WORK = "⏳ …"
"""Shown while bots take a while to answer (the same in every language)."""


class TerminalPort:
    """Prints what the application shows, its buttons as numbered choices."""

    platform = PLATFORM
    capabilities = CAPABILITIES

    def how_to_reach(self, tr: Translator) -> str:
        """Everyone at a terminal sees every message: nothing to open."""
        return ""

    def __init__(
        self,
        write: Callable[[str], None],
        replay_source: str | None = None,
        program: str = "bohnanza",
        width: Callable[[], int] = terminal_width,
    ) -> None:
        """`program`: the command that runs bohnanza, as the person can type it."""
        self._write = write
        self._replay = f"{program} replay {replay_source} " if replay_source else None
        self._program = program
        self._width = width
        self._sent = 0
        self._at_work = False
        self.news: Callable[[], Sequence[str]] = lambda: ()
        """The lines of what happened since the last message (the console sets it)."""

    def say(self, text: str) -> None:
        """Print a text fit to the terminal's width."""
        self._write("\n".join(fitted(text, self._width(), self._program)))

    def _show(self, heading: str, message: Message) -> str:
        self._sent += 1
        width = self._width()
        news = list(self.news())
        text = message.text
        if self._replay is not None:
            text = text.replace(REPLAY_COMMAND, self._replay)
        lines = [""]
        if news:
            lines += [*(part for line in news for part in fitted(line, width)), ""]
        if heading:
            lines.append(heading)
        lines += fitted(text, width, self._program)
        buttons = [button for row in message.buttons for button in row]
        if buttons:
            numbers = [button.number for button in buttons]
            labels = [button.label for button in buttons]
            lines += choices(labels, width, numbers if all(numbers) else ())
        self._write("\n".join(lines))
        return str(self._sent)

    async def send(self, room: str, message: Message) -> str:
        return self._show("", message)

    async def send_file(self, room: str, filename: str, data: bytes, caption: str) -> str:
        """Nothing: a terminal takes no files (the replay command writes a game's page)."""
        return ""

    async def edit(self, room: str, message_id: str, message: Message) -> None:
        self._show("", message)

    async def delete(self, room: str, message_id: str) -> None:
        return None

    async def send_private(self, user_id: str, message: Message) -> str:
        return self._show("── only you see this ──", message)

    async def edit_private(self, user_id: str, message_id: str, message: Message) -> None:
        self._show("── only you see this ──", message)

    async def thinking(self, inbound: Inbound, busy: bool) -> None:
        """Once per spell of work, an hourglass: a silent prompt is not taken for a hang."""
        if busy and not self._at_work:
            self.say(AT_WORK)
        self._at_work = busy

    async def answer(self, inbound: Inbound, text: str) -> None:
        if text != "✓":
            self.say(text if inbound.button else f"» {text}")
