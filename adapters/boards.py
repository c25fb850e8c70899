"""The boards of one process: every platform's runner, for the web platform to show and play
the games of any platform beside it (`bohnanza serve telegram web`).

`bohnanza serve` hands every platform one `Boards` in its `ServeContext`. Each runner joins it
when it starts (`attach`) and passes what it is about to send through it (`posted`): while the
web platform runs (it sets `listener`, before its first await, so before any runner sends), the
answers to inputs made on a board go back to that board, the private messages of a game get the
entry to its board ("Open the board"), and the boards open on that platform are told that its
games may have moved. Without a listener, nothing is changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from bohnanza.core.app.messages import Outbound

if TYPE_CHECKING:
    from bohnanza.adapters.runner import Runner


class BoardListener(Protocol):
    """What shows the boards: told of everything a runner is about to send."""

    def posted(self, runner: Runner, out: Sequence[Outbound]) -> list[Outbound]:
        """What the runner is to send of `out` (answers to a board's inputs taken out, the
        board's entry added to private messages); the boards of its platform are brought up
        to date soon after."""
        ...


@dataclass
class Boards:
    """The runners of a process by platform, and the listener that shows their boards."""

    runners: dict[str, Runner] = field(default_factory=dict)
    listener: BoardListener | None = None

    def attach(self, runner: Runner) -> None:
        """A runner starts serving its platform."""
        self.runners[runner.port.platform] = runner

    def detach(self, runner: Runner) -> None:
        """A runner stopped: its platform's boards are no longer played through it."""
        if self.runners.get(runner.port.platform) is runner:
            del self.runners[runner.port.platform]

    def posted(self, runner: Runner, out: Sequence[Outbound]) -> list[Outbound]:
        """What the runner is to send (see `BoardListener.posted`)."""
        if self.listener is None:
            return list(out)
        return self.listener.posted(runner, out)
