"""`bohnanza play`: you against bots in the terminal, through the chat application.

The terminal is a chat platform like any other (`bohnanza.adapters.terminal`): the game is opened
with the lobby commands, stored as it goes, and an interrupted game goes on with `--resume`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bohnanza.adapters.i18n import load_translators
from bohnanza.core.app.i18n import LANGUAGES
from bohnanza.core.app.lobby import (
    MAX_TRADE_WINDOW_SECONDS,
    MIN_TURN_SECONDS,
    LobbyError,
    parse_duration,
)
from bohnanza.core.bots import STRATEGIES
from bohnanza.core.table_setup import MAX_PLAYERS, MIN_PLAYERS

from .errors import fail
from .files import check_target, shown, write_atomically
from .stores import DB_HELP, opened_store, refuse_altered_games_in_progress

if TYPE_CHECKING:
    from bohnanza.adapters.terminal import Console, TableChoice


def default_db() -> Path:
    """Where terminal games are kept unless --db says otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bohnanza" / "games.db"


def replay_source(target: str) -> str:
    """The store `play` used, as one shell word for `bohnanza replay`: a file as the absolute
    path that was opened (so the command runs from any folder), a URL without its password."""
    if "://" in target:
        from bohnanza.adapters.store import display_name

        return shlex.quote(shown(display_name(target)))
    return shlex.quote(shown(Path(target).expanduser().resolve()))


def _players(value: int) -> int:
    if not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise typer.BadParameter(f"must be {MIN_PLAYERS} to {MAX_PLAYERS}")
    return value


def _bots(value: str) -> str:
    strategies = [s.strip() for s in value.split(",") if s.strip()]
    if not strategies or any(s not in STRATEGIES for s in strategies):
        raise typer.BadParameter(f"takes one or more of {', '.join(STRATEGIES)}")
    return value


def _language(value: str) -> str:
    if value not in LANGUAGES:
        raise typer.BadParameter(f"takes one of {', '.join(LANGUAGES)}")
    return value


def _deadline(value: str) -> str:
    try:
        parse_duration(value)
    except LobbyError as error:
        raise typer.BadParameter(str(error)) from None
    return value


def _trade_window(value: str) -> str:
    seconds = _seconds(value)
    if not MIN_TURN_SECONDS <= seconds <= MAX_TRADE_WINDOW_SECONDS:
        raise typer.BadParameter("is 30s to 1h (e.g. 2m)")
    return value


def _seconds(value: str) -> int:
    try:
        return parse_duration(value)
    except LobbyError as error:
        raise typer.BadParameter(str(error)) from None


def program() -> str:
    """The command that runs bohnanza, as the person can type it where he is: `bohnanza` when
    that name on his PATH is this very program, else the path it was started by (after
    `make play`, `.venv/bin/bohnanza`)."""
    started = sys.argv[0] if sys.argv and sys.argv[0] else "bohnanza"
    name = Path(started).name
    found = shutil.which(name)
    if found is not None and os.sep in started:
        with contextlib.suppress(OSError):
            if Path(found).samefile(started):
                return name
    if os.sep not in started:
        return name if found is not None else "bohnanza"
    return shlex.quote(started)


