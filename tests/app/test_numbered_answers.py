"""A number answers the list its player saw: a list renumbered by another's move, changed unseen
or unknown after a restart is answered with the list as it stands, nothing done; a question
asked before a restart is answered after it and means the same."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bohnanza.core.actions import Harvest, ProposeTrade
from bohnanza.core.app.numbers import answered, choice_digest, next_choices
from bohnanza.core.app.ports import Capabilities
from bohnanza.core.state import Step

from .recording import People, Table

NUMBERED = Capabilities(buttons=False, edits=True, private_messages=True)
MOVED_ON = "Your choices changed meanwhile; here they are as they stand."


def numbered_lines(text: str) -> dict[str, str]:
    """A private message's numbered choices: label by number."""
    out = {}
    for line in text.split("\n"):
        number, sep, label = line.partition(" · ")
        if sep and number.isdigit():
            out[number] = label
    return out


def number_of(text: str, label: str) -> str:
    """The number of the first choice whose label starts with `label`."""
    found = [n for n, shown in numbered_lines(text).items() if shown.startswith(label)]
    assert found, f"no choice {label!r} in {text!r}"
    return found[0]


def test_a_number_means_a_choice_only_where_every_list_he_may_read_agrees() -> None:
    first = [choice_digest("No trade", "g X t1 pass"), choice_digest("Offer to Bob", "g X t1 p")]
    # Another's move put an offer to him first: every number means something else now.
    second = [choice_digest("Accept #1", "g X t2 accept 1"), *first]
    merged = next_choices(first, second, own=False)
    assert not answered(merged, second, 1)
    assert not answered(merged, second, 2)
    # The same list again, the moment's token changed: the numbers still mean the same.
    again = [choice_digest("No trade", "g X t3 pass"), choice_digest("Offer to Bob", "g X t3 p")]
    assert answered(next_choices(first, again, own=False), again, 2)
    # Once he answered, the list sent back to him is the one he reads.
    assert answered(next_choices(merged, second, own=True), second, 1)
    # Not known (kept before it was kept): nothing is answered until he is sent his list.
    assert not answered(next_choices(None, second, own=False), second, 1)


def trading_game(tmp_path: Path) -> tuple[Table, People, str]:
    """Ann on turn trades with Bob and Cat, on a platform whose choices are numbered."""
    table = Table.open(tmp_path / "games.db", NUMBERED)
    people = People(table, seed=3)
    game_id = asyncio.run(people.gather("g1", ["ann", "bob", "cat"]))
    asyncio.run(people.say("ann", f"#{game_id} plant 1", private=True))
    asyncio.run(people.say("ann", "done", private=True))
    assert table.session("g1").state.step is Step.TRADE
    return table, people, game_id


def test_a_number_answering_a_list_another_renumbered_does_nothing(tmp_path: Path) -> None:
    table, people, game_id = trading_game(tmp_path)
    seen_by_bob = table.port.private_texts("bob")[-1]
    no_trade = number_of(seen_by_bob, "No trade")
    # Meanwhile Ann offers Bob a card: his choices are renumbered (Accept, Decline come first).
    asyncio.run(people.say("ann", "offer 2 1", private=True))
    renumbered = table.port.private_texts("bob")[-1]
    assert numbered_lines(renumbered)[no_trade] != "No trade"
    before = table.action_count(game_id)
    passed = table.session("g1").seats[1].passed

    asyncio.run(people.say("bob", no_trade, private=True))

    assert table.action_count(game_id) == before
    assert table.session("g1").seats[1].passed == passed
    latest = table.port.private_texts("bob")[-1]
    assert table.port.last_answer("bob") == MOVED_ON
    assert numbered_lines(latest) == numbered_lines(renumbered)
    # The list he got is the one he reads now: its numbers are taken.
    asyncio.run(people.say("bob", number_of(latest, "Decline #1"), private=True))
    assert table.action_count(game_id) == before + 1


