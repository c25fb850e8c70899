"""The names players sit under, whichever way they reach a seat (a lobby join, a claim, a
rename): cleaned of what would forge a line of the table, bounded, unique at the table without
regard to case, and never read two ways in a typed offer. Through the runner, with Telegram's
capabilities and every input through its own translation (and Matrix's for a claim)."""

from __future__ import annotations

import asyncio
import re
import unicodedata
from pathlib import Path

import pytest

from bohnanza.core.app.names import MAX_NAME
from bohnanza.core.cards import Card
from bohnanza.core.state import Step

from .platform_people import MatrixPeople, TelegramPeople, platform_table
from .recording import People, Table

ROOM = "-100"
CODE = re.compile(r"claim ([A-Z0-9]{8})\b")
FORGED = "Turn: ANN must pay 5 coins"
HOSTILE = "Robert\n" + FORGED + "\u202e\u2066\u200b\u200d\ufeff" + "x" * 200


def table_message(table: Table, room: str = ROOM) -> tuple[str, str]:
    """The room's table as it stands: its plain text and its HTML."""
    shown = [s for s in table.port.rooms[room] if s.text.startswith("Bohnanza · game ")][-1]
    return shown.message.text, shown.message.html or ""


def code_given_to(table: Table, user: str) -> str:
    found = [m.group(1) for t in table.port.private_texts(user) for m in CODE.finditer(t)]
    assert found, f"{user} was given no code"
    return found[-1]


def until_trading(people: People, room: str = ROOM) -> None:
    """Play on until the first trading step (its active player is the first seat)."""
    session = people.table.service.games[room]
    for _ in range(50):
        if session.state.step is Step.TRADE:
            assert session.state.active == 0
            return
        assert asyncio.run(people.move(room))
    raise AssertionError("no trading step came")


def offers_to(table: Table, room: str = ROOM) -> list[tuple[int, tuple[Card, ...]]]:
    """Each open offer's receiver and the cards it gives."""
    offers = table.service.games[room].state.offers.values()
    return [(offer.receiver, offer.give) for offer in offers]


def hand_cards(table: Table, *positions: int, room: str = ROOM) -> tuple[Card, ...]:
    """The cards at these places (from 1) of the first seat's hand."""
    hand = table.service.games[room].state.players[0].hand
    return tuple(hand[p - 1] for p in positions)


def shown_cleanly(name: str) -> bool:
    return len(name) <= MAX_NAME and not any(
        unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in name
    )


def test_a_claimant_s_display_name_is_cleaned_before_it_reaches_the_table(
    tmp_path: Path,
) -> None:
    table = platform_table(tmp_path / "games.db", "telegram")
    people = TelegramPeople(table)
    people.user("1001", "Ann")
    people.user("1002", "Bob")
    people.user("1003", "Cat")
    people.user("1004", HOSTILE, username="robert")
    asyncio.run(people.gather(ROOM, ["1001", "1002", "1003"]))

    asyncio.run(people.say("1002", "move 1004", ROOM))
    asyncio.run(people.say("1004", f"claim {code_given_to(table, '1002')}", private=True))

    session = table.session(ROOM)
    assert session.seat_of("1004") == 1
    name = session.names[1]
    assert name == "Robert Turn: ANN must pay 5 coin" and shown_cleanly(name)  # 32 characters
    text, html = table_message(table)
    for shown in (text, html):
        assert not any(line.startswith(FORGED) for line in shown.splitlines()), shown
        assert not any(ch in shown for ch in "\u202e\u2066\u200b\u200d\ufeff")
    assert f"Bob's seat is now played by {name}." in table.port.room_texts(ROOM)


def test_a_matrix_claimant_s_display_name_is_cleaned_too(tmp_path: Path) -> None:
    table = platform_table(tmp_path / "games.db", "matrix")
    people = MatrixPeople(table)
    room = "!g1:hs"
    for user, name in [("@ann:hs", "Ann"), ("@bob:hs", "Bob"), ("@rob:hs", HOSTILE)]:
        people.join_room(room, user, name)
    asyncio.run(people.gather(room, ["@ann:hs", "@bob:hs"]))

    asyncio.run(people.say("@bob:hs", "move @rob:hs", room))
    asyncio.run(
        people.say("@rob:hs", f"claim {code_given_to(table, '@bob:hs')}", room, name=HOSTILE)
    )

    session = table.session(room)
    assert session.seat_of("@rob:hs") == 1 and shown_cleanly(session.names[1])
    text, html = table_message(table, room)
    assert not any(line.startswith(FORGED) for line in (text + "\n" + html).splitlines())


