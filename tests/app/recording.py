"""Test doubles for the chat application: a port that records what it was asked to show, a clock
moved by hand, and people who play their seats through the application as players would.

`People` decides each person's move with a bot looking at that person's own view, then sends it
the way a person does: as a text command (in the group, or privately) or by pressing a button of
the latest private message. Nothing goes into a game except through `Runner.submit`.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bohnanza.adapters.pacing import PACKED
from bohnanza.adapters.runner import Runner
from bohnanza.adapters.store import open_store
from bohnanza.adapters.store.sql_store import SqlGameStore
from bohnanza.core.actions import AcceptTrade, Action
from bohnanza.core.app.i18n import English, Translator, bean_name
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Button, Message
from bohnanza.core.app.ports import Capabilities, MessageGone, Unreachable
from bohnanza.core.app.screens import screen_message
from bohnanza.core.app.service import ChatService
from bohnanza.core.app.session import GameSession
from bohnanza.core.app.updates import private_message
from bohnanza.core.bots import Bot, make_bot
from bohnanza.core.cards import Variety
from bohnanza.core.legal import asking_order
from bohnanza.core.notation import action_text
from bohnanza.core.state import Step

PLATFORM = "test"
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
BUTTONS_AND_EDITS = Capabilities(buttons=True, edits=True, personal_answers=True)
TEXT_ONLY = Capabilities()
HAND_LINE = "Your hand (front first): "
_DELIVERIES = itertools.count(1)
"""Delivery ids, unique across every person of a test run, as a platform's are."""


@dataclass
class Shown:
    """One message as a platform shows it: its id and every text it had, the current one last."""

    id: str
    history: list[Message] = field(default_factory=list)

    @property
    def message(self) -> Message:
        return self.history[-1]

    @property
    def text(self) -> str:
        return self.message.text

    @property
    def payloads(self) -> list[str]:
        return [button.payload for row in self.message.buttons for button in row]


@dataclass(frozen=True)
class SentFile:
    """A file posted in a room, with its caption."""

    id: str
    filename: str
    data: bytes
    caption: str


@dataclass(frozen=True)
class Answer:
    """Short feedback to the sender of one input."""

    inbound: Inbound
    text: str

    @property
    def seen_by_room(self) -> bool:
        """A reply to a text said in a group is read by everyone there."""
        return not self.inbound.private and not self.inbound.button


class RecordingPort:
    """A `ChatPort` that keeps what each room and each player was shown, edits included."""

    def __init__(self, capabilities: Capabilities = BUTTONS_AND_EDITS) -> None:
        self.platform = PLATFORM
        self.capabilities = capabilities
        self.rooms: dict[str, list[Shown]] = {}
        self.private: dict[str, list[Shown]] = {}
        self.answers: list[Answer] = []
        self.room_posts: Counter[str] = Counter()
        """Sends and edits per room: what a group chat's rate limit counts."""
        self.unreachable: set[str] = set()
        """Users the bot cannot write to privately."""
        self.files: dict[str, list[SentFile]] = {}
        """The files posted in each room, in order."""
        self.thinking_shown: list[tuple[str, bool]] = []
        """(room, busy) for each time the port was asked to show the bot at work."""
        self._ids = itertools.count(1)

    # --- the port ------------------------------------------------------------------------

    def how_to_reach(self, tr: Translator) -> str:
        return tr.gettext("Open a private chat with me and press Start, then send /hand here.")

    async def send(self, room: str, message: Message) -> str:
        shown = Shown(str(next(self._ids)), [message])
        self.rooms.setdefault(room, []).append(shown)
        self.room_posts[room] += 1
        return shown.id

    async def send_file(self, room: str, filename: str, data: bytes, caption: str) -> str:
        assert self.capabilities.files, "sent a file on a platform without files"
        sent = SentFile(str(next(self._ids)), filename, data, caption)
        self.files.setdefault(room, []).append(sent)
        self.room_posts[room] += 1
        return sent.id

    async def edit(self, room: str, message_id: str, message: Message) -> None:
        assert self.capabilities.edits, "edited a room message on a platform without edits"
        self._find(self.rooms.get(room, []), message_id).history.append(message)
        self.room_posts[room] += 1

    async def delete(self, room: str, message_id: str) -> None:
        raise AssertionError("the application deleted a message")

    async def send_private(self, user_id: str, message: Message) -> str:
        if user_id in self.unreachable:
            raise Unreachable(user_id)
        shown = Shown(str(next(self._ids)), [message])
        self.private.setdefault(user_id, []).append(shown)
        return shown.id

    async def edit_private(self, user_id: str, message_id: str, message: Message) -> None:
        assert self.capabilities.edits, "edited a private message on a platform without edits"
        if user_id in self.unreachable:
            raise Unreachable(user_id)
        self._find(self.private.get(user_id, []), message_id).history.append(message)

    async def answer(self, inbound: Inbound, text: str) -> None:
        self.answers.append(Answer(inbound, text))

    async def thinking(self, inbound: Inbound, busy: bool) -> None:
        self.thinking_shown.append((inbound.room, busy))

    @staticmethod
    def _find(shown: list[Shown], message_id: str) -> Shown:
        for item in shown:
            if item.id == message_id:
                return item
        raise MessageGone(message_id)

    # --- reading what was shown ----------------------------------------------------------

    def room_texts(self, room: str) -> list[str]:
        """Every text the room was ever shown, each version of an edited message included."""
        return [m.text for shown in self.rooms.get(room, []) for m in shown.history]

    def last_room_text(self, room: str) -> str:
        return self.rooms[room][-1].text

    def private_texts(self, user_id: str) -> list[str]:
        return [m.text for shown in self.private.get(user_id, []) for m in shown.history]

    def hand_message(self, user_id: str, game_id: str) -> Shown | None:
        """The player's latest private message about his hand in one game."""
        for shown in reversed(self.private.get(user_id, [])):
            if shown.text.startswith(f"Game {game_id}\n"):
                return shown
        return None

    def answers_to(self, user_id: str) -> list[str]:
        return [a.text for a in self.answers if a.inbound.user_id == user_id]

    def last_answer(self, user_id: str) -> str:
        answers = self.answers_to(user_id)
        return answers[-1] if answers else ""


