"""What a seat's private message was made from is a value, kept in the chat state as the same
text as ever, and read back as the value it was; and it is all the message shows that
others' moves can change."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bohnanza.core.actions import AcceptTrade, Action, EndStep, Plant, ProposeTrade
from bohnanza.core.app.hand_keys import AwayKey, HandKey, ShownHand, hand_text, read_hand
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.seat_screen import Screen
from bohnanza.core.app.updates import hand_key, private_message
from bohnanza.core.notation import action_text

from .recording import BUTTONS_AND_EDITS, People, Table, without_times

ASKED, PICKING = Screen("ask", "harvest 2"), Screen("pick", "s2 r1")
KEPT = [
    (HandKey("a1b2c3", (), None, None), "a1b2c3|[] None None"),
    (HandKey("a1b2c3", (1, 2), (3, (1,)), None), "a1b2c3|[1, 2] (3, (1,)) None"),
    (HandKey("0f0f0f", (4,), (2, ()), ASKED), "0f0f0f|[4] (2, ()) ask harvest 2"),
    (HandKey("0f0f0f", (), (7, (1, 2)), PICKING), "0f0f0f|[] (7, (1, 2)) pick s2 r1"),
    (AwayKey(4), "away 4"),
]


@pytest.mark.parametrize(("key", "text"), KEPT)
def test_a_key_is_kept_as_its_text_and_read_back(key: HandKey | AwayKey, text: str) -> None:
    assert hand_text(key) == text
    assert read_hand(text) == key


@pytest.mark.parametrize(
    "text", [None, 3, "", "what an older message showed", "a1|[x] None None", "away x"]
)
def test_anything_else_kept_reads_as_nothing_shown(text: object) -> None:
    assert read_hand(text) is None


def test_only_the_moves_changed_when_all_but_the_token_is_the_same() -> None:
    shown = HandKey("a1b2c3", (1,), None, Screen("ask", "harvest 2"))
    assert shown._replace(token="ffffff").same_but_moves(shown)
    assert not shown._replace(offers=()).same_but_moves(shown)
    assert not shown.same_but_moves(AwayKey(1))
    assert not shown.same_but_moves(None)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_private_message_reads_otherwise_only_where_its_key_differs(
    tmp_path: Path, seed: int
) -> None:
    """A private message is renewed when its key differs from the one it was made from: after
    every input of whole games (people and bots, a seat of each kind beside each other), a
    person whose key stayed the same reads the same message (its times aside)."""
    table = Table.open(tmp_path / "games.db", BUTTONS_AND_EDITS, seed=seed)
    people = People(table, seed=seed)
    caps = table.port.capabilities
    last: dict[int, tuple[ShownHand, str]] = {}
    unseen: list[str] = []
    submit = table.runner.submit

    async def followed(inbound: Inbound, wait: bool = True) -> asyncio.Future[None]:
        done = await submit(inbound, wait)
        session = table.service.games.get("g1")
        if session is None:
            return done
        tr = table.service.translator(session.language)
        for seat in session.humans():
            key = hand_key(session, seat, caps)
            text = without_times(private_message(session, seat, tr, caps).text)
            before = last.get(seat)
            if before is not None and before[0] == key and before[1] != text:
                unseen.append(f"after {inbound.text!r}, seat {seat}:\n{before[1]}\n!=\n{text}")
            last[seat] = (key, text)
        return done

    table.runner.submit = followed  # type: ignore[method-assign]

    async def game() -> None:
        await people.gather("g1", ["ann", "bot", "bob", "cat", "bot"])
        await people.play(["g1"])

    asyncio.run(game())
    assert len(last) == 3
    assert unseen == []


def test_a_bystander_reads_an_offer_stale_once_its_cards_went_to_another(tmp_path: Path) -> None:
    """Ann offers her front card to Bob, then the same card to Cat, who takes it: the offer to
    Bob is stale, and Dan, whose moves stayed the same, reads it so in his message."""
    table = Table.open(tmp_path / "games.db", BUTTONS_AND_EDITS)
    people = People(table)

    async def say(user: str, action: Action) -> None:
        before = table.action_count(game_id)
        await people.say(user, action_text(action))
        assert table.action_count(game_id) == before + 1, table.port.last_answer(user)

    async def game() -> None:
        await say("ann", Plant(player=0, field=0))
        await say("ann", EndStep(player=0))
        await say("ann", ProposeTrade(player=0, partner=1, hand=(0,)))
        shown = table.port.hand_message("dan", game_id)
        assert shown is not None and "#1 Ann → Bob" in shown.text
        assert "(stale" not in shown.text
        await say("ann", ProposeTrade(player=0, partner=2, hand=(0,)))
        await say("cat", AcceptTrade(player=2, offer=2))

    game_id = asyncio.run(people.gather("g1", ["ann", "bob", "cat", "dan"]))
    asyncio.run(game())
    shown = table.port.hand_message("dan", game_id)
    assert shown is not None
    assert "#1 Ann → Bob: " in shown.text and "(stale: its cards are gone)" in shown.text
