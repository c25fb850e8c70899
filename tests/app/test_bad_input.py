"""Every kind of bad input gets a short answer and changes nothing that is stored."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bohnanza.core.app.inbound import Inbound

from .recording import PLATFORM, People, Table


@pytest.fixture
def table(tmp_path: Path) -> Table:
    """Ann (on turn), Bob and a bot playing in room g1."""
    table = Table.open(tmp_path / "games.db")
    asyncio.run(People(table).gather("g1", ["ann", "bob", "bot"]))
    return table


@pytest.fixture
def people(table: Table) -> People:
    return People(table, seed=11)


def game_id(table: Table) -> str:
    return table.session("g1").game_id


def payload(table: Table, user: str, command: str) -> str:
    shown = table.port.hand_message(user, game_id(table))
    assert shown is not None
    return next(p for p in shown.payloads if p.endswith(" " + command))


def assert_refused(table: Table, user: str, answer: str, say: object) -> None:
    """Sending it got exactly `answer` back, and the game's stored actions stayed as they were."""
    before = table.action_count(game_id(table))
    answers = len(table.port.answers)
    asyncio.run(say)  # type: ignore[arg-type]
    assert [a.text for a in table.port.answers[answers:]] == [answer]
    assert table.port.answers[-1].inbound.user_id == user
    assert table.action_count(game_id(table)) == before


UNKNOWN = "Unknown command. Send 'help' for the list."
NOT_UNDERSTOOD = "I did not understand that. Send 'help' for the commands."
OPTIONS = (
    "Options: lang (en/it/ru/de), deadline (e.g. 90s, 10m, 2h, off), trade-window (e.g. 2m), "
    "hints (on/off)."
)
STALE_BUTTON = "That button was from an earlier moment: here is the game as it stands now."


@pytest.mark.slow
@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("blah blah", UNKNOWN),
        ("dance 3", UNKNOWN),
        ("plant 1" + " 1" * 300, "That is too long to be a command."),
        ("plant x", NOT_UNDERSTOOD),
        ("plant 0", NOT_UNDERSTOOD),
        ("offer", NOT_UNDERSTOOD),
        ("offer 2 1 for caviar", NOT_UNDERSTOOD),
        ("plant 9", "You have no such field."),
        ("harvest 1", "That field is empty."),
        ("accept 4", "Trading happens only in step 2."),
        ("#", "Write the command after the game's id."),
    ],
)
def test_garbage_and_malformed_text_is_answered_and_changes_nothing(
    table: Table, people: People, text: str, answer: str
) -> None:
    assert_refused(table, "ann", answer, people.say("ann", text))


def test_acting_out_of_turn_is_refused(table: Table, people: People) -> None:
    assert_refused(table, "bob", "It is not your turn.", people.say("bob", "plant 1"))


def test_the_sender_decides_the_seat_whatever_the_text_says(table: Table, people: People) -> None:
    """There is no way to name another seat: Bob's 'plant 1' is Bob's, also by the game's id."""
    command = f"#{game_id(table)} plant 1"
    assert_refused(table, "bob", "It is not your turn.", people.say("bob", command, private=True))
    assert_refused(
        table, "eve", "You are not playing in this game.", people.say("eve", "plant 1", "g1")
    )


def test_pressing_another_players_button_is_refused(table: Table, people: People) -> None:
    anns = payload(table, "ann", "plant 1")
    assert_refused(table, "bob", STALE_BUTTON, people.press("bob", anns))
    assert_refused(table, "eve", "You are not playing in this game.", people.press("eve", anns))


def test_a_button_from_an_earlier_moment_is_refused(table: Table, people: People) -> None:
    second_field = payload(table, "ann", "plant 2")
    asyncio.run(people.say("ann", "plant 1"))

    assert_refused(table, "ann", STALE_BUTTON, people.press("ann", second_field))


@pytest.mark.parametrize(
    ("forged", "answer"),
    [
        ("g {game}", "This button is not one of mine."),
        ("x {game} {token} plant 1", "This button is not one of mine."),
        ("g {game} {token} harvest 7", "You have no such field."),
        ("g {game} {token} drop table", NOT_UNDERSTOOD),
        ("g {game} 000000 plant 1", STALE_BUTTON),
        ("g NOSUCH {token} plant 1", "This button belongs to a game that is over."),
        ("l dance", "This button is not one of mine."),
    ],
)
def test_a_forged_payload_is_refused(
    table: Table, people: People, forged: str, answer: str
) -> None:
    token = payload(table, "ann", "plant 1").split()[2]
    text = forged.format(game=game_id(table), token=token)
    assert_refused(table, "ann", answer, people.press("ann", text))


def test_a_button_of_a_game_that_has_ended_is_refused(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)

    async def play() -> str:
        game = await people.gather("g1", ["ann", "bot"])
        await people.play(["g1"])
        return game

    game = asyncio.run(play())
    last = table.port.hand_message("ann", game)
    assert last is not None
    stored = table.action_count(game)

    asyncio.run(people.press("ann", f"g {game} abcdef plant 1"))
    asyncio.run(people.press("ann", f"h {game}"))

    assert table.port.answers_to("ann")[-2:] == ["This button belongs to a game that is over."] * 2
    assert table.action_count(game) == stored