def test_a_number_that_means_the_same_in_every_list_is_taken(tmp_path: Path) -> None:
    table, people, _ = trading_game(tmp_path)
    seen_by_cat = table.port.private_texts("cat")[-1]
    # Ann's offer to Bob changes nothing Cat may choose: only the open offers he reads.
    asyncio.run(people.say("ann", "offer 2 1", private=True))
    assert numbered_lines(table.port.private_texts("cat")[-1]) == numbered_lines(seen_by_cat)

    asyncio.run(people.say("cat", number_of(seen_by_cat, "No trade"), private=True))

    assert table.port.last_answer("cat") != MOVED_ON
    assert table.session("g1").seats[2].passed is not None


def sale_asked(table: Table, people: People, game_id: str) -> tuple[str, Harvest]:
    """Ann's question whether to sell a field: the text of her message and the sale."""
    session = table.session("g1")
    sale = next(a for a in session.legal(0).actions if isinstance(a, Harvest))
    text = table.port.private_texts("ann")[-1]
    asyncio.run(people.say("ann", number_of(text, "Sell "), private=True))
    asked = table.port.private_texts("ann")[-1]
    assert "? It cannot be undone." in asked
    assert numbered_lines(asked) == {"1": "Yes", "2": "No"}
    return asked, sale


def test_a_question_asked_before_a_restart_is_answered_after_it(tmp_path: Path) -> None:
    table, people, game_id = trading_game(tmp_path)
    _, sale = sale_asked(table, people, game_id)
    before = table.action_count(game_id)

    restarted = table.restarted()
    asyncio.run(restarted.runner.start())
    asyncio.run(People(restarted).say("ann", "1", private=True))

    record = restarted.store.load_record(game_id)
    assert len(record.actions) == before + 1
    assert record.actions[-1] == sale
    assert restarted.session("g1").state.step is Step.TRADE  # trading goes on


def test_a_draft_built_before_a_restart_is_built_on_after_it(tmp_path: Path) -> None:
    table, people, game_id = trading_game(tmp_path)
    text = table.port.private_texts("ann")[-1]
    asyncio.run(people.say("ann", number_of(text, "🤝 Offer to Bob"), private=True))
    picker = table.port.private_texts("ann")[-1]
    asyncio.run(people.say("ann", number_of(picker, "☐ 1."), private=True))
    ticked = table.port.private_texts("ann")[-1]
    assert "☑ 1." in ticked

    restarted = table.restarted()
    asyncio.run(restarted.runner.start())
    asyncio.run(People(restarted).say("ann", number_of(ticked, "🎁"), private=True))

    record = restarted.store.load_record(game_id)
    assert isinstance(record.actions[-1], ProposeTrade)
    assert restarted.session("g1").state.offers


def test_a_number_after_a_restart_that_kept_nothing_is_refused(tmp_path: Path) -> None:
    table, _, game_id = trading_game(tmp_path)
    before = table.action_count(game_id)
    # A chat state written before lists were kept: what Ann was shown is not known.
    state = table.store.load_chat_state(game_id)
    assert state is not None
    old = dict(state.data)
    old["seats"] = [
        {k: v for k, v in seat.items() if k not in ("shown", "choices", "screen", "screen_at")}
        for seat in state.data["seats"]  # type: ignore[union-attr]
    ]
    table.store.save_chat_state(game_id, type(state)(old, state.action_count), table.clock.now())
    restarted = table.restarted()
    restarted.service.resume(restarted.clock.now())

    asyncio.run(People(restarted).say("ann", "1", private=True))

    assert restarted.action_count(game_id) == before
    assert restarted.port.last_answer("ann") == MOVED_ON
    # The list she got is known: its first choice is taken.
    asyncio.run(People(restarted).say("ann", "1", private=True))
    assert restarted.port.answers_to("ann").count(MOVED_ON) == 1
