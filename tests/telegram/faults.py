"""Faults for end-to-end tests of the real `bohnanza serve telegram` against the local Bot API.

`FaultyServer` is a `BotApiServer` that can answer chosen calls with an HTTP error (a 502, as a
proxy in front of Telegram gives), tell watchers about every call as it is answered (to stop or
kill the bot at a chosen moment) and hold an answer back for a while. `Serve` runs the real
command line as a subprocess. `ServedPlayers` plays through Telegram like `Players`, deciding on
the game as the store holds it (the bot's memory is in another process). `rendered` is what the
application would show now, rebuilt from the store, for comparing with what people see.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

from aiohttp import web

from bohnanza.adapters.store import open_store
from bohnanza.adapters.store.sql_store import SqlGameStore
from bohnanza.adapters.telegram import CAPABILITIES
from bohnanza.adapters.telegram.translate import PLATFORM, keyboard, shown_text, text_and_mode
from bohnanza.core.actions import AcceptTrade, Action
from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.messages import Message
from bohnanza.core.app.service import ChatService
from bohnanza.core.app.session import GameSession
from bohnanza.core.app.updates import private_message, table_message
from bohnanza.core.notation import action_text

from ..app.recording import without_times
from .botapi import (
    ApiCall,
    BotApiServer,
    CallbackAnswer,
    Chat,
    FloodControl,
    SimUser,
    StoredMessage,
    World,
)
from .botapi.errors import ApiError
from .table import Players, RunningBot, translators

BOHNANZA = Path(sys.executable).with_name("bohnanza")
TABLE_START = "Bohnanza · game"
STOPPED = "stopped on SIGTERM"
WEBHOOK_SECRET = "beans-are-secret_42"

Watcher = Callable[[ApiCall], float | None]
"""Told of each answered call before the answer leaves; may return seconds to hold it back."""
Arrival = Callable[[str], bool]
"""Told of each request's method as it arrives; True drops it unanswered (never applied), as
when the connection breaks before the request reaches Telegram."""


# --- the server ---------------------------------------------------------------------------


@dataclass
class Outage:
    """The next `remaining` matching calls are answered with HTTP `code`."""

    code: int
    description: str
    method: str | None
    chat_id: int | str | None
    remaining: int


class Faults(FloodControl):
    """Flood control that can also answer calls with a server error (500, 502, 503...)."""

    def __init__(self) -> None:
        super().__init__()
        self.outages: list[Outage] = []

    def inject_error(
        self,
        code: int = 502,
        *,
        count: int = 1,
        method: str | None = None,
        chat_id: int | str | None = None,
        description: str = "Bad Gateway",
    ) -> Outage:
        """Answer the next `count` calls (of `method`, to `chat_id`; None: any) with `code`."""
        outage = Outage(code, description, method.lower() if method else None, chat_id, count)
        self.outages.append(outage)
        return outage

    def check(self, method: str, chat_id: int | str | None) -> None:
        super().check(method, chat_id)
        for outage in self.outages:
            if outage.remaining <= 0:
                continue
            if outage.method not in (None, method.lower()):
                continue
            if outage.chat_id is not None and outage.chat_id != chat_id:
                continue
            outage.remaining -= 1
            raise ApiError(outage.code, outage.description)


class FaultyServer(BotApiServer):
    """A Bot API server with `Faults` and watchers of every call."""

    def __init__(self, world: World) -> None:
        super().__init__(world, webhook_retry_delays=(0.05, 0.1, 0.2))
        self.flood: Faults = Faults()
        self.watchers: list[Watcher] = []
        self.arrivals: list[Arrival] = []
        self.polls_started = 0
        """getUpdates requests received so far (a long poll is logged only when it ends)."""

    async def _handle(self, request: web.Request) -> web.Response:
        name = request.match_info["method"]
        if name.lower() == "getupdates":
            self.polls_started += 1
            self.world.notify()
        if any([arrival(name) for arrival in list(self.arrivals)]):
            return web.Response(status=502)
        seen = len(self.world.calls)
        response = await super()._handle(request)
        # The call is logged just before the answer is returned, with no wait in between.
        if len(self.world.calls) > seen and self.world.calls[-1].method == name:
            call = self.world.calls[-1]
            hold = 0.0
            for watcher in list(self.watchers):
                hold = max(hold, watcher(call) or 0.0)
            if hold:
                await asyncio.sleep(hold)
        return response


def handed_out(world: World, update_id: int, call: ApiCall) -> bool:
    """Whether this answered call gave the bot the update (it is pending, so it was in it)."""
    return (
        call.method == "getUpdates"
        and call.status == 200
        and any(u["update_id"] == update_id for u in world.pending)
    )


def confirmed_offset(world: World, since: int = 0) -> int:
    """The highest offset the bot sent in getUpdates calls logged after `since`: every update
    below it is confirmed."""
    offsets = [
        int(call.params["offset"])
        for call in world.calls_since(since, "getUpdates")
        if call.params.get("offset") not in (None, "")
    ]
    return max(offsets, default=0)


def delivery_id(update: dict[str, Any]) -> str | None:
    """The delivery id the bot stores for a person's message or button press."""
    if "callback_query" in update:
        return f"cb:{update['callback_query']['id']}"
    message = update.get("message")
    if message is not None and message.get("text"):
        return f"m:{message['chat']['id']}:{message['message_id']}"
    return None


