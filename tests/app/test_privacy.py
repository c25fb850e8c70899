"""No route shows a player's hand to anyone else: not the room, not replies, not other players."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bohnanza.core.app.ports import Capabilities

from .recording import HAND_LINE, TEXT_ONLY, People, Table, hand_leaks

BUTTONS_WITHOUT_PERSONAL_ANSWERS = Capabilities(buttons=True, edits=True)


class Curious(People):
    """People who also ask for their hand and the table in the group, and press the table's
    hand button, now and then."""

    async def move(self, room: str) -> bool:
        session = self.table.service.games.get(room)
        if session is not None and self.rng.random() < 0.1:
            seat = self.rng.choice(session.humans())
            user = session.seats[seat].identity.user_id
            ask = self.rng.choice(["hand", "table", f"#{session.game_id} hand"])
            await self.say(user, ask, room)
            await self.press(user, f"h {session.game_id}")
        return await super().move(room)


def play_curiously(tmp_path: Path, capabilities: Capabilities) -> Table:
    table = Table.open(tmp_path / "games.db", capabilities, seed=21)
    people = Curious(table, seed=21)

    async def game() -> None:
        await people.gather("g1", ["ann", "bob", "bot", "cat"])
        await people.play(["g1"])

    asyncio.run(game())
    return table


@pytest.mark.slow
def test_hands_stay_private_on_a_text_only_platform(tmp_path: Path) -> None:
    table = play_curiously(tmp_path, TEXT_ONLY)

    assert hand_leaks(table.port, "g1", ["ann", "bob", "cat"]) == []
    assert any(HAND_LINE in t for t in table.port.private_texts("ann"))


@pytest.mark.slow
def test_the_hand_button_answers_privately_where_answers_are_not_personal(
    tmp_path: Path,
) -> None:
    table = play_curiously(tmp_path, BUTTONS_WITHOUT_PERSONAL_ANSWERS)

    assert hand_leaks(table.port, "g1", ["ann", "bob", "cat"]) == []
    pressed = [a for a in table.port.answers if a.inbound.text.startswith("h ")]
    assert pressed
    assert all("Your hand" not in a.text for a in pressed)


def test_asking_for_the_hand_in_the_group_sends_it_privately(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db", TEXT_ONLY)
    people = People(table)
    asyncio.run(people.gather("g1", ["ann", "bob", "bot"]))
    sent = len(table.port.private_texts("bob"))

    asyncio.run(people.say("bob", "hand"))

    assert table.port.last_answer("bob") == "I sent you your hand privately."
    assert len(table.port.private_texts("bob")) == sent + 1
    assert HAND_LINE in table.port.private_texts("bob")[-1]
    assert not any("Your hand" in t for t in table.port.room_texts("g1"))


def test_the_table_asked_for_in_private_is_answered_in_private(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    asyncio.run(people.gather("g1", ["ann", "bob", "bot"]))
    posts = table.port.room_posts["g1"]

    asyncio.run(people.say("bob", "table", private=True))

    assert table.port.last_answer("bob").startswith("Bohnanza · game ")
    assert table.port.room_posts["g1"] == posts


def test_a_table_button_answer_shows_the_presser_his_own_hand_only(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    game = asyncio.run(people.gather("g1", ["ann", "bob", "bot"]))
    assert ("h " + game) in table.port.rooms["g1"][-1].payloads

    asyncio.run(people.press("bob", f"h {game}"))

    bobs = table.port.hand_message("bob", game)
    assert bobs is not None
    hand = next(line for line in bobs.text.splitlines() if line.startswith(HAND_LINE))
    assert hand in table.port.last_answer("bob").splitlines()
