"""Hostile record files through `bohnanza import` and `bohnanza replay`: each is refused in one
line on stderr, exit 1, and the store is left as it was."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bohnanza.adapters.store import open_store
from bohnanza.cli.app import build_app
from bohnanza.cli.records import MAX_RECORD_BYTES

GAME = "sim-p2-heuristic-3000009"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(build_app(), list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def assert_refused(code: int, out: str, err: str, text: str) -> None:
    assert code == 1
    assert "Traceback" not in out + err
    assert len(err.splitlines()) == 1, err
    assert err.startswith("error: ") and text in err, err


@pytest.fixture(scope="module")
def record_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A real record: a bean duel between bots."""
    folder = tmp_path_factory.mktemp("records")
    code, out, err = run(
        "simulate", "--players", "2", "--games", "1", "--seed", "3", "--out", str(folder)
    )
    assert code == 0, out + err
    return (folder / f"{GAME}.json").read_text()


@pytest.fixture
def data(record_text: str) -> dict[str, Any]:
    parsed: dict[str, Any] = json.loads(record_text)
    return parsed


@pytest.fixture
def store(tmp_path: Path, record_text: str) -> Path:
    """A store holding the duel under another id."""
    source = tmp_path / "first.json"
    source.write_text(record_text.replace(GAME, "first", 1))
    db = tmp_path / "games.db"
    assert run("import", str(source), "--db", str(db))[0] == 0
    return db


def games(db: Path) -> list[tuple[str, int]]:
    with open_store(str(db)) as opened:
        return [(g.game_id, g.actions) for g in opened.list_games()]


def import_and_replay(tmp_path: Path, db: Path, content: str | bytes, message: str) -> None:
    """Both commands refuse the file in one line; the store keeps exactly its games."""
    path = tmp_path / "hostile.json"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    before = games(db), db.read_bytes()
    assert_refused(*run("import", str(path), "--db", str(db)), message)
    assert (games(db), db.read_bytes()) == before
    assert_refused(*run("replay", str(path)), message)


def with_digits(text: str, digits: str) -> str:
    """The record's text with its seed written as `digits`."""
    return text.replace('"seed": 3000009', f'"seed": {digits}', 1)


@pytest.mark.parametrize("digits", ["9" * 5000, "-" + "9" * 5000, "1" * 20])
def test_a_number_with_thousands_of_digits_is_refused(
    tmp_path: Path, store: Path, record_text: str, digits: str
) -> None:
    content = with_digits(record_text, digits)
    import_and_replay(tmp_path, store, content, "a number has more than 19 digits")


def test_a_huge_card_id_deep_in_the_record_is_refused(
    tmp_path: Path, store: Path, data: dict[str, Any]
) -> None:
    data["reshuffles"] = [[123456789]]
    content = json.dumps(data).replace("123456789", "8" * 5000)
    import_and_replay(tmp_path, store, content, "a number has more than 19 digits")


def test_a_lone_surrogate_in_a_seat_name_is_refused_as_invalid_unicode(
    tmp_path: Path, store: Path, data: dict[str, Any]
) -> None:
    data["seats"][0]["name"] = "\ud800x"
    content = json.dumps(data)
    import_and_replay(
        tmp_path, store, content, "not valid Unicode: a string holds a lone surrogate"
    )


@pytest.mark.parametrize(
    ("name", "code"),
    [("Eve\u202egnp.exe", "U+202E"), ("Bob\nerror: forged", "U+000A"), ("\x1b[2J", "U+001B")],
)
def test_a_seat_name_with_hidden_characters_is_refused_naming_the_field(
    tmp_path: Path, store: Path, data: dict[str, Any], name: str, code: str
) -> None:
    data["seats"][1]["name"] = name
    content = json.dumps(data, ensure_ascii=False)
    message = f"seat 1 'name' holds the control character {code}; refused"
    import_and_replay(tmp_path, store, content, message)


def test_bytes_that_are_not_utf8_are_refused(tmp_path: Path, store: Path, record_text: str) -> None:
    content = record_text.encode().replace(b"heuristic-1", b"heuristic-\xff", 1)
    import_and_replay(tmp_path, store, content, "not a text file (not UTF-8 at byte")


def test_a_device_that_never_ends_is_refused_after_the_size_limit(store: Path) -> None:
    before = games(store)
    assert_refused(*run("import", "/dev/zero", "--db", str(store)), "larger than 64 MB; refused")
    assert games(store) == before


def bohnanza() -> str:
    found = shutil.which("bohnanza", path=str(Path(sys.executable).parent))
    assert found, "the bohnanza console script is installed beside the interpreter"
    return found


@pytest.mark.slow
def test_a_pipe_that_never_ends_is_read_only_up_to_the_limit(store: Path) -> None:
    """`yes | bohnanza import - …`: the import stops after the limit, it does not wait for the end
    of an endless stream."""
    before = games(store)
    endless = subprocess.Popen(["yes", "beans"], stdout=subprocess.PIPE)
    assert endless.stdout is not None
    try:
        done = subprocess.run(
            [bohnanza(), "import", "-", "--db", str(store)],
            stdin=endless.stdout,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        endless.kill()
        endless.wait()
    assert done.returncode == 1
    assert done.stderr == "error: -: larger than 64 MB; refused\n"
    assert games(store) == before


def test_a_record_from_standard_input_is_imported(store: Path, record_text: str) -> None:
    result = CliRunner().invoke(build_app(), ["import", "-", "--db", str(store)], input=record_text)
    assert result.exit_code == 0, result.stderr
    assert (GAME, len(json.loads(record_text)["actions"])) in games(store)


def test_a_file_just_over_the_limit_is_refused_and_one_at_it_is_read(
    tmp_path: Path, store: Path
) -> None:
    at_limit = tmp_path / "at-limit.json"
    with at_limit.open("wb") as file:
        file.write(b"{" + b" " * (MAX_RECORD_BYTES - 2) + b"}")
    assert_refused(*run("import", str(at_limit), "--db", str(store)), "not a game record")
    with at_limit.open("ab") as file:
        file.write(b" ")
    assert_refused(*run("import", str(at_limit), "--db", str(store)), "larger than 64 MB")
    os.unlink(at_limit)
