"""`bohnanza analyse`: the expert's look back at a finished game, decision by decision.

The source is a record file or a store with `--game`, read as `bohnanza replay` reads them (a
stored game that fails the audit is refused). Every decision of every seat, or of the `--as`
seat, is judged from that seat's own view (`bohnanza.core.analysis`), in `--workers` processes;
the figures depend on `--seed` and `--deals`, never on the number of processes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from bohnanza.adapters.analysis_words import option_text, report_lines
from bohnanza.adapters.i18n import load_translator
from bohnanza.core.analysis import (
    DEFAULT_DEALS,
    Analysis,
    SearchSize,
)
from bohnanza.core.app.i18n import LANGUAGES, English
from bohnanza.core.record import GameRecord

from .errors import fail, usage
from .judging import analysed, default_workers
from .narrate import json_printable, printable
from .records import read_record
from .replay import checked_record, viewer_seat
from .stores import DB_HELP, looks_like_record, opened_store

MAX_WORKERS = 64


def analyse(
    source: Annotated[str, typer.Argument(help=f"A game record (JSON), or a store. {DB_HELP}")],
    game: Annotated[
        str | None, typer.Option("--game", help="The stored game to analyse (needed for a store).")
    ] = None,
    as_player: Annotated[
        str | None,
        typer.Option("--as", help="Only this player's decisions: a seat number or a name."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    lang: Annotated[str, typer.Option("--lang", help="The language: en, it, ru or de.")] = "en",
    workers: Annotated[
        int | None, typer.Option("--workers", help="Processes to use (default: one per core).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="The seed of the search.")] = 0,
    deals: Annotated[
        int, typer.Option("--deals", help="Deals of the unseen cards per decision.")
    ] = DEFAULT_DEALS,
) -> None:
    """Judge every decision of a finished game with the expert bot: the coins each one cost
    against the best option found, per player, and the game's turning points."""
    if lang not in LANGUAGES:
        usage(f"--lang takes {', '.join(LANGUAGES)}")
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        usage(f"must be 1 to {MAX_WORKERS}", "--workers")
    if not 1 <= deals <= 1000:
        usage("must be 1 to 1000", "--deals")
    if not 0 <= seed < 2**63:
        usage("must be 0 to 2**63 - 1", "--seed")
    record, title = _record(source, game)
    if record.result is None:
        fail(f"{title}: the game has not ended; only a finished game is analysed")
    names = [seat.name for seat in record.seats]
    seat = viewer_seat(as_player, names)
    seats = None if seat is None else frozenset({seat})
    size = SearchSize(seed=seed, deals=deals)
    analysis = analysed(record, seats, size, workers or default_workers(), title)
    if as_json:
        out = analysis_json(analysis, record, size)
        typer.echo(json_printable(json.dumps(out, ensure_ascii=False)))
        return
    tr = load_translator(lang)
    for line in report_lines(tr, analysis, names, title):
        typer.echo(printable(line))


def _record(source: str, game: str | None) -> tuple[GameRecord, str]:
    if looks_like_record(source):
        if game is not None:
            fail(f"{source}: is a record file; --game is for a store")
        record = read_record(Path(source))
        return record, record.game_id or source
    if game is None:
        usage("a store needs --game")
    with opened_store(source) as store:
        stored = store.load_stored(game)
        name = store.name
    record, _ = checked_record(stored, name, trust=False)
    return record, f"{name}: game {game}"


def analysis_json(analysis: Analysis, record: GameRecord, size: SearchSize) -> dict[str, Any]:
    """The analysis as a JSON object: the search, the players, the decisions judged and the
    turning points (the game's costliest mistakes, by their place in the record)."""
    tr = English()
    return {
        "game_id": record.game_id,
        "seed": size.seed,
        "deals": size.deals,
        "mistake_threshold": analysis.threshold,
        "players": [
            {
                "seat": p.seat,
                "name": p.name,
                "score": p.score,
                "decisions": p.decisions,
                "forced": p.forced,
                "mistakes": p.mistakes,
                "expected_loss": round(p.expected_loss, 3),
                "loss_per_decision": round(p.loss_per_decision, 4),
            }
            for p in analysis.players
        ],
        "decisions": [
            {
                "action": j.index,
                "seat": j.seat,
                "turn": j.turn,
                "step": j.step,
                "chosen": option_text(tr, j.chosen),
                "best": option_text(tr, j.best),
                "expected_loss": round(j.loss, 3),
                "error": round(j.error, 3),
                "mistake": j.mistake,
                "expected_margin": round(j.margin, 3),
                "options": j.options,
                "deals": j.deals,
                "looked_again": j.again,
            }
            for j in analysis.judgements
            if not j.forced
        ],
        "turning_points": [j.index for j in analysis.turning_points],
    }
