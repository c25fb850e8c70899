"""The person's unfinished games at the terminal: told when he starts a new one, listed when he
goes on with one, and the one he picks is the only one played (`Console.resume`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from bohnanza.adapters.runner_ports import AdapterStore
from bohnanza.core.app.i18n import Translator
from bohnanza.core.ports import IN_PROGRESS

from .port import PLATFORM

PLAYER_ID = "you"
"""The person at the terminal, the same in every game of his store."""
MOST_ASKED = 5
"""How many times the person is asked for a game's number before it is given up."""


class NothingToResume(LookupError):
    """No interrupted terminal game is stored (or none was chosen)."""


@dataclass(frozen=True)
class Unfinished:
    """One game the person left before its end."""

    game_id: str
    players: tuple[str, ...]
    begun: datetime
    moves: int


def unfinished_games(store: AdapterStore) -> list[Unfinished]:
    """The person's terminal games in progress, oldest first."""
    mine = set(store.active_games_of(PLATFORM, PLAYER_ID))
    return [
        Unfinished(game.game_id, game.players, game.created_at, game.actions)
        for game in store.list_games()
        if game.game_id in mine and game.status == IN_PROGRESS
    ]


def game_line(tr: Translator, game: Unfinished) -> str:
    """'VQRNLN · anna, Bot 1 (heuristic) · 123 moves · begun 2026-11-28 14:52'"""
    moves = tr.ngettext("{count} move", "{count} moves", game.moves).format(count=game.moves)
    begun = tr.gettext("begun {time}").format(time=game.begun.strftime("%Y-%m-%d %H:%M"))
    return " · ".join([game.game_id, ", ".join(game.players), moves, begun])


def told_of(tr: Translator, games: Sequence[Unfinished], resume_command: str) -> str | None:
    """The lines that tell a person starting a new game of those he left unfinished."""
    if not games:
        return None
    if len(games) == 1:
        head = tr.gettext("You have an unfinished game; go on with it with `{command}`:")
    else:
        head = tr.gettext("You have unfinished games; go on with one with `{command}`:")
    head = head.format(command=resume_command)
    return "\n".join([head, *(f"  {game_line(tr, game)}" for game in games)])


def chosen_game(
    tr: Translator,
    games: Sequence[Unfinished],
    asked: str | None,
    read_line: Callable[[], str],
    write: Callable[[str], None],
) -> str:
    """The game to go on with: the one `asked` for by its id, the only one, or the one whose
    number the person types from the list. NothingToResume (its message in English, as the
    command line's errors) if there is none to go on with."""
    if not games:
        raise NothingToResume("no interrupted game to resume")
    if asked is not None:
        for game in games:
            if game.game_id == asked.strip().lstrip("#").upper():
                return game.game_id
        yours = ", ".join(game.game_id for game in games)
        raise NothingToResume(f"no interrupted game {asked}; yours: {yours}")
    if len(games) == 1:
        return games[0].game_id
    write(tr.gettext("Your unfinished games:"))
    for number, game in enumerate(games, start=1):
        write(f"[{number}] {game_line(tr, game)}")
    for _ in range(MOST_ASKED):
        write(tr.gettext("Which one? Type its number (1 to {count}).").format(count=len(games)))
        try:
            answer = read_line().strip().lstrip("#")
        except EOFError:
            break
        if answer.isdigit() and 1 <= int(answer) <= len(games):
            return games[int(answer) - 1].game_id
        for game in games:
            if game.game_id == answer.upper():
                return game.game_id
    raise NothingToResume("no game chosen to resume")
