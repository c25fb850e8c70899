"""A seat on Telegram goes to another account only when that account sends the code its
player was given privately: the opener cannot hand Bob's seat to anyone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .botapi import BotApiServer, World
from .botapi.ptb import run
from .table import Players, RunningBot, all_texts

pytestmark = pytest.mark.server  # the local Bot API server

CODE = re.compile(r"claim ([A-Z0-9]{8})\b")


def test_a_seat_is_refused_to_the_opener_and_goes_to_the_account_that_claims_it(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    ann, bob, rob, eve = (world.create_user(n) for n in ("Ann", "Bob", "Robert", "Eve"))
    group = world.create_group("Bean table", [ann, bob, rob, eve])
    world.add_bot(group, by=ann)

    async def scenario() -> tuple[RunningBot, str, str]:
        async with botapi, RunningBot(botapi, tmp_path / "games.db") as running:
            for person in (ann, bob, rob, eve):
                person.start_bot()
            await world.settle()
            players = Players(running, group, [ann, bob])
            game_id = await players.gather(["Ann", "Bob"])
            service = running.bot.service

            # The opener hands Bob's seat to another account of his: refused.
            await players.say(ann, f"/move {bob.id} {rob.id}", group)
            assert service.games[players.room].seat_of(str(rob.id)) is None

            # Bob asks; the code comes to him alone.
            await players.say(bob, f"/move {rob.id}", group)
            await world.settle()
            [code] = CODE.findall(" ".join(all_texts(bob.private_messages)))
            # A claim from an account the seat was not handed to takes nothing (Eve has the
            # code here only to show it); a wrong code neither.
            await players.say(eve, f"/claim {code}")
            await players.say(rob, "/claim AAAAAAAA")
            assert service.games[players.room].seat_of(str(bob.id)) == 1

            await players.say(rob, f"/claim {code}")
            await world.settle()
            session = service.games[players.room]
            assert session.seat_of(str(rob.id)) == 1 and session.seat_of(str(bob.id)) is None
            return running, game_id, code

    running, game_id, code = run(scenario())

    group_texts = all_texts(group.history)
    assert (
        "Only a seat's player may hand it on here: he says 'move NEW', and NEW claims it with "
        "the code he is given." in group_texts
    )
    assert "Bob's seat is now played by Robert." in group_texts
    assert not any(code in t for t in group_texts)
    for other in (ann, rob, eve):  # the bot wrote the code to nobody else
        assert not any(code in t for t in all_texts(other.private_messages))
    assert "No seat waits for you to claim it." in all_texts(eve.private_chat.history)
    assert "That is not the code; nothing changed." in all_texts(rob.private_chat.history)
    # Robert now gets the seat's hand privately, and the store keeps who plays it.
    assert any(t.startswith(f"Game {game_id}\n") for t in all_texts(rob.private_messages))
    assert running.store.active_games_of("telegram", str(rob.id)) == [game_id]


def test_a_seat_is_handed_on_by_username_or_by_answering_a_message_and_then_claimed(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    """As people on Telegram name each other: `/move @robert`, or `/move` in answer to a
    message of someone without a username; a bare name is refused with how to name him."""
    ann, bob = world.create_user("Ann"), world.create_user("Bob")
    rob = world.create_user("Robert", username="Robert_B")
    eve = world.create_user("Eve")  # no username
    group = world.create_group("Bean table", [ann, bob, rob, eve])
    world.add_bot(group, by=ann)

    async def scenario() -> RunningBot:
        async with botapi, RunningBot(botapi, tmp_path / "games.db") as running:
            for person in (ann, bob, rob, eve):
                person.start_bot()
            await world.settle()
            players = Players(running, group, [ann, bob])
            await players.gather(["Ann", "Bob"])
            service = running.bot.service

            await players.say(bob, "/move robert", group)
            await players.say(bob, "/move @robert_b", group)
            await world.settle()
            [code] = CODE.findall(" ".join(all_texts(bob.private_messages)))
            await players.say(rob, f"/claim {code}")
            await world.settle()
            assert service.games[players.room].seat_of(str(rob.id)) == 1

            hello = eve.say(group, "I can play Robert's seat")
            asked = rob.say(group, "/move", reply_to=hello)
            await running.handled_message(asked)
            await world.settle()
            [code] = CODE.findall(" ".join(all_texts(rob.private_messages)))
            await players.say(eve, f"/claim {code}")
            await world.settle()
            session = service.games[players.room]
            assert session.seat_of(str(eve.id)) == 1 and session.seat_of(str(rob.id)) is None
            return running

    run(scenario())

    group_texts = all_texts(group.history)
    assert (
        "I cannot tell whose account robert is: name him as this chat does (his @name or user "
        "id), or answer one of his messages with 'move'." in group_texts
    )
    assert "Bob's seat is now played by Robert." in group_texts
    assert "Robert's seat is now played by Eve." in group_texts
