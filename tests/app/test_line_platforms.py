"""A line-based platform (IRC): messages split to its limits, never cut; a player who is away
hears only of his turns; a seat follows its player to a new identity; a player found
unreachable after sending is told about in the room."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bohnanza.core.app.hand_keys import HandKey
from bohnanza.core.app.ports import Capabilities

from .recording import People, Table, latest_choices, number_of

LINES = Capabilities(
    private_messages=True,
    personal_answers=True,
    line_bytes=300,
    line_pace=0.0005,
    line_burst=40,
)
NICKS = Capabilities(buttons=True, edits=True, personal_answers=True, verified_ids=False)
"""A platform whose user ids are names anyone may take (IRC nicks), not accounts."""


@pytest.mark.slow
def test_a_whole_game_on_a_line_platform_sends_every_line_whole_and_within_limits(
    tmp_path: Path,
) -> None:
    table = Table.open(tmp_path / "games.db", LINES)
    people = People(table)

    async def game() -> None:
        await people.gather("g1", ["ann", "bob", "bot"])
        await people.play(["g1"])

    asyncio.run(game())

    sent = [s for shown in table.port.rooms.values() for s in shown] + [
        s for shown in table.port.private.values() for s in shown
    ]
    lines = [line for s in sent for line in s.text.split("\n")]
    assert all(len(line.encode()) <= 300 for line in lines)
    assert all(len(s.text.split("\n")) <= 40 for s in sent)
    # The final result came through whole, its lines in order.
    game = table.store.list_games()[0]
    assert game.status == "finished"
    texts = "\n".join(table.port.room_texts("g1"))
    assert f"Game {game.game_id} is over." in texts
    assert "Winner: " in texts.split(f"Game {game.game_id} is over.")[-1]
    assert table.runner.outboxes.budget.lines >= len(lines)


@pytest.mark.slow
def test_a_player_away_hears_only_of_his_turns(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table, away=["ann"])
    asyncio.run(people.gather("g1", ["ann", "bob", "bot"], ["set deadline 10m"]))
    session = table.session("g1")
    for _ in range(5000):
        if session.seats[0].stand_in or "g1" not in table.service.games:
            break
        if not asyncio.run(people.move("g1")):
            wake = table.service.next_wakeup()
            assert wake is not None
            table.clock.set(wake)
            asyncio.run(table.runner.tick())
    assert session.seats[0].stand_in
    before = len(table.port.private_texts("ann"))
    turns = set()
    for _ in range(400):
        if "g1" not in table.service.games:
            break
        if session.state.active == 0:
            turns.add(session.state.turn)
        if not asyncio.run(people.move("g1")):
            wake = table.service.next_wakeup()
            if wake is None:
                break
            table.clock.set(wake)
            asyncio.run(table.runner.tick())
    sent = table.port.private["ann"][before:]
    # Many moves were made while she was away, yet at most one message per turn of hers.
    assert len(turns) >= 2
    assert len(sent) <= len(turns) + 1
    assert all(s.history[0].alert for s in sent)  # each one notifies: his turn


@pytest.mark.slow
def test_a_player_moves_his_seat_to_a_new_name_and_plays_on(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db", NICKS)
    people = People(table)
    asyncio.run(people.gather("g1", ["ann", "bob", "bot"]))
    game_id = table.session("g1").game_id

    asyncio.run(people.say("bob", "move bobby", name="Bob"))

    session = table.session("g1")
    assert session.seat_of("bobby") == 1 and session.seat_of("bob") is None
    assert "Bob's seat is now played by bobby." in table.port.room_texts("g1")
    assert table.store.active_games_of("test", "bobby") == [game_id]
    assert table.store.active_games_of("test", "bob") == []
    assert table.port.hand_message("bobby", game_id) is not None
    # After a restart the seat is still his; the record keeps who sat down.
    restarted = table.restarted()
    asyncio.run(restarted.runner.start())
    assert restarted.session("g1").seat_of("bobby") == 1
    assert restarted.store.load_record(game_id).seats[1].name == "Bob"
    people = People(restarted)
    asyncio.run(people.play(["g1"]))
    assert table.store.load_stored(game_id).status == "finished"


def test_only_the_seated_player_or_the_opener_for_a_player_gone_moves_a_seat(
    tmp_path: Path,
) -> None:
    # Nicks are anyone's to take: the opener may move a seat only once its player is gone
    # (before, he could move any seat at any time).
    table = Table.open(tmp_path / "games.db", NICKS)
    people = People(table)
    asyncio.run(people.gather("g1", ["ann", "bob", "cat"]))

    asyncio.run(people.say("cat", "move bob eve"))
    assert table.port.last_answer("cat") == "Only the game's opener may move another's seat."
    asyncio.run(people.say("eve", "move ann"))
    assert table.port.last_answer("eve") == "You are not playing in this game."
    asyncio.run(people.say("bob", "move cat"))
    assert table.port.last_answer("bob") == "cat plays a seat in this game already."
    asyncio.run(people.say("ann", "move bob robert"))
    assert table.port.last_answer("ann") == (
        "Bob is still here: the opener moves only the seat of a player who is gone."
    )
    session = table.session("g1")
    assert [session.seat_of(u) for u in ("ann", "bob", "cat", "robert")] == [0, 1, 2, None]

    # Bob quits: now the opener may give his seat to the nick he comes back with.
    asyncio.run(table.runner.unreachable("bob", tell=False))
    asyncio.run(people.say("ann", "move bob robert"))
    assert session.seat_of("robert") == 1 and session.seat_of("bob") is None
    assert (
        "Bob's seat is now played by robert. The game's opener moved it: Bob was gone."
        in table.port.room_texts("g1")
    )
    # A player who writes again is no longer gone.
    asyncio.run(table.runner.unreachable("cat", tell=False))
    asyncio.run(people.say("cat", "table"))
    asyncio.run(people.say("ann", "move cat carl"))
    assert session.seat_of("cat") == 2


def test_the_opener_may_move_the_seat_of_a_player_handed_to_a_bot(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db", NICKS)
    people = People(table, away=["bob"])
    asyncio.run(people.gather("g1", ["ann", "bob", "bot"], ["set deadline 10m"]))
    session = table.session("g1")
    for _ in range(5000):
        if session.seats[1].stand_in:
            break
        if not asyncio.run(people.move("g1")):
            wake = table.service.next_wakeup()
            assert wake is not None
            table.clock.set(wake)
            asyncio.run(table.runner.tick())
    assert session.seats[1].stand_in

    asyncio.run(people.say("ann", "move bob bobby"))

    assert table.session("g1").seat_of("bobby") == 1


def test_a_platform_rename_moves_every_seat_of_the_player(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db", NICKS)
    people = People(table)
    asyncio.run(people.gather("g1", ["ann", "bob", "bot"]))
    asyncio.run(people.gather("g2", ["bob", "cat"]))

    asyncio.run(table.runner.rename("bob", "bob_", "Bob_"))
    asyncio.run(table.runner.drain(5))

    assert table.session("g1").seat_of("bob_") == 1
    assert table.session("g2").seat_of("bob_") == 0
    assert len(table.store.active_games_of("test", "bob_")) == 2


def test_a_player_found_unreachable_late_is_told_about_once_and_gets_his_view_back(
    tmp_path: Path,
) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    asyncio.run(people.gather("g1", ["ann", "bob", "bot"]))
    game_id = table.session("g1").game_id
    shown = len(table.port.private["bob"])

    async def gone() -> None:
        await table.runner.unreachable("bob")
        await table.runner.unreachable("bob")
        await table.runner.drain(5)

    asyncio.run(gone())
    notice = (
        "Bob: I cannot write to you privately. Open a private chat with me and press Start, "
        "then send /hand here."
    )
    assert table.port.room_texts("g1").count(notice) == 1
    # Back, he writes anything: his private message comes again.
    asyncio.run(people.say("bob", "table", private=True))
    assert len(table.port.private["bob"]) > shown
    assert table.port.hand_message("bob", game_id) is not None


def test_the_rooms_to_join_after_a_restart_are_those_with_a_game_or_a_lobby(
    tmp_path: Path,
) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    asyncio.run(people.gather("g1", ["ann", "bob", "bot"]))
    asyncio.run(people.say("cat", "new", "g2"))
    asyncio.run(people.say("dan", "help", "g3"))

    restarted = table.restarted()
    asyncio.run(restarted.runner.start())
    assert restarted.service.rooms() == ["g1", "g2"]


def test_where_lines_cost_a_number_still_names_its_choice_after_the_list_changed_unseen(
    tmp_path: Path,
) -> None:
    table = Table.open(tmp_path / "games.db", Capabilities(compact=True, line_bytes=400))
    people = People(table, seed=3)
    game_id = asyncio.run(people.gather("g1", ["ann", "bob", "cat"]))
    asyncio.run(people.say("ann", f"#{game_id} plant 1", private=True))
    asyncio.run(people.say("ann", "done", private=True))
    asyncio.run(people.say("bob", "hand", private=True))
    no_trade = number_of(latest_choices(table.port, "bob", game_id), "No trade")
    # His message changed since, unseen (where lines cost, he is not written to for what
    # asks nothing of him).
    table.session("g1").hand_tokens[1] = HandKey("older", (99,), None, None)  # offer 99 gone

    asyncio.run(people.answer("bob", no_trade))

    assert table.session("g1").seats[1].passed is not None
