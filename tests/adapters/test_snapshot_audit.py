"""Auditing a store while games are being written to it: every game is read in one snapshot, so
an action stored between two reads never shows as an inconsistency."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bohnanza.adapters.store import open_store
from bohnanza.cli.audit import audit_store
from bohnanza.core.ports import Appended, StoredAction

from .games import bot_game, new_game, stored_actions
from .postgres import postgres_url

GAMES = 4
AUDITS = 300
TIME_LIMIT = 60.0
"""Seconds of auditing at most (a safeguard: the audits are paced with the writer, not timed)."""


class Writer(threading.Thread):
    """Appends the actions of several games in turn, one action per transaction, until stopped,
    never more than the auditor allowed so far: on a busy machine the games would otherwise be
    written before enough audits ran, and there would be nothing left to read them against."""

    def __init__(self, target: str, games: dict[str, list[StoredAction]]) -> None:
        super().__init__(daemon=True)
        self.target = target
        self.games = games
        self.total = sum(len(actions) for actions in games.values())
        self.appended = 0
        self.stop = threading.Event()
        self.allowed = threading.Semaphore(0)
        self.error: BaseException | None = None

    def allow(self, actions: int) -> None:
        """Let the writer append this many more actions."""
        self.allowed.release(actions)

    def run(self) -> None:
        try:
            with open_store(self.target) as store:
                for game_id, action in self._interleaved():
                    while not self.allowed.acquire(timeout=0.1):
                        if self.stop.is_set():
                            return
                    if self.stop.is_set():
                        return
                    assert isinstance(store.append_action(game_id, action), Appended)
                    self.appended += 1
        except BaseException as error:  # reported by the test, not lost in the thread
            self.error = error

    def _interleaved(self) -> Iterator[tuple[str, StoredAction]]:
        longest = max(len(actions) for actions in self.games.values())
        for seq in range(longest):
            for game_id, actions in self.games.items():
                if seq < len(actions):
                    yield game_id, actions[seq]


def games_being_played(target: str) -> dict[str, list[StoredAction]]:
    """Several stored games with no actions yet, and the actions each will be given."""
    games = {}
    with open_store(target, create=True) as store:
        for number in range(GAMES):
            record = bot_game(players=4, seed=number + 1)
            game_id = f"live-{number}"
            store.add_game(new_game(record, game_id))
            games[game_id] = stored_actions(record)
    return games


def audit_while_writing(target: str) -> tuple[int, list[str], Writer]:
    """Run audits while a writer appends; the number of audits and every failure they found."""
    writer = Writer(target, games_being_played(target))
    writer.start()
    per_audit = -(-writer.total // AUDITS)  # the last action is written by about the last audit
    audits = 0
    failures: list[str] = []
    deadline = time.monotonic() + TIME_LIMIT
    try:
        while audits < AUDITS and writer.is_alive() and time.monotonic() < deadline:
            writer.allow(per_audit)  # appended while this audit reads
            failures += audit_store(target, None, 1).failures
            audits += 1
    finally:
        writer.stop.set()
        writer.join(timeout=30)
    return audits, failures, writer


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_audits_during_appends_find_no_false_inconsistency(kind: str, tmp_path: Path) -> None:
    target = str(tmp_path / "live.db") if kind == "sqlite" else postgres_url()
    audits, failures, writer = audit_while_writing(target)
    assert writer.error is None, writer.error
    assert audits >= 100, f"only {audits} audits ran while the games were written"
    assert writer.appended > 0
    assert failures == []
