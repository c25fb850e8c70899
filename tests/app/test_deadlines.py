"""Time in the chat application: reminders, defaults at deadlines, stand-ins, trading windows."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest

from bohnanza.core.actions import (
    Action,
    DeclineTrade,
    EndStep,
    Harvest,
    Plant,
    PlantFaceUp,
    PlantOffered,
    PlantSetAside,
)
from bohnanza.core.app.defaults import default_action
from bohnanza.core.app.i18n import English
from bohnanza.core.app.updates import table_message
from bohnanza.core.audit import audit_game
from bohnanza.core.state import Step

from .recording import START, People, Table

TEN_MINUTES = timedelta(minutes=10)
PLANTINGS = (Plant, PlantSetAside, PlantFaceUp, PlantOffered)


def deadline_table(tmp_path: Path, seats: list[str], deadline: str = "10m") -> tuple[Table, People]:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    asyncio.run(people.gather("g1", seats, [f"set deadline {deadline}"]))
    return table, people


def stored_actions(table: Table) -> list[Action]:
    return list(table.store.load_record(table.session("g1").game_id).actions)


def tick_at(table: Table, moment: timedelta) -> None:
    table.clock.set(START + moment)
    asyncio.run(table.runner.tick())


def test_a_player_is_reminded_once_before_his_deadline(tmp_path: Path) -> None:
    table, _ = deadline_table(tmp_path, ["ann", "bob", "bot"])
    game_id = table.session("g1").game_id
    assert table.service.next_wakeup() == START + timedelta(minutes=7, seconds=30)

    tick_at(table, timedelta(minutes=7))
    assert not any("is due" in t for t in table.port.private_texts("ann"))
    tick_at(table, timedelta(minutes=7, seconds=30))
    tick_at(table, timedelta(minutes=8))

    reminders = [t for t in table.port.private_texts("ann") if "is due" in t]
    assert reminders == [f"Game {game_id}: your move is due in 2 min."]
    assert not any("is due" in t for t in table.port.private_texts("bob"))
    assert table.action_count(game_id) == 0


def test_at_the_deadline_the_front_card_is_planted_and_the_second_planting_skipped(
    tmp_path: Path,
) -> None:
    table, _ = deadline_table(tmp_path, ["ann", "bob", "bot"])

    tick_at(table, TEN_MINUTES - timedelta(seconds=1))
    assert stored_actions(table) == []
    tick_at(table, TEN_MINUTES)
    assert stored_actions(table) == [Plant(0, 0)]
    tick_at(table, 2 * TEN_MINUTES)

    assert stored_actions(table)[:2] == [Plant(0, 0), EndStep(0)]


def test_an_offer_left_unanswered_is_declined_at_the_receivers_deadline(tmp_path: Path) -> None:
    table, people = deadline_table(tmp_path, ["bob", "ann", "bot"])

    async def bob_offers_twice() -> None:
        await people.say("bob", "plant 1")
        await people.say("bob", "done")
        await people.say("bob", "offer 2 1")
        table.clock.advance(minutes=5)
        await people.say("bob", "offer 2 2")

    asyncio.run(bob_offers_twice())
    before = len(stored_actions(table))
    first, second = [o.id for o in table.session("g1").view(None).offers if o.proposer == 0]
    tick_at(table, TEN_MINUTES)

    session = table.session("g1")
    assert DeclineTrade(1, first) in stored_actions(table)[before:]
    assert DeclineTrade(1, second) not in stored_actions(table)
    assert EndStep(0) not in stored_actions(table)[before:]
    assert session.seats[1].misses == 1
    assert not session.seats[1].stand_in


def test_after_two_missed_deadlines_a_bot_plays_until_the_player_sends_a_command(
    tmp_path: Path,
) -> None:
    table, people = deadline_table(tmp_path, ["ann", "bob", "bot"])
    tick_at(table, TEN_MINUTES)
    tick_at(table, 2 * TEN_MINUTES)

    notice = "Ann missed 2 deadlines in a row: a bot plays for them until they send a command."
    assert notice in table.port.room_texts("g1")
    session = table.session("g1")
    assert session.seats[0].stand_in
    assert session.state.step is Step.TRADE, "the stand-in keeps trading open for Bob"
    tick_at(table, 3 * TEN_MINUTES)
    assert session.state.active != 0 or session.state.step is not Step.TRADE
    assert session.seats[0].stand_in
    before = table.action_count(session.game_id)

    asyncio.run(people.say("ann", "harvest 3"))

    assert "Ann is back and plays again." in table.port.room_texts("g1")
    assert not table.session("g1").seats[0].stand_in
    assert table.session("g1").seats[0].misses == 0
    assert table.action_count(session.game_id) >= before


@pytest.mark.slow
def test_the_default_is_the_least_surprising_move_all_game_long(tmp_path: Path) -> None:
    """Ann never plays herself: each time her deadline passes the default is played for her;
    when a stand-in takes her seat, she takes it back at once. Bob plays at once, always."""
    table, _ = deadline_table(tmp_path, ["ann", "bot", "bob"])
    people = People(table, away=["ann"])
    game_id = table.session("g1").game_id
    seen: set[str] = set()
    for _ in range(5000):
        session = table.service.games.get("g1")
        if session is None:
            break
        if session.seats[0].stand_in:
            asyncio.run(people.say("ann", "withdraw 99"))
            seen.add("taken back")
            continue
        if asyncio.run(people.move("g1")):
            continue
        view, legal = session.view(0), session.legal(0)
        count = len(session.game.actions)
        wake = table.service.next_wakeup()
        assert wake is not None
        deadline = session.deadline(0)
        due = 0 in session.pending() and deadline is not None and deadline <= wake
        table.clock.set(wake)
        asyncio.run(table.runner.tick())
        expected = default_action(view, legal)
        if not due or expected is None:
            continue
        played = next(a for a in session.game.actions[count:] if a.player == 0)
        assert played == expected
        kinds = {type(a) for a in legal.actions}
        if EndStep in kinds:
            seen.add("end step")
        elif DeclineTrade in kinds:
            assert isinstance(played, DeclineTrade)
            seen.add("decline")
        elif isinstance(played, PLANTINGS):
            field = view.seats[0].fields[played.field]
            same = [
                a
                for a in legal.actions
                if isinstance(a, PLANTINGS) and view.seats[0].fields[a.field].variety is not None
            ]
            assert field.variety is not None or not same
            seen.add("plant on its variety" if field.variety is not None else "plant")
        elif isinstance(played, Harvest):
            assert not any(isinstance(a, PLANTINGS) for a in legal.actions)
            seen.add("forced harvest")
    assert "g1" not in table.service.games
    assert audit_game(table.store.load_stored(game_id)) is None
    assert {"end step", "plant on its variety", "forced harvest", "taken back"} <= seen


def test_each_bot_on_turn_keeps_trading_open_for_people(tmp_path: Path) -> None:
    table, people = deadline_table(tmp_path, ["ann", "bot", "bot"], deadline="off")

    async def until_bot_one_trades() -> None:
        while table.session("g1").state.active != 1:
            assert await people.move("g1")

    asyncio.run(until_bot_one_trades())
    session = table.session("g1")
    assert session.state.step is Step.TRADE
    half = table.service.next_wakeup()
    assert half == START + timedelta(minutes=1)  # Ann is reminded half-way
    table.clock.set(half)
    asyncio.run(table.runner.tick())
    reminded = [t for t in table.port.private_texts("ann") if "trading closes in 1 min" in t]
    assert len(reminded) == 1
    window = table.service.next_wakeup()
    assert window == START + timedelta(minutes=2)

    table.clock.set(window)
    asyncio.run(table.runner.tick())

    assert (session.state.active, session.state.step) == (2, Step.TRADE)
    assert table.service.next_wakeup() == window + timedelta(minutes=1)


def test_a_restart_keeps_the_deadline_of_the_pending_move(tmp_path: Path) -> None:
    table, people = deadline_table(tmp_path, ["ann", "bob", "bot"])
    table.clock.set(START + timedelta(minutes=1))
    asyncio.run(people.say("ann", "plant 1"))
    game_id = table.session("g1").game_id

    table.clock.set(START + timedelta(minutes=3))
    later = table.restarted()
    assert asyncio.run(later.runner.start()) == 1
    assert later.service.next_wakeup() == START + timedelta(minutes=8, seconds=30)

    tick_at(later, timedelta(minutes=10, seconds=59))
    assert later.action_count(game_id) == 1
    tick_at(later, timedelta(minutes=11))

    actions = later.store.load_record(game_id).actions
    assert actions[:2] == (Plant(0, 0), EndStep(0))


def test_a_restart_while_a_bot_holds_trading_open_keeps_the_window(tmp_path: Path) -> None:
    table, people = deadline_table(tmp_path, ["ann", "bot", "bot"], deadline="off")

    async def until_bot_one_trades() -> None:
        while table.session("g1").state.active != 1:
            assert await people.move("g1")

    asyncio.run(until_bot_one_trades())
    game_id = table.session("g1").game_id
    last_action = table.store.last_action_at(game_id)
    assert last_action is not None
    table.clock.set(START + timedelta(minutes=1))

    later = table.restarted()
    asyncio.run(later.runner.start())
    assert later.service.next_wakeup() == last_action + timedelta(minutes=1)
    later.clock.set(last_action + timedelta(minutes=2))
    asyncio.run(later.runner.tick())

    assert (later.session("g1").state.active, later.session("g1").state.step) == (2, Step.TRADE)


def test_a_table_everyone_has_left_waits_for_the_first_to_come_back(tmp_path: Path) -> None:
    table, people = deadline_table(tmp_path, ["ann", "bot", "bot"])
    session = table.session("g1")
    tick_at(table, TEN_MINUTES)
    tick_at(table, 2 * TEN_MINUTES)
    assert session.seats[0].stand_in
    waiting = table.action_count(session.game_id)

    for hours in range(1, 6):
        tick_at(table, 2 * TEN_MINUTES + timedelta(hours=hours))
    assert table.action_count(session.game_id) == waiting, "nobody plays Ann's seat meanwhile"
    assert not table.session("g1").game.is_over

    asyncio.run(people.say("ann", "table"))
    assert "Ann is back and plays again." in table.port.room_texts("g1")
    assert not table.session("g1").seats[0].stand_in


def test_a_bot_on_turn_holds_trading_two_minutes_at_most_and_the_table_names_the_people(
    tmp_path: Path,
) -> None:
    table, people = deadline_table(tmp_path, ["ann", "bot", "bob"], deadline="1h")

    async def until_the_bot_trades() -> None:
        while table.session("g1").state.active != 1:
            assert await people.move("g1")

    asyncio.run(until_the_bot_trades())
    session = table.session("g1")
    assert session.state.step is Step.TRADE
    opened = table.clock.now()
    assert session.trade_window_until == opened + timedelta(minutes=2)
    waiting = table_message(session, English(), table.port.capabilities).text
    assert "Waiting for: Ann, Bob" in waiting

    asyncio.run(people.say("ann", "pass"))
    waiting = table_message(session, English(), table.port.capabilities).text
    line = next(line for line in waiting.splitlines() if line.startswith("Waiting for:"))
    assert "Bob" in line and "Ann" not in line

    tick_at(table, opened - START + timedelta(minutes=2))
    assert session.state.active != 1 or session.state.step is not Step.TRADE


def test_the_trading_window_of_bots_is_a_game_option_with_a_reminder_at_half(
    tmp_path: Path,
) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    asyncio.run(people.say("ann", "new"))
    for wrong in ("set trade-window off", "set trade-window 2d", "set trade-window soon"):
        asyncio.run(people.say("ann", wrong))
        assert "trading window" in table.port.last_answer("ann").lower() or "like 90s" in (
            table.port.last_answer("ann")
        )
    asyncio.run(
        people.gather("g1", ["ann", "bot", "bob"], ["set deadline off", "set trade-window 4m"])
    )
    assert "a bot trades for 4m" in "\n".join(table.port.room_texts("g1"))

    async def until_the_bot_trades() -> None:
        while table.session("g1").state.active != 1:
            assert await people.move("g1")

    asyncio.run(until_the_bot_trades())
    session = table.session("g1")
    opened = table.clock.now()
    assert session.trade_window_until == opened + timedelta(minutes=4)
    asyncio.run(people.say("bob", "pass"))

    tick_at(table, opened - START + timedelta(minutes=2))
    assert [t for t in table.port.private_texts("ann") if "trading closes in 2 min" in t]
    assert not [t for t in table.port.private_texts("bob") if "trading closes" in t]
    tick_at(table, opened - START + timedelta(minutes=3))
    assert len([t for t in table.port.private_texts("ann") if "trading closes" in t]) == 1
    assert session.state.active == 1 and session.state.step is Step.TRADE
    tick_at(table, opened - START + timedelta(minutes=4))
    assert session.state.active != 1 or session.state.step is not Step.TRADE
