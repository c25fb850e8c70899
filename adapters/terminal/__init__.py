"""The terminal adapter: the embedded default platform, and the reference for new adapters."""

from __future__ import annotations

import sys

from bohnanza.adapters.platforms import Platform, ServeContext

from .console import FALLBACK_NAME, Console, TableChoice, player_name
from .port import CAPABILITIES, PLATFORM, TerminalPort
from .stdin import closed_output, line_waiting, stdin_lines
from .unfinished import NothingToResume, told_of, unfinished_games


async def _serve(context: ServeContext) -> None:
    console = Console(
        context.store,
        context.translators,
        stdin_lines(),
        lambda text: print(text),
        line_waiting=line_waiting(),
    )
    try:
        await console.resume()
    except NothingToResume:
        sys.stderr.write("no interrupted terminal game; start one with: bohnanza play\n")
        return
    await console.play()


platform = Platform(PLATFORM, "a game at the keyboard against bots", _serve)

__all__ = [
    "CAPABILITIES",
    "FALLBACK_NAME",
    "PLATFORM",
    "Console",
    "NothingToResume",
    "TableChoice",
    "TerminalPort",
    "closed_output",
    "line_waiting",
    "platform",
    "player_name",
    "stdin_lines",
    "told_of",
    "unfinished_games",
]
