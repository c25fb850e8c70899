"""`bohnanza serve`, `health` and `db upgrade` through the real entry point: one-line errors."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bohnanza.adapters.store.database import SCHEMA_VERSION

BOHNANZA = Path(sys.executable).with_name("bohnanza")


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("BOHNANZA_")}
    return subprocess.run(
        [str(BOHNANZA), *args],
        env=clean | (env or {}),
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
def test_a_wrong_setting_stops_serve_in_one_line_before_anything_starts(tmp_path: Path) -> None:
    done = run(
        "serve", "telegram", "--db", str(tmp_path / "g.db"), env={"BOHNANZA_HEALTH_PORT": "x"}
    )
    assert done.returncode == 1
    assert done.stderr == "error: BOHNANZA_HEALTH_PORT must be a port number (1-65535)\n"
    assert not (tmp_path / "g.db").exists()


@pytest.mark.slow
def test_a_platform_missing_its_settings_is_named_in_one_line(tmp_path: Path) -> None:
    config = tmp_path / "bot.toml"
    config.write_text(f'db = "{tmp_path / "g.db"}"\n[telegram]\nmode = "polling"\n')
    done = run("serve", "telegram", "--config", str(config))
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == "error: telegram: set BOHNANZA_TELEGRAM_TOKEN"
    assert "Traceback" not in done.stderr
    # Checked before the store is opened: nothing was created.
    assert not (tmp_path / "g.db").exists()


@pytest.mark.slow
def test_every_platform_checks_its_settings_before_the_store_is_opened(tmp_path: Path) -> None:
    for platform, variable in (
        ("matrix", "BOHNANZA_MATRIX_HOMESERVER"),
        ("irc", "BOHNANZA_IRC_SERVER"),
    ):
        done = run("serve", platform, "--db", str(tmp_path / "g.db"))
        assert done.returncode == 1, done.stderr
        assert done.stderr.startswith(f"error: {platform}: "), done.stderr
        assert variable in done.stderr
        assert len(done.stderr.splitlines()) == 1
        assert not (tmp_path / "g.db").exists()


@pytest.mark.slow
def test_health_without_a_running_bot_is_unhealthy() -> None:
    done = run("health", "--url", "http://127.0.0.1:9/healthz")
    assert done.returncode == 1
    assert done.stderr.startswith("error: unhealthy: cannot reach")


@pytest.mark.slow
def test_db_upgrade_makes_an_empty_file_a_store_and_brings_an_old_one_up(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    db.touch()
    first = run("db", "upgrade", str(db))
    assert first.returncode == 0, first.stderr
    version = SCHEMA_VERSION
    assert first.stdout == f"{db}: created the store at schema version {version}\n"
    current = run("db", "upgrade", str(db)).stdout
    assert current == f"{db}: the schema is current (version {version})\n"
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0099'")
    newer = run("db", "upgrade", str(db))
    assert newer.returncode == 1
    assert "is newer than this bohnanza knows" in newer.stderr
