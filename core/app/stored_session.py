"""A game's chat state as the store holds it: what the chat application keeps of a game beside
its actions (stand-ins, missed deadlines, passes, the clocks, what each seat's private message
shows and what its numbers name), as plain data, and back."""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping, Sequence
from datetime import datetime

from ..bots import Bot
from ..legal import TradingMoment
from .hand_keys import ShownHand, hand_text, read_hand
from .numbers import seat_numbers
from .seat_control import SeatControl
from .seat_screen import Screen


def chat_state_data(
    seats: Sequence[SeatControl],
    shown: Mapping[int, ShownHand],
    trade_window_until: datetime | None,
    trade_reminded: bool,
) -> dict[str, object]:
    """The chat state as plain data: the seats' controls, what each seat's private message
    shows (`shown`), and a bot's trading window."""
    return {
        "seats": [
            {
                "stand_in": control.stand_in,
                "misses": control.misses,
                "waiting_since": _moment_text(control.waiting_since),
                "reminded": control.reminded,
                "passed": None
                if control.passed is None
                else [control.passed[0], list(control.passed[1])],
                # What his private message shows and how a number answers it.
                "screen": None if control.screen is None else control.screen.text,
                "screen_at": control.screen_at,
                "shown": hand_text(shown[index]) if index in shown else None,
                "numbers": None if control.numbers is None else control.numbers.data(),
            }
            for index, control in enumerate(seats)
        ],
        "trade_window_until": _moment_text(trade_window_until),
        "trade_reminded": trade_reminded,
    }


def restore_seats(
    seats: Sequence[SeatControl],
    shown: MutableMapping[int, ShownHand],
    data: Mapping[str, object],
    current: bool,
    stand_in: Callable[[], Bot],
) -> bool:
    """Take up the stored seats into `seats` (False if the data holds other seats): stand-ins
    (each made by `stand_in`), missed deadlines, passes and numbers always; the clocks and
    what the private messages show (into `shown`) only if the state is `current`, written at
    the game's current action."""
    stored = data.get("seats")
    if not isinstance(stored, list) or len(stored) != len(seats):
        return False
    for index, (control, kept) in enumerate(zip(seats, stored, strict=True)):
        if not isinstance(kept, dict):
            return False
        if kept.get("stand_in") is True and control.is_human:
            control.bot = stand_in()
        misses = kept.get("misses")
        control.misses = misses if isinstance(misses, int) and misses >= 0 else 0
        control.passed = _trading_moment(kept.get("passed"))
        if current:
            control.waiting_since = _moment(kept.get("waiting_since"))
            control.reminded = kept.get("reminded") is True
            _restore_shown(control, index, shown, kept)
        # Kept whatever the moment: each number names its choice within its decision.
        control.numbers = seat_numbers(kept.get("numbers"))
    return True


def trade_window_kept(data: Mapping[str, object]) -> tuple[datetime | None, bool]:
    """Until when a bot's trading window stays open, and whether its people were reminded."""
    return _moment(data.get("trade_window_until")), data.get("trade_reminded") is True


def _restore_shown(
    control: SeatControl, seat: int, shown: MutableMapping[int, ShownHand], kept: dict[str, object]
) -> None:
    """What the seat's private message showed, as kept."""
    screen, screen_at = kept.get("screen"), kept.get("screen_at")
    control.screen = Screen.read(screen)
    control.screen_at = screen_at if isinstance(screen_at, str) else ""
    hand = read_hand(kept.get("shown"))
    if hand is not None:
        shown[seat] = hand


def _moment_text(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _moment(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


def _trading_moment(value: object) -> TradingMoment | None:
    if (
        isinstance(value, list)
        and len(value) == 2
        and isinstance(value[0], int)
        and isinstance(value[1], list)
        and all(isinstance(offer, int) for offer in value[1])
    ):
        return (value[0], tuple(value[1]))
    return None
