"""Learning mode: the lobby's hints setting and the expert's hint for one seat's decision."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bohnanza.core.app.hints import (
    HINTS_OPTION,
    check_hints_allowed,
    hint,
    hints_line,
    hints_on,
    seen_by,
)
from bohnanza.core.app.i18n import English
from bohnanza.core.app.lobby import Lobby, LobbyError
from bohnanza.core.bots.driver import make_bot
from bohnanza.core.game import Game
from bohnanza.core.legal import is_listed
from bohnanza.core.notation import action_text
from bohnanza.core.record import GameRecord, SeatRecord

from .platform_people import TelegramPeople, platform_table
from .recording import People, Table

tr = English()


def lobby() -> Lobby:
    return Lobby(room="room", platform="test", creator="ann")


def test_a_lobby_is_without_hints_until_the_room_sets_them_on() -> None:
    gathering = lobby()
    assert not gathering.hints and gathering.recorded_options() == {}
    gathering.set_option("hints", "on")
    assert gathering.recorded_options() == {HINTS_OPTION: "on"}
    assert hints_on(gathering.recorded_options())
    gathering.set_option("hints", "off")
    assert gathering.recorded_options() == {}


def test_hints_take_only_on_or_off() -> None:
    gathering = lobby()
    with pytest.raises(LobbyError, match="Hints are on or off"):
        gathering.set_option("hints", "maybe")
    assert not gathering.hints


def test_a_hint_is_refused_in_a_game_whose_room_did_not_choose_hints() -> None:
    with pytest.raises(LobbyError, match="without hints"):
        check_hints_allowed({"language": "en"})
    with pytest.raises(LobbyError):
        check_hints_allowed({HINTS_OPTION: "off"})
    check_hints_allowed({HINTS_OPTION: "on"})


def test_the_lobby_line_says_whether_hints_are_on() -> None:
    assert "not rated" in hints_line(tr, True)
    assert "set hints on" in hints_line(tr, False)


def a_game_under_way(actions: int) -> Game:
    game = Game.new(3, random.Random(11))
    bots = [make_bot("heuristic", random.Random(i)) for i in range(3)]
    for _ in range(actions):
        seat = game.waiting_for()[0]
        action = bots[seat].choose(game.view(seat), game.legal_actions(seat))
        assert action is not None
        game.apply(action)
    return game


def test_a_hint_suggests_a_legal_option_with_a_one_line_reason() -> None:
    game = a_game_under_way(25)
    seat = game.waiting_for()[0]
    view, legal = game.view(seat), game.legal_actions(seat)
    record = GameRecord.of(game, tuple(SeatRecord(f"p{i}") for i in range(3)))
    given = hint(view, legal, tr, seed=3, seen=seen_by(record, seat))
    assert given.suggestion is not None and is_listed(legal, given.suggestion)
    assert "\n" not in given.reason
    assert given.reason.startswith(action_text(given.suggestion) + ": ")
    assert hint(view, legal, tr, seed=3, seen=seen_by(record, seat)) == given


def test_no_hint_is_given_for_another_seat_or_to_a_spectator() -> None:
    game = a_game_under_way(25)
    waiting = game.waiting_for()[0]
    other = (waiting + 1) % 3
    legal = game.legal_actions(waiting)
    for view in (game.view(None), game.view(other)):
        with pytest.raises(LobbyError, match="no decision"):
            hint(view, legal, tr, seed=3)


def test_in_a_chat_a_player_asks_for_a_hint_privately_only_where_the_room_chose_hints(
    tmp_path: Path,
) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table, seed=4)
    game_id = asyncio.run(
        people.gather("g1", ["ann", "bot", "bob"], options=("set deadline off", "set hints on"))
    )
    assert any("Hints: on" in text for text in table.port.room_texts("g1"))
    assert hints_on(table.store.load_record(game_id).options)
    session = table.session("g1")
    seat = session.pending()[0]
    user = session.seats[seat].identity.user_id
    before = len(session.game.actions)
    asyncio.run(people.say(user, "hint", private=True))
    answer = table.port.last_answer(user)
    assert answer.startswith(f"Game {game_id}, hint: "), answer
    assert len(table.session("g1").game.actions) == before  # a hint plays nothing
    # Asked in the room: the hint goes to him privately, the room sees only that it was sent.
    asyncio.run(people.say(user, "hint", "g1"))
    assert table.port.last_answer(user) == "I sent you a hint privately."
    assert table.port.private_texts(user)[-1].startswith(f"Game {game_id}, hint: ")

    plain = Table.open(tmp_path / "plain.db")
    others = People(plain, seed=4)
    asyncio.run(others.gather("g2", ["cid", "dan"]))
    waiting = plain.session("g2").pending()[0]
    asker = plain.session("g2").seats[waiting].identity.user_id
    asyncio.run(others.say(asker, "hint", private=True))
    assert "without hints" in plain.port.last_answer(asker)


@pytest.mark.slow
def test_every_seat_that_asks_gets_a_hint_or_is_told_it_has_nothing_to_decide(
    tmp_path: Path,
) -> None:
    """Asked at every moment by every seat of a game of three on Telegram (the bystander in
    trading, the seat that may only harvest, the one that waits for step 3 to end): the hint,
    or "no decision to take now", never a failure."""
    table = platform_table(tmp_path / "games.db", "telegram")
    people = TelegramPeople(table, seed=5)
    users = ["1001", "1002", "1003"]
    game_id = asyncio.run(
        people.gather("-100", users, options=("set deadline off", "set hints on"))
    )
    answers: list[str] = []

    async def ask_and_play() -> None:
        for _ in range(25):
            for user in users:
                await people.say(user, "hint", private=True)
                answers.append(table.port.last_answer(user))
            if not await people.move("-100"):
                break

    asyncio.run(ask_and_play())
    hinted = [a for a in answers if a.startswith(f"Game {game_id}, hint: ")]
    nothing = [a for a in answers if a == "You have no decision to take now."]
    assert len(hinted) + len(nothing) == len(answers) == 75, set(answers) - set(hinted)
    assert hinted and nothing
    assert f"Game {game_id}, hint: pass: the one sensible option here." in hinted
