"""On a real homeserver, `move` names the new account as Matrix people name each other: by his
display name in the room, or by answering one of his messages; the account so named claims
the seat with the code."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from .accounts import Account
from .players import Player
from .synapse import Homeserver
from .test_adapter_bad_input import Game, duel, replies_to

CODE = re.compile(r"claim ([A-Z0-9]{8})\b")


async def code_given_to_bob(game: Game, mark: int) -> str:
    direct = game.table.direct[game.bob.user_id]
    given = await game.bob.wait_for_message(
        lambda m: m.room_id == direct and CODE.search(m.body) is not None, after=mark
    )
    return CODE.findall(given.body)[-1]


async def claimed_by_cat(game: Game, code: str) -> None:
    await game.table.say(game.cat, f"!bean claim {code}")
    session = game.session()
    assert session.seat_of(game.cat.user_id) == 1 and session.seat_of(game.bob.user_id) is None


async def named(player: Player, display_name: str, others: list[Player]) -> None:
    """The player takes a display name, and the others' clients see it."""
    await player.client.set_displayname(display_name)
    for other in others:
        await other.sync()


async def test_a_seat_is_handed_on_by_the_display_name_the_room_knows(
    synapse: Homeserver, new_account: Callable[[str], Account], tmp_path: Path
) -> None:
    async with duel(synapse, new_account, tmp_path) as game:
        await named(game.cat, "Cat Stevens", [game.bob])
        # The homeserver tells the room of a new display name in its own time.
        bot_rooms = game.running.bot.client.rooms

        def known() -> bool:
            member = bot_rooms[game.room].users.get(game.cat.user_id)
            return member is not None and member.display_name == "Cat Stevens"

        await game.running.until(known, "the bot learning Cat's display name")
        mark = game.bob.checkpoint()

        asked = await game.table.say(game.bob, "!bean move cat stevens")

        assert await replies_to(game.bob, asked) == [
            "I sent you a code privately: your seat goes to Cat Stevens once Cat Stevens sends "
            "it to me."
        ]
        await claimed_by_cat(game, await code_given_to_bob(game, mark))


async def test_a_seat_is_handed_on_by_answering_a_message_of_the_new_player(
    synapse: Homeserver, new_account: Callable[[str], Account], tmp_path: Path
) -> None:
    async with duel(synapse, new_account, tmp_path) as game:
        hello = await game.table.say(game.cat, "I can take Bob's seat")
        mark = game.bob.checkpoint()
        content = {
            "msgtype": "m.text",
            "body": f"> <{game.cat.user_id}> I can take Bob's seat\n\n!bean move",
            "m.relates_to": {"m.in_reply_to": {"event_id": hello}},
        }
        asked = await game.bob.send_content(game.room, content)
        await game.running.handled_command(asked)

        [answer] = await replies_to(game.bob, asked)
        assert answer.startswith("I sent you a code privately: your seat goes to ")
        await claimed_by_cat(game, await code_given_to_bob(game, mark))
