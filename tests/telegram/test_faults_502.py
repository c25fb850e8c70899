"""A Bot API call that fails with HTTP 502 (a proxy in front of Telegram, a bad moment at
Telegram): the edit of a player's private message is refused, and his message still ends up
showing the game as stored. Once refused, the runner tries again (after 1, 4 and 15 s by
default); refused every time, it gives up and the deadline loop derives the room's views again
a little later. In-process with short delays, and through the real `bohnanza serve telegram`
with the default ones.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bohnanza.core.notation import action_text

from .botapi import World
from .botapi.ptb import run
from .faults import (
    FaultyServer,
    Serve,
    ServedPlayers,
    bean_table,
    clean_stop,
    private_shown,
    rendered,
    timeless,
)
from .table import Players, RunningBot

pytestmark = pytest.mark.server  # the local Bot API server and `bohnanza serve`

SHORT_DELAYS = (0.05, 0.1, 0.2)


@pytest.mark.parametrize(
    ("refusals", "seed"), [(1, 51), (3, 52), (4, 53)], ids=["once", "thrice", "every-try"]
)
def test_a_502_on_a_private_edit_ends_with_the_hand_shown_as_stored(
    tmp_path: Path, refusals: int, seed: int
) -> None:
    world = World()
    server = FaultyServer(world)
    group, people = bean_table(world, ["Ann", "Bob"])

    async def scenario() -> None:
        async with server, RunningBot(server, tmp_path / "games.db", seed=seed) as tg:
            tg.bot.runner.outboxes.retry_delays = SHORT_DELAYS
            tg.bot.runner.heal_after = 0.5
            players = Players(tg, group, people, seed=seed)
            game_id = await players.gather(["Ann", "bot", "Bob"])
            await players.play(stop_after=3)
            session = players.session()
            assert session is not None
            decision = players.decide(session)
            assert decision is not None
            seat, action = decision
            person = players.person_at(session, seat)
            outage = server.flood.inject_error(
                502, count=refusals, method="editMessageText", chat_id=person.id
            )
            mark = len(world.calls)
            await players.send(session, seat, "pass" if action is None else action_text(action))
            assert outage.remaining == 0
            edits = [
                c for c in world.calls_since(mark, "editMessageText") if c.chat_id == person.id
            ]
            assert [c.status for c in edits[:refusals]] == [502] * refusals

            def current() -> bool:
                wanted = rendered(tg.store, str(group.id)).private[str(person.id)]
                return timeless(private_shown(person, game_id)) == wanted.timeless()

            if refusals <= len(SHORT_DELAYS):
                # A later try went through before the command was done with.
                assert edits[refusals].status == 200
                assert current()
            else:
                # Every try refused: behind for now, derived again by the deadline loop.
                assert not current()
                await world.wait_until(current, what="the private message healed")
                assert [c.status for c in world.calls_since(mark) if c.chat_id == person.id][
                    -1:
                ] == [200]
            await world.settle()
            assert current()
            # The game goes on.
            await players.play(stop_after=players.moves + 3)
            await world.settle()
            assert current()

    run(scenario())
    assert world.server_errors == []


def test_a_502_on_a_private_edit_is_retried_by_the_served_bot(tmp_path: Path) -> None:
    world = World()
    server = FaultyServer(world)
    group, people = bean_table(world, ["Ann", "Bob"])
    db = tmp_path / "games.db"

    async def scenario() -> None:
        served = Serve(server, db, tmp_path / "serve.log")
        players = ServedPlayers(server, db, group, people, seed=54)
        async with server:
            try:
                await served.start()
                game_id = await players.gather(["Ann", "bot", "Bob"])
                for _ in range(2):
                    assert await players.step()
                move = await players.upcoming(pressed=True)
                person = move.person
                assert move.message is not None and move.data is not None
                outage = server.flood.inject_error(502, method="editMessageText", chat_id=person.id)
                mark = len(world.calls)
                players.sent.append(move.action)
                answer = await person.press(move.message, move.data).wait_answer()
                assert answer.text == "✓"

                def current() -> bool:
                    wanted = rendered(players.store, str(group.id)).private[str(person.id)]
                    return timeless(private_shown(person, game_id)) == wanted.timeless()

                await world.wait_until(lambda: outage.remaining == 0, what="the 502")
                await world.wait_until(current, what="the private message current")
                edits = [
                    c for c in world.calls_since(mark, "editMessageText") if c.chat_id == person.id
                ]
                assert [c.status for c in edits] == [502, 200]
                assert edits[1].time - edits[0].time >= 0.9  # the first retry, after 1 s
                await players.settle()
                assert current()
                output = served.output
                assert "a ToPlayer failed (try 1 of 4): NetworkError" in output, output
                clean_stop(await served.stop(), served.output)
                assert world.pending == []
            finally:
                players.close()
                await served.close()

    run(scenario())
    assert world.server_errors == []
