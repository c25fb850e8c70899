"""Where user ids are accounts (Telegram, Matrix), a seat goes to another account only when
its player asks and that account sends the one-time code he was given privately; nobody else,
the game's opener included, hands on a seat that is not his."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from sqlalchemy import text

from bohnanza.core.app.seat_claims import CLAIM_TRIES, CODE_LENGTH, CODE_LETTERS

from .recording import People, Table

CODE = re.compile(r"claim ([A-Z0-9]{8})\b")


def gathered(tmp_path: Path) -> tuple[Table, People]:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    asyncio.run(people.gather("g1", ["ann", "bob", "cat"]))
    return table, people


def code_given_to(table: Table, user: str) -> str:
    """The code in the player's latest private message that holds one."""
    found = [m.group(1) for t in table.port.private_texts(user) for m in CODE.finditer(t)]
    assert found, f"{user} was given no code"
    return found[-1]


def seats(table: Table, *users: str) -> list[int | None]:
    session = table.session("g1")
    return [session.seat_of(user) for user in users]


def stored_moves(table: Table) -> list[tuple[str, str, str]]:
    with table.store._engine.connect() as connection:
        rows = connection.execute(text("SELECT user_id, asked_by, reason FROM seat_moves"))
        return [tuple(row) for row in rows]


def test_the_opener_cannot_move_another_players_seat_to_an_account(tmp_path: Path) -> None:
    table, people = gathered(tmp_path)

    asyncio.run(people.say("ann", "move bob robert"))

    assert table.port.last_answer("ann") == (
        "Only a seat's player may hand it on here: he says 'move NEW', and NEW claims it with "
        "the code he is given."
    )
    assert seats(table, "ann", "bob", "cat", "robert") == [0, 1, 2, None]
    assert stored_moves(table) == []


def test_a_seat_goes_to_the_account_that_sends_the_code_its_player_was_given(
    tmp_path: Path,
) -> None:
    table, people = gathered(tmp_path)
    game_id = table.session("g1").game_id

    asyncio.run(people.say("bob", "move robert"))

    assert table.port.last_answer("bob") == (
        "I sent you a code privately: your seat goes to robert once robert sends it to me."
    )
    code = code_given_to(table, "bob")
    assert len(code) == CODE_LENGTH and set(code) <= set(CODE_LETTERS)
    assert seats(table, "bob", "robert") == [1, None]  # nothing moves before the claim

    asyncio.run(people.say("robert", f"claim {code.lower()}", private=True, name="Robert"))

    assert seats(table, "bob", "robert") == [None, 1]
    assert "Bob's seat is now played by Robert." in table.port.room_texts("g1")
    assert table.port.hand_message("robert", game_id) is not None
    assert stored_moves(table) == [("robert", "bob", "claimed")]
    # The code served once.
    asyncio.run(people.say("robert", f"claim {code}", private=True))
    assert table.port.last_answer("robert") == "No seat waits for you to claim it."


def test_the_code_reaches_only_the_player_who_asked(tmp_path: Path) -> None:
    table, people = gathered(tmp_path)

    asyncio.run(people.say("bob", "move robert"))
    code = code_given_to(table, "bob")

    shown_to_others = [
        *table.port.room_texts("g1"),
        *[t for user in ("ann", "cat", "robert") for t in table.port.private_texts(user)],
        *[a.text for a in table.port.answers],
    ]
    assert not any(code in shown for shown in shown_to_others)


def test_a_wrong_code_changes_nothing_and_too_many_drop_the_claim(tmp_path: Path) -> None:
    table, people = gathered(tmp_path)
    asyncio.run(people.say("bob", "move robert"))
    code = code_given_to(table, "bob")

    asyncio.run(people.say("robert", "claim AAAAAAAA"))
    assert table.port.last_answer("robert") == "That is not the code; nothing changed."
    assert seats(table, "bob", "robert") == [1, None]
    # Someone else with the right code is not the account the seat was handed to.
    asyncio.run(people.say("eve", f"claim {code}"))
    assert table.port.last_answer("eve") == "No seat waits for you to claim it."
    assert seats(table, "bob", "eve") == [1, None]

    for _ in range(CLAIM_TRIES - 1):
        asyncio.run(people.say("robert", "claim AAAAAAAA"))
    assert table.port.last_answer("robert") == (
        "That is not the code, too many times: ask the player for a new one."
    )
    asyncio.run(people.say("robert", f"claim {code}"))
    assert table.port.last_answer("robert") == "No seat waits for you to claim it."
    assert seats(table, "bob", "robert") == [1, None]


def test_a_code_expires_after_ten_minutes(tmp_path: Path) -> None:
    table, people = gathered(tmp_path)
    asyncio.run(people.say("bob", "move robert"))
    code = code_given_to(table, "bob")

    table.clock.advance(minutes=10)
    asyncio.run(people.say("robert", f"claim {code}"))

    assert table.port.last_answer("robert") == (
        "That code has expired; ask the player to say 'move' again."
    )
    assert seats(table, "bob", "robert") == [1, None]
    # A new ask gives a new code that works.
    asyncio.run(people.say("bob", "move robert"))
    asyncio.run(people.say("robert", f"claim {code_given_to(table, 'bob')}"))
    assert seats(table, "bob", "robert") == [None, 1]


def test_a_claim_asked_before_a_restart_is_carried_out_after_it(tmp_path: Path) -> None:
    table, people = gathered(tmp_path)
    asyncio.run(people.say("bob", "move robert"))
    code = code_given_to(table, "bob")

    restarted = table.restarted()
    asyncio.run(restarted.runner.start())
    asyncio.run(People(restarted).say("robert", f"claim {code}", private=True, name="Robert"))

    assert restarted.session("g1").seat_of("robert") == 1
    assert restarted.session("g1").seat_of("bob") is None
    assert "Bob's seat is now played by Robert." in restarted.port.room_texts("g1")


def test_a_claim_for_a_seat_moved_meanwhile_is_refused(tmp_path: Path) -> None:
    table, people = gathered(tmp_path)
    asyncio.run(people.say("bob", "move robert"))
    first = code_given_to(table, "bob")
    asyncio.run(people.say("bob", "move bobby"))  # a new ask replaces the first
    asyncio.run(people.say("robert", f"claim {first}"))
    assert table.port.last_answer("robert") == "No seat waits for you to claim it."
    asyncio.run(people.say("bobby", f"claim {code_given_to(table, 'bob')}"))
    assert seats(table, "bob", "bobby", "robert") == [None, 1, None]
