"""The rating step, with no database: OpenSkill's Plackett-Luce model on boards of players.

A board is a room of a platform, or the whole platform (room empty). A person is rated as
(platform, user id); a bot as ('bot', its strategy), so all heuristic bots share one rating.
`rate_game` is the one step from a board before a game to the board after it: the store uses it
when a game ends and when it rebuilds every board (`ratings`), so the two agree exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import NamedTuple

from openskill.models import PlackettLuce

from bohnanza.core.scoring import GameResult

LOCAL = "local"
"""The platform a game stored with none is rated under (simulated and imported games)."""
WHOLE_PLATFORM = ""
"""The room of a platform's own board, over all its rooms."""
BOT = "bot"
"""The platform of a bot's identity; its id is its strategy."""

_MODEL = PlackettLuce()
NEVER = datetime.min.replace(tzinfo=UTC)
"""The time of a board or entry that has rated no game."""


class Board(NamedTuple):
    """Where ratings are kept: a platform's room, or the whole platform (room empty)."""

    platform: str
    room: str


class Player(NamedTuple):
    """Who is rated: (platform, user id) for a person, ('bot', strategy) for a bot."""

    platform: str
    player_id: str


@dataclass(frozen=True)
class Entry:
    """One player's figures on one board."""

    name: str
    kind: str
    mu: float
    sigma: float
    games: int
    wins: int
    coins: int
    last_game_id: str
    last_played_at: datetime

    @property
    def ordinal(self) -> float:
        """The figure the boards are ordered by: sure to be at least this good."""
        return self.mu - 3.0 * self.sigma


@dataclass(frozen=True)
class SeatOf:
    """A seat of a finished game, as far as rating goes."""

    player: Player
    name: str
    kind: str


@dataclass(frozen=True)
class FinishedGame:
    """A finished game as read from the store: what rating it needs."""

    game_id: str
    platform: str | None
    room: str | None
    finished_at: datetime
    seats: tuple[SeatOf, ...]
    result: GameResult

    @property
    def order(self) -> tuple[datetime, str]:
        """Games are rated in the order they ended, then by id."""
        return (self.finished_at, self.game_id)

    def boards(self) -> tuple[Board, ...]:
        """The platform's board first, then the room's (a game with no room has none)."""
        platform = self.platform or LOCAL
        whole = Board(platform, WHOLE_PLATFORM)
        return (whole, Board(platform, self.room)) if self.room else (whole,)


def identity(platform: str, user_id: str, kind: str, strategy: str | None) -> Player:
    """Whom a seat rates: a bot by its strategy, a person by his account."""
    if kind == "bot":
        return Player(BOT, strategy or user_id)
    return Player(platform, user_id)


def places(result: GameResult) -> list[int]:
    """Each seat's place (1 = first): by coins, then cards in hand; equal on both, shared."""
    keys = list(zip(result.scores, result.hand_sizes, strict=True))
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def rate_game(board: Mapping[Player, Entry], game: FinishedGame) -> dict[Player, Entry]:
    """The new entries of the game's players on a board, from their entries before it.

    Every seat is a team of one; a strategy that held several seats (two heuristic bots) gets
    the sum of its seats' changes of mu and the variance left after all of them, and each of
    its seats counts as a game.
    """
    fresh = Entry("", "", _MODEL.mu, _MODEL.sigma, 0, 0, 0, "", NEVER)
    before = [board.get(seat.player, fresh) for seat in game.seats]
    teams = [[_MODEL.rating(mu=entry.mu, sigma=entry.sigma)] for entry in before]
    after = _MODEL.rate(teams, ranks=[float(p) for p in places(game.result)])
    winners = set(game.result.winners)
    changed: dict[Player, Entry] = {}
    for player, seats in _seats_by_player(game.seats):
        prior = board.get(player, fresh)
        mu = prior.mu + sum(after[i][0].mu - prior.mu for i in seats)
        if len(seats) == 1:
            sigma = after[seats[0]][0].sigma
        else:
            widened = prior.sigma**2 + _MODEL.tau**2
            variance = widened
            for i in seats:
                variance *= after[i][0].sigma ** 2 / widened
            sigma = variance**0.5
        first = game.seats[seats[0]]
        changed[player] = Entry(
            name=first.name,
            kind=first.kind,
            mu=mu,
            sigma=sigma,
            games=prior.games + len(seats),
            wins=prior.wins + sum(1 for i in seats if i in winners),
            coins=prior.coins + sum(game.result.scores[i] for i in seats),
            last_game_id=game.game_id,
            last_played_at=game.finished_at,
        )
    return changed


def _seats_by_player(seats: Sequence[SeatOf]) -> list[tuple[Player, list[int]]]:
    """Each player of a game with his seats, in the order of his first seat."""
    held: dict[Player, list[int]] = {}
    for index, seat in enumerate(seats):
        held.setdefault(seat.player, []).append(index)
    return list(held.items())


def replay(games: Iterable[FinishedGame]) -> dict[Board, dict[Player, Entry]]:
    """Every board from nothing, rating the games in the order given."""
    boards: dict[Board, dict[Player, Entry]] = {}
    for game in games:
        for key in game.boards():
            board = boards.setdefault(key, {})
            board.update(rate_game(board, game))
    return boards
