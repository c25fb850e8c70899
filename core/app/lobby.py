"""A game being gathered in a room: seats, bots, options, until its creator starts it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..bots import STRATEGIES
from ..ports import SeatIdentity
from ..table_setup import MAX_PLAYERS, MIN_PLAYERS
from .i18n import LANGUAGES
from .names import seat_name

DEFAULT_TURN_SECONDS = 3600
"""How long a player has for each decision unless the game says otherwise (0: no deadline)."""
MAX_TURN_SECONDS = 7 * 24 * 3600
MIN_TURN_SECONDS = 30
DEFAULT_TRADE_WINDOW_SECONDS = 120
"""How long a bot on turn keeps trading open for people, unless the game says otherwise."""
MAX_TRADE_WINDOW_SECONDS = 3600


class LobbyError(ValueError):
    """A lobby request that cannot be done; the message says why (in English, a catalog key)."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message)
        self.params = params


@dataclass
class Lobby:
    """The seats taken so far (the creator first) and the game's options."""

    room: str
    platform: str
    creator: str
    seats: list[SeatIdentity] = field(default_factory=list)
    language: str = "en"
    turn_seconds: int = DEFAULT_TURN_SECONDS
    trade_window_seconds: int = DEFAULT_TRADE_WINDOW_SECONDS
    hints: bool = False
    """Learning mode: each player may ask the expert for a hint; the game is not rated."""

    def seat_of(self, user_id: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.user_id == user_id:
                return index
        return None

    def join(self, user_id: str, name: str) -> None:
        """Seat a person under his display name, cleaned and unique here (`names`); his id
        where the name holds nothing to show."""
        if self.seat_of(user_id) is not None:
            raise LobbyError("You have already joined.")
        self._make_room()
        name = seat_name(name, [seat.name for seat in self.seats], fallback=user_id)
        self.seats.append(SeatIdentity(self.platform, user_id, name))

    def leave(self, user_id: str) -> None:
        seat = self.seat_of(user_id)
        if seat is None:
            raise LobbyError("You have not joined this game.")
        del self.seats[seat]

    def add_bot(self, strategy: str) -> SeatIdentity:
        if strategy not in STRATEGIES:
            raise LobbyError(
                "Unknown bot strategy; choose one of: {choices}.", choices=", ".join(STRATEGIES)
            )
        self._make_room()
        number = 1 + sum(1 for s in self.seats if s.kind == "bot")
        name = seat_name(f"Bot {number} ({strategy})", [seat.name for seat in self.seats])
        bot = SeatIdentity("bot", f"{strategy}-{number}", name, "bot", strategy)
        self.seats.append(bot)
        return bot

    def bot_command(self, user_id: str, args: tuple[str, ...]) -> None:
        """`bot [STRATEGY]`, `bot remove`, by a person seated here."""
        if self.seat_of(user_id) is None:
            raise LobbyError("Join the game first.")
        if args and args[0].lower() == "remove":
            self.remove_bot()
            return
        words = [a.lower() for a in args if a.lower() != "add"]
        self.add_bot(words[0] if words else "heuristic")

    def require_creator(self, user_id: str) -> None:
        if user_id != self.creator:
            raise LobbyError("Only the player who opened the game can change it.")

    def remove_bot(self) -> None:
        for index in range(len(self.seats) - 1, -1, -1):
            if self.seats[index].kind == "bot":
                del self.seats[index]
                return
        raise LobbyError("There is no bot to remove.")

    def set_option(self, name: str, value: str) -> None:
        if name in ("lang", "language"):
            if value not in LANGUAGES:
                raise LobbyError("Languages: {choices}.", choices=", ".join(LANGUAGES))
            self.language = value
        elif name in ("deadline", "time"):
            self.turn_seconds = parse_duration(value)
        elif name in ("trade-window", "trade_window", "window"):
            try:
                seconds = parse_duration(value)
            except LobbyError:  # its refusal speaks of deadlines
                seconds = 0
            if not MIN_TURN_SECONDS <= seconds <= MAX_TRADE_WINDOW_SECONDS:
                raise LobbyError("A trading window is between 30 seconds and 1 hour.")
            self.trade_window_seconds = seconds
        elif name == "hints":
            if value not in ("on", "off"):
                raise LobbyError("Hints are on or off.")
            self.hints = value == "on"
        else:
            raise LobbyError(
                "Options: lang ({languages}), deadline (e.g. 90s, 10m, 2h, off), "
                "trade-window (e.g. 2m), hints (on/off).",
                languages="/".join(LANGUAGES),
            )

    def recorded_options(self) -> dict[str, str | int]:
        """The options a game records besides its language and clocks: `hints: on` when the
        room chose hints (nothing otherwise, so games without them are stored as before)."""
        return {"hints": "on"} if self.hints else {}

    def check_start(self, user_id: str) -> None:
        if user_id != self.creator:
            raise LobbyError("Only the player who opened the game can start it.")
        if not MIN_PLAYERS <= len(self.seats) <= MAX_PLAYERS:
            raise LobbyError(
                "A game needs {low} to {high} players.", low=MIN_PLAYERS, high=MAX_PLAYERS
            )
        if not any(seat.kind == "human" for seat in self.seats):
            raise LobbyError("At least one person must play.")

    def _make_room(self) -> None:
        if len(self.seats) >= MAX_PLAYERS:
            raise LobbyError("The table is full ({high} players).", high=MAX_PLAYERS)


def gathered(
    lobby: Lobby | None,
    platform: str,
    room: str,
    user_id: str,
    name: str,
    verb: str,
    args: tuple[str, ...],
) -> Lobby | None:
    """The room's lobby after a person's lobby command (`new`, `join`, `leave`, `bot`, `set`,
    `cancel`, `start`), a lobby of its own: None once it is called off (cancelled, or its last
    person left); for `start`, the lobby as it may start. The lobby given is left as it was
    (memory takes the new one once it is stored). LobbyError: refused."""
    if lobby is not None:
        lobby = replace(lobby, seats=list(lobby.seats))
    if verb == "new":
        if lobby is not None:
            raise LobbyError("A game is already being gathered here: send 'join'.")
        lobby = Lobby(room, platform, user_id)
        verb = "join"
    if lobby is None:
        raise LobbyError("No game is being gathered here: send 'new' to open one.")
    if verb == "join":
        lobby.join(user_id, name)
    elif verb == "leave":
        lobby.leave(user_id)
        if not any(s.kind == "human" for s in lobby.seats):
            return None
    elif verb == "bot":
        lobby.bot_command(user_id, args)
    elif verb == "set":
        lobby.require_creator(user_id)
        if len(args) != 2:
            raise LobbyError("Write: set lang it, or set deadline 10m.")
        lobby.set_option(args[0].lower(), args[1].lower())
    elif verb == "cancel":
        lobby.require_creator(user_id)
        return None
    elif verb in ("start", "begin"):
        lobby.check_start(user_id)
    return lobby


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_MAX_DIGITS = 7


def parse_duration(text: str) -> int:
    """Seconds from '90', '90s', '10m', '2h', '1d'; 0 from 'off'.

    Only ASCII digits count: other digits ('²', '٣') pass `str.isdigit` but are no number here.
    """
    text = text.strip().lower()
    if text in ("off", "none", "0"):
        return 0
    unit = _UNITS.get(text[-1:])
    number = text[:-1] if unit else text
    if not _is_ascii_number(number):
        raise LobbyError("Write a deadline like 90s, 10m, 2h or off.")
    seconds = int(number) * (unit or 1)
    if not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
        raise LobbyError("A deadline is between 30 seconds and 7 days, or off.")
    return seconds


def _is_ascii_number(text: str) -> bool:
    """1 to 7 ASCII digits, nothing else."""
    return 0 < len(text) <= _MAX_DIGITS and text.isascii() and text.isdigit()


def format_duration(seconds: int) -> str:
    """'1h', '10m', '90s'; 'off' for none."""
    if seconds == 0:
        return "off"
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"
