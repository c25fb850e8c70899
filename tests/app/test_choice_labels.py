"""Every list of choices says what each choice does, once: no two labels of one list alike,
a face-up card and a hand card offered told apart, and on a platform whose buttons hold a
limited label (Telegram: 64 characters) no label cut, the whole of a long one said in the
message above the buttons. Checked at every private message of whole games."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bohnanza.adapters.telegram.port import CAPABILITIES as TELEGRAM
from bohnanza.core.app.i18n import English
from bohnanza.core.app.labels import fitted_labels
from bohnanza.core.app.messages import Button, Message
from bohnanza.core.app.picker import quick_offers
from bohnanza.core.app.ports import Capabilities
from bohnanza.core.app.screens import screen_message
from bohnanza.core.app.updates import private_message
from bohnanza.core.cards import Variety

from .recording import People, RecordingPort, Table
from .test_tapping_game import play_by_taps

LIMITED = TELEGRAM
"""Telegram's: buttons whose labels hold 64 characters."""
NUMBERED = Capabilities(buttons=False, edits=True, private_messages=True)


def labels_of(message: Message, capabilities: Capabilities) -> list[str]:
    """The labels of a private message's choices: its buttons, or its numbered lines."""
    if capabilities.buttons:
        return [b.label for row in message.buttons for b in row]
    out = []
    for line in message.text.split("\n"):
        number, sep, label = line.partition(" · ")
        if sep and number.isdigit():
            out.append(label)
    return out


class CheckingPort(RecordingPort):
    """A recording port that checks every private message it is given."""

    def __init__(self, capabilities: Capabilities) -> None:
        super().__init__(capabilities)
        self.checked = 0
        self.trouble: list[str] = []

    def check(self, message: Message) -> None:
        self.checked += 1
        labels = labels_of(message, self.capabilities)
        if len(set(labels)) != len(labels):
            self.trouble.append(f"labels alike: {labels}")
        limit = self.capabilities.max_label
        if limit and any(len(label) > limit for label in labels):
            self.trouble.append(f"a label longer than {limit}: {labels}")

    async def send_private(self, user_id: str, message: Message) -> str:
        self.check(message)
        return await super().send_private(user_id, message)

    async def edit_private(self, user_id: str, message_id: str, message: Message) -> None:
        self.check(message)
        await super().edit_private(user_id, message_id, message)


class CheckingPeople(People):
    """People who, after every move, check that each private message as it stands says the
    whole of every choice: a label too long for a button is said in the text above."""

    long_labels = 0

    async def move(self, room: str) -> bool:
        moved = await super().move(room)
        session = self.table.service.games.get(room)
        caps = self.table.port.capabilities
        if session is None or not caps.max_label:
            return moved
        tr = English()
        for seat in session.humans():
            whole = screen_message(session, seat, tr)
            shown = private_message(session, seat, tr, caps)
            for button in (b for row in whole.buttons for b in row):
                if len(button.label) > caps.max_label:
                    self.long_labels += 1
                    assert button.label in shown.text, (button.label, shown.text)
        return moved


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seats", "capabilities", "seed"),
    [
        (["ann", "bob"], LIMITED, 3),
        (["ann", "bob", "cat"], NUMBERED, 4),
        (["ann", "bot", "bob", "cat", "bot:random"], LIMITED, 5),
        (["ann", "bob", "bot", "cat", "dan"], NUMBERED, 6),
        (["ann", "bot", "bob", "bot:random", "cat", "bot", "dan"], LIMITED, 7),
    ],
    ids=["duel-limited", "three-numbered", "five-limited", "five-numbered", "seven-limited"],
)
def test_every_list_of_whole_games_says_each_choice_once_and_whole(
    tmp_path: Path, seats: list[str], capabilities: Capabilities, seed: int
) -> None:
    port = CheckingPort(capabilities)
    table = Table.open(tmp_path / "games.db", port=port, seed=seed)
    people = CheckingPeople(table, seed=seed)

    async def game() -> None:
        await people.gather("g1", seats)
        await people.play(["g1"])

    asyncio.run(game())

    assert "g1" not in table.service.games  # played to its end
    assert port.checked > 100
    assert port.trouble == []


@pytest.mark.slow
def test_a_game_by_taps_on_limited_buttons_says_each_choice_once_and_whole(
    tmp_path: Path,
) -> None:
    port = CheckingPort(LIMITED)
    table = Table.open(tmp_path / "games.db", port=port)
    people = People(table, seed=5)
    asyncio.run(people.gather("g1", ["ann", "bob", "cid", "dan", "bot"]))
    play_by_taps(table, people, seed=5)

    assert port.trouble == []
    messages = [m for shown in port.private.values() for s in shown for m in s.history]
    ends = [
        m
        for m in messages
        if any(b.label == "End trading, plant (see above)" for row in m.buttons for b in row)
    ]
    assert TELEGRAM.max_label == 64
    print(f"{len(messages)} private messages, {len(ends)} ending trading with the plan above")
    assert ends
    for message in ends:
        # The whole of what the tap does, above the buttons: every sale and planting.
        plan = [
            line for line in message.text.split("\n") if line.startswith("End trading, plant: ")
        ]
        assert len(plan) == 1 and not plan[0].endswith("("), message.text


def test_a_face_up_card_and_a_hand_card_of_one_bean_are_two_offers_told_apart() -> None:
    payloads: list[str] = []

    def payload(command: str) -> str:
        payloads.append(command)
        return command

    rows = quick_offers(
        English(),
        0,
        0,
        (Variety.CHILI, Variety.SOY),
        (Variety.CHILI,),
        [(Variety.WAX, 3), (None, 0)],
        ["Ann", "Bob"],
        payload,
    )
    labels = [b.label for row in rows for b in row]
    assert labels == ["⚡ Chili (face up) for Wax → anyone", "⚡ Chili (hand) for Wax → anyone"]
    assert len(set(payloads)) == 2


def test_a_label_too_long_for_a_button_is_said_above_it_never_cut() -> None:
    long = "End trading, plant: sell Stink (0 coins), Garden → 1, sell Wax (1 coin), Chili → 2"
    message = Message(
        "Game X",
        (
            (Button(long, "g X t done", "End trading, plant (see above)"),),
            (Button("x" * 70, "g X t other"), Button("No trade", "g X t pass")),
        ),
    )
    fitted = fitted_labels(English(), message, 64)
    labels = [b.label for row in fitted.buttons for b in row]
    assert labels == ["End trading, plant (see above)", "(1) see above", "No trade"]
    assert fitted.text.split("\n")[1:] == [long, f"(1) {'x' * 70}"]
    assert [b.payload for row in fitted.buttons for b in row] == [
        "g X t done",
        "g X t other",
        "g X t pass",
    ]
