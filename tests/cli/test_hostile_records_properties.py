"""Whatever a record file holds (arbitrary JSON, a real record with any part replaced, raw bytes),
`import`, `replay FILE` and `export` end with exit 0, 1 or 2, never a traceback; a failure is one
line on stderr and leaves the store exactly as it was."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bohnanza.adapters.store import open_store
from bohnanza.cli.app import build_app
from bohnanza.cli.transfer import record_game_id
from bohnanza.core.record import GameRecord

GAME = "sim-p2-heuristic-3000009"
FEW = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

HUGE = "<a number with 5000 digits>"
"""Stands for a number too long for Python to turn into an int by default; written in at the end."""

hostile = st.sampled_from(
    [HUGE, "\ud800x", "x\udfff", "Eve\u202egnp.exe", "\x1b[2J", "line\nbreak", "²m", "", "a" * 201]
)
texts = st.text(st.characters(exclude_categories=["Cs"]), max_size=12) | st.text(
    st.characters(categories=["Cs", "Cc", "Cf", "Zl"]), min_size=1, max_size=3
)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-5, max_value=200)
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats()
    | texts
    | hostile
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """A real record's text, and a store that holds its game."""
    folder = tmp_path_factory.mktemp("base")
    db = folder / "games.db"
    args = ["--players", "2", "--games", "1", "--seed", "3", "--out", str(folder), "--db", str(db)]
    result = CliRunner().invoke(build_app(), ["simulate", *args])
    assert result.exit_code == 0, result.output
    return (folder / f"{GAME}.json").read_text(), db


@contextmanager
def store_copy(db: Path) -> Iterator[Path]:
    """A private copy of the store, free to change, removed afterwards."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "games.db"
        shutil.copy(db, copy)
        yield copy


def games(db: Path) -> list[tuple[str, str, int]]:
    with open_store(str(db)) as opened:
        return [(g.game_id, g.status, g.actions) for g in opened.list_games()]


def bohnanza(*args: str) -> tuple[int, str]:
    """Run a command through the real typer application; it must end as a command should."""
    result = CliRunner().invoke(build_app(), list(args))
    unexpected = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not unexpected, f"{args[0]} raised {result.exception!r}"
    assert result.exit_code in (0, 1, 2)
    assert "Traceback" not in result.stdout + result.stderr
    if result.exit_code != 0:
        assert len(result.stderr.splitlines()) == 1, result.stderr
        assert result.stderr.startswith("error: ")
    return result.exit_code, result.stderr


def check_every_command(content: bytes, db: Path) -> None:
    """import into a copy of the store, replay the file, export what was imported."""
    with store_copy(db) as copy, tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hostile.json"
        path.write_bytes(content)
        before = games(copy)
        imported, _ = bohnanza("import", str(path), "--db", str(copy))
        if imported != 0:
            assert games(copy) == before
        replayed, _ = bohnanza("replay", str(path))
        if imported == 0:
            assert replayed == 0
            game_id = record_game_id(GameRecord.loads(content.decode()))
            output = Path(folder) / "exported.json"
            assert bohnanza("export", str(copy), "--game", game_id, "--output", str(output))[0] == 0
            assert GameRecord.loads(output.read_text()).game_id == game_id


def replaced(data: dict[str, Any], where: str, value: object) -> dict[str, Any]:
    """The record with one part, named by a path like 'seats.0.name', replaced by `value`."""
    *parents, last = where.split(".")
    holder: Any = data
    for step in parents:
        holder = holder[int(step)] if isinstance(holder, list) else holder[step]
    holder[int(last) if isinstance(holder, list) else last] = value
    return data


PARTS = [
    "format",
    "version",
    "game_id",
    "seats",
    "seats.0",
    "seats.0.name",
    "seats.1.kind",
    "seats.1.strategy",
    "options",
    "options.seed",
    "options.extra",
    "deck",
    "deck.0",
    "reshuffles",
    "actions",
    "actions.0",
    "actions.0.field",
    "actions.3.type",
    "result",
    "result.scores",
    "result.winners.0",
    "unknown-key",
]


def to_bytes(value: object) -> bytes:
    """The value as JSON text (lone surrogates written as escapes), HUGE as its 5000 digits."""
    return json.dumps(value).replace(json.dumps(HUGE), "9" * 5000).encode()


@pytest.mark.slow
@FEW
@given(value=json_values)
def test_any_json_value_as_a_record(base: tuple[str, Path], value: object) -> None:
    check_every_command(to_bytes(value), base[1])


@pytest.mark.slow
@FEW
@given(where=st.sampled_from(PARTS), value=json_values)
def test_a_real_record_with_any_part_replaced(
    base: tuple[str, Path], where: str, value: object
) -> None:
    text, db = base
    data = replaced(json.loads(text), where, value)
    data["game_id"] = data["game_id"] if where == "game_id" else "changed"
    check_every_command(to_bytes(data), db)


@pytest.mark.slow
@FEW
@given(cut=st.integers(min_value=0, max_value=20_000), junk=st.binary(max_size=40))
def test_a_real_record_cut_short_or_with_bytes_spliced_in(
    base: tuple[str, Path], cut: int, junk: bytes
) -> None:
    text, db = base
    content = text.encode()
    check_every_command(content[:cut] + junk + content[cut + len(junk) :], db)


@pytest.mark.slow
@FEW
@given(content=st.binary(max_size=300))
def test_any_bytes_as_a_record(base: tuple[str, Path], content: bytes) -> None:
    check_every_command(content, base[1])
