"""What Telegram and its users throw at the bot: flood control, people who never opened a private
chat, updates delivered twice, presses on other people's and forged buttons, garbage, inline
queries. Each is answered where it should be, and none changes a game or shows a hand."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bohnanza.core.app.render import hand_text

from .botapi import BotApiServer, Chat, SimUser, StoredMessage, World
from .botapi.ptb import run
from .table import (
    HAND_LINE,
    Players,
    RunningBot,
    hand_leaks,
    latest_private,
    sent_buttons,
    unmarked,
    unthrottled,
)

pytestmark = pytest.mark.server  # the local Bot API server

LINK = "https://t.me/BohnanzaTestBot?start=hand"

STALE = "That button was from an earlier moment: here is the game as it stands now."


def table_of(people: list[SimUser], world: World) -> Chat:
    group = world.create_group("Bean table", people)
    world.add_bot(group, by=people[0])
    return group


@pytest.mark.slow
def test_a_429_storm_in_the_group_loses_no_message(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    ann, bob = world.create_user("Ann"), world.create_user("Bob")
    group = table_of([ann, bob], world)

    async def scenario() -> str:
        async with botapi:
            ann.start_bot()
            bob.start_bot()
            limiter = unthrottled(max_retries=5)
            async with RunningBot(botapi, tmp_path / "g.db", seed=21, rate_limiter=limiter) as tg:
                players = Players(tg, group, [ann, bob], seed=21)
                for method in ("sendMessage", "editMessageText"):
                    botapi.flood.inject_429(count=1, retry_after=1, method=method, chat_id=group.id)
                game_id = await players.gather(["Ann", "bot", "Bob"])
                await players.play(stop_after=25)
                botapi.flood.inject_429(
                    count=2, retry_after=1, method="editMessageText", chat_id=group.id
                )
                await players.play()
                await world.settle()
                return game_id

    game_id = run(scenario())

    refused = [c for c in world.calls if c.status == 429]
    assert len(refused) >= 4
    for call in refused:
        retried = [
            c
            for c in world.calls
            if c.time > call.time and c.method == call.method and c.params == call.params
        ]
        assert [c.status for c in retried][-1:] == [200], call
    assert [c for c in world.calls if c.status not in (200, 429)] == []
    tables = [m for m in group.bot_messages if (m.text or "").startswith("Bohnanza · game")]
    assert "game over" in (tables[-1].text or "")
    result = [m for m in group.bot_messages if m.document is None][-1]  # the page follows
    assert (result.text or "").startswith(f"Game {game_id} is over.")


def test_a_player_who_never_started_the_bot_is_told_once_how_and_then_gets_his_hand(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    ann, cat = world.create_user("Ann"), world.create_user("Cat")
    group = table_of([ann, cat], world)

    async def scenario() -> None:
        async with botapi:
            ann.start_bot()
            async with RunningBot(botapi, tmp_path / "g.db", seed=22) as tg:
                players = Players(tg, group, [ann, cat], seed=22)
                game_id = await players.gather(["Ann", "Cat", "bot"])
                await players.play(stop_after=12)
                notices = [m for m in group.bot_messages if LINK in (m.text or "")]
                assert len(notices) == 1
                assert (notices[0].text or "").startswith("Cat: I cannot write to you privately")
                assert cat.private_messages == []

                started = cat.start_bot("hand")
                await tg.handled_message(started)
                session = players.session()
                assert session is not None
                seat = session.seat_of(str(cat.id))
                assert seat is not None
                mine = hand_text(tg.bot.service.translator("en"), session.view(seat), session.names)
                # ...his private message, with its buttons.
                latest = cat.private_messages[-1]
                assert mine in unmarked(latest.text) and latest.inline_keyboard
                assert HAND_LINE in mine

                await players.play(stop_after=40)
                assert latest_private(cat, game_id) is not None
                assert len([m for m in group.bot_messages if LINK in (m.text or "")]) == 1

    run(scenario())
    assert hand_leaks(world, group, [ann, cat]) == []


def test_an_update_delivered_twice_is_applied_once(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    ann, bob = world.create_user("Ann"), world.create_user("Bob")
    group = table_of([ann, bob], world)

    async def scenario() -> None:
        async with botapi:
            ann.start_bot()
            bob.start_bot()
            async with RunningBot(botapi, tmp_path / "g.db", seed=23) as tg:
                players = Players(tg, group, [ann, bob], seed=23)
                game_id = await players.gather(["Ann", "Bob"])
                for kind in ("message", "callback_query"):
                    while not (world.updates[-1].get(kind) and tg.handled):
                        await players.move()
                    update = world.updates[-1]
                    body = update[kind]
                    key = (
                        f"m:{body['chat']['id']}:{body['message_id']}"
                        if kind == "message"
                        else f"cb:{body['id']}"
                    )
                    count = tg.action_count(game_id)
                    world.redeliver()
                    await world.wait_until(lambda k=key: tg.handled[k] == 2, what="redelivery")
                    await world.settle()
                    assert tg.action_count(game_id) == count

    run(scenario())


def forged_presses(game_id: str, token: str, stale: str) -> list[str | None]:
    rng = random.Random(5)
    noise = "".join(rng.choice("abcdefghij0123456789 ") for _ in range(40))
    return [
        noise,
        "g " + game_id + " " + token + " plant 1" + " x" * 200,
        f"g QQQQQQ {token} plant 1",
        stale,
        "g",
        "h",
        "l",
        "l nonsense",
        None,
    ]


def test_presses_on_others_buttons_and_forged_data_are_answered_and_change_nothing(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    ann, bob, dan = world.create_user("Ann"), world.create_user("Bob"), world.create_user("Dan")
    group = table_of([ann, bob, dan], world)

    async def scenario() -> None:
        async with botapi:
            for person in (ann, bob, dan):
                person.start_bot()
            async with RunningBot(botapi, tmp_path / "g.db", seed=24) as tg:
                players = Players(tg, group, [ann, bob], seed=24)
                game_id = await players.gather(["Ann", "bot", "Bob"])
                first: StoredMessage | None = None
                while first is None:
                    await players.move()
                    first = latest_private(ann, game_id)
                stale = str(first.inline_keyboard[0][0]["callback_data"])
                await players.play(stop_after=30)
                session = players.session()
                assert session is not None
                seat = session.seat_of(str(ann.id))
                assert seat is not None
                token = session.token(seat)
                count = tg.action_count(game_id)
                group_seen = len(group.history)

                mine = latest_private(ann, game_id)
                assert mine is not None
                theirs = str(mine.inline_keyboard[0][0]["callback_data"])
                table = next(m for m in reversed(group.bot_messages) if m.inline_keyboard)
                presses = [
                    (bob, mine, theirs),  # Bob presses Ann's button
                    (dan, table, f"h {game_id}"),  # a bystander asks for a hand
                    (dan, mine, theirs),
                    (dan, group.bot_messages[0], "l join"),
                ]
                presses += [(ann, mine, data) for data in forged_presses(game_id, token, stale)]
                for person, message, data in presses:
                    answer = await person.press_data(message, data).wait_answer()
                    assert answer.text is None or len(answer.text) <= 200, answer
                    assert HAND_LINE not in (answer.text or ""), (person, data)
                await world.settle()
                assert tg.action_count(game_id) == count
                assert len(group.history) == group_seen
                answers = {q.answer.text for q in world.callback_queries.values() if q.answer}
                assert "You are not playing in this game." in answers
                assert STALE in answers
                assert "This button belongs to a game that is over." in answers
                assert "This button is not one of mine." in answers

    run(scenario())
    assert all(len(str(b["callback_data"]).encode()) <= 64 for b in sent_buttons(world))


def test_garbage_and_commands_for_another_bot_change_nothing(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    ann, bob = world.create_user("Ann"), world.create_user("Bob")
    group = world.create_group("Bean table", [ann, bob])
    world.add_bot(group, by=ann, admin=True)  # an admin bot reads every message

    async def scenario() -> None:
        async with botapi:
            ann.start_bot()
            bob.start_bot()
            async with RunningBot(botapi, tmp_path / "g.db", seed=25) as tg:
                players = Players(tg, group, [ann, bob], seed=25)
                game_id = await players.gather(["Ann", "bot", "Bob"])
                await players.play(stop_after=10)
                count = tg.action_count(game_id)
                seen = len(group.bot_messages)
                for text in ("/table@OtherBot", "/plant@OtherBot 1", "hello, beans", "plant 1"):
                    bob.say(group, text)
                await world.settle()
                assert len(group.bot_messages) == seen
                await players.say(bob, "/plant 99", group)
                await players.say(bob, "/offer 9 9 9 for nothing", group)
                await players.say(ann, "what is this " * 60)
                await players.say(ann, "ßüñ ✓ 🫘")
                ann.say(None, "/")
                await world.settle()
                assert tg.action_count(game_id) == count
                replies = group.bot_messages[seen:]
                assert [m.reply_to.text if m.reply_to else None for m in replies] == [
                    "/plant 99",
                    "/offer 9 9 9 for nothing",
                ]
                assert ann.private_messages[-1].text == "Unknown command. Send 'help' for the list."

    run(scenario())
    assert hand_leaks(world, group, [ann, bob]) == []


def test_an_inline_query_shows_the_asker_his_own_hand_only(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    ann, bob, dan = world.create_user("Ann"), world.create_user("Bob"), world.create_user("Dan")
    group = table_of([ann, bob], world)

    async def scenario() -> None:
        async with botapi:
            ann.start_bot()
            bob.start_bot()
            async with RunningBot(botapi, tmp_path / "g.db", seed=26) as tg:
                players = Players(tg, group, [ann, bob], seed=26)
                game_id = await players.gather(["Ann", "bot", "Bob"])
                await players.play(stop_after=10)
                session = players.session()
                assert session is not None
                tr = tg.bot.service.translator("en")
                lengths = []
                for person in (ann, bob):
                    answer = await person.inline_query("")
                    assert answer.is_personal and answer.cache_time == 0
                    assert not answer.from_cache
                    seat = session.seat_of(str(person.id))
                    assert seat is not None
                    hand = hand_text(tr, session.view(seat), session.names).split("\n")[0]
                    (result,) = answer.results
                    assert game_id in result["title"]
                    assert result["description"] == hand
                    lengths.append(len(hand))
                assert max(lengths) > 100  # a long hand is shown whole, not cut short
                assert (await dan.inline_query("")).results == []

    run(scenario())
    assert hand_leaks(world, group, [ann, bob]) == []
