"""Buttons a player understands at a glance and that save him taps: they name the bean and the
field, plant and stop in one tap, and ask before selling a field that need not be sold."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bohnanza.core.actions import EndStep, Harvest, Plant

from .recording import People, Shown, Table, user_of

SEATS = ["ann", "bob", "bot"]


def opened(tmp_path: Path) -> tuple[Table, People, str]:
    table = Table.open(tmp_path / "games.db")
    people = People(table, seed=3)
    game_id = asyncio.run(people.gather("g1", SEATS))
    return table, people, game_id


def latest(table: Table, user: str, game_id: str) -> Shown:
    shown = table.port.hand_message(user, game_id)
    assert shown is not None
    return shown


def labels(shown: Shown) -> list[str]:
    return [button.label for row in shown.message.buttons for button in row]


def test_planting_buttons_name_the_bean_and_the_field(tmp_path: Path) -> None:
    table, _, game_id = opened(tmp_path)
    session = table.session("g1")
    front = session.view(0).hand[0].title  # e.g. "Chili Bean"
    shown = latest(table, "ann", game_id)

    assert f"{front} → field 1 (empty)" in labels(shown)
    assert "→ 1, then stop" in labels(shown)


def test_plant_and_stop_is_one_tap_for_both_steps(tmp_path: Path) -> None:
    table, people, game_id = opened(tmp_path)
    shown = latest(table, "ann", game_id)
    both = next(b for row in shown.message.buttons for b in row if b.label == "→ 1, then stop")

    asyncio.run(people.press("ann", both.payload))

    actions = table.store.load_record(game_id).actions
    assert actions[:2] == (Plant(0, 0), EndStep(0))


def test_selling_a_field_that_need_not_be_sold_is_asked_first(tmp_path: Path) -> None:
    table, people, game_id = opened(tmp_path)
    asyncio.run(people.say("ann", "plant 1"))  # now field 1 holds a bean and may be sold
    before = table.action_count(game_id)
    sell = next(
        b
        for row in latest(table, "ann", game_id).message.buttons
        for b in row
        if b.label.startswith("Sell ")
    )
    assert " ask harvest 1" in sell.payload

    asyncio.run(people.press("ann", sell.payload))
    asked = latest(table, "ann", game_id)
    assert "It cannot be undone." in asked.text
    assert labels(asked) == ["Yes", "No"]
    assert table.action_count(game_id) == before  # nothing sold yet

    no = asked.message.buttons[0][1]
    asyncio.run(people.press("ann", no.payload))
    assert "Yes" not in labels(latest(table, "ann", game_id))
    assert table.action_count(game_id) == before

    asyncio.run(people.press("ann", sell.payload))
    yes = latest(table, "ann", game_id).message.buttons[0][0]
    asyncio.run(people.press("ann", yes.payload))
    assert table.store.load_record(game_id).actions[-1] == Harvest(0, 0)


def test_a_forced_harvest_is_one_tap_and_says_what_it_pays(tmp_path: Path) -> None:
    table, people, game_id = opened(tmp_path)

    async def until_a_harvest_is_forced() -> str:
        for _ in range(3000):
            session = table.session("g1")
            for seat in session.humans():
                legal = session.legal(seat)
                if legal.waiting and all(isinstance(a, Harvest) for a in legal.actions):
                    return user_of(session, seat)
            assert await people.move("g1")
        raise AssertionError("no forced harvest came")

    user = asyncio.run(until_a_harvest_is_forced())
    buttons = [b for row in latest(table, user, game_id).message.buttons for b in row]
    sells = [b for b in buttons if b.label.startswith("Sell ")]
    assert sells and all(" coin" in b.label and ", then " in b.label for b in sells)
    assert all(" ask " not in b.payload for b in buttons)
    # The bean that needed the field is planted there in the same tap (or, with the
    # button's partner, the planting ends there too).
    assert all(";" in b.payload for b in buttons)


def test_step_three_plants_every_set_aside_card_in_one_tap(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table, seed=11)
    game_id = asyncio.run(people.gather("g1", ["ann", "bob", "cat", "bot"]))

    async def until_a_plant_all_button() -> tuple[str, str, int]:
        for _ in range(4000):
            session = table.session("g1")
            for seat in session.humans():
                user = user_of(session, seat)
                shown = table.port.hand_message(user, game_id)
                if shown is None or not shown.message.buttons:
                    continue
                first = shown.message.buttons[0][0]
                if first.label.startswith("Plant all: "):
                    return user, first.payload, len(session.view(seat).seats[seat].set_aside)
            if not await people.move("g1"):
                wake = table.service.next_wakeup()
                assert wake is not None
                table.clock.set(wake)
                await table.runner.tick()
        raise AssertionError("nobody had two cards to plant in step 3")

    user, payload, cards = asyncio.run(until_a_plant_all_button())
    session = table.session("g1")
    seat = session.seat_of(user)
    assert seat is not None and cards >= 2
    before = table.action_count(game_id)

    asyncio.run(people.press(user, payload))

    planted = table.store.load_record(game_id).actions[before:]
    mine = [a for a in planted if a.player == seat]
    assert len(mine) >= cards
    assert table.session("g1").view(seat).seats[seat].set_aside == ()
