"""The unit of work of one input (or one tick of the clock): the one place the chat application
writes to its store.

Handlers decide in memory and name here what they changed: a game's actions and chat state, a
lobby, a player's settings, a seat moved or claimed, a reminder claimed. `commit` writes all of
it in one transaction of the store, with the input's delivery id: either everything the input
changed is stored, or nothing is. A write that finds another writer was first (a game's head
moved, a lobby's version changed, a reminder claimed already) raises `Conflict` and nothing is
stored. `attempt` is the one way an input, a tick of the clock or a rename is decided and
stored: the handler decides, the presenting step derives and notes what the games it touched
now show, and the work stores both; memory drops what a failed attempt touched, and the input is
decided once more on what the store holds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, TypeVar

from ..ports import (
    Appended,
    ChatState,
    ChatStateMoved,
    Delivery,
    DuplicateDelivery,
    DuplicateGame,
    GameFinished,
    NewGame,
    SeatIdentity,
)
from . import turns
from .ports import ChatStore, SeatClaim
from .session import GameSession

Write = Callable[[ChatStore, "Delivery | None"], bool]
"""One write: made with the input's delivery id (or None once another took it); True if it
took the delivery id."""


ATTEMPTS = 2
"""An input (or a game's tick) is decided at most twice: once more after another writer was
first."""

_D = TypeVar("_D")
_T = TypeVar("_T")


class Conflict(Exception):
    """Another writer changed what this work decided on; nothing of it was stored."""


@dataclass
class Work:
    """What one input changed, to be stored at once (`commit`)."""

    store: ChatStore
    delivery: Delivery | None = None
    games: dict[str, GameSession] = field(default_factory=dict)
    """The games whose actions or chat state may have changed, by id."""
    rooms: set[str] = field(default_factory=set)
    """The rooms whose lobby this work read or changed."""
    _writes: list[Write] = field(default_factory=list)
    _after: list[Callable[[], None]] = field(default_factory=list)

    # --- what changed ------------------------------------------------------------------------

    def save_game(self, session: GameSession) -> None:
        """The game's new actions and its chat state (what its players are shown) are stored."""
        self.games[session.game_id] = session

    def save_lobby(
        self,
        platform: str,
        room: str,
        data: dict[str, Any] | None,
        version: int,
        now: datetime,
        then: Callable[[], None] | None = None,
    ) -> None:
        """The room's lobby as it now stands (`data`; None: called off), over the `version`
        read; `then` is noted by memory once it is stored."""

        def write(store: ChatStore, delivery: Delivery | None) -> bool:
            if data is None:
                if not store.drop_lobby(platform, room, version):
                    raise Conflict(f"the lobby of {room} changed meanwhile")
                return False
            if not store.save_lobby(platform, room, data, version, now, delivery):
                raise Conflict(f"the lobby of {room} changed meanwhile")
            return delivery is not None

        self.rooms.add(room)
        self._writes.append(write)
        if then is not None:
            self.after_commit(then)

    def start_game(self, game: NewGame, lobby_version: int) -> None:
        """The room's lobby is taken and the game it became stored."""

        def write(store: ChatStore, delivery: Delivery | None) -> bool:
            try:
                started = store.start_game(game, lobby_version, delivery)
            except DuplicateGame as taken:
                raise Conflict(f"game id {game.game_id} is taken") from taken
            if not started:
                raise Conflict("the lobby changed meanwhile")
            return delivery is not None

        self.rooms.add(str(game.options["room"]))
        self._writes.append(write)

    def save_player_settings(
        self, platform: str, user_id: str, settings: dict[str, str], now: datetime
    ) -> None:
        self._plain(lambda store: store.save_player_settings(platform, user_id, settings, now))

    def move_seat(
        self,
        game_id: str,
        seat: int,
        identity: SeatIdentity,
        now: datetime,
        *,
        asked_by: str,
        reason: str,
    ) -> None:
        self._plain(
            lambda store: store.move_seat(
                game_id, seat, identity, now, asked_by=asked_by, reason=reason
            )
        )

    def save_seat_claim(self, claim: SeatClaim) -> None:
        self._plain(lambda store: store.save_seat_claim(claim))

    def drop_seat_claim(self, game_id: str, seat: int) -> None:
        self._plain(lambda store: store.drop_seat_claim(game_id, seat))

    def claim(self, platform: str, key: str, now: datetime) -> None:
        """Note a moment this worker acts on (a reminder), which no other may note too."""

        def write(store: ChatStore, delivery: Delivery | None) -> bool:
            if not store.record_delivery(platform, key, now):
                raise Conflict(f"{key} was claimed by another worker")
            return False

        self._writes.append(write)

    def forget_deliveries(self, before: datetime) -> None:
        self._plain(lambda store: store.forget_deliveries(before))

    def after_commit(self, then: Callable[[], None]) -> None:
        """Something memory notes only once the work is stored (a lobby's new version)."""
        self._after.append(then)

    def _plain(self, change: Callable[[ChatStore], object]) -> None:
        def write(store: ChatStore, delivery: Delivery | None) -> bool:
            change(store)
            return False

        self._writes.append(write)

    # --- storing -----------------------------------------------------------------------------

    def commit(self, now: datetime) -> None:
        """Store everything in one transaction, with the delivery id (alone, when nothing
        changed). Conflict or DuplicateDelivery: nothing was stored."""
        changed = [
            (session, state)
            for session in self.games.values()
            for state in (replace(session.chat_state(), due_at=turns.next_wakeup(session)),)
            if session.unsaved
            or state.data != session.saved_state
            or state.due_at != session.saved_due
        ]
        if not (self._writes or changed or self.delivery):
            # Nothing to store (a clock's look at a game where nothing was due): no
            # transaction is opened for it.
            for then in self._after:
                then()
            return
        delivery = self.delivery
        try:
            with self.store.atomic():
                for write in self._writes:
                    if write(self.store, delivery):
                        delivery = None
                for session, state in changed:
                    _store_game(self.store, session, state, now, delivery)
                    delivery = None
                if delivery is not None and not self.store.record_delivery(
                    delivery.platform, delivery.delivery_id, now
                ):
                    raise DuplicateDelivery(delivery.platform, delivery.delivery_id)
        except ChatStateMoved as moved:  # another worker showed its players something first
            raise Conflict(str(moved)) from None
        for session, state in changed:
            session.unsaved.clear()
            session.saved_state = dict(state.data)
            session.saved_due = state.due_at
            session.chat_version = (state.version or 0) + 1
        for then in self._after:
            then()


def _store_game(
    store: ChatStore,
    session: GameSession,
    state: ChatState,
    now: datetime,
    delivery: Delivery | None,
) -> None:
    """Write a game's unsaved actions with its chat state, or the chat state alone, over the
    version it follows."""
    if session.unsaved:
        try:
            outcome = store.append_actions(session.game_id, session.unsaved, delivery, state)
        except GameFinished as ended:  # by another worker, a moment ago
            raise Conflict(str(ended)) from None
        if not isinstance(outcome, Appended):
            raise Conflict(str(outcome))
    else:
        store.save_chat_state(session.game_id, state, now, delivery)


def attempt(
    store: ChatStore,
    now: datetime,
    decide: Callable[[Work], _D],
    present: Callable[[Work, _D, datetime], _T],
    forget: Callable[[Work], None],
    delivery: Delivery | None = None,
) -> _T | None:
    """One input (with its `delivery` id) decided, presented and stored in one unit of work:
    what `decide` makes of it and what `present` shows of that (the views of every game it
    touched, noted in their games) are read in one read transaction and stored in one write
    transaction. When another writer was first, `forget` drops from memory what the work
    touched and the input is decided once more on the store as it is. None: another writer
    was first both times. Any other failure: memory forgets, and it is raised (nothing of the
    input was stored)."""
    for _ in range(ATTEMPTS):
        work = Work(store, delivery)
        try:
            with store.reading():  # what deciding and presenting read: one read transaction
                out = present(work, decide(work), now)
            work.commit(now)
        except Conflict:
            forget(work)
            continue
        except Exception:
            forget(work)
            raise
        return out
    return None
