"""Two workers on one store, a player's inputs reaching either: what one worker showed him
(a list, the offer he is building) is what his number answers on the other, and neither gives
a number the other gave to another choice."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bohnanza.adapters.irc.port import CAPABILITIES as IRC
from bohnanza.core.actions import AcceptTrade

from ..app.recording import FakeClock, People, Table, latest_choices, number_of


def test_a_number_answers_on_one_worker_the_screen_the_other_showed(tmp_path: Path) -> None:
    clock = FakeClock()
    one = Table.open(tmp_path / "shared.db", IRC, seed=1, clock=clock)
    two = Table.open(tmp_path / "shared.db", IRC, seed=2, clock=clock)
    on_one, on_two = People(one, seed=3), People(two, seed=3)
    game_id = asyncio.run(on_one.gather("g1", ["ann", "bob", "cat"]))
    asyncio.run(on_one.say("ann", f"#{game_id} plant 1", private=True))
    asyncio.run(on_one.say("ann", "done", private=True))
    asyncio.run(on_two.say("bob", "hand", private=True))
    offer_to_ann = number_of(latest_choices(two.port, "bob", game_id), "🤝 Offer to Ann")
    # Bob opens the offer picker through the first worker: nothing but what he is shown
    # changes in the store.
    asyncio.run(on_one.answer("bob", offer_to_ann))
    picker = latest_choices(one.port, "bob", game_id)
    first_card = number_of(picker, "☐ 1.")
    actions = one.action_count(game_id)

    # He ticks his first card; the second worker, which showed him the game, takes it.
    asyncio.run(on_two.answer("bob", first_card))

    assert two.action_count(game_id) == actions
    assert two.session("g1").seats[1].passed is None
    ticked = latest_choices(two.port, "bob", game_id)
    assert ticked[first_card].startswith("☑ 1.")


def test_new_choices_take_numbers_neither_worker_gave_before(tmp_path: Path) -> None:
    clock = FakeClock()
    one = Table.open(tmp_path / "shared.db", IRC, seed=1, clock=clock)
    two = Table.open(tmp_path / "shared.db", IRC, seed=2, clock=clock)
    on_one, on_two = People(one, seed=3), People(two, seed=3)
    game_id = asyncio.run(on_one.gather("g1", ["ann", "bob", "cat"]))
    asyncio.run(on_one.say("ann", f"#{game_id} plant 1", private=True))
    asyncio.run(on_one.say("ann", "done", private=True))
    asyncio.run(on_two.say("bob", "hand", private=True))
    # Offers to Bob made through one worker, then the other: each new choice a new number.
    asyncio.run(on_one.say("ann", "offer 2 1", private=True))
    first = latest_choices(one.port, "bob", game_id)
    asyncio.run(on_two.say("ann", "offer 2 2", private=True))
    second = latest_choices(two.port, "bob", game_id)
    accept_1, accept_2 = number_of(first, "Accept #1"), number_of(second, "Accept #2")
    assert second[accept_1] == first[accept_1]
    assert accept_2 not in first

    asyncio.run(on_one.answer("bob", accept_1))

    record = one.store.load_record(game_id)
    assert [a.offer for a in record.actions if isinstance(a, AcceptTrade)] == [1]
