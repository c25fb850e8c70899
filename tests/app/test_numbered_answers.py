"""A number names one choice: through the runner, with the capabilities of Matrix, IRC and the
terminal, a number means what its player saw. Another's move gives new choices new numbers and
leaves his alone, whatever he sends in between (help, stats, the table, a command in his other
game, help after a restart); a number of a choice gone is refused in one line saying what
happened, with his list; a choice whose effect changed is shown again; answers right after a
restart are taken; `²`, `①` and other scripts' digits are refused in one line."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from bohnanza.adapters.irc.port import CAPABILITIES as IRC
from bohnanza.adapters.matrix.port import CAPABILITIES as MATRIX
from bohnanza.adapters.terminal.port import CAPABILITIES as TERMINAL
from bohnanza.core.actions import AcceptTrade, EndStep
from bohnanza.core.app.ports import Capabilities
from bohnanza.core.app.session import GameSession
from bohnanza.core.state import Step

from .recording import People, Table, latest_choices, number_of

PLATFORMS = pytest.mark.parametrize(
    "caps", [MATRIX, IRC, TERMINAL], ids=["matrix", "irc", "terminal"]
)


def run(step: Coroutine[Any, Any, object]) -> None:
    asyncio.run(step)


def trading_game(tmp_path: Path, caps: Capabilities) -> tuple[Table, People, str]:
    """Ann on turn trades with Bob and Cat."""
    table = Table.open(tmp_path / "games.db", caps, seed=3)
    people = People(table, seed=3)
    game_id = asyncio.run(people.gather("g1", ["ann", "bob", "cat"]))
    run(people.say("ann", f"#{game_id} plant 1", private=True))
    run(people.say("ann", "done", private=True))
    assert table.session("g1").state.step is Step.TRADE
    for person in ("bob", "cat"):  # where lines cost, he asks for his list
        run(people.say(person, "hand", private=True))
    return table, people, game_id


def told(table: Table, user: str, since: tuple[int, int]) -> list[str]:
    """Every line said to the person since `since` (answers, and private texts: where lines
    cost, an answer heads the private message it comes with)."""
    answers, texts = since
    out = [a.text for a in table.port.answers[answers:] if a.inbound.user_id == user]
    for text in table.port.private_texts(user)[texts:]:
        out += text.replace(" // ", "\n").split("\n")
    return out


def mark(table: Table, user: str) -> tuple[int, int]:
    return len(table.port.answers), len(table.port.private_texts(user))


def accepted(table: Table, game_id: str) -> list[AcceptTrade]:
    actions = table.store.load_record(game_id).actions
    return [a for a in actions if isinstance(a, AcceptTrade)]


# --- another's move renumbers nothing he saw ---------------------------------------------


async def _help(table: Table, people: People, game_id: str) -> Table:
    await people.say("bob", "help", private=True)
    return table


async def _stats(table: Table, people: People, game_id: str) -> Table:
    await people.say("bob", "stats", private=True)
    return table


async def _table_in_the_group(table: Table, people: People, game_id: str) -> Table:
    await people.say("bob", "table", "g1")
    return table


async def _help_after_a_restart(table: Table, people: People, game_id: str) -> Table:
    restarted = table.restarted()
    await restarted.runner.start()
    await People(restarted).say("bob", "help", private=True)
    return restarted


UNRELATED: dict[str, Callable[[Table, People, str], Coroutine[Any, Any, Table]]] = {
    "help": _help,
    "stats": _stats,
    "table in the group": _table_in_the_group,
    "help after a restart": _help_after_a_restart,
}


@PLATFORMS
@pytest.mark.parametrize("between", list(UNRELATED))
def test_another_s_offer_leaves_the_numbers_he_saw_to_their_choices(
    tmp_path: Path, caps: Capabilities, between: str
) -> None:
    table, people, game_id = trading_game(tmp_path, caps)
    seen = latest_choices(table.port, "bob", game_id)
    no_trade = number_of(seen, "No trade")
    # Meanwhile Ann offers Bob a card: Accept and Decline come as new numbers.
    run(people.say("ann", "offer 2 1", private=True))
    now = latest_choices(table.port, "bob", game_id)
    assert now[no_trade] == "No trade"
    accept = number_of(now, "Accept #")
    assert accept not in seen
    # He sends something else first, which heals his views: no list is sent to him.
    table = asyncio.run(UNRELATED[between](table, people, game_id))

    run(People(table).answer("bob", no_trade))

    assert table.session("g1").seats[1].passed is not None
    assert accepted(table, game_id) == []


@PLATFORMS
def test_a_command_in_his_other_game_changes_nothing_his_numbers_name(
    tmp_path: Path, caps: Capabilities
) -> None:
    table, people, game_id = trading_game(tmp_path, caps)
    other = asyncio.run(people.gather("g2", ["dan", "bob", "bot"]))
    seen = latest_choices(table.port, "bob", game_id)
    no_trade = number_of(seen, "No trade")
    run(people.say("ann", "offer 2 1", private=True))
    run(people.say("bob", f"#{other} hand", private=True))

    run(people.answer("bob", no_trade))

    assert table.session("g1").seats[1].passed is not None
    assert accepted(table, game_id) == []


# --- a choice gone, or changed -------------------------------------------------------------


@PLATFORMS
def test_a_number_of_an_offer_withdrawn_is_refused_saying_so_with_the_list(
    tmp_path: Path, caps: Capabilities
) -> None:
    table, people, game_id = trading_game(tmp_path, caps)
    run(people.say("ann", "offer 2 1", private=True))
    run(people.say("ann", "offer 2 2", private=True))
    seen = latest_choices(table.port, "bob", game_id)
    accept_2 = number_of(seen, "Accept #2")
    # Ann takes both offers back and makes a new one: the list shrinks and grows again.
    run(people.say("ann", "withdraw 1", private=True))
    run(people.say("ann", "withdraw 2", private=True))
    run(people.say("ann", "offer 2 1", private=True))
    since = mark(table, "bob")
    actions = table.action_count(game_id)

    run(people.answer("bob", accept_2))

    assert table.action_count(game_id) == actions
    assert table.session("g1").seats[1].passed is None
    assert "Offer #2 was withdrawn." in told(table, "bob", since)
    now = latest_choices(table.port, "bob", game_id)
    assert table.port.private_texts("bob")[since[1] :], "his list as it stands comes with it"
    accept_3 = number_of(now, "Accept #3")
    assert accept_3 > max(seen), "a new choice takes a number never given in this decision"
    assert accept_2 not in now, "a number of a choice gone stays unused"

    run(people.answer("bob", accept_3))

    assert [a.offer for a in accepted(table, game_id)] == [3]


@PLATFORMS
def test_a_choice_whose_effect_changed_is_shown_again_not_applied(
    tmp_path: Path, caps: Capabilities
) -> None:
    table, people, game_id = trading_game(tmp_path, caps)
    seen = latest_choices(table.port, "ann", game_id)
    end = number_of(seen, "End trading")
    # Bob takes a face-up card Ann gives him: what ending the trading plants is not the same.
    run(people.say("ann", "offer 2 f1", private=True))
    run(people.say("bob", "accept 1", private=True))
    now = latest_choices(table.port, "ann", game_id)
    assert now[end].startswith("End trading") and now[end] != seen[end]
    since = mark(table, "ann")
    actions = table.action_count(game_id)

    run(people.answer("ann", end))

    assert table.action_count(game_id) == actions
    lines = told(table, "ann", since)
    assert f"Choice {end} is now “{now[end]}”: send {end} again to take it." in lines
    # Shown again, it is taken.
    run(people.answer("ann", end))
    record = table.store.load_record(game_id)
    assert isinstance(record.actions[actions], EndStep)


@PLATFORMS
def test_a_number_from_an_earlier_step_is_refused_saying_it_is_over(
    tmp_path: Path, caps: Capabilities
) -> None:
    table, people, game_id = trading_game(tmp_path, caps)
    seen = latest_choices(table.port, "bob", game_id)
    offer_to_ann = number_of(seen, "🤝 Offer to Ann")
    run(people.say("ann", "done", private=True))  # trading ends for everyone
    session = table.session("g1")
    assert session.state.step is not Step.TRADE or session.state.turn > 1
    since = mark(table, "bob")
    actions = table.action_count(game_id)

    run(people.answer("bob", offer_to_ann))

    assert table.action_count(game_id) == actions
    assert any(
        line.startswith(f"Choice {offer_to_ann} was for turn 1 · step 2: trading")
        for line in told(table, "bob", since)
    )


# --- a restart -----------------------------------------------------------------------------


class RestartingPeople(People):
    """People who answer with numbers only, the bot restarted just before each answer."""

    async def _answer_by_number(self, session: GameSession, seat: int, number: str) -> bool:
        self.table = self.table.restarted()
        await self.table.runner.start()
        fresh = self.table.session(session.room)
        return await super()._answer_by_number(fresh, seat, number)


@PLATFORMS
def test_answers_sent_just_before_a_restart_are_taken_after_it(
    tmp_path: Path, caps: Capabilities
) -> None:
    table = Table.open(tmp_path / "games.db", caps, seed=5)
    people = RestartingPeople(table, seed=5, numbers=1.0)
    asyncio.run(people.gather("g1", ["ann", "bob", "cat"]))
    while people.numbered < 16:
        assert asyncio.run(people.move("g1"))

    assert people.refusals == []


# --- digits that are not 0-9 ------------------------------------------------------------------


@PLATFORMS
@pytest.mark.parametrize("typed", ["²", "①", "٣", "1²", "plant \u0661"])
def test_a_digit_that_is_not_0_to_9_is_refused_in_one_line_and_logs_nothing(
    tmp_path: Path, caps: Capabilities, typed: str, caplog: pytest.LogCaptureFixture
) -> None:
    table, people, game_id = trading_game(tmp_path, caps)
    actions = table.action_count(game_id)
    since = mark(table, "bob")

    with caplog.at_level(logging.WARNING):
        run(people.answer("bob", typed))

    assert table.action_count(game_id) == actions
    assert table.session("g1").seats[1].passed is None
    assert told(table, "bob", since) == ["Write numbers with the digits 0 to 9."]
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