def play(
    players: Annotated[
        int,
        typer.Option(
            help=f"Players at the table, you included ({MIN_PLAYERS}-{MAX_PLAYERS}).",
            callback=_players,
        ),
    ] = 4,
    bots: Annotated[
        str,
        typer.Option(
            help=f"Bot strategies ({', '.join(STRATEGIES)}), comma-separated, assigned round "
            "the table.",
            callback=_bots,
        ),
    ] = "heuristic",
    lang: Annotated[
        str, typer.Option(help="Language: en, it, ru or de.", callback=_language)
    ] = "en",
    db: Annotated[
        str | None, typer.Option(help=DB_HELP + " Default: games.db in your data folder.")
    ] = None,
    deadline: Annotated[
        str,
        typer.Option(
            help="Time per decision (90s, 10m, 2h), after which a default move is played for "
            "you; off: take your time.",
            callback=_deadline,
            metavar="TIME",
        ),
    ] = "off",
    trade_window: Annotated[
        str,
        typer.Option(
            "--trade-window",
            help="How long a bot on turn keeps trading open for you (30s to 1h).",
            callback=_trade_window,
            metavar="TIME",
        ),
    ] = "2m",
    seed: Annotated[int | None, typer.Option(help="Seed, to play the same deal again.")] = None,
    name: Annotated[
        str | None, typer.Option(help="Your name at the table (default: your login name).")
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(help="Go on with an interrupted game (asked which, if you left several)."),
    ] = False,
    game: Annotated[
        str | None,
        typer.Option(help="With --resume: the id of the game to go on with.", metavar="ID"),
    ] = None,
    record: Annotated[
        Path | None, typer.Option(help="Also write the game record here when you stop.")
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite the --record file if it exists.")
    ] = False,
) -> None:
    """Play a game in the terminal against bots (stored, so it can be resumed)."""
    from bohnanza.adapters.terminal import (
        FALLBACK_NAME,
        PLATFORM,
        Console,
        NothingToResume,
        TableChoice,
        closed_output,
        line_waiting,
        player_name,
        stdin_lines,
        told_of,
        unfinished_games,
    )

    strategies = [s.strip() for s in bots.split(",") if s.strip()]
    if game is not None and not resume:
        raise typer.BadParameter("goes with --resume", param_hint="'--game'")
    if record is not None:
        check_target(record, force)  # before the game, not after an hour of play
    target = db or str(default_db())
    if db is None:
        default_db().parent.mkdir(parents=True, exist_ok=True)
    command = program()
    resume_command = f"{command} play --resume"
    if db is not None:
        resume_command += f" --db {replay_source(target)}"
    translators = load_translators()
    with opened_store(target, create=True) as store:
        console = Console(
            store,
            translators,
            stdin_lines(),
            _echo,
            seed,
            replay_source(target),
            command,
            resume_command,
            output_closed=closed_output(),
            line_waiting=line_waiting(),
        )
        tr = translators[lang]
        seat_name = player_name(name, tr.gettext(FALLBACK_NAME))
        choice = TableChoice(players, strategies, lang, deadline, seat_name, trade_window)
        interrupted = False
        try:
            chosen = None
            if resume:
                refuse_altered_games_in_progress(store, PLATFORM)
                chosen = console.choose_game(game)
            else:
                left = told_of(tr, unfinished_games(store), resume_command)
                if left is not None:
                    console.port.say(left)
            asyncio.run(_play(console, choice, chosen))
        except NothingToResume as error:
            fail(str(error))
        except KeyboardInterrupt:
            interrupted = True  # Ctrl-C: every move is stored already; the game is kept

        if console.port.gone:
            # The output's reader is gone (`bohnanza play | head -1`): the game is kept, and
            # nothing more can be said.
            _quiet_exit()
        kept = console.kept_line()
        game_id = console.last_game_id
        if game_id is not None:
            if kept is not None:
                console.port.say(f"\n{kept}")
            if record is not None:
                write_atomically(record, store.load_record(game_id).dumps(), force)
                path = shlex.quote(shown(record))
                typer.echo(f"record written to {shown(record)} ({command} replay {path})")
    if interrupted:
        raise typer.Exit(130)


async def _play(console: Console, choice: TableChoice, resume: str | None) -> None:
    if resume is not None:
        await console.resume(resume)
    else:
        await console.open(choice)
    await console.play()


def _echo(text: str) -> None:
    typer.echo(text)
    sys.stdout.flush()  # a closed pipe is found at once, not at the end of the game


def _quiet_exit() -> None:
    """Leave without a word once standard output is gone: Python's own flush at exit would
    only fail again and say so."""
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    raise typer.Exit(0)
