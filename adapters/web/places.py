"""What a board shows at a place, worked out from a platform's service as it stands: a game in
progress (from the seat's view), a finished game (from its stored record), a web table's lobby,
or an empty table.

Everything here runs inside `Runner.read` (the service is not in use meanwhile) and changes
nothing of the service. A board's state is worked out again only when its game or lobby
changed (`key`), so a move elsewhere costs the other boards a glance.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.lobby import Lobby
from bohnanza.core.app.resuming import resume_game
from bohnanza.core.app.service import ChatService
from bohnanza.core.app.session import GameSession
from bohnanza.core.app.stored_lobby import lobby_data, lobby_from
from bohnanza.core.bots import STRATEGIES
from bohnanza.core.ports import FINISHED, SeatIdentity, UnknownGame
from bohnanza.core.record import GameRecord

from .board_data import board_data, table_data
from .passes import NOT_YOURS, Refused, Visitor
from .story import TurnStory

WEB = "web"
MOST_STORIES = 500
"""Stories followed at most (of games shown lately); past it they are followed anew."""


def state_text(state: Mapping[str, Any]) -> str:
    return json.dumps(state, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class Place:
    """Where a board looks, and who looks: a game of a platform (by its id), or a table of
    the web platform (by its room); `seat` is the seat a private link promises."""

    platform: str
    game_id: str = ""
    room: str = ""
    visitor: Visitor | None = None
    seat: int | None = None

    @property
    def group(self) -> tuple[str, str, str, str | None, int | None]:
        """Boards of one group show the same: one player's tabs, or a table's spectators."""
        user = None if self.visitor is None else self.visitor.user_id
        return (self.platform, self.game_id, self.room, user, self.seat)


class Places:
    """The states of the boards open in a process, kept so that an unchanged game is not
    worked out again."""

    def __init__(self, translators: Mapping[str, Translator]) -> None:
        self.translators = translators
        self._stories: dict[tuple[str, str], TurnStory] = {}
        self._shown: dict[tuple[object, ...], tuple[object, dict[str, Any]]] = {}
        self._texts: dict[tuple[object, ...], tuple[dict[str, Any], str]] = {}
        self._over: dict[tuple[str, str, str | None], dict[str, Any]] = {}

    def translator(self, language: str) -> Translator:
        return self.translators.get(language) or self.translators["en"]

    def forget(self, platform: str, groups: set[tuple[object, ...]]) -> None:
        """Drop what is kept for the groups of `platform` no board shows any more."""
        for kept in (self._shown, self._texts):
            for group in [g for g in kept if g[0] == platform and g not in groups]:
                del kept[group]
        if len(self._stories) > MOST_STORIES:
            self._stories.clear()  # followed again from the start when next shown

    def text(self, service: ChatService, place: Place, moments: dict[int, str]) -> str:
        """The state of `place` as JSON text (see `state`): made again only when the state
        changed. `moments` keeps each game's moment for the boards of one look."""
        data = self.state(service, place, moments)
        kept = self._texts.get(place.group)
        if kept is not None and kept[0] is data:
            return kept[1]
        text = state_text(data)
        self._texts[place.group] = (data, text)
        return text

    def state(
        self, service: ChatService, place: Place, moments: dict[int, str] | None = None
    ) -> dict[str, Any]:
        """What a board at `place` shows now; Refused(NOT_YOURS) when the seat it is for is
        not its visitor's. The same object as before while the game did not change."""
        moments = {} if moments is None else moments
        if place.room:
            return self._table(service, place, moments)
        session = service.ctx.tables.game_in_progress(place.game_id)
        if session is None:
            return self._finished(service, place, place.game_id)
        visitor = place.visitor
        seat = None if visitor is None else session.seat_of(visitor.user_id)
        if seat is None or (place.seat is not None and seat != place.seat):
            raise Refused(NOT_YOURS)
        return self._game(session, place, seat, moments)

    def _game(
        self, session: GameSession, place: Place, seat: int | None, moments: dict[int, str]
    ) -> dict[str, Any]:
        # The game's moment: its actions and what the chat keeps of it (offers passed on,
        # screens, clocks), worked out once for all its boards.
        moment = moments.get(id(session))
        if moment is None:
            moment = moments[id(session)] = repr(session.chat_state().data)
        key = (id(session), len(session.game.actions), moment, seat)
        kept = self._shown.get(place.group)
        if kept is not None and kept[0] == key:
            return kept[1]
        story = self._stories.get((session.platform, session.game_id))
        if story is None:
            story = self._stories[(session.platform, session.game_id)] = TurnStory(session.game)
        story.follow(session.game)
        tr = self.translator(session.language)
        data = board_data(session, seat, tr, story.lines(tr, session.names, seat))
        self._shown[place.group] = (key, data)
        return data

    def _table(self, service: ChatService, place: Place, moments: dict[int, str]) -> dict[str, Any]:
        """A web table: its game as the visitor's seat (or a spectator) sees it, its lobby,
        its last finished game, or nothing yet."""
        room = place.room
        user = None if place.visitor is None else place.visitor.user_id
        session = service.ctx.tables.game_in_room(room)
        if session is not None:
            seat = None if user is None else session.seat_of(user)
            return self._game(session, place, seat, moments)
        lobby = service.lobbies.get(room)
        if lobby is None:
            stored = service.store.load_lobby(WEB, room)
            lobby = None if stored is None else lobby_from(stored.data)
        if lobby is not None:
            return lobby_state(lobby, user)
        last = service.store.last_finished_in(WEB, room)
        if last is not None:
            return self._finished(service, place, last[0])
        return {"kind": "empty", "room": room}

    def _finished(self, service: ChatService, place: Place, game_id: str) -> dict[str, Any]:
        """A game no longer in progress, as its seat (or a spectator) saw its end."""
        user = None if place.visitor is None else place.visitor.user_id
        kept_key = (place.platform, game_id, user)
        data = self._over.get(kept_key)
        if data is not None:
            return data
        found = finished_game(service, place, game_id)
        if found is None:
            return {"kind": "gone", "game": game_id}
        record, seat, language = found
        game = resume_game(record, random.Random(0))
        tr = self.translator(language)
        names = [s.name for s in record.seats]
        data = table_data(game.view(seat), game_id, language, names, tr)
        data["replay"] = True
        self._over[kept_key] = data
        return data

    def language(self, service: ChatService, place: Place) -> str:
        """The language of the game or table a board looks at ('en' until there is one),
        whoever looks: the page's words are in it."""
        if place.room:
            shown = self.state(service, replace(place, visitor=None, seat=None))
            return str(shown.get("language", "en"))
        session = service.ctx.tables.game_in_progress(place.game_id)
        if session is not None:
            return session.language
        try:
            stored = service.store.load_stored(place.game_id)
        except UnknownGame:
            return "en"
        return str(stored.game.options.get("language", "en"))