class FakeClock:
    """A clock that stands still until a test moves it."""

    def __init__(self, now: datetime = START) -> None:
        self.moment = now

    def now(self) -> datetime:
        return self.moment

    def advance(self, **duration: float) -> datetime:
        self.moment += timedelta(**duration)
        return self.moment

    def set(self, moment: datetime) -> None:
        self.moment = moment


@dataclass
class Table:
    """One wired application: a SQLite file, a service, a recording port, a clock and a runner."""

    path: Path
    port: RecordingPort
    clock: FakeClock
    store: SqlGameStore
    service: ChatService
    runner: Runner

    @classmethod
    def open(
        cls,
        path: Path,
        capabilities: Capabilities = BUTTONS_AND_EDITS,
        seed: int = 1,
        clock: FakeClock | None = None,
        port: RecordingPort | None = None,
    ) -> Table:
        """The application on the database at `path` (created if new)."""
        store = open_store(str(path), create=True)
        port = port or RecordingPort(capabilities)
        clock = clock or FakeClock()
        service = ChatService(PLATFORM, port.capabilities, store, rng=random.Random(seed))
        return cls(path, port, clock, store, service, Runner(service, port, clock, store=store))

    def restarted(self, seed: int = 2) -> Table:
        """A new service and runner on the same database, as after the bot was restarted; the
        platform (the port) and the time go on."""
        return Table.open(self.path, seed=seed, clock=self.clock, port=self.port)

    def action_count(self, game_id: str) -> int:
        """How many actions the store holds for a game."""
        return next(s.actions for s in self.store.list_games() if s.game_id == game_id)

    def session(self, room: str) -> GameSession:
        return self.service.games[room]


