"""A game at the keyboard: the person types, the application answers, bots fill the table.

Everything goes through the chat application exactly as on any platform: the lobby commands that
open the game, each typed command or numbered button, deadlines and the table. The lobby itself is
never shown: the table was chosen on the command line, so the game begins at the table.

A terminal has no message to edit: before each screen the person reads a line for everything
that concerned him since the last one (offers to him, his offers' fate, trades, sales), derived
from the game's history (`EventLog`), so nothing happens out of his sight.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import random
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bohnanza.adapters.kit import chat_runner
from bohnanza.adapters.runner import Runner
from bohnanza.adapters.runner_ports import AdapterStore
from bohnanza.core.app.event_log import EventLog
from bohnanza.core.app.i18n import N_, Translator
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Outbound, Reply, ToRoom
from bohnanza.core.app.player_events import player_lines
from bohnanza.core.app.session import GameSession

from .help import HELP_WORDS, terminal_help
from .port import PLATFORM, TerminalPort, bean_names
from .unfinished import PLAYER_ID, NothingToResume, chosen_game, unfinished_games

QUIT_WORDS = ("quit", "exit", "q")
GUIDE = N_("Type the number of a choice, or a command (`help` lists them).")
"""Under the first screen, and for Enter alone."""
TYPED_TOO_SOON = N_(
    "{number} was typed before the choices above were shown: not taken. Type it again if you "
    "mean it."
)
"""For a number typed while the game was still answering the line before: the list it
answers may be one the person never saw (numbers start from 1 again in a new decision)."""
OUTPUT_WATCH = 0.5
"""Seconds between two looks at whether the output is still read."""
MAX_NAME = 30
FALLBACK_NAME = N_("Player")


def player_name(given: str | None = None, fallback: str = FALLBACK_NAME) -> str:
    """The name of the person's seat: the one given, else the login name, else `fallback`
    ('Player', in the game's language).

    A name, never "You": the table, the final scores and the replay's narration speak of every
    seat in the third person ("Anna plants …", "Anna is back"), which "You" does not fit; the
    person's own messages still say "your hand" and "only you see this".
    """
    for name in (given, _login_name()):
        printable = "".join(ch if ch.isprintable() or ch.isspace() else "" for ch in name or "")
        cleaned = " ".join(printable.split())
        if cleaned:
            return cleaned[:MAX_NAME]
    return fallback


def _login_name() -> str:
    """The person's login name; none for the superuser's, which names no person."""
    try:
        login = getpass.getuser()
    except (OSError, KeyError, ImportError):  # no login name in the environment or the system
        return ""
    return "" if login == "root" else login


@dataclass(frozen=True)
class TableChoice:
    """The game to open: how many play, which bots, in which language, how fast."""

    players: int
    bots: Sequence[str]
    """Strategies, assigned round the table."""
    language: str = "en"
    deadline: str = "off"
    name: str = field(default_factory=player_name)
    trade_window: str = "2m"
    """How long a bot on turn keeps trading open for the person."""


@dataclass
class Outcome:
    game_id: str | None
    finished: bool


def _lobby_message(item: Outbound) -> bool:
    """A message of the lobby (gathering players, or the game beginning): the chat
    application keeps it in the room's lobby slot."""
    return isinstance(item, ToRoom) and (item.slot or "").startswith("lobby:")


class TableRunner(Runner):
    """A runner that shows no lobby: at the terminal the table is chosen on the command line,
    so the person sees the table and his hand first, not the players being gathered. An answer
    to what he typed ("You pass on trading this time.") is printed before the screen that
    follows it, and everything in the order the application said it (one screen, one queue)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._printing: asyncio.Future[None] | None = None

    def post(self, out: Sequence[Outbound]) -> asyncio.Future[None]:
        shown = [item for item in out if not _lobby_message(item)]
        shown.sort(key=lambda item: not isinstance(item, Reply))
        before = self._printing

        async def in_order() -> None:
            if before is not None:
                with contextlib.suppress(Exception):
                    await before
            for item in shown:
                await Runner.post(self, [item])

        self._printing = asyncio.ensure_future(in_order())
        return self._printing


class Console:
    """One terminal session: reads lines, hands them to the application, prints its messages.

    `replay_source` is the store as a shell word, for the replay command shown at the end.
    """

    def __init__(
        self,
        store: AdapterStore,
        translators: Mapping[str, Translator],
        read_line: Callable[[], str],
        write: Callable[[str], None],
        seed: int | None = None,
        replay_source: str | None = None,
        program: str = "bohnanza",
        resume_command: str = "bohnanza play --resume",
        width: Callable[[], int] | None = None,
        output_closed: Callable[[], bool] = lambda: False,
        line_waiting: Callable[[], bool] = lambda: False,
    ) -> None:
        """`program`: the command that runs bohnanza as the person can type it; the resume
        command is told when he stops (with `--db` when the store is not the default one).
        `line_waiting`: whether a typed line already waits when the game asks for the next."""
        beans = [name for tr in translators.values() for name in bean_names(tr)]
        self.port = (
            TerminalPort(write, replay_source, program, beans=beans)
            if width is None
            else TerminalPort(write, replay_source, program, width, beans)
        )
        self.port.news = self.news
        self.port.words = lambda text: self._translator().gettext(text)
        self.store = store
        self.runner = chat_runner(
            self.port, store, translators, rng=random.Random(seed), runner=TableRunner
        )
        self.service = self.runner.service
        self._read_line = read_line
        self.output_closed = output_closed
        """Whether the output's reader has gone (a closed pipe)."""
        self._line_waiting = line_waiting
        self.resume_command = resume_command
        self.room = ""
        self.name = player_name()
        self.last_game_id: str | None = None
        self._session: GameSession | None = None
        self._log: EventLog | None = None
        self._from_start = False
        self._typing = False
        self._typed: set[int] = set()

    async def _say(self, text: str) -> None:
        inbound = Inbound(
            PLATFORM,
            PLAYER_ID,
            self.name,
            self.room,
            text,
            # Typed lines are never delivered twice, and numbering them again after a
            # `--resume` would make the store take a new line for an old one.
            delivery_id="",
        )
        self._typing = True
        try:
            await self.runner.submit(inbound)
        finally:
            self._typing = False

    def news(self) -> list[str]:
        """A line for each event that concerned the person since the last call: read from the
        game's history, so an offer made and withdrawn between two of his inputs is told too."""
        session = self.service.games.get(self.room)
        if session is not None:
            self._session = session
        session = self._session
        if session is None:
            return []
        seat = session.seat_of(PLAYER_ID)
        if seat is None:
            return []
        if self._log is None:
            self._log = EventLog(session.game, 0 if self._from_start else None)
        happened = self._log.follow(session.game)
        if self._typing:
            self._typed.update(item.index for item in happened if item.action.player == seat)
        tr = self.service.translator(session.language)
        return player_lines(tr, happened, seat, session.names, self._typed)

    async def open(self, choice: TableChoice) -> None:
        """Open a new game through the lobby commands and start it (the lobby is not shown);
        its first screen says how to answer it."""
        self.room = f"terminal-{secrets.token_hex(4)}"
        self.name = player_name(choice.name)
        self._from_start = True
        self.port.guide = self.service.translator(choice.language).gettext(GUIDE)
        await self._say("new")
        for seat in range(1, choice.players):
            await self._say(f"bot {choice.bots[(seat - 1) % len(choice.bots)]}")
        await self._say(f"set lang {choice.language}")
        await self._say(f"set deadline {choice.deadline}")
        await self._say(f"set trade-window {choice.trade_window}")
        await self._say("start")

    def choose_game(self, asked: str | None = None) -> str:
        """The unfinished game to go on with: `asked` by its id, the only one, or the one the
        person picks from the list (NothingToResume if none)."""
        games = unfinished_games(self.store)
        return chosen_game(self._translator(), games, asked, self._read_line, self.port.say)

    async def resume(self, game_id: str | None = None) -> None:
        """Go on with an interrupted terminal game (`game_id`, else the one chosen): that
        game alone is taken up, so no other game of his plays on behind it."""
        if game_id is None:
            game_id = self.choose_game()
        chosen = game_id
        await self.runner.read(lambda service: service.resume(self._clock_now(), {chosen}))
        session = await self.runner.read(lambda service: service.ctx.tables.session_by_id(chosen))
        if session is None:
            reason = self.service.refused.get(chosen, "it cannot be continued")
            raise NothingToResume(f"game {chosen}: {reason}; not resumed")
        self.room = session.room
        seat = session.seat_of(PLAYER_ID)
        assert seat is not None
        self.name = session.names[seat]
        self.port.guide = self._translator().gettext(GUIDE)
        await self._say("table")
        await self._say("hand")

    def _clock_now(self) -> datetime:
        return self.runner.clock.now()

    def playing(self) -> bool:
        """The game is still going on."""
        session = self.service.games.get(self.room)
        if session is not None:
            self.last_game_id = session.game_id
        return session is not None

    def kept_line(self) -> str | None:
        """While the game goes on: the line that says it is kept, in the game's language."""
        if not self.playing():
            return None
        tr = self.service.translator(self.service.room_language(self.room))
        kept = tr.gettext("Game {game} is kept: go on with `bohnanza play --resume`.")
        return kept.replace("bohnanza play --resume", self.resume_command).format(
            game=self.last_game_id
        )

    def _next_line(self) -> asyncio.Future[str]:
        """The next typed line, read in a thread of its own that never holds up the exit: on
        Ctrl-C the game stops at once instead of waiting for one more line."""
        loop = asyncio.get_running_loop()
        line: asyncio.Future[str] = loop.create_future()

        def settle(outcome: Callable[[], None]) -> None:
            if not line.done():
                outcome()

        def hand_over(outcome: Callable[[], None]) -> None:
            # After Ctrl-C the loop may be closed already: then nobody waits for the line.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(settle, outcome)

        def read() -> None:
            try:
                text = self._read_line()
            except BaseException as error:  # EOFError, KeyboardInterrupt: for the game loop
                failure = error
                hand_over(lambda: line.set_exception(failure))
                return
            hand_over(lambda: line.set_result(text))

        threading.Thread(target=read, name="terminal-input", daemon=True).start()
        return line

    async def play(self) -> None:
        """Read and apply commands until the game ends, the person quits, or the output is
        gone (`bohnanza play | head`)."""
        deadlines = asyncio.create_task(self.runner.run_deadlines())
        gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.port.on_gone = lambda: None if gone.done() else gone.set_result(None)
        if self.port.gone:
            gone.set_result(None)
        watching = asyncio.create_task(self._watch_output())
        lists_seen = self.port.lists_shown  # the lists printed when the line before was typed
        try:
            while self.playing():
                # Typed while the game still answered the line before, after which new
                # choices were printed: a number may name one of a list he never saw.
                too_soon = self._line_waiting() and self.port.lists_shown != lists_seen
                line_read = self._next_line()
                waited: set[asyncio.Future[Any]] = {line_read, gone}
                await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
                if gone.done():
                    line_read.cancel()  # the line, if one comes, is for nobody
                    break
                try:
                    line = await line_read
                except (EOFError, KeyboardInterrupt):
                    break
                text = line.strip()
                if text.lower() in QUIT_WORDS:
                    break
                tr = self._translator()
                if too_soon and text.isdecimal():
                    self.port.say("» " + tr.gettext(TYPED_TOO_SOON).format(number=text))
                    continue
                lists_seen = self.port.lists_shown
                if text.lower() in HELP_WORDS:
                    self.port.say(terminal_help(tr, self.resume_command))
                elif text:
                    await self._say(text)
                else:
                    # Enter alone: what happened meanwhile, and what there is to type.
                    self.port.say("\n".join([*self.news(), "» " + tr.gettext(GUIDE)]))
        finally:
            watching.cancel()
            deadlines.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await deadlines
            news = self.news()  # the last events, when the game ended with nothing more shown
            if news:
                self.port.say("\n".join(["", *news]))

    async def _watch_output(self) -> None:
        """Now and then, whether the output's reader has gone (the port finds it at its next
        write too, but while the person is asked for a line nothing is written)."""
        while not self.port.gone:
            await asyncio.sleep(OUTPUT_WATCH)
            if self.output_closed():
                self.port.gone = True
                self.port.on_gone()

    def _translator(self) -> Translator:
        return self.service.translator(self.service.room_language(self.room))
