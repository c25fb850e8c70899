"""Trading by buttons: an offer is built tap by tap in the private message (partner, cards,
beans wanted, Send), answered with Accept, Decline or a counter-offer built the same way; on a
platform without buttons the same choices are numbered and a number presses one."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bohnanza.core.actions import CounterTrade, ProposeTrade
from bohnanza.core.app.ports import Capabilities
from bohnanza.core.state import Step

from .recording import People, Shown, Table

SEATS = ["ann", "bob", "bot"]


def trading(tmp_path: Path, capabilities: Capabilities | None = None) -> tuple[Table, People, str]:
    """A game where Ann, on turn, has planted and trades now."""
    table = Table.open(tmp_path / "games.db", capabilities) if capabilities else None
    table = table or Table.open(tmp_path / "games.db")
    people = People(table, seed=3)
    game_id = asyncio.run(people.gather("g1", SEATS))
    asyncio.run(people.say("ann", "#" + game_id + " plant 1", private=True))
    asyncio.run(people.say("ann", "done", private=True))
    assert table.session("g1").state.step is Step.TRADE
    return table, people, game_id


def latest(table: Table, user: str, game_id: str) -> Shown:
    shown = table.port.hand_message(user, game_id)
    assert shown is not None
    return shown


def button(shown: Shown, label: str) -> str:
    """The payload of the first button whose label starts with `label`."""
    found = [b for row in shown.message.buttons for b in row if b.label.startswith(label)]
    assert found, f"no button {label!r} in {[b.label for r in shown.message.buttons for b in r]}"
    return found[0].payload


def tap(table: Table, people: People, user: str, game_id: str, label: str) -> Shown:
    asyncio.run(people.press(user, button(latest(table, user, game_id), label)))
    return latest(table, user, game_id)


def last_action(table: Table, game_id: str) -> object:
    return table.store.load_record(game_id).actions[-1]


def test_a_one_for_one_offer_takes_four_taps(tmp_path: Path) -> None:
    table, people, game_id = trading(tmp_path)
    session = table.session("g1")
    first = session.view(0).hand[0]
    wanted = next(v for v in session.view(1).hand if v is not first)
    shown = latest(table, "ann", game_id)
    assert "🤝 Offer to Bob" in [b.label for row in shown.message.buttons for b in row]

    tap(table, people, "ann", game_id, "🤝 Offer to Bob")
    picked = tap(table, people, "ann", game_id, "☐ 1.")
    assert "☑ 1." in [b.label[:4] for row in picked.message.buttons for b in row]
    short = wanted.title.removesuffix(" Bean")
    picked = tap(table, people, "ann", game_id, f"+ {short}")
    assert f"for {wanted.title}." in picked.text
    tap(table, people, "ann", game_id, "📨 Send offer")

    record = table.store.load_record(game_id)
    offers = [a for a in record.actions if isinstance(a, ProposeTrade) and a.player == 0]
    assert offers == [ProposeTrade(0, 1, (0,), (), (wanted,))]
    # Bob answers in one tap: Accept where he has the bean.
    answer = latest(table, "bob", game_id)
    labels = [b.label for row in answer.message.buttons for b in row]
    assert any(label.startswith("Accept #") for label in labels)
    assert any(label.startswith("↩ Counter #") for label in labels)
    assert any(label.startswith("Decline #") for label in labels)


def test_the_partner_counters_with_the_same_picker(tmp_path: Path) -> None:
    table, people, game_id = trading(tmp_path)
    tap(table, people, "ann", game_id, "🤝 Offer to Bob")
    tap(table, people, "ann", game_id, "☐ 1.")
    tap(table, people, "ann", game_id, "🎁 Give as a gift")
    state = table.session("g1").state
    (offer,) = [o.id for o in state.offers.values() if o.proposer == 0 and o.receiver == 1]

    tap(table, people, "bob", game_id, f"↩ Counter #{offer}")
    counter = tap(table, people, "bob", game_id, "☐ 2.")
    assert "Offer to Ann:" in counter.text
    tap(table, people, "bob", game_id, "🎁 Give as a gift")
    counters = table.store.load_record(game_id).actions
    assert CounterTrade(1, offer, (1,), (), ()) in counters


def test_an_offer_to_anyone_goes_to_every_partner(tmp_path: Path) -> None:
    table, people, game_id = trading(tmp_path)
    tap(table, people, "ann", game_id, "🤝 Offer to anyone")
    tap(table, people, "ann", game_id, "☐ 1.")
    tap(table, people, "ann", game_id, "🎁 Give as a gift")
    record = table.store.load_record(game_id)
    partners = {a.partner for a in record.actions if isinstance(a, ProposeTrade) and a.player == 0}
    assert partners == {1, 2}


def test_the_face_up_cards_are_shown_and_can_be_offered(tmp_path: Path) -> None:
    table, people, game_id = trading(tmp_path)
    session = table.session("g1")
    face_up = session.view(0).face_up
    shown = latest(table, "ann", game_id)
    assert face_up[0].title in shown.text  # the private message shows the face-up cards
    assert "step 2: trading" in shown.text

    tap(table, people, "ann", game_id, "🤝 Offer to Bob")
    tap(table, people, "ann", game_id, "☐ " + face_up[0].title.removesuffix(" Bean"))
    tap(table, people, "ann", game_id, "🎁 Give as a gift")
    assert ProposeTrade(0, 1, (), (0,), ()) in table.store.load_record(game_id).actions


def test_cancel_and_the_game_moving_on_leave_the_picker(tmp_path: Path) -> None:
    table, people, game_id = trading(tmp_path)
    tap(table, people, "ann", game_id, "🤝 Offer to Bob")
    before = table.action_count(game_id)
    back = tap(table, people, "ann", game_id, "Cancel")
    assert "🤝 Offer to Bob" in [b.label for row in back.message.buttons for b in row]
    assert table.action_count(game_id) == before

    tap(table, people, "ann", game_id, "🤝 Offer to Bob")
    asyncio.run(people.say("ann", "done", private=True))  # trading ends: no draft survives
    shown = latest(table, "ann", game_id)
    assert not any(b.label.startswith("☐") for row in shown.message.buttons for b in row)


def test_a_forged_draft_changes_nothing(tmp_path: Path) -> None:
    table, people, game_id = trading(tmp_path)
    token = table.session("g1").token(0)
    before = table.action_count(game_id)
    for forged in ("pick zz 1 0 -", "pick s9 1 0 -", "send s1 1 0 -", "pick s2 fffffffff 0 -"):
        asyncio.run(people.press("ann", f"g {game_id} {token} {forged}"))
        assert "cannot be made now" in table.port.last_answer("ann")
    asyncio.run(people.press("bob", f"g {game_id} {table.session('g1').token(1)} pick s3 1 0 -"))
    assert "cannot be made now" in table.port.last_answer("bob")  # Bob trades with Ann only
    assert table.action_count(game_id) == before


def test_numbers_press_the_buttons_where_there_are_none(tmp_path: Path) -> None:
    numbered = Capabilities(buttons=False, edits=True, private_messages=True)
    table, people, game_id = trading(tmp_path, numbered)
    shown = latest(table, "ann", game_id)
    lines = shown.text.split("\n")
    offer = next(line for line in lines if "🤝 Offer to Bob" in line)
    assert "Answer with a number." in shown.text
    number = offer.split(" · ")[0]

    asyncio.run(people.say("ann", number, private=True))
    picked = latest(table, "ann", game_id)
    card = next(line for line in picked.text.split("\n") if "☐ 1." in line).split(" · ")[0]
    asyncio.run(people.say("ann", card, private=True))
    gift = next(
        line for line in latest(table, "ann", game_id).text.split("\n") if "🎁" in line
    ).split(" · ")[0]
    asyncio.run(people.say("ann", gift, private=True))
    assert ProposeTrade(0, 1, (0,), (), ()) in table.store.load_record(game_id).actions

    asyncio.run(people.say("ann", "99", private=True))
    assert "no choice 99" in table.port.last_answer("ann")


def test_a_group_command_is_confirmed_briefly_where_answers_are_not_personal(
    tmp_path: Path,
) -> None:
    table = Table.open(tmp_path / "games.db", Capabilities(buttons=False, edits=True))
    people = People(table, seed=3)
    game_id = asyncio.run(people.gather("g1", SEATS))
    before = table.action_count(game_id)
    asyncio.run(people.say("ann", "plant 1"))
    assert table.action_count(game_id) == before + 1
    assert table.port.last_answer("ann") == "✓ plant 1"
