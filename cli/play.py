"""`bohnanza play`: you against bots in the terminal, through the chat application.

The terminal is a chat platform like any other (`bohnanza.adapters.terminal`): the game is opened
with the lobby commands, stored as it goes, and an interrupted game goes on with `--resume`.
"""

from __future__ import annotations

import asyncio
import os
import shlex
from pathlib import Path
from typing import Annotated

import typer

from bohnanza.adapters.i18n import load_translators
from bohnanza.adapters.store import display_name
from bohnanza.adapters.terminal import (
    PLATFORM,
    Console,
    NothingToResume,
    TableChoice,
    player_name,
    stdin_lines,
)
from bohnanza.core.app.i18n import LANGUAGES
from bohnanza.core.app.lobby import LobbyError, parse_duration
from bohnanza.core.bots import STRATEGIES
from bohnanza.core.table_setup import MAX_PLAYERS, MIN_PLAYERS

from .errors import fail
from .files import check_target, shown, write_atomically
from .stores import DB_HELP, opened_store, refuse_altered_games_in_progress


def default_db() -> Path:
    """Where terminal games are kept unless --db says otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bohnanza" / "games.db"


def replay_source(target: str) -> str:
    """The store `play` used, as one shell word for `bohnanza replay`: a file as the absolute
    path that was opened (so the command runs from any folder), a URL without its password."""
    if "://" in target:
        return shlex.quote(shown(display_name(target)))
    return shlex.quote(shown(Path(target).expanduser().resolve()))


def play(
    players: Annotated[int, typer.Option(help="Players at the table, you included (2-7).")] = 4,
    bots: Annotated[
        str, typer.Option(help="Bot strategies, comma-separated, assigned round the table.")
    ] = "heuristic",
    lang: Annotated[str, typer.Option(help="Language: en, it, ru or de.")] = "en",
    db: Annotated[
        str | None, typer.Option(help=DB_HELP + " Default: games.db in your data folder.")
    ] = None,
    deadline: Annotated[str, typer.Option(help="Time per decision (90s, 10m, 2h) or off.")] = "off",
    seed: Annotated[int | None, typer.Option(help="Seed, to play the same deal again.")] = None,
    name: Annotated[
        str | None, typer.Option(help="Your name at the table (default: your login name).")
    ] = None,
    resume: Annotated[bool, typer.Option(help="Go on with your interrupted game.")] = False,
    record: Annotated[
        Path | None, typer.Option(help="Also write the game record here when you stop.")
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite the --record file if it exists.")
    ] = False,
) -> None:
    """Play a game in the terminal against bots (stored, so it can be resumed)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        fail(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}")
    strategies = [s.strip() for s in bots.split(",") if s.strip()]
    if not strategies or any(s not in STRATEGIES for s in strategies):
        fail(f"--bots takes one or more of {', '.join(STRATEGIES)}")
    if lang not in LANGUAGES:
        fail(f"--lang takes one of {', '.join(LANGUAGES)}")
    try:
        parse_duration(deadline)
    except LobbyError as error:
        fail(f"--deadline: {error}", code=2)
    if record is not None:
        check_target(record, force)  # before the game, not after an hour of play
    target = db or str(default_db())
    if db is None:
        default_db().parent.mkdir(parents=True, exist_ok=True)
    with opened_store(target, create=True) as store:
        if resume:
            refuse_altered_games_in_progress(store, PLATFORM)
        console = Console(
            store, load_translators(), stdin_lines(), typer.echo, seed, replay_source(target)
        )
        choice = TableChoice(players, strategies, lang, deadline, player_name(name))
        interrupted = False
        try:
            asyncio.run(_play(console, choice, resume))
        except NothingToResume as error:
            fail(str(error))
        except KeyboardInterrupt:
            interrupted = True  # Ctrl-C: every move is stored already; the game is kept
        kept = console.kept_line()
        game_id = console.last_game_id
        if game_id is not None:
            if kept is not None:
                typer.echo(f"\n{kept}")
            if record is not None:
                write_atomically(record, store.load_record(game_id).dumps(), force)
                typer.echo(f"record written to {shown(record)} (bohnanza replay {shown(record)})")
    if interrupted:
        raise typer.Exit(130)


async def _play(console: Console, choice: TableChoice, resume: bool) -> None:
    if resume:
        await console.resume()
    else:
        await console.open(choice)
    await console.play()
