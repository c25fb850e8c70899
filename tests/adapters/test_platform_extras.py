"""A platform whose libraries come in an extra is listed without it, and serving it says, in one
line, what to install; the built-in ones name theirs (pyproject.toml)."""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterable
from importlib.metadata import Distribution, EntryPoint, EntryPoints
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bohnanza.adapters import platforms
from bohnanza.adapters.platforms import (
    MissingExtra,
    missing_extra,
    platform_named,
    platform_names,
)
from bohnanza.cli.app import build_app

ROOT = Path(__file__).resolve().parents[2]


class ChatPackage(Distribution):
    """An installed package (its metadata only) registering platforms, some behind extras."""

    def __init__(self, entry_points: str, requires: Iterable[str]) -> None:
        self.files_text = {
            "METADATA": "Metadata-Version: 2.1\nName: bohnanza-chats\nVersion: 1.0\n"
            + "".join(f"Requires-Dist: {r}\n" for r in requires),
            "entry_points.txt": f"[bohnanza.adapters]\n{entry_points}",
        }

    def read_text(self, filename: str) -> str | None:
        return self.files_text.get(filename)

    def locate_file(self, path: Any) -> Path:
        return Path(path)


CHATS = ChatPackage(
    "terminal = bohnanza.adapters.terminal:platform\n"
    "pigeon = bohnanza_pigeon:platform [pigeon]\n"
    "smoke = bohnanza.adapters.terminal:platform [terminal-extra]\n",
    [
        'bohnanza-no-such-pigeon-library>=1; extra == "pigeon"',
        'typer>=0.12; extra == "terminal-extra"',
        "rich>=13",
    ],
)


@pytest.fixture
def chats_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    def entry_points(**selection: str) -> EntryPoints:
        return CHATS.entry_points.select(**selection)

    monkeypatch.setattr(platforms, "entry_points", entry_points)


def entry(name: str) -> EntryPoint:
    return CHATS.entry_points[name]


def test_an_extra_whose_library_is_missing_names_the_command_that_installs_it() -> None:
    assert missing_extra(entry("pigeon")) == "pip install 'bohnanza-chats[pigeon]'"
    assert missing_extra(entry("smoke")) is None  # typer is installed
    assert missing_extra(entry("terminal")) is None  # no extra


def test_a_platform_missing_its_extra_is_listed_but_not_served(chats_installed: None) -> None:
    assert platform_names() == {
        "terminal": None,
        "pigeon": "pip install 'bohnanza-chats[pigeon]'",
        "smoke": None,
    }
    assert set(platforms.platforms()) == {"terminal"}  # smoke is the terminal under a new name
    with pytest.raises(MissingExtra, match=r"^pigeon needs its extra: pip install "):
        platform_named("pigeon")
    assert platform_named("smoke").name == "terminal"


def test_serving_a_platform_without_its_extra_stops_in_one_line(chats_installed: None) -> None:
    result = CliRunner().invoke(build_app(), ["serve", "pigeon"])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "error: pigeon needs its extra: pip install 'bohnanza-chats[pigeon]'"
    ]


def test_serve_help_says_which_platforms_need_their_extra(chats_installed: None) -> None:
    result = CliRunner().invoke(build_app(), ["serve", "--help"], terminal_width=200)
    assert result.exit_code == 0
    assert "Platforms: terminal, pigeon (needs pip install 'bohnanza-chats[pigeon]'), smoke." in (
        " ".join(result.output.split())
    )


def test_the_built_in_platforms_name_the_extras_that_bring_their_libraries() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    registered = project["entry-points"]["bohnanza.adapters"]
    extras = project["optional-dependencies"]
    for name in ("telegram", "matrix", "web"):
        assert registered[name].endswith(f":platform [{name}]")
        assert extras[name]
    assert {"terminal", "irc"} <= set(registered)
    assert not any(registered[name].endswith("]") for name in ("terminal", "irc"))
    base = " ".join(project["dependencies"])
    for library in ("python-telegram-bot", "matrix-nio", "psycopg", "starlette", "uvicorn"):
        assert library not in base
    assert set(extras["all"][0].partition("[")[2].rstrip("]").split(",")) == {
        "telegram",
        "matrix",
        "postgres",
        "web",
    }


def test_a_postgresql_store_without_its_extra_stops_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in [m for m in sys.modules if m == "psycopg" or m.startswith("psycopg.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if not installed
    url = "postgresql://bohnanza:secret@127.0.0.1:1/bohnanza"
    result = CliRunner().invoke(build_app(), ["db", "upgrade", url])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "error: postgresql://bohnanza:***@127.0.0.1:1/bohnanza: a PostgreSQL store needs its "
        "extra: pip install 'bohnanza[postgres]'"
    ]
