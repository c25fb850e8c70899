"""What the runner asks of the store itself, apart from the service: the ledger of what each
chat's slots show, finished games' records (for their pages), and hooks for the thread it
serves from (a store may keep a connection there)."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol, runtime_checkable

from bohnanza.core.app.ports import ChatStore, ShownView
from bohnanza.core.record import GameRecord


class SlotLedger(Protocol):
    """Which message shows what in each slot of a chat (a game's table, a player's hand)."""

    def load_view(self, platform: str, chat: str, slot: str) -> ShownView | None:
        """What a chat's slot was last shown (None: nothing yet)."""
        ...

    def save_view(
        self, platform: str, chat: str, slot: str, view: ShownView, now: datetime
    ) -> None:
        """Note what a chat's slot shows now, once the platform took the message."""
        ...


class GameRecords(Protocol):
    """Finished games as records, for the page of each sent to its room."""

    def load_record(self, game_id: str) -> GameRecord:
        """The stored game as a portable record; UnknownGame if there is none."""
        ...


class RunnerStore(SlotLedger, GameRecords, Protocol):
    """What the runner reads and writes in the store itself (the service does the rest)."""


class AdapterStore(ChatStore, RunnerStore, Protocol):
    """The store an adapter serves from: what the application asks of it, and what its runner
    keeps there itself (the core's port knows nothing of chats' slots)."""


@runtime_checkable
class ServesFromThread(Protocol):
    """A store that may keep a connection for the thread that serves from it (a runner's
    thread), so that its calls there take none from the pool each time."""

    def serve_from_this_thread(self) -> None:
        """The calling thread makes most of the store's calls from now on: the store may
        keep what makes its calls cheaper there (a connection)."""
        ...

    def release_this_thread(self) -> None:
        """The calling thread is done with the store: what it kept for it goes back."""
        ...
