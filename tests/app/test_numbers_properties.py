"""A number is never taken for a choice other than the one it named when it was sent: people
at two games each type numbers read from any list they may be reading (of a game, the one that
answered their last input at it and any sent since), while the others move, views are healed,
unrelated inputs come and the bot is restarted. Whenever a number is taken, the choice pressed
has the label and the command the number had in every one of those lists that showed it; else
the number was refused and nothing changed."""

from __future__ import annotations

import asyncio
import random
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bohnanza.core.app import game_input
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Message
from bohnanza.core.app.numbers import Choice, SeatNumbers, Verdict, command_of
from bohnanza.core.app.ports import Capabilities
from bohnanza.core.notation import NotationError, action_text, parse_action

from .recording import People, RecordingPort, Table

PEOPLE = ("ann", "bob", "cat")
ROOMS = ("g1", "g2")
NUMBERED = {
    # Where he is written to for decisions only (no edits, as IRC and the terminal), and at
    # every change, his message edited (as Matrix); buttons listed numbered, so that what
    # each number stood for in every list sent is known exactly.
    "decisions": Capabilities(buttons=True, numbered_buttons=True, personal_answers=True),
    "every change": Capabilities(
        buttons=True, numbered_buttons=True, edits=True, personal_answers=True
    ),
}
STEPS = st.lists(
    st.sampled_from(["move", "move", "move", "answer", "answer", "heal", "aside", "restart"]),
    min_size=10,
    max_size=45,
)

TWO_LISTS = (
    "move move answer move move heal answer answer answer move move answer move aside answer"
)
"""With seed 219, Cat may read two lists of a game at the end: turn 1's trading (1-2), healed
while he did nothing there, and his planting of turn 2 (3-8), sent on Bob's move; he types 8,
"→ 3, then stop" in the second though he looked at the first."""


class LoggingPort(RecordingPort):
    """A recording port that also keeps every private message and edit in the order sent."""

    def __init__(self, capabilities: Capabilities) -> None:
        super().__init__(capabilities)
        self.log: dict[str, list[Message]] = {}

    async def send_private(self, user_id: str, message: Message) -> str:
        sent = await super().send_private(user_id, message)
        self.log.setdefault(user_id, []).append(message)
        return sent

    async def edit_private(self, user_id: str, message_id: str, message: Message) -> None:
        await super().edit_private(user_id, message_id, message)
        self.log.setdefault(user_id, []).append(message)


@dataclass
class Taken:
    """What the application decided for each number typed (its verdicts, in order)."""

    verdicts: list[Verdict] = field(default_factory=list)

    def verdict(
        self, numbers: SeatNumbers | None, decision: str, choices: Sequence[Choice], number: int
    ) -> Verdict:
        found = VERDICT(numbers, decision, choices, number)
        self.verdicts.append(found)
        return found


VERDICT = game_input.verdict


class Reading(People):
    """People whose every input is noted. The list sent in answer to an input of his at a
    game (a move, a number, a button, his hand) is what he reads of that game from then on;
    he may be reading it or any list of the game sent to him since. A list sent while he did
    something else (a look at the table, help, a move in his other game) is one more he may
    be reading: it answers nothing he asked of that game."""

    def __init__(self, table: Table, port: LoggingPort, seed: int) -> None:
        super().__init__(table, seed=seed)
        self.port = port
        self.games: list[str] = []
        self.reading_from: dict[tuple[str, str], int] = {}
        """Per person and game: where in his log the lists he may be reading begin."""

    async def say(
        self, user: str, text: str, room: str = "g1", private: bool = False, name: str = ""
    ) -> Inbound:
        before = len(self.port.log.get(user, []))
        game_id, command = self._addressed(text, room, private)
        inbound = await super().say(user, text, room, private, name)
        if command.split()[:1] != ["table"]:  # the table is answered in the room
            self._answered(user, before, game_id)
        return inbound

    async def press(self, user: str, payload: str) -> Inbound:
        before = len(self.port.log.get(user, []))
        inbound = await super().press(user, payload)
        words = payload.split()
        self._answered(user, before, words[1] if len(words) > 1 else None)
        return inbound

    def _addressed(self, text: str, room: str, private: bool) -> tuple[str | None, str]:
        """The game a typed input is for (its `#ID`, or the room's game where said in the
        room; None: none of his games), and the command it gives there."""
        words = text.split(maxsplit=1)
        if words and words[0].startswith("#"):
            return words[0][1:].upper(), words[1] if len(words) > 1 else ""
        session = None if private else self.table.service.games.get(room)
        return (session.game_id if session is not None else None), text

    def _answered(self, user: str, before: int, game_id: str | None) -> None:
        log = self.port.log.get(user, [])
        answers = [i for i in range(before, len(log)) if game_id and _of(log[i], game_id)]
        if game_id is not None and answers:
            self.reading_from[(user, game_id)] = answers[-1]

    def lists(self, user: str, game_id: str) -> list[Message]:
        """The lists of a game he may be reading: the answer to his last input at it, and
        every list of it sent to him since."""
        log = self.port.log.get(user, [])
        start = self.reading_from.get((user, game_id), 0)
        return [m for m in log[start:] if _of(m, game_id) and any(m.buttons)]


