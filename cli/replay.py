"""`bohnanza replay`: list stored games, or tell one turn by turn, from any seat's side.

The source is a record file (`game.json`) or a store (a SQLite file or a database URL). From a
store without `--game`, it lists the games. `--as` narrates only what that player could see, using
the engine's own view of that seat.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from bohnanza.core.actions import action_to_json
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
from bohnanza.core.ports import GameSummary
from bohnanza.core.record import GameRecord, replay_steps

from .errors import fail
from .narrate import describe, render_view
from .records import read_record
from .stores import DB_HELP, looks_like_record, opened_store
from .views import result_json, summary_json, view_json, winners_of

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
) -> None:
    """List stored games, or tell one game turn by turn and its final scores."""
    if looks_like_record(source):
        if game is not None:
            fail(f"{source}: is a record file; --game is for a store")
        tell(read_record(Path(source)), source, at, as_player, as_json)
        return
    with opened_store(source) as store:
        if game is None:
            if at is not None or as_player is not None:
                fail("--at and --as need --game")
            show_list(store.list_games(), as_json)
            return
        try:
            record = store.load_record(game)
        except RecordError as error:
            fail(f"{store.name}: game {game}: {error}")
    tell(record, f"{store.name}: game {game}", at, as_player, as_json)


def show_list(games: list[GameSummary], as_json: bool) -> None:
    """The games of a store, oldest first."""
    if as_json:
        typer.echo(json.dumps([summary_json(g) for g in games], ensure_ascii=False, indent=1))
        return
    # Piped or captured output is read by programs and people alike: never cut a line short.
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 400)
    table = Table(box=box.SIMPLE_HEAD)
    for column in ("id", "players", "status", "date", "actions", "winner", "score"):
        table.add_column(column, no_wrap=column in ("id", "date", "status"))
    for summary in games:
        winner, score = winners_of(summary)
        table.add_row(
            summary.game_id,
            ", ".join(summary.players),
            summary.status,
            summary.created_at.strftime("%Y-%m-%d %H:%M"),
            str(summary.actions),
            winner or "—",
            "—" if score is None else str(score),
        )
    console.print(table)
    console.print(f"{len(games)} game(s)")


def viewer_seat(as_player: str | None, names: Sequence[str]) -> int | None:
    """The seat (from 0) named by `--as`: a number from 1, or a player's name."""
    if as_player is None:
        return None
    if as_player.isdigit() and 1 <= int(as_player) <= len(names):
        return int(as_player) - 1
    matches = [i for i, name in enumerate(names) if name.casefold() == as_player.casefold()]
    if len(matches) != 1:
        fail(f"--as takes a seat number 1-{len(names)} or one player's name ({', '.join(names)})")
    return matches[0]


def tell(
    record: GameRecord, where: str, at: int | None, as_player: str | None, as_json: bool
) -> None:
    """Narrate a record up to `at` actions (all of them by default), from one side or all."""
    names = [seat.name for seat in record.seats]
    seat = viewer_seat(as_player, names)
    if at is not None and not 0 <= at <= len(record.actions):
        fail(f"--at must be 0 to {len(record.actions)}")
    narrator = -1 if seat is None else seat
    steps: list[dict[str, Any]] = []
    console = Console(highlight=False, soft_wrap=True)
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
            "seats": [{"seat": i, "name": n} for i, n in enumerate(names)],
            "viewer": seat,
            "actions": len(record.actions) if at is None else at,
            "steps": steps,
            "result": result_json(game.result() if game.is_over else None),
        }
        if at is not None:
            out["table"] = view_json(game.view(seat), names)
        typer.echo(json.dumps(out, ensure_ascii=False))
        return
    if at is not None:
        console.print("")
        console.print(Text(render_view(game.view(seat), names)))
