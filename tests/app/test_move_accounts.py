"""`move` names the new account the way people on the platform name each other, and the seat it
hands on can be claimed: on Telegram by @username, by answering one of his messages, or by a
mention of someone without a username; on Matrix by user id or by display name in the room. A
word that names no account is refused with how to name one. The claimant plays at once, and
nobody hears he "is back". Every input through the platform's own translation."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from pathlib import Path

from telegram import MessageEntity

from .platform_people import MatrixPeople, TelegramPeople, platform_table
from .recording import START, Table

ROOM = "-100"
MATRIX_ROOM = "!g1:hs"
CODE = re.compile(r"claim ([A-Z0-9]{8})\b")


def code_given_to(table: Table, user: str) -> str:
    found = [m.group(1) for t in table.port.private_texts(user) for m in CODE.finditer(t)]
    assert found, f"{user} was given no code"
    return found[-1]


def telegram_game(tmp_path: Path, robert: dict[str, str]) -> tuple[Table, TelegramPeople]:
    table = platform_table(tmp_path / "games.db", "telegram")
    people = TelegramPeople(table)
    people.user("1001", "Ann", username="ann")
    people.user("1002", "Bob", username="bob")
    people.user("1003", "Robert", **robert)
    asyncio.run(people.gather(ROOM, ["1001", "1002"]))
    return table, people


def test_on_telegram_a_seat_handed_on_by_username_is_claimed_by_that_account(
    tmp_path: Path,
) -> None:
    table, people = telegram_game(tmp_path, {"username": "Robert_B"})

    asyncio.run(people.say("1002", "move @robert_b", ROOM))
    assert table.port.last_answer("1002") == (
        "I sent you a code privately: your seat goes to @robert_b once @robert_b sends it to me."
    )
    asyncio.run(people.say("1003", f"claim {code_given_to(table, '1002')}", private=True))

    session = table.session(ROOM)
    assert session.seat_of("1003") == 1 and session.seat_of("1002") is None
    assert "Bob's seat is now played by Robert." in table.port.room_texts(ROOM)


def test_on_telegram_a_seat_is_handed_on_by_answering_a_message_of_the_new_player(
    tmp_path: Path,
) -> None:
    table, people = telegram_game(tmp_path, {})  # Robert has no username
    hello = people.message("1003", "hello, I can take over", ROOM)

    asyncio.run(people.send(people.message("1002", "/move", ROOM, reply_to=hello)))
    assert table.port.last_answer("1002") == (
        "I sent you a code privately: your seat goes to Robert once Robert sends it to me."
    )
    asyncio.run(people.say("1003", f"claim {code_given_to(table, '1002')}", private=True))

    assert table.session(ROOM).seat_of("1003") == 1


def test_on_telegram_a_seat_is_handed_on_by_a_mention_of_someone_without_a_username(
    tmp_path: Path,
) -> None:
    table, people = telegram_game(tmp_path, {"last_name": "Smith"})
    robert = people.user("1003")
    text = "/move Robert Smith"
    mention = MessageEntity(MessageEntity.TEXT_MENTION, 6, 12, user=robert)
    asyncio.run(people.send(people.message("1002", text, ROOM, entities=(mention,))))
    asyncio.run(people.say("1003", f"claim {code_given_to(table, '1002')}", private=True))

    assert table.session(ROOM).seat_of("1003") == 1


def test_on_telegram_a_bare_name_is_refused_with_how_to_name_the_account(tmp_path: Path) -> None:
    table, people = telegram_game(tmp_path, {"username": "robert"})

    asyncio.run(people.say("1002", "move robert", ROOM))

    assert table.port.last_answer("1002") == (
        "I cannot tell whose account robert is: name him as this chat does (his @name or user "
        "id), or answer one of his messages with 'move'."
    )
    assert not CODE.search(" ".join(table.port.private_texts("1002")))


def matrix_game(tmp_path: Path, members: dict[str, str]) -> tuple[Table, MatrixPeople]:
    table = platform_table(tmp_path / "games.db", "matrix")
    people = MatrixPeople(table)
    for user, name in members.items():
        people.join_room(MATRIX_ROOM, user, name)
    asyncio.run(people.gather(MATRIX_ROOM, ["@ann:hs", "@bob:hs"]))
    return table, people


def test_on_matrix_a_seat_is_handed_on_by_display_name_in_the_room(tmp_path: Path) -> None:
    members = {"@ann:hs": "Ann", "@bob:hs": "Bob", "@rob:hs": "Robert Smith"}
    table, people = matrix_game(tmp_path, members)

    asyncio.run(people.say("@bob:hs", "move robert smith", MATRIX_ROOM))
    assert table.port.last_answer("@bob:hs") == (
        "I sent you a code privately: your seat goes to Robert Smith once Robert Smith sends "
        "it to me."
    )
    code = code_given_to(table, "@bob:hs")
    asyncio.run(people.say("@rob:hs", f"claim {code}", private=True))

    assert table.session(MATRIX_ROOM).seat_of("@rob:hs") == 1


def test_on_matrix_a_display_name_two_people_share_is_refused_and_a_user_id_works(
    tmp_path: Path,
) -> None:
    members = {"@ann:hs": "Ann", "@bob:hs": "Bob", "@rob:hs": "Robert", "@rob2:hs": "Robert"}
    table, people = matrix_game(tmp_path, members)

    asyncio.run(people.say("@bob:hs", "move Robert", MATRIX_ROOM))
    assert table.port.last_answer("@bob:hs") == (
        "Several people here are called Robert: name him by his user id."
    )
    asyncio.run(people.say("@bob:hs", "move @rob2:hs", MATRIX_ROOM))
    asyncio.run(people.say("@rob2:hs", f"claim {code_given_to(table, '@bob:hs')}", private=True))

    assert table.session(MATRIX_ROOM).seat_of("@rob2:hs") == 1


def test_a_claimant_of_a_seat_a_stand_in_played_takes_it_and_is_never_said_to_be_back(
    tmp_path: Path,
) -> None:
    table = platform_table(tmp_path / "games.db", "telegram")
    people = TelegramPeople(table)
    people.user("1001", "Ann")
    people.user("1002", "Bob")
    people.user("1003", "Robert", username="robert")
    asyncio.run(people.gather(ROOM, ["1001", "1002", "bot"], ["set deadline 10m"]))
    for minutes in (10, 20):  # Ann misses two deadlines: a bot plays for her
        table.clock.set(START + timedelta(minutes=minutes))
        asyncio.run(table.runner.tick())
    assert table.session(ROOM).seats[0].stand_in

    asyncio.run(people.say("1001", "move 1003", ROOM))
    asyncio.run(people.say("1003", f"claim {code_given_to(table, '1001')}", private=True))
    asyncio.run(people.say("1003", "withdraw 99", ROOM))

    session = table.session(ROOM)
    assert session.seat_of("1003") == 0 and not session.seats[0].stand_in
    said = table.port.room_texts(ROOM)
    assert "Ann's seat is now played by Robert." in said
    assert not any("is back" in text for text in said), said