class People:
    """The people at the tables of one application, each sending his moves as a person does."""

    def __init__(
        self,
        table: Table,
        seed: int = 7,
        strategy: str = "heuristic",
        away: Iterable[str] = (),
        numbers: float = 0.0,
    ) -> None:
        self.table = table
        self.away = set(away)
        """People who never play their seats themselves (deadlines play for them)."""
        self.rng = random.Random(seed)
        self.strategy = strategy
        self.minds: dict[tuple[str, int], Bot] = {}
        self.moves = 0
        self.buttons_pressed = 0
        self.numbers = numbers
        """How often a person answers with the number of his choice, where choices are
        numbered (no buttons, or the terminal), when his latest message lists it."""
        self.numbered = 0
        """Moves sent as a number."""
        self.refusals: list[str] = []
        """What the people were told when a number they sent was not taken."""

    @property
    def runner(self) -> Runner:
        return self.table.runner

    # --- saying things -------------------------------------------------------------------

    async def say(
        self, user: str, text: str, room: str = "g1", private: bool = False, name: str = ""
    ) -> Inbound:
        """A person types `text` in `room` (or privately to the bot)."""
        where = f"dm:{user}" if private else room
        inbound = Inbound(
            PLATFORM,
            user,
            name or user.title(),
            where,
            text,
            f"d{next(_DELIVERIES)}",
            private,
        )
        await self.runner.submit(inbound)
        return inbound

    async def answer(self, user: str, number: object, room: str = "g1") -> Inbound:
        """A person answers his list with a number: privately (after the game's id, where he
        plays several), or at the terminal's one screen, where he types everything."""
        if self.table.port.capabilities.one_screen:
            return await self.say(user, str(number), room)
        session = self.table.service.games.get(room)
        several = len(self.table.service.sessions_of(user)) > 1
        prefix = f"#{session.game_id} " if session is not None and several else ""
        return await self.say(user, f"{prefix}{number}", room, private=True)

    async def press(self, user: str, payload: str) -> Inbound:
        """A person presses a button (its payload comes back, in his private chat)."""
        inbound = Inbound(
            PLATFORM,
            user,
            user.title(),
            f"dm:{user}",
            payload,
            f"d{next(_DELIVERIES)}",
            private=True,
            button=True,
        )
        await self.runner.submit(inbound)
        return inbound

    async def gather(
        self, room: str, seats: Sequence[str], options: Iterable[str] = ("set deadline off",)
    ) -> str:
        """Open a game in `room` with these seats in order ('bot' or 'bot:random' for a bot, a
        user id for a person, the first a person who opens it), start it, return its id."""
        opener = seats[0]
        await self.say(opener, "new", room)
        for seat in seats[1:]:
            if seat.startswith("bot"):
                strategy = seat.partition(":")[2]
                await self.say(opener, f"bot {strategy}".strip(), room)
            else:
                await self.say(seat, "join", room)
        for option in options:
            await self.say(opener, option, room)
        await self.say(opener, "start", room)
        return self.table.session(room).game_id

    # --- playing -------------------------------------------------------------------------

    def _mind(self, session: GameSession, seat: int) -> Bot:
        key = (session.game_id, seat)
        if key not in self.minds:
            self.minds[key] = make_bot(self.strategy, random.Random(self.rng.random()))
        return self.minds[key]

    def _order(self, session: GameSession) -> list[int]:
        return [
            s
            for s in asking_order(session.state)
            if session.seats[s].is_human and user_of(session, s) not in self.away
        ]

    async def move(self, room: str) -> bool:
        """One person at the room's game does what he decides; False if nobody would act."""
        session = self.table.service.games.get(room)
        if session is None:
            return False
        waiting = session.game.waiting_for()
        for seat in self._order(session):
            control = session.seats[seat]
            if control.stand_in:
                continue
            trading = session.state.step is Step.TRADE and seat != session.state.active
            if seat not in waiting and control.passed == session.moment(seat):
                continue
            legal = session.legal(seat)
            if not legal and not trading:
                continue
            action = self._mind(session, seat).choose(session.view(seat), legal) if legal else None
            if action is None and trading:
                await self._send(session, seat, "pass")
                passed = "You pass on trading this time."
                assert self.table.port.last_answer(user_of(session, seat)) == passed or (
                    # where lines cost, the answer heads his new private message
                    self.table.port.capabilities.compact
                    and self.table.port.private_texts(user_of(session, seat))[-1].startswith(passed)
                )
                return True
            if action is None:
                assert seat not in waiting, f"seat {seat} is awaited but decided nothing"
                continue
            await self._play(session, seat, action)
            hands_shown_rightly(self.table, room)
            return True
        return False

    async def _play(self, session: GameSession, seat: int, action: Action) -> None:
        before = len(session.game.actions)
        await self._send(session, seat, action_text(action))
        # The game in memory (a new one, where the bot was restarted meanwhile).
        current = self.table.service.games.get(session.room)
        if current is not None and current.game_id == session.game_id:
            session = current
        assert len(session.game.actions) > before, self._trouble(session, seat)
        assert _same_move(session.game.actions[before], action)
        self.moves += 1

    async def _send(self, session: GameSession, seat: int, command: str) -> None:
        user = session.seats[seat].identity.user_id
        if self.numbers and self.rng.random() < self.numbers:
            number = self._number_for(session, seat, command)
            if number is not None and await self._answer_by_number(session, seat, number):
                return
        button = self._button_for(user, session.game_id, command)
        if button is not None and self.rng.random() < 0.6:
            self.buttons_pressed += 1
            await self.press(user, button.payload)
            return
        if self.rng.random() < 0.5:
            await self.say(user, command, session.room)
            return
        several = len(self.table.service.sessions_of(user)) > 1
        prefix = f"#{session.game_id} " if several or self.rng.random() < 0.3 else ""
        await self.say(user, prefix + command, private=True)

    def _number_for(self, session: GameSession, seat: int, command: str) -> str | None:
        """The number a person types for `command`: that of the line of his latest message
        whose label is the one the command has now (None: his message lists no such line)."""
        tr = self.table.service.ctx.translator(session.language)
        screen = screen_message(session, seat, tr)
        labels = [b.label for row in screen.buttons for b in row if command_of(b) == command]
        if not labels:
            return None
        shown = latest_choices(self.table.port, user_of(session, seat), session.game_id)
        return next((str(n) for n, label in shown.items() if label == labels[0]), None)

    async def _answer_by_number(self, session: GameSession, seat: int, number: str) -> bool:
        """The person types the number; whether it was taken (else what he was told is
        kept, and he goes on as if he had not tried)."""
        user, room, game_id = user_of(session, seat), session.room, session.game_id
        before = (self.table.action_count(game_id), session.seats[seat].passed)
        answers, texts = len(self.table.port.answers), len(self.table.port.private_texts(user))
        self.numbered += 1
        await self.answer(user, number, room)
        now = self.table.service.games.get(room)
        passed = now.seats[seat].passed if now is not None else None
        if (self.table.action_count(game_id), passed) != before or now is None:
            return True
        told = [a.text for a in self.table.port.answers[answers:] if a.inbound.user_id == user]
        told += [t.split("\n")[0] for t in self.table.port.private_texts(user)[texts:]]
        self.refusals.append(" | ".join(told))
        return False

    def _button_for(self, user: str, game_id: str, command: str) -> Button | None:
        shown = self.table.port.hand_message(user, game_id)
        if shown is None:
            return None
        for row in shown.message.buttons:
            for button in row:
                words = button.payload.split(maxsplit=3)
                if words[:2] == ["g", game_id] and words[3:] == [command]:
                    return button
        return None

    def _trouble(self, session: GameSession, seat: int) -> str:
        user = session.seats[seat].identity.user_id
        answers = self.table.port.answers_to(user)
        return f"{user}'s move was not taken: {answers[-3:]}"

    async def play(self, rooms: Iterable[str], max_moves: int = 20_000) -> None:
        """Play the games of these rooms to their end; when nobody would act, let time pass to
        the next moment something is due (a trading window closing, a deadline)."""
        rooms = list(rooms)
        for _ in range(max_moves):
            live = [room for room in rooms if room in self.table.service.games]
            if not live:
                return
            moved = False
            for room in live:
                moved = await self.move(room) or moved
            if not moved:
                wake = self.table.service.next_wakeup()
                assert wake is not None, "every game waits, and nothing is due"
                self.table.clock.set(max(wake, self.table.clock.now()))
                await self.runner.tick()
        raise AssertionError(f"the games did not end within {max_moves} moves")


