"""`bohnanza stats`: the ratings and statistics of a store, per room and per platform.

Each finished game rates its players on its room's board and on its platform's board (games
stored with no platform, by `simulate` or `import`, on the board of the platform `local`). The
boards are derived from the stored games: `--rebuild` computes them all again, replaying the
finished games in the order they ended, and gives the same figures as the ones kept up as games
end. Names are printed as text, never as markup, with hidden characters shown escaped.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from bohnanza.core.app.ports import Standing

from .errors import fail, usage
from .narrate import json_printable, printable
from .stores import DB_HELP, opened_store

if TYPE_CHECKING:
    from bohnanza.adapters.store import SqlGameStore
    from bohnanza.adapters.store.rating_model import Board


def stats(
    db: Annotated[str, typer.Argument(help=f"The store. {DB_HELP}")],
    room: Annotated[
        str | None, typer.Option(help="The board of one room (default: each platform's).")
    ] = None,
    platform: Annotated[
        str | None,
        typer.Option(
            # The board of the platform `rating_model.LOCAL`, named here without importing the
            # store: the help is shown at once.
            help="The board of one platform, over all its rooms ('local': simulated and "
            "imported games)."
        ),
    ] = None,
    player: Annotated[
        str | None,
        typer.Option(help="One player's figures on each board: a user id, a name or a strategy."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    rebuild: Annotated[
        bool,
        typer.Option("--rebuild", help="First compute every rating again from the stored games."),
    ] = False,
) -> None:
    """Leaderboards of the ratings per room and per platform, or one player's figures."""
    with opened_store(db) as store:
        if rebuild:
            rated = store.rebuild_ratings()
            typer.echo(f"{store.name}: rebuilt the ratings from {rated} finished game(s)", err=True)
        boards = _chosen_boards(store, room, platform)
        if player is not None:
            _show_player(store, player, boards, room is not None, as_json)
            return
        shown = [(board, games, store.board_standings(board)) for board, games in boards]
        if as_json:
            out = {"boards": [_board_json(b, games, rows) for b, games, rows in shown]}
            typer.echo(json_printable(json.dumps(out, ensure_ascii=False, indent=1)))
            return
        console = _console()
        if not shown:
            # A store upgraded from before ratings has its older games rated by --rebuild.
            hint = "" if rebuild else " (--rebuild rates the finished games stored before)"
            console.print(Text(f"{printable(store.name)}: no rated games yet{hint}"))
        for board, games, rows in shown:
            console.print(Text(f"{_board_title(board)}: {games} game(s)", style="bold"))
            console.print(_leaderboard(rows))


def _chosen_boards(
    store: SqlGameStore, room: str | None, platform: str | None
) -> list[tuple[Board, int]]:
    """The boards asked for: a room's, a platform's, or (neither asked) each platform's."""
    from bohnanza.adapters.store.rating_model import WHOLE_PLATFORM, Board

    every = store.rating_boards()
    if room is not None:
        found = [
            (b, n)
            for b, n in every
            if b.room == room and b.room != WHOLE_PLATFORM and platform in (None, b.platform)
        ]
        if not found:
            where = f" on {platform!r}" if platform is not None else ""
            fail(f"{store.name}: no rated games in room {room!r}{where}")
        if len(found) > 1:
            platforms = ", ".join(b.platform for b, _ in found)
            usage(f"room {room!r} is on several platforms ({platforms}): add --platform")
        return found
    if platform is not None:
        found = [(b, n) for b, n in every if b == Board(platform, WHOLE_PLATFORM)]
        if not found:
            fail(f"{store.name}: no rated games on platform {platform!r}")
        return found
    return [(b, n) for b, n in every if b.room == WHOLE_PLATFORM]


def _show_player(
    store: SqlGameStore,
    player: str,
    boards: list[tuple[Board, int]],
    one_room: bool,
    as_json: bool,
) -> None:
    """A player's figures on the chosen boards, or on every board of the chosen platforms."""
    from bohnanza.adapters.store.rating_model import Board

    wanted = {board for board, _ in boards}
    platforms = {board.platform for board in wanted}
    found = [
        s
        for s in store.player_standings(player)
        if (Board(s.platform, s.room) in wanted if one_room else s.platform in platforms)
    ]
    if not found:
        fail(f"{store.name}: no rated player {player!r} there")
    if as_json:
        out = {"player": player, "standings": [_standing_json(s, board=True) for s in found]}
        typer.echo(json_printable(json.dumps(out, ensure_ascii=False, indent=1)))
        return
    table = Table(box=box.SIMPLE_HEAD)
    for column in ("board", "place", *_COLUMNS[1:]):
        table.add_column(column, justify="right" if column in _NUMERIC else "left")
    for standing in found:
        board = _board_title(Board(standing.platform, standing.room))
        place = f"{standing.place} of {standing.players}"
        table.add_row(Text(board), Text(place), *_cells(standing)[1:])
    _console().print(table)


_COLUMNS = ("#", "player", "id", "games", "wins", "mean coins", "rating", "mu", "sigma")
_NUMERIC = frozenset({"#", "place", "games", "wins", "mean coins", "rating", "mu", "sigma"})


def _leaderboard(rows: list[Standing]) -> Table:
    table = Table(box=box.SIMPLE_HEAD)
    for column in _COLUMNS:
        table.add_column(column, justify="right" if column in _NUMERIC else "left")
    for standing in rows:
        table.add_row(*_cells(standing))
    return table


def _cells(standing: Standing) -> list[Text]:
    """One player's cells, as plain text: a stored name is never read as markup."""
    name = f"{standing.player_id} (bot)" if standing.kind == "bot" else standing.name
    cells = [
        str(standing.place),
        name,
        f"{standing.player_platform}:{standing.player_id}",
        str(standing.games),
        str(standing.wins),
        f"{standing.mean_coins:.2f}",
        f"{standing.ordinal:.2f}",
        f"{standing.mu:.2f}",
        f"{standing.sigma:.2f}",
    ]
    return [Text(printable(cell)) for cell in cells]


def _board_title(board: Board) -> str:
    from bohnanza.adapters.store.rating_model import WHOLE_PLATFORM

    if board.room == WHOLE_PLATFORM:
        return f"{printable(board.platform)}, all rooms"
    return f"{printable(board.platform)}, room {printable(board.room)}"


def _board_json(board: Board, games: int, rows: list[Standing]) -> dict[str, Any]:
    return {
        "platform": board.platform,
        "room": board.room or None,
        "games": games,
        "players": [_standing_json(s) for s in rows],
    }


def _standing_json(standing: Standing, board: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if board:
        out |= {"platform": standing.platform, "room": standing.room or None}
    return out | {
        "place": standing.place,
        "of": standing.players,
        "player_platform": standing.player_platform,
        "player_id": standing.player_id,
        "name": standing.name,
        "kind": standing.kind,
        "games": standing.games,
        "wins": standing.wins,
        "coins": standing.coins,
        "mean_coins": standing.mean_coins,
        "mu": standing.mu,
        "sigma": standing.sigma,
        "ordinal": standing.ordinal,
    }


def _console() -> Console:
    # Piped or captured output is read by programs and people alike: never cut a line short.
    return Console(highlight=False, width=None if sys.stdout.isatty() else 400)