def _of(message: Message, game_id: str) -> bool:
    return message.text.startswith(f"Game {game_id}\n")


@dataclass
class Players:
    """The people, the wiring they play through, and what was checked."""

    table: Table
    people: Reading
    rng: random.Random
    games: dict[str, str] = field(default_factory=dict)
    checked: int = 0

    async def step(self, kind: str) -> None:
        rooms = [room for room in ROOMS if room in self.table.service.games]
        if not rooms:
            return
        room = self.rng.choice(rooms)
        if kind == "move":
            await self.move(room)
        elif kind == "answer":
            await self.answer(room)
        elif kind == "heal":
            await self.table.runner.post(self.table.service.views(now=self.table.clock.now()))
        elif kind == "aside":
            user = self.rng.choice(PEOPLE)
            if self.rng.random() < 0.5:
                await self.people.say(user, "help", f"dm:{user}", private=True)
            else:
                await self.people.say(user, "table", room)
        elif kind == "restart":
            self.table = self.table.restarted()
            self.people.table = self.table
            await self.table.runner.start()

    async def move(self, room: str) -> None:
        """Someone at the room's game makes his move (by command)."""
        if not await self.people.move(room):
            wake = self.table.service.next_wakeup()
            if wake is not None:
                self.table.clock.set(max(wake, self.table.clock.now()))
                await self.table.runner.tick()

    async def answer(self, room: str) -> None:
        """Someone at the room's game types a number read from a list he may be reading."""
        game_id = self.games[room]
        user = self.rng.choice(PEOPLE)
        lists = self.people.lists(user, game_id)
        if not lists:
            return
        read = self.rng.choice(lists)
        if self.rng.random() < 0.85:
            number = self.rng.choice([b for row in read.buttons for b in row]).number
        else:
            number = self.rng.randint(1, 40)
        # What the number stood for in each list he may be reading (not only the one he read
        # it from): taken, it must be the choice every one of them showed it as.
        meant = [b for m in lists for row in m.buttons for b in row if b.number == number]
        session = self.table.service.games[room]
        seat = session.seat_of(user)
        assert seat is not None
        actions = self.table.action_count(game_id)
        taken = len(TAKEN.verdicts)
        await self.people.say(user, f"#{game_id} {number}", f"dm:{user}", private=True)
        verdicts = TAKEN.verdicts[taken:]
        assert len(verdicts) <= 1
        if not verdicts or verdicts[0].outcome != "take":
            assert self.table.action_count(game_id) == actions, "a number refused changed nothing"
            return
        pressed = verdicts[0].choice
        assert pressed is not None
        assert meant, f"{number} was in no list he may read, yet it was taken"
        for shown in meant:
            assert pressed.button.label == shown.label, (number, shown.label, pressed.button.label)
            assert command_of(pressed.button.payload) == command_of(shown.payload)
        self.checked += 1
        self._check_the_move(game_id, seat, actions, command_of(pressed.button.payload))

    def _check_the_move(self, game_id: str, seat: int, before: int, command: str) -> None:
        """Where the number made a move, it is the move its choice names."""
        first = command.split(";")[0]
        try:
            parse_action(first, seat)
        except NotationError:
            return  # a screen of his (a question, the picker) or a pass: no action of its own
        record = self.table.store.load_record(game_id)
        assert len(record.actions) > before, f"{first!r} was taken, yet nothing was made"
        made = action_text(record.actions[before])
        assert record.actions[before].player == seat
        assert made.split()[:2] == first.split()[:2], f"{first!r} was sent, {made!r} was made"


TAKEN = Taken()


async def _play(caps: Capabilities, seed: int, steps: list[str], folder: Path) -> Players:
    port = LoggingPort(caps)
    table = Table.open(folder / "games.db", caps, seed=seed, port=port)
    people = Reading(table, port, seed)
    players = Players(table, people, random.Random(seed))
    for index, room in enumerate(ROOMS):
        seats = list(PEOPLE[index:] + PEOPLE[:index])
        players.games[room] = await people.gather(room, seats)
        people.games.append(players.games[room])
    for user in PEOPLE:
        for game_id in people.games:
            await people.say(user, f"#{game_id} hand", f"dm:{user}", private=True)
    for kind in steps:
        await players.step(kind)
    return players


@pytest.mark.parametrize("updates", list(NUMBERED))
@settings(max_examples=12)
@given(seed=st.integers(0, 10_000), steps=STEPS)
@example(seed=219, steps=TWO_LISTS.split())
def test_a_number_taken_is_the_choice_it_named_in_every_list_he_may_read(
    updates: str, seed: int, steps: list[str]
) -> None:
    with (
        tempfile.TemporaryDirectory() as folder,
        mock.patch.object(game_input, "verdict", TAKEN.verdict),
    ):
        asyncio.run(_play(NUMBERED[updates], seed, steps, Path(folder)))
