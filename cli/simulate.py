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

from .errors import fail
from .records import record_identities, store_record
from .stores import DB_HELP, opened_store


def game_seed(seed: int, index: int) -> int:
    """Each game's own seed, so any one game can be played again alone."""
    return seed * 1_000_003 + index


def game_id_for(seed: int) -> str:
    """The id of the simulated game with this seed."""
    return f"sim-{seed}"


def simulate_game(players: int, strategies: list[str], seed: int) -> GameRecord:
    """One complete bot game, as its record."""
    rng = random.Random(seed)
    game = Game.new(players, rng)
    bots = [
        make_bot(strategies[i % len(strategies)], random.Random(rng.random()))
        for i in range(players)
    ]
    play_out(game, bots)
    seats = tuple(
        SeatRecord(f"{bot.strategy}-{i + 1}", "bot", bot.strategy) for i, bot in enumerate(bots)
    )
    return GameRecord.of(game, seats, {"seed": seed}, game_id=game_id_for(seed))


def simulate(
    players: Annotated[int, typer.Option(help="Players per game (2-7).")] = 4,
    games: Annotated[int, typer.Option(help="How many games.")] = 10,
    seed: Annotated[int, typer.Option(help="Seed for the whole run.")] = 1,
    db: Annotated[str | None, typer.Option(help=f"Store the games here. {DB_HELP}")] = None,
    out: Annotated[
        Path | None, typer.Option(help="Write one JSON record per game into this folder.")
    ] = None,
    bots: Annotated[
        str, typer.Option(help="Bot strategies, comma-separated, assigned round the table.")
    ] = "heuristic",
) -> None:
    """Let bots play GAMES games; store them in DB, or write records into OUT (default records/)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        fail(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}")
    if not 1 <= games <= 1_000_000:
        fail("--games must be 1 to 1,000,000")
    strategies = [s.strip() for s in bots.split(",") if s.strip()]
    unknown = [s for s in strategies if s not in STRATEGIES]
    if not strategies or unknown:
        fail(f"--bots takes {', '.join(STRATEGIES)} (comma-separated)")
    if db is None and out is None:
        out = Path("records")
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            fail(f"{out}: {error.strerror}")
    seeds = [game_seed(seed, index) for index in range(games)]
    if db is None:
        _run(players, strategies, seed, seeds, None, out, str(out))
        return
    with opened_store(db, create=True) as store:
        taken = {g.game_id for g in store.list_games()} & {game_id_for(s) for s in seeds}
        if taken:
            fail(f"{store.name}: already holds game {min(taken)}; choose another --seed")
        where = store.name if out is None else f"{store.name} and {out}"
        _run(players, strategies, seed, seeds, store, out, where)


def _run(
    players: int,
    strategies: list[str],
    seed: int,
    seeds: list[int],
    store: GameStore | None,
    out: Path | None,
    where: str,
) -> None:
    actions = 0
    winner_scores: list[int] = []
    started = time.perf_counter()
    console = Console(stderr=True)
    with Progress(console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task("simulating", total=len(seeds))
        for index, game_seed_ in enumerate(seeds):
            record = simulate_game(players, strategies, game_seed_)
            if out is not None:
                path = out / f"game-{seed}-{index:05d}.json"
                try:
                    path.write_text(record.dumps(), encoding="utf-8")
                except OSError as error:
                    fail(f"{path}: {error.strerror}")
            if store is not None:
                store_record(
                    store,
                    record,
                    check_record(record),
                    game_id_for(game_seed_),
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
