"""The web platform's settings, checked before anything starts: a wrong one is one line naming
it, through the real `bohnanza serve web`; an address in use too."""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path

import pytest

from bohnanza.adapters.web.settings import read_settings

from .process import BOHNANZA
from .serving import SECRET


def serve_web(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("BOHNANZA_")}
    return subprocess.run(
        [str(BOHNANZA), "serve", "web", "--db", str(tmp_path / "g.db")],
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("env", "line"),
    [
        ({}, "error: web: set BOHNANZA_WEB_SECRET"),
        ({"BOHNANZA_WEB_SECRET": "short"}, "error: web: BOHNANZA_WEB_SECRET must be at least"),
        (
            {"BOHNANZA_WEB_SECRET": SECRET, "BOHNANZA_WEB_PORT": "99999"},
            "error: web: BOHNANZA_WEB_PORT must be a port number (1-65535)",
        ),
        (
            {"BOHNANZA_WEB_SECRET": SECRET, "BOHNANZA_WEB_URL": "beans.example.org"},
            "error: web: BOHNANZA_WEB_URL must be the board's public address",
        ),
        (
            {"BOHNANZA_WEB_SECRET": SECRET, "BOHNANZA_WEB_TABLES": "maybe"},
            "error: web: BOHNANZA_WEB_TABLES must be on or off",
        ),
    ],
    ids=["no secret", "a short secret", "no port", "no address", "tables"],
)
def test_a_wrong_web_setting_stops_serve_in_one_line(
    tmp_path: Path, env: dict[str, str], line: str
) -> None:
    done = serve_web(tmp_path, **env)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1].startswith(line), done.stderr
    assert not (tmp_path / "g.db").exists()


@pytest.mark.slow
def test_an_address_in_use_stops_serve_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = serve_web(tmp_path, BOHNANZA_WEB_SECRET=SECRET, BOHNANZA_WEB_PORT=str(port))
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1].startswith(f"error: web: cannot listen on 127.0.0.1:{port}")
    assert "Traceback" not in done.stderr


def test_the_public_address_defaults_to_where_it_listens_and_hides_its_secrets() -> None:
    settings = read_settings(
        {"BOHNANZA_WEB_SECRET": SECRET, "BOHNANZA_TELEGRAM_TOKEN": "123:token"}
    )
    assert settings.url == "http://127.0.0.1:8090"
    assert not settings.mini_app  # Telegram opens boards over HTTPS only
    assert SECRET not in repr(settings) and "123:token" not in repr(settings)
    public = read_settings(
        {
            "BOHNANZA_WEB_SECRET": SECRET,
            "BOHNANZA_WEB_URL": "https://beans.example.org/",
            "BOHNANZA_TELEGRAM_TOKEN": "123:token",
        }
    )
    assert public.url == "https://beans.example.org" and public.mini_app
