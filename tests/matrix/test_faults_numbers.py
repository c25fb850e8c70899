"""`bohnanza serve matrix` stopped with SIGTERM just after a person sends the number of a choice
in her list, and started again: each number is taken after the restart for the choice she read
(her list had not changed), none is refused, and `bohnanza audit` passes."""

from __future__ import annotations

import re
import signal
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from .accounts import Account
from .messages import current_messages
from .players import open_player
from .synapse import Homeserver
from .test_faults_kill import (
    SETTLE,
    TABLE_START,
    WELCOME_START,
    Serve,
    audit,
    bot_says,
    command,
    hand_message,
    person_actions,
    rebuilt,
    serve_environment,
    until,
)

ROUNDS = 4
FIRST_CHOICE = re.compile(r"^(\d+) · ", re.MULTILINE)
REFUSED = ("no longer", "changed since", " was for ", "is now “", "earlier list")


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="signals")
async def test_numbers_sent_just_before_a_sigterm_are_taken_after_the_restart(
    synapse: Homeserver, new_account: Callable[[str], Account], tmp_path: Path
) -> None:
    bot_account = new_account("beanbot")
    bot = bot_account.user_id
    env = serve_environment(synapse, bot_account, tmp_path)
    db = Path(env["BOHNANZA_DB"])
    serving = Serve(env, tmp_path / "serve-0.log")
    try:
        await serving.start()
        async with open_player(synapse, new_account("ann")) as ann:
            room = await ann.create_room(invite=[bot], name="Bean table")
            await ann.wait_for_member(room, bot, timeout=30.0)
            await bot_says(ann, room, bot, 0, WELCOME_START)
            await command(ann, room, bot, "!bean new")
            await command(ann, room, bot, "!bean bot")
            await command(ann, room, bot, "!bean set deadline off")
            await command(ann, room, bot, "!bean start", TABLE_START)
            invite = await ann.wait_for_invite(timeout=20.0)
            direct = invite.room_id
            await ann.join(direct)
            await bot_says(ann, direct, bot, 0, "Game ")
            with rebuilt(db, room) as (_, session):
                game_id = session.game_id

            answered = ""
            for round_ in range(1, ROUNDS + 1):

                def her_move(answered: str = answered) -> bool:
                    shown = hand_message(ann.messages(direct), bot, game_id)
                    return shown is not None and shown != answered and "▶ Your move." in shown

                assert await until(her_move, SETTLE, ann), serving.output
                answered = hand_message(ann.messages(direct), bot, game_id) or ""
                first = FIRST_CHOICE.search(answered)
                assert first is not None, answered
                before = len(person_actions(db, game_id, ann.user_id))
                mark = ann.checkpoint()

                # Her number, and the bot stopped at once.
                await ann.send_text(direct, first.group(1))
                serving.signal(signal.SIGTERM)
                assert await serving.wait() == 0, serving.output
                serving = await Serve(env, tmp_path / f"serve-{round_}.log").start()
                assert await until(lambda s=serving: "serving Matrix as" in s.output, SETTLE, ann)

                def taken(before: int = before) -> bool:
                    return len(person_actions(db, game_id, ann.user_id)) > before

                assert await until(taken, SETTLE, ann), serving.output
                told = [
                    m.body
                    for m in current_messages(ann.events[mark:])
                    if m.room_id == direct and m.sender == bot
                ]
                assert not [t for t in told if any(word in t for word in REFUSED)], told

            code, report = await audit(db)
            assert code == 0, report
        serving.signal(signal.SIGTERM)
        assert await serving.wait() == 0, serving.output
        assert "Traceback" not in serving.output, serving.output
    finally:
        await serving.close()
