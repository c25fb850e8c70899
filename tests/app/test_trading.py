"""Trading between people through the chat application: offers, counters, gifts and passes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bohnanza.core.actions import AcceptTrade, CounterTrade, DeclineTrade, WithdrawTrade
from bohnanza.core.cards import Variety
from bohnanza.core.state import Step

from .recording import People, Table, variety_name


def hand(table: Table, seat: int) -> tuple[Variety, ...]:
    return table.session("g1").view(seat).hand


def latest(table: Table, user: str) -> str:
    shown = table.port.hand_message(user, table.session("g1").game_id)
    assert shown is not None
    return shown.text


def trading_table(tmp_path: Path) -> tuple[Table, People]:
    """Ann, Bob and Cat, with Ann on turn and trading open."""
    table = Table.open(tmp_path / "games.db")
    people = People(table)

    async def opening() -> None:
        await people.gather("g1", ["ann", "bob", "cat"])
        await people.say("ann", "plant 1")
        await people.say("ann", "done")

    asyncio.run(opening())
    assert table.session("g1").state.step is Step.TRADE
    return table, people


def test_an_offer_countered_and_accepted_moves_the_cards_and_everyone_sees_it(
    tmp_path: Path,
) -> None:
    table, people = trading_table(tmp_path)
    game_id = table.session("g1").game_id
    ann_gives, bob_gives = hand(table, 0)[0], hand(table, 1)[1]
    ann_wants = hand(table, 1)[0]

    asyncio.run(people.say("ann", f"offer 2 1 for {ann_wants.value}"))

    line = f"#1 Ann → Bob: {variety_name(ann_gives)} for {variety_name(ann_wants)}"
    for user in ("ann", "bob", "cat"):
        assert line in latest(table, user)
    before = table.action_count(game_id)

    asyncio.run(people.say("bob", f"counter 1 2 for {ann_gives.value}", private=True))
    asyncio.run(people.say("ann", "accept 2"))

    stored = table.store.load_record(game_id).actions[before:]
    assert [type(a) for a in stored] == [CounterTrade, AcceptTrade]
    view = table.session("g1").view(None)
    assert view.seats[0].set_aside == (bob_gives,)
    assert view.seats[1].set_aside == (ann_gives,)
    assert view.offers == ()
    assert "#2" not in latest(table, "cat").split("Open offers:")[-1]


def test_a_gift_can_be_declined_and_an_offer_withdrawn(tmp_path: Path) -> None:
    table, people = trading_table(tmp_path)
    game_id = table.session("g1").game_id
    cat_hand = hand(table, 2)
    before = table.action_count(game_id)

    async def gifts() -> None:
        await people.say("cat", "offer 1 1")
        assert f"#1 Cat → Ann: {variety_name(cat_hand[0])} as a gift" in latest(table, "bob")
        await people.say("ann", "decline 1")
        await people.say("cat", "offer 1 2")
        await people.say("cat", "withdraw 2")

    asyncio.run(gifts())

    stored = table.store.load_record(game_id).actions[before:]
    assert [type(a) for a in stored[1:]] == [DeclineTrade, type(stored[0]), WithdrawTrade]
    assert hand(table, 2) == cat_hand
    assert table.session("g1").view(None).offers == ()


def test_a_gift_accepted_makes_another_offer_of_the_same_card_stale_and_refused(
    tmp_path: Path,
) -> None:
    table, people = trading_table(tmp_path)
    game_id = table.session("g1").game_id

    async def two_offers_of_one_card() -> None:
        await people.say("ann", "offer 2 1")
        await people.say("ann", "offer 3 1")
        await people.say("cat", "accept 2")

    asyncio.run(two_offers_of_one_card())
    assert "(stale: its cards are gone)" in latest(table, "bob")
    before = table.action_count(game_id)

    asyncio.run(people.say("bob", "accept 1"))

    assert table.port.last_answer("bob") == "That offer is stale: its cards are gone."
    assert table.action_count(game_id) == before


def test_a_player_who_passes_is_told_so_and_loses_his_no_trade_button(tmp_path: Path) -> None:
    table, people = trading_table(tmp_path)
    shown = table.port.hand_message("bob", table.session("g1").game_id)
    assert shown is not None
    no_trade = next(p for p in shown.payloads if p.endswith(" pass"))

    asyncio.run(people.press("bob", no_trade))

    assert table.port.last_answer("bob") == "You pass on trading this time."
    shown = table.port.hand_message("bob", table.session("g1").game_id)
    assert shown is not None
    assert not any(p.endswith(" pass") for p in shown.payloads)


def test_the_active_player_cannot_pass_on_trading_and_is_told_how_it_ends(
    tmp_path: Path,
) -> None:
    table, people = trading_table(tmp_path)

    asyncio.run(people.say("ann", "pass"))

    assert table.port.last_answer("ann") == (
        "It is your turn: trading ends when you choose End trading (`done`)."
    )


def test_a_bot_on_turn_ends_trading_as_soon_as_every_person_passed(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)

    async def until_the_bot_trades() -> None:
        await people.gather("g1", ["ann", "bot", "bob"])
        while table.session("g1").state.active != 1 or table.session("g1").state.step is not (
            Step.TRADE
        ):
            assert await people.move("g1")

    asyncio.run(until_the_bot_trades())
    turn = table.session("g1").state.turn

    asyncio.run(people.say("ann", "pass"))
    assert table.session("g1").state.step is Step.TRADE
    asyncio.run(people.say("bob", "pass"))

    assert table.session("g1").state.step is not Step.TRADE or table.session("g1").state.turn > turn
