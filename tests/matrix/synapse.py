"""A throwaway Synapse homeserver on 127.0.0.1: configuration, start, readiness, stop."""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

PYTHON_ENV = "BOHNANZA_TEST_SYNAPSE_PYTHON"
SERVER_NAME = "localhost"
START_TIMEOUT = 60.0
STOP_TIMEOUT = 10.0
# Every limit Synapse applies per user or per address; tests register, log in and
# send in bursts that the production defaults would throttle.
RATE_LIMITED = (
    "rc_message",
    "rc_registration",
    "rc_registration_token_validity",
    "rc_login.address",
    "rc_login.account",
    "rc_login.failed_attempts",
    "rc_admin_redaction",
    "rc_joins.local",
    "rc_joins.remote",
    "rc_joins_per_room",
    "rc_key_requests",
    "rc_3pid_validation",
    "rc_invites.per_room",
    "rc_invites.per_user",
    "rc_invites.per_issuer",
    "rc_third_party_invite",
    "rc_media_create",
    "rc_presence.per_user",
    "rc_delayed_event_mgmt",
    "rc_room_creation",
    "rc_reports",
    "rc_user_directory",
    "rc_profile",
)
UNLIMITED = {"per_second": 100_000, "burst_count": 100_000}


class SynapseUnavailable(RuntimeError):
    """Synapse is not installed where the tests look for it."""


class SynapseFailed(RuntimeError):
    """Synapse did not start, or stopped answering; the message ends with its log."""


@dataclass(frozen=True)
class Homeserver:
    """A running homeserver: where clients reach it and where it keeps its files."""

    base_url: str
    server_name: str
    directory: Path

    @property
    def log_path(self) -> Path:
        """Synapse's own log: every request and error; pytest keeps its last three runs."""
        return self.directory / "homeserver.log"

    def user_id(self, localpart: str) -> str:
        """The full Matrix ID of a user of this server."""
        return f"@{localpart}:{self.server_name}"

    def log_tail(self, lines: int = 40) -> str:
        """The last lines of Synapse's log and its console output, for failure reports."""
        parts = []
        for path in (self.directory / "console.log", self.log_path):
            text = path.read_text(errors="replace") if path.exists() else ""
            if text.strip():
                tail = "\n".join(text.splitlines()[-lines:])
                parts.append(f"--- {path} ---\n{tail}")
        return "\n".join(parts)


def synapse_python() -> str:
    """The interpreter that runs Synapse: $BOHNANZA_TEST_SYNAPSE_PYTHON or this one."""
    configured = os.environ.get(PYTHON_ENV)
    if configured:
        if shutil.which(configured) is None:
            raise SynapseUnavailable(f"{PYTHON_ENV}={configured} is not an executable")
        return configured
    if importlib.util.find_spec("synapse") is None:
        raise SynapseUnavailable(
            "matrix-synapse is not installed: pip install -e '.[test]' "
            f"or set {PYTHON_ENV} to a Python that has it"
        )
    return sys.executable


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def write_config(directory: Path, port: int) -> Path:
    """Write homeserver.yaml, its log config and a signing key; return the config path."""
    directory.mkdir(parents=True, exist_ok=True)
    signing_key = directory / "signing.key"
    seed = base64.b64encode(secrets.token_bytes(32)).decode().rstrip("=")
    signing_key.write_text(f"ed25519 a_test {seed}\n")
    log_config = directory / "log.yaml"
    log_config.write_text(json.dumps(_log_config(directory / "homeserver.log")))
    config = directory / "homeserver.yaml"
    # JSON is valid YAML, and it spares the harness a YAML writer.
    config.write_text(json.dumps(_homeserver_config(directory, port, log_config, signing_key)))
    return config


def _homeserver_config(
    directory: Path, port: int, log_config: Path, signing_key: Path
) -> dict[str, object]:
    config: dict[str, object] = {
        "server_name": SERVER_NAME,
        "public_baseurl": f"http://127.0.0.1:{port}/",
        "pid_file": str(directory / "homeserver.pid"),
        "listeners": [
            {
                "port": port,
                "bind_addresses": ["127.0.0.1"],
                "type": "http",
                "tls": False,
                "x_forwarded": False,
                "resources": [{"names": ["client"], "compress": False}],
            }
        ],
        "database": {"name": "sqlite3", "args": {"database": str(directory / "homeserver.db")}},
        "log_config": str(log_config),
        "signing_key_path": str(signing_key),
        "media_store_path": str(directory / "media"),
        "enable_media_repo": True,
        "url_preview_enabled": False,
        "enable_registration": True,
        "enable_registration_without_verification": True,
        "macaroon_secret_key": secrets.token_hex(16),
        "form_secret": secrets.token_hex(16),
        "bcrypt_rounds": 4,
        "report_stats": False,
        "trusted_key_servers": [],
        "suppress_key_server_warning": True,
        "federation_domain_whitelist": [],
        "presence": {"enabled": False},
    }
    return config | _unlimited_rates()


def _unlimited_rates() -> dict[str, object]:
    flat: dict[str, object] = {name: UNLIMITED for name in RATE_LIMITED if "." not in name}
    nested: dict[str, dict[str, object]] = {}
    for name in RATE_LIMITED:
        if "." in name:
            section, subkey = name.split(".")
            nested.setdefault(section, {})[subkey] = UNLIMITED
    return flat | nested


def _log_config(log_file: Path) -> dict[str, object]:
    return {
        "version": 1,
        "formatters": {
            "precise": {"format": "%(asctime)s %(name)s %(lineno)d %(levelname)s %(message)s"}
        },
        "handlers": {
            "file": {
                "class": "logging.FileHandler",
                "formatter": "precise",
                "filename": str(log_file),
                "encoding": "utf8",
            }
        },
        "loggers": {"synapse.storage.SQL": {"level": "WARNING"}},
        "root": {"level": "INFO", "handlers": ["file"]},
        "disable_existing_loggers": False,
    }


@contextmanager
def running_synapse(directory: Path, python: str | None = None) -> Iterator[Homeserver]:
    """Start Synapse with a fresh configuration in `directory`, yield it, stop it."""
    port = free_port()
    config = write_config(directory, port)
    homeserver = Homeserver(f"http://127.0.0.1:{port}", SERVER_NAME, directory)
    command = [python or synapse_python(), "-m", "synapse.app.homeserver", "-c", str(config)]
    with (directory / "console.log").open("wb") as console:
        process = subprocess.Popen(
            command, cwd=directory, stdin=subprocess.DEVNULL, stdout=console, stderr=console
        )
        try:
            _wait_until_ready(homeserver, process)
            yield homeserver
        finally:
            _stop(process)


def _wait_until_ready(homeserver: Homeserver, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    url = f"{homeserver.base_url}/_matrix/client/versions"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SynapseFailed(
                f"Synapse exited with {process.returncode}\n{homeserver.log_tail()}"
            )
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.1)
    raise SynapseFailed(f"Synapse did not answer within {START_TIMEOUT}s\n{homeserver.log_tail()}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