def command_of(button: Button) -> str:
    """A game button's command: its payload without 'g GAME TOKEN'."""
    words = button.payload.split(maxsplit=3)
    return words[3] if len(words) == 4 and words[0] == "g" else ""


def latest_choices(port: RecordingPort, user: str, game_id: str) -> dict[int, str]:
    """The numbered choices of the person's latest private message of a game, label by
    number: its numbered lines (where lines cost, a message is sent as several texts), or its
    buttons where they are listed numbered (the terminal)."""
    shown = port.hand_message(user, game_id)
    if shown is not None and shown.message.buttons:
        buttons = [b for row in shown.message.buttons for b in row]
        return {b.number: b.label for b in buttons}
    texts: list[str] = []
    head = f"Game {game_id}"
    for text in reversed(port.private_texts(user)):
        texts.insert(0, text)
        if head in text.replace(PACKED, "\n").split("\n"):
            return numbered_lines("\n".join(texts))
    return {}


def numbered_lines(text: str) -> dict[int, str]:
    """A message's numbered lines ('3 · Accept #1', packed or not): label by number."""
    out: dict[int, str] = {}
    for line in text.replace(PACKED, "\n").split("\n"):
        number, sep, label = line.partition(" · ")
        if sep and number.isdigit():
            out[int(number)] = label
    return out