def test_a_delivery_seen_twice_is_applied_once(table: Table) -> None:
    inbound = Inbound(PLATFORM, "ann", "Ann", "g1", "plant 1", "update-42")
    before = table.action_count(game_id(table))

    asyncio.run(table.runner.submit(inbound))
    answers = len(table.port.answers)
    asyncio.run(table.runner.submit(inbound))

    assert table.action_count(game_id(table)) == before + 1
    assert len(table.port.answers) == answers


def test_a_command_to_a_game_reads_the_store_once_before_it_acts(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[str] = []
    store = table.store
    for name in ("delivery_seen", "game_progress", "delivery_seen_and_since", "game_since"):
        method = getattr(store, name)
        monkeypatch.setattr(
            store, name, lambda *args, _m=method, _n=name: reads.append(_n) or _m(*args)
        )
    before = table.action_count(game_id(table))

    asyncio.run(table.runner.submit(Inbound(PLATFORM, "ann", "Ann", "g1", "plant 1", "u-1")))
    assert reads == ["delivery_seen_and_since"]
    assert table.action_count(game_id(table)) == before + 1

    reads.clear()
    asyncio.run(table.runner.submit(Inbound(PLATFORM, "ann", "Ann", "g1", "plant 1", "u-1")))
    assert reads == ["delivery_seen_and_since"]  # seen: nothing more is read or done
    assert table.action_count(game_id(table)) == before + 1


def test_commands_in_the_wrong_room_are_refused(table: Table, people: People) -> None:
    here = "You are not playing in a game here."
    assert_refused(table, "ann", here, people.say("ann", "plant 1", "g2"))
    assert_refused(table, "ann", here, people.say("ann", "#ZZZZZZ plant 1", "g1"))
    opened = "Games are opened and joined in a group."
    assert_refused(table, "ann", opened, people.say("ann", "join", private=True))
    busy = "A game is already being played here."
    assert_refused(table, "bob", busy, people.say("bob", "new", "g1"))


def test_pass_outside_trading_is_refused(table: Table, people: People) -> None:
    answer = "There is no trading to pass on now."
    assert_refused(table, "bob", answer, people.say("bob", "pass"))


# --- the lobby -----------------------------------------------------------------------------


@pytest.fixture
def lobby_table(tmp_path: Path) -> Table:
    return Table.open(tmp_path / "games.db")


def assert_lobby_refused(table: Table, people: People, user: str, text: str, answer: str) -> None:
    lobby = table.service.lobbies.get("g1")
    seats = list(lobby.seats) if lobby else None
    options = (lobby.language, lobby.turn_seconds) if lobby else None
    answers = len(table.port.answers)

    asyncio.run(people.say(user, text))

    assert [a.text for a in table.port.answers[answers:]] == [answer]
    lobby = table.service.lobbies.get("g1")
    assert (list(lobby.seats) if lobby else None) == seats
    assert ((lobby.language, lobby.turn_seconds) if lobby else None) == options
    assert table.store.list_games() == []


@pytest.mark.parametrize(
    ("user", "text", "answer"),
    [
        ("bob", "start", "Only the player who opened the game can start it."),
        ("ann", "start", "A game needs 2 to 7 players."),
        ("ann", "join", "You have already joined."),
        ("bob", "new", "A game is already being gathered here: send 'join'."),
        ("bob", "set lang it", "Only the player who opened the game can change it."),
        ("bob", "cancel", "Only the player who opened the game can change it."),
        ("ann", "set lang xx", "Languages: en, it, ru, de."),
        ("ann", "set deadline 5s", "A deadline is between 30 seconds and 7 days, or off."),
        ("ann", "set deadline soon", "Write a deadline like 90s, 10m, 2h or off."),
        (
            "ann",
            "set colour red",
            OPTIONS,
        ),
        ("ann", "set lang", "Write: set lang it, or set deadline 10m."),
        ("ann", "bot cheater", "Unknown bot strategy; choose one of: random, heuristic, expert."),
        ("ann", "bot remove", "There is no bot to remove."),
        ("bob", "bot", "Join the game first."),
        ("bob", "leave", "You have not joined this game."),
    ],
)
def test_lobby_misuse_is_answered_and_changes_nothing(
    lobby_table: Table, user: str, text: str, answer: str
) -> None:
    people = People(lobby_table)
    asyncio.run(people.say("ann", "new"))

    assert_lobby_refused(lobby_table, people, user, text, answer)


def test_no_eighth_player_joins_and_no_eighth_bot_sits_down(lobby_table: Table) -> None:
    people = People(lobby_table)

    async def full_table() -> None:
        await people.say("ann", "new")
        for user in ("bob", "cat", "dan", "eve", "fay"):
            await people.say(user, "join")
        await people.say("ann", "bot")

    asyncio.run(full_table())
    full = "The table is full (7 players)."
    assert_lobby_refused(lobby_table, people, "gus", "join", full)
    assert_lobby_refused(lobby_table, people, "ann", "bot", full)


def test_nothing_can_be_done_in_a_room_without_a_lobby(lobby_table: Table) -> None:
    people = People(lobby_table)
    nothing = "No game is being gathered here: send 'new' to open one."
    for text in ("join", "start", "bot", "leave"):
        assert_lobby_refused(lobby_table, people, "ann", text, nothing)
