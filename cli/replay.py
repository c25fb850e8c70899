"""`bohnanza replay`: list stored games, or tell one turn by turn, from any seat's side.

The source is a record file (`game.json`) or a store (a SQLite file or a database URL). From a
store without `--game`, it lists the games, marking those whose seating, options or deck were
changed after they were stored. A stored game is checked as `bohnanza audit` checks it before it is
told: an altered one is refused in one line naming its first bad action, or, with `--trust`, told
under a line that says it was altered. `--as` narrates only what that player could see, using the
engine's own view of that seat. Names and other stored text never reach the terminal as markup or
control characters.

`--html FILE` writes the game instead as one self-contained HTML page (see `cli/page.py`): a
spectator's, or with `--as` that player's, in the language of `--lang`; with `--analysis` the
expert's analysis of that player's decisions (every player's on a spectator's page of a finished
game) marks the slider.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from bohnanza.core.actions import action_to_json
from bohnanza.core.analysis import DEFAULT_DEALS, SearchSize
from bohnanza.core.app.hints import hints_on
from bohnanza.core.audit import AuditFailure, audit_game, header_failure
from bohnanza.core.errors import RecordError
from bohnanza.core.events import (
    DeckExhausted,
    DeckReshuffled,
    Event,
    FaceUpDrawn,
    FieldHarvested,
    GameEnded,
    ThirdFieldBought,
    TradeAccepted,
    TradeClosed,
    TradeProposed,
    TradingEnded,
    TurnBegan,
)
from bohnanza.core.ports import GameSummary, StoredGame, UnreadableGame
from bohnanza.core.record import GameRecord, replay_steps

from .errors import fail, usage
from .narrate import describe, json_printable, printable, render_view
from .page import check_page_options, write_page
from .records import read_record
from .stores import DB_HELP, looks_like_record, opened_store
from .views import result_json, summary_json, view_json, winners_of

if TYPE_CHECKING:
    from bohnanza.adapters.store import SqlGameStore

_STYLES: dict[type[Event], str] = {
    TurnBegan: "bold cyan",
    GameEnded: "bold green",
    FieldHarvested: "green",
    ThirdFieldBought: "green",
    FaceUpDrawn: "blue",
    TradeProposed: "yellow",
    TradeAccepted: "yellow",
    TradeClosed: "yellow",
    TradingEnded: "yellow",
    DeckExhausted: "magenta",
    DeckReshuffled: "magenta",
}


def replay(
    source: Annotated[str, typer.Argument(help=f"A game record (JSON), or a store. {DB_HELP}")],
    game: Annotated[
        str | None, typer.Option("--game", help="The stored game to tell (default: list them).")
    ] = None,
    at: Annotated[
        int | None, typer.Option(help="Show the table after this many actions, then stop.")
    ] = None,
    as_player: Annotated[
        str | None,
        typer.Option("--as", help="Only what this player could see: a seat number or a name."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    trust: Annotated[
        bool,
        typer.Option(
            "--trust", help="Tell a stored game that fails its checks anyway, marked as altered."
        ),
    ] = False,
    html: Annotated[
        Path | None,
        typer.Option(
            "--html",
            help="Write the game as one self-contained HTML page (a spectator's, or --as one "
            "player's) instead of telling it.",
        ),
    ] = None,
    lang: Annotated[
        str, typer.Option("--lang", help="The language of the --html page: en, it, ru or de.")
    ] = "en",
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite the --html file if it exists.")
    ] = False,
    analysis: Annotated[
        bool,
        typer.Option(
            "--analysis",
            help="With --html: mark the decisions that lost coins by the expert's analysis (the "
            "--as player's; every player's on a spectator's page of a finished game).",
        ),
    ] = False,
    deals: Annotated[
        int,
        typer.Option("--deals", help="With --analysis: deals of the unseen cards per decision."),
    ] = DEFAULT_DEALS,
) -> None:
    """List stored games, or tell one game turn by turn and its final scores (or write it as an
    HTML page with --html)."""
    if html is not None:
        check_page_options(html, lang, at, as_json, force)
    elif lang != "en" or force:
        usage("--lang and --force are for --html")
    elif analysis:
        usage("--analysis is for --html")
    if deals != DEFAULT_DEALS and not analysis:
        usage("--deals is for --analysis")
    if not 1 <= deals <= 1000:
        usage("must be 1 to 1000", "--deals")
    size = SearchSize(deals=deals) if analysis else None
    if looks_like_record(source):
        if game is not None:
            fail(f"{source}: is a record file; --game is for a store")
        record = read_record(Path(source))
        if html is not None:
            seat = viewer_seat(as_player, [s.name for s in record.seats])
            write_page(record, source, html, lang, seat, force, analysed=size)
            return
        tell(record, source, at, as_player, as_json)
        return
    with opened_store(source) as store:
        if game is None:
            if html is not None:
                usage("--html needs --game")
            if at is not None or as_player is not None:
                usage("--at and --as need --game")
            hinted: set[str] = set()
            show_list(store.list_games(), header_problems(store, hinted), as_json, hinted)
            return
        stored = store.load_stored(game)
        name = store.name
    record, altered = checked_record(stored, name, trust)
    if html is not None:
        seat = viewer_seat(as_player, [s.name for s in record.seats])
        where = f"{name}: game {game}"
        write_page(record, where, html, lang, seat, force, altered, size)
        return
    tell(record, f"{name}: game {game}", at, as_player, as_json, altered)


def checked_record(stored: StoredGame, name: str, trust: bool) -> tuple[GameRecord, str | None]:
    """The stored game's record, after the audit's checks; with the reason it is not to be
    believed, when it was altered and `trust` says to tell it anyway (else the command ends)."""
    try:
        record = stored.record()
    except RecordError as error:
        fail(f"{name}: game {stored.game.game_id}: {error}")
    failure = audit_game(stored)
    if failure is None:
        return record, None
    if not trust:
        fail(f"{name}: {failure}; not shown (`--trust` shows it anyway)")
    return record, str(failure)


Problem = AuditFailure | UnreadableGame
"""Why a listed game is not to be believed."""


def header_problems(store: SqlGameStore, hinted: set[str] | None = None) -> dict[str, Problem]:
    """The games whose seating, options or deck differ from what was stored, or which cannot be
    read, and why: a cheap check, reading no action. The ids of the games played with hints are
    added to `hinted`, when given."""
    problems: dict[str, Problem] = {}
    for stored in store.stored_games(with_actions=False):
        if isinstance(stored, UnreadableGame):
            problems[stored.game_id] = stored
        else:
            if hinted is not None and hints_on(stored.game.options):
                hinted.add(stored.game.game_id)
            failure = header_failure(stored)
            if failure is not None:
                problems[stored.game.game_id] = failure
    return problems


def show_list(
    games: list[GameSummary],
    problems: dict[str, Problem],
    as_json: bool,
    hinted: Collection[str] = (),
) -> None:
    """The games of a store, oldest first; those in `problems` marked, and why said below;
    those played with hints (`hinted`) marked as such (they are not rated)."""
    if as_json:
        listed = [
            summary_json(g, _problem_line(problems, g.game_id)) | {"hints": g.game_id in hinted}
            for g in games
        ]
        typer.echo(json_printable(json.dumps(listed, ensure_ascii=False, indent=1)))
        return
    # Piped or captured output is read by programs and people alike: never cut a line short.
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 400)
    console.print(games_table(games, problems, hinted))
    console.print(Text(f"{len(games)} game(s)"))
    for problem in problems.values():
        console.print(Text(printable(str(problem)), style="bold red"))
    if problems:
        console.print(Text("`bohnanza audit` checks every action of every game"))


SHORT_COLUMNS = ("status", "date", "actions", "score")
"""Never cut nor wrapped: the long ones (ids, players, winners) give way to them."""
LONG_COLUMNS_MIN = {"id": 8, "players": 12, "winner": 8}
"""The least width of a column that wraps: a word of its kind ('heuristic-1,') whole."""


def games_table(
    games: list[GameSummary], problems: dict[str, Problem], hinted: Collection[str] = ()
) -> Table:
    """The games as a table that reads at any width from 80 columns: the short columns whole,
    the players and winners wrapped between names, a long id wrapped where it must be."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0))
    for column in ("id", "players", "status", "date", "actions", "winner", "score"):
        short = column in SHORT_COLUMNS
        table.add_column(
            column,
            no_wrap=short,
            min_width=LONG_COLUMNS_MIN.get(column, len(column)),
            overflow="fold",
            ratio=None if short else (2 if column == "players" else 1),
        )
    for summary in games:
        hints = summary.game_id in hinted
        table.add_row(*_list_row(summary, problems.get(summary.game_id), hints))
    return table


