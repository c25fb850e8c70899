"""A deadline is ASCII digits and a unit; anything else is answered in one short line, in the
chat and on the command line alike, and changes nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bohnanza.cli.app import build_app
from bohnanza.core.app.lobby import DEFAULT_TURN_SECONDS, LobbyError, parse_duration

from .recording import People, Table

WRITE_IT_LIKE = "Write a deadline like 90s, 10m, 2h or off."
OUT_OF_RANGE = "A deadline is between 30 seconds and 7 days, or off."

NOT_NUMBERS = [
    "²m",  # superscript two: str.isdigit() says yes, int() says no
    "٣m",  # Arabic-Indic three
    "\uff11\uff10m",  # fullwidth digits one, zero
    "\U0001d7d7\U0001d7ces",  # mathematical bold digits nine, zero
    "99999999999999999999m",
    "1e9s",
    "-5m",
    "+5m",
    "m",
    "",
]


@pytest.mark.parametrize("text", NOT_NUMBERS)
def test_the_parser_refuses_anything_but_ascii_digits_with_a_lobby_error(text: str) -> None:
    with pytest.raises(LobbyError) as caught:
        parse_duration(text)
    assert str(caught.value) == WRITE_IT_LIKE


@pytest.mark.parametrize("text", ["29s", "8d", "9999999h"])
def test_the_parser_refuses_absurd_durations(text: str) -> None:
    with pytest.raises(LobbyError, match="between 30 seconds and 7 days"):
        parse_duration(text)


@pytest.mark.parametrize(
    ("text", "seconds"), [("90", 90), ("90s", 90), ("10M", 600), (" 2h ", 7200), ("7d", 604800)]
)
def test_the_parser_still_reads_every_documented_form(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["²m", "٣m", "\uff11\uff10m", "99999999999999999999m"])
def test_a_strange_deadline_in_a_chat_gets_a_short_answer_and_changes_nothing(
    tmp_path: Path, text: str
) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    asyncio.run(people.say("ann", "new"))
    answers = len(table.port.answers)

    asyncio.run(people.say("ann", f"set deadline {text}"))

    assert [a.text for a in table.port.answers[answers:]] == [WRITE_IT_LIKE]
    assert table.service.lobbies["g1"].turn_seconds == DEFAULT_TURN_SECONDS
    assert table.store.list_games() == []


def test_a_lobby_refused_a_strange_deadline_still_takes_a_good_one(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    asyncio.run(people.say("ann", "new"))
    asyncio.run(people.say("ann", "set deadline ²m"))

    asyncio.run(people.say("ann", "set deadline 2m"))

    assert table.service.lobbies["g1"].turn_seconds == 120


@pytest.mark.parametrize(("text", "message"), [("²m", WRITE_IT_LIKE), ("8d", OUT_OF_RANGE)])
def test_play_refuses_a_strange_deadline_in_one_line_as_a_usage_error(
    tmp_path: Path, text: str, message: str
) -> None:
    db = tmp_path / "games.db"
    result = CliRunner().invoke(build_app(), ["play", "--deadline", text, "--db", str(db)])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: Invalid value for '--deadline': {message} (see 'bohnanza play --help')\n"
    )
    assert result.stdout == ""
    assert not db.exists()
