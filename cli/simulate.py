"""`bohnanza simulate`: bots play many games; the records go into a store or a folder."""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress

from bohnanza.core.audit import check_record
from bohnanza.core.bots import STRATEGIES, make_bot, play_out
from bohnanza.core.game import Game
from bohnanza.core.ports import GameStore
from bohnanza.core.record import GameRecord, SeatRecord
from bohnanza.core.table_setup import MAX_PLAYERS, MIN_PLAYERS

from .errors import fail, usage
from .files import check_target, shown
from .records import record_identities, store_record, write_record
from .stores import DB_HELP, opened_store

MAX_SEED = 10**12
"""Each game's seed (below) then still fits the 64-bit integers a record holds."""
MAX_GAMES = 1_000_000


def game_seed(seed: int, index: int) -> int:
    """Each game's own seed, so any one game can be played again alone."""
    return seed * 1_000_003 + index


def line_up(players: int, strategies: list[str]) -> tuple[str, ...]:
    """Each seat's strategy: the listed ones assigned round the table."""
    return tuple(strategies[seat % len(strategies)] for seat in range(players))


def line_up_name(seats: tuple[str, ...]) -> str:
    """The shortest round of strategies that repeats into the line-up: 'heuristic' for three
    heuristic bots, 'random+heuristic' for random, heuristic, random."""
    for length in range(1, len(seats) + 1):
        if all(seats[i] == seats[i % length] for i in range(len(seats))):
            return "+".join(seats[:length])
    return "+".join(seats)


def game_id_for(seats: tuple[str, ...], seed: int) -> str:
    """The id of the simulated game: the player count, the line-up and the game's seed, so
    studies of several settings with the same seeds share one store."""
    return f"sim-p{len(seats)}-{line_up_name(seats)}-{seed}"


def simulate_game(players: int, strategies: list[str], seed: int) -> GameRecord:
    """One complete bot game, as its record."""
    seats = line_up(players, strategies)
    rng = random.Random(seed)
    game = Game.new(len(seats), rng)
    bots = [make_bot(strategy, random.Random(rng.random())) for strategy in seats]
    play_out(game, bots)
    records = tuple(
        SeatRecord(f"{bot.strategy}-{i + 1}", "bot", bot.strategy) for i, bot in enumerate(bots)
    )
    return GameRecord.of(game, records, {"seed": seed}, game_id=game_id_for(seats, seed))


def simulate(
    players: Annotated[int, typer.Option(help="Players per game (2-7).")] = 4,
    games: Annotated[int, typer.Option(help="How many games.")] = 10,
    seed: Annotated[int, typer.Option(help="Seed for the whole run.")] = 1,
    db: Annotated[str | None, typer.Option(help=f"Store the games here. {DB_HELP}")] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            metavar="FOLDER",
            help="Write one JSON record per game into this folder.",
        ),
    ] = None,
    old_out: Annotated[Path | None, typer.Option("--out", hidden=True)] = None,
    bots: Annotated[
        str, typer.Option(help="Bot strategies, comma-separated, assigned round the table.")
    ] = "heuristic",
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite record files already in OUTPUT.")
    ] = False,
) -> None:
    """Let bots play GAMES games; store them in DB, or write records into OUTPUT (default
    records/)."""
    if out is not None and old_out is not None:
        usage("--output and --out are the same option; give it once")
    out = out or old_out
    if out is not None and str(out) == "-":
        usage("takes a folder: records are one file per game", "--output")
    seats = _checked_line_up(players, games, seed, bots)
    seeds = [game_seed(seed, index) for index in range(games)]
    if db is None:
        folder = out or Path("records")
        _prepare_folder(folder, [_record_path(folder, seats, s) for s in seeds], force)
        _run(seats, seeds, None, folder, shown(folder), force)
        return
    if out is not None:
        _prepare_folder(out, [_record_path(out, seats, s) for s in seeds], force)
    with opened_store(db, create=True) as store:
        taken = {g.game_id for g in store.list_games()} & {game_id_for(seats, s) for s in seeds}
        if taken:
            fail(f"{store.name}: already holds game {min(taken)}; choose another --seed")
        where = store.name if out is None else f"{store.name} and {shown(out)}"
        _run(seats, seeds, store, out, where, force)


def _checked_line_up(players: int, games: int, seed: int, bots: str) -> tuple[str, ...]:
    """The seats' strategies, once the options are known to be sound (exit 2 if not)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        usage(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}")
    if not 1 <= games <= MAX_GAMES:
        usage(f"--games must be 1 to {MAX_GAMES:,}")
    if not 0 <= seed <= MAX_SEED:
        usage(f"--seed must be 0 to {MAX_SEED:,}")
    strategies = [s.strip() for s in bots.split(",") if s.strip()]
    if not strategies or any(s not in STRATEGIES for s in strategies):
        usage(f"--bots takes {', '.join(STRATEGIES)} (comma-separated)")
    return line_up(players, strategies)


def _record_path(out: Path, seats: tuple[str, ...], seed: int) -> Path:
    return out / f"{game_id_for(seats, seed)}.json"


def _prepare_folder(out: Path, paths: list[Path], force: bool) -> None:
    """Create the folder; refuse, before any game is played, a record file that is in the way."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        fail(f"{shown(out)}: {error.strerror}")
    for path in paths:
        check_target(path, force)


def _run(
    seats: tuple[str, ...],
    seeds: list[int],
    store: GameStore | None,
    out: Path | None,
    where: str,
    force: bool,
) -> None:
    actions = 0
    winner_scores: list[int] = []
    started = time.perf_counter()
    console = Console(stderr=True)
    with Progress(console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task("simulating", total=len(seeds))
        for game_seed_ in seeds:
            record = simulate_game(len(seats), list(seats), game_seed_)
            if out is not None:
                write_record(record, _record_path(out, seats, game_seed_), force)
            if store is not None:
                store_record(
                    store,
                    record,
                    check_record(record),
                    game_id_for(seats, game_seed_),
                    record_identities(record, "bot"),
                    datetime.now(UTC),
                )
            actions += len(record.actions)
            assert record.result is not None
            winner_scores.append(max(record.result.scores))
            progress.advance(task)
    elapsed = time.perf_counter() - started
    mean = sum(winner_scores) / len(winner_scores)
    typer.echo(
        f"games {len(seeds)}, actions {actions}, winners' mean score {mean:.2f}, "
        f"time {elapsed:.2f} s ({len(seeds) / elapsed:.1f} games/s) → {where}"
    )
