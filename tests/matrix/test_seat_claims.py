"""A seat on Matrix goes to another account only when that account sends the code its player
was given in his direct room: the opener cannot hand Bob's seat to Cat, Bob can."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from .accounts import Account
from .synapse import Homeserver
from .table import everything_received, texts_of
from .test_adapter_bad_input import duel, replies_to

CODE = re.compile(r"claim ([A-Z0-9]{8})\b")


async def test_the_opener_is_refused_and_the_account_with_the_code_takes_the_seat(
    synapse: Homeserver, new_account: Callable[[str], Account], tmp_path: Path
) -> None:
    async with duel(synapse, new_account, tmp_path) as game:
        say, ann, bob, cat = game.table.say, game.ann, game.bob, game.cat
        before = game.snapshot()

        handed = await say(ann, f"!bean move {bob.user_id} {cat.user_id}")
        assert await replies_to(ann, handed) == [
            "Only a seat's player may hand it on here: he says 'move NEW', and NEW claims it "
            "with the code he is given."
        ]
        assert game.session().seat_of(cat.user_id) is None

        mark = bob.checkpoint()
        asked = await say(bob, f"!bean move {cat.user_id}")
        assert await replies_to(bob, asked) == [
            f"I sent you a code privately: your seat goes to {cat.user_id} once {cat.user_id} "
            "sends it to me."
        ]
        direct = game.table.direct[bob.user_id]
        given = await bob.wait_for_message(
            lambda m: m.room_id == direct and CODE.search(m.body) is not None, after=mark
        )
        code = CODE.findall(given.body)[-1]

        wrong = await say(cat, "!bean claim AAAAAAAA")
        assert await replies_to(cat, wrong) == ["That is not the code; nothing changed."]
        assert game.snapshot() == before and game.session().seat_of(bob.user_id) == 1

        claimed = await say(cat, f"!bean claim {code}")
        await cat.sync()
        session = game.session()
        assert session.seat_of(cat.user_id) == 1 and session.seat_of(bob.user_id) is None
        assert await replies_to(cat, claimed) == []
        assert any(
            m.room_id == game.room and "s seat is now played by " in m.body for m in cat.messages()
        )
        stored = game.running.bot.service.store
        assert stored.active_games_of("matrix", cat.user_id) == [game.game_id]

        # The bot wrote the code to Bob alone: in the room only Cat's claim carries it.
        for person in (ann, cat):
            seen = await everything_received(person)
            from_bot = [e for e in seen if e.sender == game.running.user_id]
            assert not any(code in text for e in from_bot for text in texts_of(e))