def finished_game(
    service: ChatService, place: Place, game_id: str
) -> tuple[GameRecord, int | None, str] | None:
    """A finished game's record, the seat of the board's visitor in it (None: a spectator
    of a web table) and its language; None when it is not a finished game of the place;
    Refused(NOT_YOURS) when a player's board names a seat that is not its visitor's."""
    user = None if place.visitor is None else place.visitor.user_id
    try:
        stored = service.store.load_stored(game_id)
    except UnknownGame:
        return None
    options = stored.game.options
    if options.get("platform") != place.platform:
        return None
    identities = list(stored.game.seats)
    for moved, identity in service.store.seat_moves(game_id).items():
        identities[moved] = identity
    seat = _seat_of(identities, place.platform, user)
    if place.room:
        if options.get("room") != place.room:
            return None
    elif seat is None or (place.seat is not None and seat != place.seat):
        raise Refused(NOT_YOURS)
    if stored.status != FINISHED:
        return None
    return stored.record(), seat, str(options.get("language", "en"))


def _seat_of(identities: list[SeatIdentity], platform: str, user_id: str | None) -> int | None:
    for seat, identity in enumerate(identities):
        if (
            identity.kind == "human"
            and identity.platform == platform
            and identity.user_id == user_id
        ):
            return seat
    return None


def lobby_state(lobby: Lobby, user_id: str | None) -> dict[str, Any]:
    """A web table's lobby as its page shows it to `user_id` (None: someone without a name)."""
    data = lobby_data(lobby)
    return {
        "kind": "lobby",
        "room": lobby.room,
        "language": lobby.language,
        "seats": [
            {"name": seat.name, "bot": seat.kind == "bot", "you": seat.user_id == user_id}
            for seat in lobby.seats
        ],
        "opener": lobby.creator == user_id,
        "joined": lobby.seat_of(user_id or "") is not None,
        "deadline": data["turn_seconds"],
        "window": data["trade_window_seconds"],
        "strategies": list(STRATEGIES),
    }
