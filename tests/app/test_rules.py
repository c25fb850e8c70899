"""`rules` in a chat: the part of the rules asked for, in the room's language."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bohnanza.adapters.i18n import load_translators
from bohnanza.core.app.i18n import English
from bohnanza.core.app.rules import TOPICS, rules_text
from bohnanza.core.cards import VARIETIES

from .recording import People, Table


def test_the_beans_part_gives_every_variety_its_beanometer() -> None:
    lines = rules_text(English(), "beans").splitlines()

    assert len(lines) == 1 + len(VARIETIES)
    assert "Coffee Bean (24): 4 · 7 · 10 · 12" in lines
    assert "Garden Bean (6): - · 2 · 3 · -" in lines
    assert "Cocoa Bean (4): - · 2 · 3 · 4" in lines
    assert "Red Bean (8): 2 · 3 · 4 · 5" in lines


def test_an_unknown_part_is_named_and_the_parts_are_listed() -> None:
    text = rules_text(English(), "<b>cheese</b>")

    assert text.startswith("There are no rules called <b>cheese</b>.")
    assert all(f"rules {topic}" in text for topic in TOPICS)


def test_rules_come_in_the_language_of_the_game_in_its_room(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    table.service.translators = load_translators()
    people = People(table)

    async def play() -> None:
        await people.gather("g1", ["ann", "bot"], options=("set deadline off", "set lang it"))
        await people.say("ann", "rules trading")
        await people.say("ann", "rules")

    asyncio.run(play())

    trading, overview = table.port.answers_to("ann")[-2:]
    assert trading.startswith("Scambi: solo il giocatore di turno scambia")
    assert overview.startswith("Bohnanza: pianta fagioli")
    assert table.action_count(table.session("g1").game_id) == 0


def test_rules_asked_at_a_game_say_which_beans_it_is_played_without(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    asyncio.run(people.gather("g1", ["ann", "bot", "bot", "bot"]))

    asyncio.run(people.say("ann", "rules"))
    assert table.port.last_answer("ann").endswith(
        "This game of 4 players is played without Coffee Bean."
    )
    asyncio.run(people.say("ann", "rules beans", private=True))
    assert table.port.last_answer("ann").endswith(
        "This game of 4 players is played without Coffee Bean."
    )
    asyncio.run(people.say("bob", "rules", room="elsewhere"))
    assert "played without" not in table.port.last_answer("bob")
