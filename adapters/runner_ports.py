"""What the runner asks of the store itself, apart from the service: hooks for the thread it
serves from (a store may keep a connection there)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable


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