def _problem_line(problems: dict[str, Problem], game_id: str) -> str | None:
    problem = problems.get(game_id)
    return None if problem is None else str(problem)


def _list_row(summary: GameSummary, problem: Problem | None, hints: bool = False) -> list[Text]:
    """One game's cells, as plain text: a stored name is never read as markup."""
    winner, score = winners_of(summary)
    status = summary.status + (", hints" if hints else "")
    if problem is not None:
        status += ", unreadable" if isinstance(problem, UnreadableGame) else ", altered"
    cells = [
        summary.game_id,
        ", ".join(summary.players),
        status,
        _listed_date(summary),
        str(summary.actions),
        winner or "—",
        "—" if score is None else str(score),
    ]
    texts = [Text(printable(cell)) for cell in cells]
    if problem is not None:
        texts[2].stylize("bold red")
    return texts


def _listed_date(summary: GameSummary) -> str:
    from bohnanza.adapters.store import UNKNOWN_TIME

    if summary.created_at == UNKNOWN_TIME:
        return "?"
    return summary.created_at.strftime("%Y-%m-%d %H:%M")


def viewer_seat(as_player: str | None, names: Sequence[str]) -> int | None:
    """The seat (from 0) named by `--as`: a number from 1, or a player's name."""
    if as_player is None:
        return None
    if as_player.isdigit() and 1 <= int(as_player) <= len(names):
        return int(as_player) - 1
    matches = [i for i, name in enumerate(names) if name.casefold() == as_player.casefold()]
    if len(matches) != 1:
        usage(f"--as takes a seat number 1-{len(names)} or one player's name ({', '.join(names)})")
    return matches[0]