def number_of(choices: dict[int, str], label: str) -> int:
    """The number of the first choice whose label starts with `label`."""
    found = [n for n, shown in choices.items() if shown.startswith(label)]
    assert found, f"no choice {label!r} in {choices}"
    return found[0]


def user_of(session: GameSession, seat: int) -> str:
    return session.seats[seat].identity.user_id


def _same_move(stored: Action, sent: Action) -> bool:
    """The stored action is the one sent (an accept's cards may be chosen for it)."""
    if isinstance(sent, AcceptTrade) and not sent.hand and not sent.face_up:
        return isinstance(stored, AcceptTrade) and stored.offer == sent.offer
    return stored == sent


def hand_lines(texts: Iterable[str]) -> set[str]:
    """The hands listed in these texts (two cards or more: a single card is no secret)."""
    lines = set()
    for text in texts:
        for line in text.splitlines():
            if line.startswith(HAND_LINE) and " · " in line:
                lines.add(line.removeprefix(HAND_LINE))
    return lines


def _about_others(text: str) -> str:
    """A private text without the lines about its reader's own cards."""
    own = (HAND_LINE, "To plant: ")
    return "\n".join(line for line in text.splitlines() if not line.startswith(own))


def hand_leaks(port: RecordingPort, room: str, users: Sequence[str]) -> list[str]:
    """Every place a player's hand was shown to someone else: the room, a reply read by the
    room, or another player's private messages and answers. Empty when hands stayed private."""
    public = port.room_texts(room) + [
        a.text for a in port.answers if a.seen_by_room and a.inbound.room == room
    ]
    leaks = [f"the room was shown a hand: {t!r}" for t in public if "Your hand" in t]
    for user in users:
        hands = hand_lines(port.private_texts(user))
        leaks += [f"the room saw {user}'s hand {h!r}" for t in public for h in hands if h in t]
        for other in users:
            if other == user:
                continue
            seen = port.private_texts(other) + port.answers_to(other)
            leaks += [
                f"{other} saw {user}'s hand {h!r}"
                for t in seen
                for h in hands
                if h in _about_others(t)
            ]
    return leaks


def hands_shown_rightly(table: Table, room: str) -> None:
    """Each person's latest private message shows his own hand as it is now (where he is
    written to for decisions only: each person a decision waits on)."""
    session = table.service.games.get(room)
    if session is None:
        return
    decisions = table.port.capabilities.private_on_decisions
    for seat in session.humans():
        if decisions and seat not in session.pending():
            continue  # his hand changed through others: he sees it when he asks or acts
        user = session.seats[seat].identity.user_id
        shown = table.port.hand_message(user, session.game_id)
        if shown is None or user in table.port.unreachable or session.seats[seat].stand_in:
            continue  # a player away is told of his turns only
        cards = " · ".join(
            f"{i}. {variety_name(v)}" for i, v in enumerate(session.view(seat).hand, 1)
        )
        assert HAND_LINE + (cards or "empty") in shown.text.splitlines(), (user, shown.text)
        if not decisions and table.port.capabilities.edits:
            # Where his message is edited at every change, it reads as the game stands.
            tr = table.service.ctx.translator(session.language)
            wanted = private_message(session, seat, tr, table.port.capabilities)
            shown_now, wanted_now = without_times(shown.text), without_times(wanted.text)
            assert shown_now == wanted_now, (user, shown.text, wanted.text)


_TIMES = re.compile(r" \((?:until|due) [^)]*\)|closes (?:now|in \d+ \w+|at [\d:]+ UTC)")


def without_times(text: str) -> str:
    """A text without the times that depend on when it was made."""
    return _TIMES.sub("", text)


def variety_name(variety: Variety) -> str:
    return bean_name(English(), variety)
