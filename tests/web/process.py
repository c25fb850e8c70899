"""`bohnanza serve web` as its own process, as an operator runs it: started, stopped with
SIGTERM, started again on the same database and port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from .serving import free_port, web_env

BOHNANZA = Path(sys.executable).with_name("bohnanza")


class ServeWeb:
    """The web platform on a database of its own, in a process of its own."""

    def __init__(self, tmp_path: Path) -> None:
        self.db = tmp_path / "games.db"
        self.log = tmp_path / "serve.log"
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        """Start it and wait until it listens."""
        clean = {k: v for k, v in os.environ.items() if not k.startswith("BOHNANZA_")}
        env = clean | web_env(self.port) | {"BOHNANZA_DB": str(self.db)}
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [str(BOHNANZA), "serve", "web"],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        ends = time.monotonic() + timeout
        while time.monotonic() < ends:
            assert self.process.poll() is None, self.output
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"bohnanza serve web did not listen:\n{self.output}")

    def stop(self, timeout: float = 30.0) -> int:
        """SIGTERM, and its exit status once it stopped."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        status = self.process.wait(timeout)
        self.process = None
        return status

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    @property
    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""
