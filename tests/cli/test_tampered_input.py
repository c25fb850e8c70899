"""Hostile input on the command line: stored names that look like markup or carry terminal
escapes, database URLs of unsupported kinds, and errors no command expected to see."""

from __future__ import annotations

import errno
import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from bohnanza.adapters.store import open_store
from bohnanza.cli import replay as replay_command
from bohnanza.cli.app import build_app
from bohnanza.cli.narrate import json_printable, printable

runner = CliRunner()

HOSTILE_NAMES = ("[/x]", "[bold red]x", "ev\x1b[31mil\u202egnp.exe")
SHOWN_NAMES = ("[/x]", "[bold red]x", "ev\\x1b[31mil\\u202egnp.exe")


def run(*args: str) -> Result:
    return runner.invoke(build_app(), list(args))


def assert_no_traceback(result: Result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


def assert_nothing_hidden(text: str) -> None:
    assert "\x1b" not in text and "\u202e" not in text


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("store") / "games.db"
    result = run("simulate", "--players", "3", "--games", "1", "--seed", "3", "--db", str(db))
    assert result.exit_code == 0, result.output
    return db


@pytest.fixture
def hostile(simulated: Path, tmp_path: Path) -> tuple[Path, str]:
    """A store whose one game's seats were renamed, as a chat platform's names or an import
    could; the seats' names count as altered, so the game is told with --trust."""
    db = tmp_path / "games.db"
    shutil.copy(simulated, db)
    with open_store(str(db)) as store:
        (game,) = [g.game_id for g in store.list_games()]
    with closing(sqlite3.connect(db)) as connection, connection:
        for position, name in enumerate(HOSTILE_NAMES):
            connection.execute(
                "UPDATE seats SET name = ? WHERE game_id = ? AND position = ?",
                (name, game, position),
            )
    return db, game


# --- names ----------------------------------------------------------------------------------


def test_the_listing_shows_names_as_they_are_never_as_markup_or_escapes(
    hostile: tuple[Path, str],
) -> None:
    db, game = hostile
    result = run("replay", str(db))
    assert_no_traceback(result)
    assert result.exit_code == 0
    (row,) = [line for line in result.stdout.splitlines() if game in line and "finished" in line]
    assert ", ".join(SHOWN_NAMES) in row and "finished, altered" in row
    assert_nothing_hidden(result.stdout)


def test_the_narration_shows_names_as_they_are(hostile: tuple[Path, str]) -> None:
    db, game = hostile
    result = run("replay", str(db), "--game", game, "--trust", "--at", "30")
    assert_no_traceback(result)
    assert result.exit_code == 0
    for shown in SHOWN_NAMES:
        assert f"{shown}: [" in result.stdout  # the table after 30 actions, one seat a line
    assert "— turn 1: [/x] —" in result.stdout
    assert_nothing_hidden(result.stdout)


def test_the_machine_readable_forms_escape_hidden_characters_and_keep_the_names(
    hostile: tuple[Path, str],
) -> None:
    db, game = hostile
    listed = run("replay", str(db), "--json")
    told = run("replay", str(db), "--game", game, "--trust", "--json", "--at", "3")
    for result in (listed, told):
        assert result.exit_code == 0
        assert_nothing_hidden(result.stdout)
    assert json.loads(listed.stdout)[0]["players"] == list(HOSTILE_NAMES)
    assert [s["name"] for s in json.loads(told.stdout)["seats"]] == list(HOSTILE_NAMES)


def test_an_error_naming_the_players_escapes_them(hostile: tuple[Path, str]) -> None:
    db, game = hostile
    result = run("replay", str(db), "--game", game, "--trust", "--as", "nobody")
    assert result.exit_code == 2
    assert SHOWN_NAMES[2] in result.stderr
    assert_nothing_hidden(result.stderr)


def test_printable_escapes_controls_and_direction_changes_but_keeps_joined_scripts() -> None:
    assert printable("a\x1bb\u202ec\u2066d\x85e\u2028") == "a\\x1bb\\u202ec\\u2066d\\x85e\\u2028"
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # with a non-joiner
    assert printable(f"Мария 👩\u200d🌾 {persian}") == f"Мария 👩\u200d🌾 {persian}"
    assert printable("tag\U000e0041") == "tag\\U000e0041"


def test_json_printable_keeps_the_same_json_value() -> None:
    value = {"name": "x\x7f\u202e\U000e0041y", "n": [1, 2]}
    text = json_printable(json.dumps(value, ensure_ascii=False, indent=1))
    assert json.loads(text) == value
    assert text.isascii()


# --- database URLs --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "mysql://u@127.0.0.1/db",
        "mysql+pymysql://u:secret@127.0.0.1/db",
        "postgresql+asyncpg://u@127.0.0.1/db",
        "oracle://u@127.0.0.1/db",
        "mongodb://localhost/beans",
    ],
)
def test_an_unsupported_kind_of_database_is_one_line_naming_the_supported_ones(url: str) -> None:
    for command in (["replay", url], ["audit", url], ["db", "upgrade", url]):
        result = run(*command)
        assert_no_traceback(result)
        assert result.exit_code == 1
        (line,) = result.stderr.strip().splitlines()
        assert "not a database path or a supported database URL" in line
        assert "a SQLite path, a sqlite:/// URL or a postgresql:// URL" in line
        assert "secret" not in line


# --- the safety net -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (
            OSError(errno.EIO, "Input/output error", "games.db"),
            "error: games.db: Input/output error",
        ),
        (ValueError("Invalid isoformat string: 'x'\nmore detail"), "error: Invalid isoformat"),
        (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), "error: 'utf-8'"),
    ],
    ids=["file", "value", "decoding"],
)
def test_an_expected_error_no_command_handled_is_one_line(
    simulated: Path, monkeypatch: pytest.MonkeyPatch, error: Exception, line: str
) -> None:
    def broken(*_: object) -> None:
        raise error

    monkeypatch.setattr(replay_command, "show_list", broken)
    result = run("replay", str(simulated))
    assert_no_traceback(result)
    assert result.exit_code == 1
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith(line)


def test_a_bug_keeps_its_traceback(simulated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(replay_command, "show_list", broken)
    result = run("replay", str(simulated))
    assert isinstance(result.exception, ZeroDivisionError)