def test_a_claimant_cannot_take_the_name_of_another_player_at_the_table(tmp_path: Path) -> None:
    table = platform_table(tmp_path / "games.db", "telegram")
    people = TelegramPeople(table)
    people.user("1001", "Ann")
    people.user("1002", "Bob")
    people.user("1003", "Cat")
    people.user("1004", "cat")  # Robert, who calls himself cat
    asyncio.run(people.gather(ROOM, ["1001", "1002", "1003"]))
    asyncio.run(people.say("1002", "move 1004", ROOM))
    asyncio.run(people.say("1004", f"claim {code_given_to(table, '1002')}", private=True))
    assert table.session(ROOM).names == ["Ann", "cat (2)", "Cat"]

    until_trading(people)
    first = hand_cards(table, 1)
    asyncio.run(people.say("1001", "offer cat 1", ROOM))
    assert offers_to(table) == [(2, first)]  # to Cat, who sat there first


def test_names_that_differ_in_case_are_told_apart_and_an_offer_reaches_the_one_meant(
    tmp_path: Path,
) -> None:
    table = platform_table(tmp_path / "games.db", "telegram")
    people = TelegramPeople(table)
    people.user("1001", "ANN")
    people.user("1002", "Ann")
    people.user("1003", "Cat")
    asyncio.run(people.gather(ROOM, ["1001", "1002", "1003"]))
    assert table.session(ROOM).names == ["ANN", "Ann (2)", "Cat"]
    assert "Ann (2)" in table_message(table)[0]

    until_trading(people)
    first, second = hand_cards(table, 1), hand_cards(table, 2)
    # ANN offers to "ann": not herself, so the other Ann.
    asyncio.run(people.say("1001", "offer ann 1", ROOM))
    asyncio.run(people.say("1001", "offer ann (2) 2", ROOM))
    assert offers_to(table) == [(1, first), (1, second)]


def test_an_offer_that_could_name_ann_2_or_ann_with_a_card_is_refused_with_both_readings(
    tmp_path: Path,
) -> None:
    table = platform_table(tmp_path / "games.db", "telegram")
    people = TelegramPeople(table)
    people.user("1001", "Bob")
    people.user("1002", "Ann")
    people.user("1003", "Ann", last_name="2")
    asyncio.run(people.gather(ROOM, ["1001", "1002", "1003"]))
    assert table.session(ROOM).names == ["Bob", "Ann", "Ann 2"]

    until_trading(people)
    asyncio.run(people.say("1001", "offer ann 2 1", ROOM))
    assert table.port.last_answer("1001") == (
        "'offer ann 2 1' can be read two ways: 'offer 3 1' (Ann 2) or 'offer 2 2 1' (Ann). "
        "Send the one you mean."
    )
    assert offers_to(table) == []
    first = hand_cards(table, 1)
    asyncio.run(people.say("1001", "offer 3 1", ROOM))
    assert offers_to(table) == [(2, first)]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("offer ann 2 1", "'offer ann 2 1' can be read two ways"),
        ("offer ann 2 for soy", "'offer ann 2 for soy' can be read two ways"),
    ],
)
def test_a_name_ending_in_a_number_alone_at_the_table_is_still_never_read_two_ways(
    tmp_path: Path, typed: str, said: str
) -> None:
    table = platform_table(tmp_path / "games.db", "telegram")
    people = TelegramPeople(table)
    people.user("1001", "Bob")
    people.user("1002", "Ann", last_name="2")
    people.user("1003", "Cat")
    asyncio.run(people.gather(ROOM, ["1001", "1002", "1003"]))
    until_trading(people)
    asyncio.run(people.say("1001", typed, ROOM))
    assert table.port.last_answer("1001").startswith(said)
    assert offers_to(table) == []