def tell(
    record: GameRecord,
    where: str,
    at: int | None,
    as_player: str | None,
    as_json: bool,
    altered: str | None = None,
) -> None:
    """Narrate a record up to `at` actions (all of them by default), from one side or all;
    under a first line saying why it is not to be believed, when `altered` says so."""
    seat = viewer_seat(as_player, [seat.name for seat in record.seats])
    names = [printable(seat.name) for seat in record.seats]
    if at is not None and not 0 <= at <= len(record.actions):
        usage(f"--at must be 0 to {len(record.actions)}")
    narrator = -1 if seat is None else seat
    steps: list[dict[str, Any]] = []
    console = Console(highlight=False, soft_wrap=True)
    if altered is not None and not as_json:
        warning = f"ALTERED: {altered}; told as stored, not as it was played (--trust)"
        console.print(Text(printable(warning), style="bold red"))
    game = None
    try:
        for current, index, action, events in replay_steps(record, upto=at):
            game = current
            lines = [(e, describe(e, names, viewer=narrator)) for e in events]
            told = [(e, line) for e, line in lines if line is not None]
            if as_json:
                step: dict[str, Any] = {"action": index, "lines": [line for _, line in told]}
                if action is not None:
                    step["player"] = action.player
                    step["type"] = action.kind
                    if seat is None or seat == action.player:
                        step["payload"] = action_to_json(action)
                steps.append(step)
                continue
            for event, line in told:
                console.print(Text(line, style=_STYLES.get(type(event), "")))
    except RecordError as error:
        fail(f"{where}: {error}")
    assert game is not None
    if as_json:
        out: dict[str, Any] = {
            "game_id": record.game_id,
            "seats": [{"seat": i, "name": s.name} for i, s in enumerate(record.seats)],
            "viewer": seat,
            "actions": len(record.actions) if at is None else at,
            "steps": steps,
            "result": result_json(game.result() if game.is_over else None),
        }
        if at is not None:
            out["table"] = view_json(game.view(seat), [s.name for s in record.seats])
        if altered is not None:
            out["altered"] = altered
        typer.echo(json_printable(json.dumps(out, ensure_ascii=False)))
        return
    if at is not None:
        console.print("")
        console.print(Text(render_view(game.view(seat), names)))
