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

from collections.abc import Callable, Iterable, Sequence

from bohnanza.core.app.i18n import N_, English, Translator, bean_name
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Message
from bohnanza.core.app.picker import short_bean
from bohnanza.core.app.ports import Capabilities
from bohnanza.core.cards import VARIETIES

from .layout import choices, fitted, kept_whole, terminal_width

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
    # One person against bots: a bot's turn waits for him only while its offer to him is open.
    bots_wait="offers",
)
REPLAY_COMMAND = "bohnanza replay DB "
"""How the application's final message names the replay command, in every language."""
ONLY_YOU = N_("── only you see this ──")
"""Above each private message."""
AT_WORK = "⏳ …"
"""Shown while bots take a while to answer (the same in every language)."""


def bean_names(tr: Translator) -> list[str]:
    """Every bean's name in a language, whole and short ('Chili Bean', 'Chili')."""
    return [name for v in VARIETIES for name in (bean_name(tr, v), short_bean(tr, v))]


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
        beans: Iterable[str] = (),
    ) -> None:
        """`program`: the command that runs bohnanza, as the person can type it; `beans`:
        the bean names of every language, never broken across two lines."""
        self._write = write
        self._keep = kept_whole([*bean_names(English()), *beans])
        self._replay = f"{program} replay {replay_source} " if replay_source else None
        self._program = program
        self._width = width
        self._sent = 0
        self.lists_shown = 0
        """How many lists of numbered choices were printed."""
        self._at_work = False
        self.news: Callable[[], Sequence[str]] = lambda: ()
        """The lines of what happened since the last message (the console sets it)."""
        self.words: Callable[[str], str] = lambda text: text
        """The game's language, for the port's own words (the console sets it)."""
        self.guide = ""
        """A line printed under the next choices, once (how to answer them)."""
        self.gone = False
        """The output's reader has gone (a closed pipe): nothing is printed any more."""
        self.on_gone: Callable[[], None] = lambda: None

    def _out(self, text: str) -> None:
        """Print, unless the output is gone (its reader closed the pipe): then nothing more is
        printed, and the console is told, to stop (the game is kept)."""
        if self.gone:
            return
        try:
            self._write(text)
        except BrokenPipeError:
            self.gone = True
            self.on_gone()

    def say(self, text: str) -> None:
        """Print a text fit to the terminal's width."""
        self._out("\n".join(fitted(text, self._width(), self._program, self._keep)))

    def _show(self, heading: str, message: Message) -> str:
        self._sent += 1
        width = self._width()
        news = list(self.news())
        text = message.text
        if self._replay is not None:
            text = text.replace(REPLAY_COMMAND, self._replay)
        lines = [""]
        if news:
            lines += [*(part for line in news for part in fitted(line, width, keep=self._keep)), ""]
        if heading:
            lines.append(heading)
        lines += fitted(text, width, self._program, self._keep)
        buttons = [button for row in message.buttons for button in row]
        if buttons:
            numbers = [button.number for button in buttons]
            labels = [button.label for button in buttons]
            lines += choices(labels, width, numbers if all(numbers) else (), self._keep)
            if all(numbers):
                self.lists_shown += 1
            if self.guide:
                lines += ["", *fitted(self.guide, width, keep=self._keep)]
                self.guide = ""
        self._out("\n".join(lines))
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
        return self._show(self.words(ONLY_YOU), message)

    async def edit_private(self, user_id: str, message_id: str, message: Message) -> None:
        self._show(self.words(ONLY_YOU), message)

    async def thinking(self, inbound: Inbound, busy: bool) -> None:
        """Once per spell of work, an hourglass: a silent prompt is not taken for a hang."""
        if busy and not self._at_work:
            self.say(AT_WORK)
        self._at_work = busy

    async def answer(self, inbound: Inbound, text: str) -> None:
        if text != "✓":
            self.say(text if inbound.button else f"» {text}")
