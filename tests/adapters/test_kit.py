"""The adapter kit: one import for a platform package, typed for mypy --strict; its parser,
settings and serve skeleton."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bohnanza.adapters.i18n import load_translators
from bohnanza.adapters.kit import (
    LineConnection,
    SettingsError,
    command_text,
    connection_settings,
    plugin_translators,
    serve_chat,
    setting,
)
from bohnanza.adapters.platforms import ServeContext
from bohnanza.adapters.store import open_store

from .plugin import PROJECTS, pigeon

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = PROJECTS["pigeon"]


@pytest.mark.parametrize(
    ("said", "command"),
    [
        ("!join", "join"),
        ("  !plant 1 ", "plant 1"),
        ("/join@BeanBot", "join"),
        ("/join@OtherBot", None),
        ("beanbot: offer 2 1 for soy", "offer 2 1 for soy"),
        ("BeanBot, hand", "hand"),
        ("hello there", None),
        ("!", None),
        ("beanbot:", None),
    ],
)
def test_the_shared_parser_takes_only_what_is_addressed_to_the_bot(
    said: str, command: str | None
) -> None:
    assert command_text(said, ["!", "/"], ["BeanBot"]) == command


def test_a_missing_setting_is_named_in_one_line() -> None:
    with pytest.raises(SettingsError, match=r"^set BOHNANZA_PIGEON_LOFT$"):
        pigeon.check({})
    assert setting({"X": " 1 "}, "X") == "1"
    assert setting({}, "X", "2") == "2"


def test_serve_chat_plays_a_game_fed_by_a_read_loop_and_stops_cleanly(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "games.db"), create=True)
    context = ServeContext(store, {}, {"BOHNANZA_PIGEON_LOFT": "roof"}, stop_timeout=5)
    incoming: asyncio.Queue[str] = asyncio.Queue()
    outgoing: asyncio.Queue[str] = asyncio.Queue()
    port = pigeon.PigeonPort(outgoing)

    async def run() -> list[str]:
        for line in ("#r|ann|!new", "#r|ann|!bot", "#r|ann|!start", "#r|ann|just talk", ""):
            incoming.put_nowait(line)
        await serve_chat(context, port, lambda runner: pigeon.listen(runner, incoming))
        return [outgoing.get_nowait() for _ in range(outgoing.qsize())]

    lines = asyncio.run(run())
    assert any(line.startswith("#r|Game ") and "begins" in line for line in lines)
    assert any(line.startswith("ann|") for line in lines)  # her hand, privately
    assert all(len(line.encode()) <= 200 + 10 for line in lines)
    assert store.active_game_in("pigeon", "#r") is not None


@pytest.mark.slow
def test_a_plugin_importing_only_the_kit_passes_mypy_strict_against_the_installed_package(
    tmp_path: Path,
) -> None:
    """The package as installed from its wheel (py.typed included), not the source tree. The
    wheel is built plain: the compiled one ships the same typed sources beside its extensions,
    which mypy does not read, and compiling them takes half a minute (.ci/wheel checks it)."""
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(wheels),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        env={**os.environ, "BOHNANZA_COMPILE": "0"},
    )
    env = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    site = next(env.glob("lib/python*/site-packages"))
    with zipfile.ZipFile(next(wheels.glob("bohnanza-*.whl"))) as wheel:
        wheel.extractall(site)
    assert (site / "bohnanza" / "adapters" / "py.typed").exists()
    # The bot's own dependencies, as a plugin's environment would have them.
    here = next(p for p in map(Path, sys.path) if p.name == "site-packages" and p.is_dir())
    (site / "dependencies.pth").write_text(f"{here}\n")
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--python-executable",
            str(env / "bin" / "python"),
            "bohnanza_pigeon",
        ],
        cwd=PLUGIN,
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Success: no issues found in 1 source file" in checked.stdout


def test_the_examples_own_catalog_says_how_to_reach_it_in_italian_and_the_games_stay_italian(
    tmp_path: Path,
) -> None:
    translators = plugin_translators(load_translators(), pigeon.CATALOGS, "pigeon")
    port = pigeon.PigeonPort(asyncio.Queue())
    assert port.how_to_reach(translators["it"]) == (
        "Mandami prima un piccione in privato, con una parola qualsiasi."
    )
    assert port.how_to_reach(translators["en"]) == (
        "Send me a pigeon privately first, with any word."
    )
    assert translators["it"].gettext("Yes") == "Sì"  # the game's own, through the chain
    assert translators["de"].ngettext("{n} card", "{n} cards", 2) == (
        load_translators()["de"].ngettext("{n} card", "{n} cards", 2)
    )


def test_a_platform_that_finds_its_server_itself_may_leave_the_server_unset() -> None:
    rules = {"JID": (None, r"\S+@\S+", "is not an account")}
    found = connection_settings(
        {"BOHNANZA_XMPP_JID": "bot@beans.example"},
        "xmpp",
        rules,
        (5223, 5222),
        server_required=False,
    )
    assert found["SERVER"] == "" and found["PORT"] == "5223"
    assert LineConnection(found, host="xmpp.beans.example").host == "xmpp.beans.example"
    with pytest.raises(SettingsError, match="no server"):
        LineConnection(found)
    with pytest.raises(SettingsError, match=r"^set BOHNANZA_IRC_SERVER$"):
        connection_settings({}, "irc", {}, (6697, 6667))