# --- the command line ---------------------------------------------------------------------


class Serve:
    """`bohnanza serve telegram` on a database, pointed at a local server; output to `log`."""

    def __init__(
        self,
        server: FaultyServer,
        db: Path,
        log: Path,
        stop_timeout: float = 5.0,
        webhook: str | None = None,
    ) -> None:
        self.server = server
        self.db = db
        self.log = log
        self.stop_timeout = stop_timeout
        self.webhook = webhook
        """In webhook mode, the URL Telegram posts to (on 127.0.0.1); else it polls."""
        self.process: asyncio.subprocess.Process | None = None

    def environment(self) -> dict[str, str]:
        clean = {k: v for k, v in os.environ.items() if not k.startswith("BOHNANZA_")}
        env = clean | {
            "BOHNANZA_DB": str(self.db),
            "BOHNANZA_TELEGRAM_TOKEN": self.server.world.token,
            "BOHNANZA_TELEGRAM_BASE_URL": f"http://{self.server.host}:{self.server.port}",
            "BOHNANZA_STOP_TIMEOUT": str(self.stop_timeout),
            "BOHNANZA_LOG_LEVEL": "INFO",
        }
        if self.webhook is not None:
            env |= {
                "BOHNANZA_TELEGRAM_MODE": "webhook",
                "BOHNANZA_TELEGRAM_WEBHOOK_URL": self.webhook,
                "BOHNANZA_TELEGRAM_WEBHOOK_SECRET": WEBHOOK_SECRET,
                "BOHNANZA_TELEGRAM_LISTEN": "127.0.0.1",
                "BOHNANZA_TELEGRAM_PORT": str(urlsplit(self.webhook).port),
            }
        return env

    def _taking_updates(self, calls: int, polls: int) -> bool:
        """Whether it takes updates: it polls, or (webhook mode) it set its webhook, which it
        does once it listens."""
        if self.webhook is None:
            return self.server.polls_started > polls
        return any(
            call.method == "setWebhook" and call.status == 200
            for call in self.server.world.calls[calls:]
        )

    async def start(self, timeout: float = 20.0) -> None:
        """Start it and wait until it takes updates."""
        calls, polls = len(self.server.world.calls), self.server.polls_started
        with self.log.open("wb") as out:
            self.process = await asyncio.create_subprocess_exec(
                str(BOHNANZA),
                "serve",
                "telegram",
                env=self.environment(),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        process = self.process
        exited = asyncio.ensure_future(process.wait())
        polling = asyncio.ensure_future(
            self.server.world.wait_until(
                lambda: self._taking_updates(calls, polls), timeout, "serve taking updates"
            )
        )
        await asyncio.wait([exited, polling], return_when=asyncio.FIRST_COMPLETED)
        # A process that ends at once (a bad setting, an import error) fails the test at once.
        assert not exited.done(), self.output
        exited.cancel()
        if polling.exception() is not None:
            raise AssertionError(f"{polling.exception()}:\n{self.output}")

    @property
    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def signal(self, number: int) -> None:
        assert self.process is not None
        if self.process.returncode is None:
            self.process.send_signal(number)

    async def wait(self, timeout: float = 20.0) -> int:
        assert self.process is not None
        return await asyncio.wait_for(self.process.wait(), timeout)

    async def stop(self, timeout: float = 20.0) -> int:
        """SIGTERM, as systemd stops a service; the exit code."""
        self.signal(signal.SIGTERM)
        return await self.wait(timeout)

    async def close(self) -> None:
        """Kill it if it still runs (a test that failed half-way)."""
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()


async def audit(db: Path) -> tuple[int, str]:
    """`bohnanza audit DB`: its exit code and output."""
    process = await asyncio.create_subprocess_exec(
        str(BOHNANZA),
        "audit",
        str(db),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode is not None
    return process.returncode, out.decode(errors="replace")


def clean_stop(code: int, output: str) -> None:
    """Exit 0 after SIGTERM, with the one line saying so and no traceback."""
    assert code == 0, output
    assert "Traceback" not in output, output
    said = [line for line in output.splitlines() if STOPPED in line]
    assert len(said) == 1 and said[0].rstrip().endswith(STOPPED), output


# --- the store and what it should show ----------------------------------------------------


_TRANSLATORS: dict[str, Translator] = {}


def catalogs() -> dict[str, Translator]:
    if not _TRANSLATORS:
        _TRANSLATORS.update(translators())
    return _TRANSLATORS


def rebuilt(store: SqlGameStore, room: str) -> tuple[ChatService, GameSession | None]:
    """The game in progress in a room as a freshly started application would hold it."""
    service = ChatService(PLATFORM, CAPABILITIES, store, catalogs(), rng=random.Random(1))
    service.resume(datetime.now(UTC))
    return service, service.games.get(room)


@dataclass(frozen=True)
class Shown:
    """A message as Telegram shows it: its text and its buttons (label, data)."""

    text: str | None
    buttons: tuple[tuple[tuple[str, str], ...], ...]

    @classmethod
    def of_message(cls, message: Message) -> Shown:
        """How Telegram shows a message of the application (its HTML, where it has one)."""
        text, mode = text_and_mode(message)
        markup = keyboard(message)
        rows = markup.to_dict()["inline_keyboard"] if markup is not None else []
        return cls(text if mode is None else shown_text(text), _rows(rows))

    @classmethod
    def on_telegram(cls, message: StoredMessage) -> Shown:
        return cls(message.text, _rows(message.inline_keyboard))

    def timeless(self) -> Shown:
        """Without the time left to a deadline ('(due in 4 min)') or to the close of a bot's
        trading window ('trading closes in 2 min'): it depends on the moment the message was
        made, not only on the game."""
        return replace(self, text=without_times(self.text or ""))


def _rows(rows: Sequence[Sequence[dict[str, Any]]]) -> tuple[tuple[tuple[str, str], ...], ...]:
    return tuple(tuple((str(b["text"]), str(b.get("callback_data"))) for b in row) for row in rows)


@dataclass(frozen=True)
class Views:
    """What the application would show now: the room's table and each person's message."""

    game_id: str
    table: Shown
    private: dict[str, Shown]
    """By user id."""


def rendered(store: SqlGameStore, room: str) -> Views:
    service, session = rebuilt(store, room)
    assert session is not None, "no game in progress in the room"
    tr = service.translator(session.language)
    private = {
        session.seats[seat].identity.user_id: Shown.of_message(
            private_message(session, seat, tr, CAPABILITIES)
        )
        for seat in session.humans()
    }
    table = Shown.of_message(table_message(session, tr, CAPABILITIES))
    return Views(session.game_id, table, private)


def private_shown(person: SimUser, game_id: str) -> Shown | None:
    """The person's latest private message about his hand in one game, as it reads now."""
    for message in reversed(person.private_messages):
        if (message.text or "").startswith(f"Game {game_id}\n"):
            return Shown.on_telegram(message)
    return None


def table_shown(group: Chat) -> Shown | None:
    """The group's latest table message, as it reads now."""
    for message in reversed(group.bot_messages):
        if (message.text or "").startswith(TABLE_START):
            return Shown.on_telegram(message)
    return None


def timeless(shown: Shown | None) -> Shown | None:
    """A message as shown, without the times that depend on when it was made (`Shown.timeless`)."""
    return None if shown is None else shown.timeless()


def stale_views(store: SqlGameStore, group: Chat, people: Sequence[SimUser]) -> list[str]:
    """Every view (the table, a person's private message) that differs from what the
    application would show now; empty if all are current."""
    views = rendered(store, str(group.id))
    stale = []
    table = table_shown(group)
    if table is None or table.timeless() != views.table.timeless():
        stale.append(f"the table: {table} != {views.table}")
    for person in people:
        wanted = views.private.get(str(person.id))
        shown = private_shown(person, views.game_id)
        if wanted is not None and (shown is None or shown.timeless() != wanted.timeless()):
            stale.append(f"{person}: {shown} != {wanted}")
    return stale


async def stale_after_healing(
    world: World, store: SqlGameStore, group: Chat, people: Sequence[SimUser]
) -> list[str]:
    """The views still stale once the bot had every chance to heal them: at once if none is
    (the usual case), else after the bot's patience; the bot runs in a process of its own, so
    only what Telegram shows tells when it is done."""
    with contextlib.suppress(TimeoutError):
        await world.wait_until(lambda: not stale_views(store, group, people), what="views")
    return stale_views(store, group, people)


def human_actions(store: SqlGameStore, game_id: str) -> list[Action]:
    """The stored actions of the people's seats, in order."""
    record = store.load_record(game_id)
    humans = {i for i, seat in enumerate(record.seats) if seat.kind == "human"}
    return [action for action in record.actions if action.player in humans]


def action_count(store: SqlGameStore, game_id: str) -> int:
    return next(s.actions for s in store.list_games() if s.game_id == game_id)


def same_moves(stored: Sequence[Action], sent: Sequence[Action]) -> bool:
    """The stored actions are the sent ones, each once (an accept's cards may be chosen)."""
    if len(stored) != len(sent):
        return False
    for mine, theirs in zip(stored, sent, strict=True):
        if isinstance(theirs, AcceptTrade) and not theirs.hand and not theirs.face_up:
            if not (isinstance(mine, AcceptTrade) and mine.offer == theirs.offer):
                return False
        elif mine != theirs:
            return False
    return True


# --- people playing a game the subprocess serves ------------------------------------------


class ServedPlayers(Players):
    """`Players` for a bot in another process: moves are decided on the game as stored, and
    each command is waited for until the bot has settled."""

    def __init__(
        self,
        server: FaultyServer,
        db: Path,
        group: Chat,
        people: Sequence[SimUser],
        seed: int = 7,
        quiet: float = 0.3,
    ) -> None:
        super().__init__(cast(RunningBot, None), group, people, seed)
        self.server = server
        self.db = db
        self.quiet = quiet
        self._store: SqlGameStore | None = None
        self.sent: list[Action] = []
        """Every action a person was made to send, in order ('pass' is none)."""
        self.halted = False
        """Set when the bot is stopped or killed: no further command is sent."""

    @property
    def world(self) -> World:
        return self.server.world

    @property
    def store(self) -> SqlGameStore:
        if self._store is None:
            self._store = open_store(str(self.db))
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    def session(self) -> GameSession | None:
        return rebuilt(self.store, self.room)[1]

    async def settle(self) -> None:
        await self.world.settle(quiet=self.quiet)

    async def say(self, person: SimUser, text: str, chat: Chat | None = None) -> StoredMessage:
        message = person.say(chat, text)
        await self.settle()
        return message

    async def press(self, person: SimUser, message: StoredMessage, data: str) -> CallbackAnswer:
        query = person.press(message, data)
        answer = await query.wait_answer()
        await self.settle()
        return answer

    async def step(self) -> bool:
        """One person does what he decides; False if nobody would act (or the bot is down)."""
        session = self.session()
        decision = self.decide(session) if session is not None else None
        if session is None or decision is None or self.halted:
            return False
        seat, action = decision
        if action is not None:
            self.sent.append(action)
        # The command is sent before anything else can run, so `halted` still holds.
        await self.send(session, seat, "pass" if action is None else action_text(action))
        return True

    def next_move(self, pressed: bool) -> NextMove | None:
        """The next decision, if it is a move (not a pass on trading), and with `pressed` only
        if a button of the person's private message makes it."""
        session = self.session()
        decision = self.decide(session) if session is not None else None
        if session is None or decision is None:
            return None
        seat, action = decision
        if action is None:
            return None
        person = self.person_at(session, seat)
        if not pressed:
            return NextMove(person, action)
        message = latest_message(person, session.game_id)
        data = button_for(message, session.game_id, action_text(action)) if message else None
        return None if data is None else NextMove(person, action, message, data)

    async def upcoming(self, pressed: bool, tries: int = 40) -> NextMove:
        """Play on until the next decision is a move (made by a button, with `pressed`)."""
        for _ in range(tries):
            found = self.next_move(pressed)
            if found is not None:
                return found
            assert await self.step(), "nobody would act"
        raise AssertionError(f"no such move within {tries} moves")


@dataclass(frozen=True)
class NextMove:
    """A move a person is about to make: by pressing `data` under `message`, or typing it."""

    person: SimUser
    action: Action
    message: StoredMessage | None = None
    data: str | None = None


def latest_message(person: SimUser, game_id: str) -> StoredMessage | None:
    for message in reversed(person.private_messages):
        if (message.text or "").startswith(f"Game {game_id}\n") and message.inline_keyboard:
            return message
    return None


def button_for(message: StoredMessage, game_id: str, command: str) -> str | None:
    for row in message.inline_keyboard:
        for button in row:
            words = str(button.get("callback_data", "")).split(maxsplit=3)
            if words[:2] == ["g", game_id] and words[3:] == [command]:
                return str(button["callback_data"])
    return None


def bean_table(world: World, names: Sequence[str]) -> tuple[Chat, list[SimUser]]:
    """People who started the bot, and their group with the bot in it."""
    people = [world.create_user(name) for name in names]
    group = world.create_group("Bean table", people)
    world.add_bot(group, by=people[0])
    for person in people:
        person.start_bot()
    return group, people
