"""`bohnanza replay SOURCE --html FILE`: a game written as one self-contained HTML page.

The page (see `bohnanza.adapters.game_page`) shows the table at every action with a slider, the
events in words in the language of `--lang`, a chart of the coins and the final scores. It holds
what a spectator saw, or with `--as` what that player saw; it is written whole or not at all, an
existing file only with `--force`.
"""

from __future__ import annotations

from pathlib import Path

import typer

from bohnanza.adapters.game_page import game_page
from bohnanza.core.analysis import SearchSize
from bohnanza.core.app.i18n import LANGUAGES
from bohnanza.core.errors import RecordError
from bohnanza.core.record import GameRecord

from .errors import fail, usage
from .files import check_target, shown, write_atomically
from .judging import analysed as analysed_game
from .judging import default_workers


def check_page_options(html: Path, lang: str, at: int | None, as_json: bool, force: bool) -> None:
    """Refuse, before anything is read, options that do not go with `--html` (exit 2) and a
    target file that would not be written (exit 1)."""
    if lang not in LANGUAGES:
        usage(f"--lang takes {', '.join(LANGUAGES)}")
    if at is not None or as_json:
        usage("--html writes the whole game; leave out --at and --json")
    check_target(html, force)


def write_page(
    record: GameRecord,
    where: str,
    html: Path,
    lang: str,
    seat: int | None,
    force: bool,
    altered: str | None = None,
    analysed: SearchSize | None = None,
) -> None:
    """Write the page of `record` as the player at `seat` (None: a spectator) saw it; with
    `analysed` (the search), the expert's analysis of that seat's decisions (of every seat's on
    a spectator's page, for a finished game only)."""
    warning = None
    if altered is not None:
        warning = f"ALTERED: {altered}; shown as stored, not as it was played (--trust)"
    analysis = None
    if analysed is not None:
        if seat is None and record.result is None:
            fail(f"{where}: the game has not ended; a spectator's page analyses a finished game")
        seats = None if seat is None else frozenset({seat})
        analysis = analysed_game(record, seats, analysed, default_workers(), where)
    try:
        page = game_page(record, lang, seat, warning, analysis)
    except RecordError as error:
        fail(f"{where}: {error}")
    write_atomically(html, page.decode("utf-8"), force)
    side = "a spectator" if seat is None else f"seat {seat + 1}"
    told = f"{len(record.actions)} actions as {side} saw them"
    typer.echo(f"{shown(html)}: {told}, {len(page):,} bytes")
