"""The games and lobbies one worker holds in memory, kept as far as the store is.

Another worker on the same store may have moved a game on, ended it, or started one; a restart
finds games in progress. Every game is looked up here, and is brought up to date with one cheap
read of its progress (a rebuild from the store only when memory is behind). Games the store
holds altered or damaged are refused, and never continued (`refused` says why).
"""

from __future__ import annotations

import random
from collections.abc import Collection
from datetime import datetime

from ..audit import audit_game
from ..errors import IllegalActionError
from ..ports import IN_PROGRESS, NewGame, StoredGame, UnreadableGame, read_links
from ..record import GameRecord, SeatRecord
from . import turns
from .hints import hints_on
from .lobby import DEFAULT_TRADE_WINDOW_SECONDS, Lobby
from .player_modes import load_player_settings, use_player_settings
from .ports import ChatStore, GameProgress, GameSince
from .resuming import RecordedShuffles, resume_game
from .seat_control import new_controls
from .seat_moves import seat_moved
from .session import GameSession
from .stored_lobby import lobby_from
from .story import StoryKeeper

CAUGHT_UP_AT_MOST = 200
"""A game in memory behind by more actions than this is rebuilt from the store instead."""
GAMES_KEPT = 500
"""How many games a worker keeps in memory by default (about 80 KB each)."""


class Tables:
    """Every lobby and game in progress of one platform this worker knows, by room."""

    def __init__(
        self,
        platform: str,
        store: ChatStore,
        rng: random.Random,
        bots_wait: str = "always",
        kept: int = GAMES_KEPT,
    ) -> None:
        self.platform = platform
        self.kept = kept
        """How many games memory holds at most: the least recently used ones beyond are
        dropped, to be read from the store when next asked for."""
        self.bots_wait = bots_wait
        """How a bot on turn keeps trading open for a person who chose nothing himself."""
        self.store = store
        self.rng = rng
        self.games: dict[str, GameSession] = {}
        """Games in progress by room, the least recently used first."""
        self.lobbies: dict[str, Lobby] = {}
        self.lobby_versions: dict[str, int] = {}
        """The stored version of each lobby in `lobbies`, which a change must name."""
        self.refused: dict[str, str] = {}
        """Stored games found altered or damaged, and why: they are not continued."""
        self._progress_read: tuple[str, GameProgress | None] | None = None
        """A game's progress, read with an input's delivery id, for `up_to_date` to take once."""

    # --- finding a game ------------------------------------------------------------------------

    def session_by_id(self, game_id: str) -> GameSession | None:
        for session in self.games.values():
            if session.game_id == game_id:
                return session
        return None

    def sessions_of(self, user_id: str) -> list[GameSession]:
        """The games in memory a player of this platform is seated in."""
        return [s for s in self.games.values() if s.seat_of(user_id) is not None]

    def room_session(self, room: str) -> GameSession | None:
        """The game in progress in a room, wherever it was started, as far as the store is."""
        session = self.games.get(room)
        if session is not None:
            session = self.up_to_date(session)
        if session is None:
            game_id = self.store.active_game_in(self.platform, room)
            if game_id is not None:
                session = self.adopt(game_id)
        return None if session is None else self.used(session)

    def player_sessions(self, user_id: str) -> list[GameSession]:
        """The games in progress a player of this platform is seated in, as the store says."""
        out = []
        for game_id in self.store.active_games_of(self.platform, user_id):
            session = self.session_by_id(game_id) or self.adopt(game_id)
            if session is not None:
                out.append(self.used(session))
        return out

    def button_session(self, game_id: str) -> GameSession | None:
        """The game a button belongs to, as far as the store is (None: over, or unknown)."""
        session = self.session_by_id(game_id)
        if session is not None:
            session = self.up_to_date(session)
            return None if session is None else self.used(session)
        progress = self.store.game_progress(game_id)
        if progress is None or progress.status != IN_PROGRESS:
            return None
        return self.adopt(game_id)

    def game_in_progress(self, game_id: str) -> GameSession | None:
        """A game in progress of this platform: as memory holds it, else read from the store
        (None: over, unknown, or refused). No look at whether another worker moved it on:
        for a reader of one worker's games (the boards)."""
        session = self.session_by_id(game_id)
        if session is not None:
            return self.used(session)
        progress = self.store.game_progress(game_id)
        if progress is None or progress.status != IN_PROGRESS:
            return None
        return self.adopt(game_id)

    def game_in_room(self, room: str) -> GameSession | None:
        """The game in progress in a room, as `game_in_progress` finds it."""
        session = self.games.get(room)
        if session is not None:
            return self.used(session)
        game_id = self.store.active_game_in(self.platform, room)
        return None if game_id is None else self.adopt(game_id)

    def due_sessions(self, now: datetime) -> list[GameSession]:
        """The games with something due by `now` (a reminder, a deadline, a bot's trading
        window), as the store's index of due moments says: no other game is read."""
        sessions = []
        for game_id in self.store.due_games(self.platform, now, skip=self.refused):
            session = self.session_by_id(game_id) or self.adopt(game_id)
            if session is None and game_id not in self.refused:
                # Not a game of this platform's rooms: never woken again.
                self.refused[game_id] = f"game {game_id}: not a game of a room here"
            if session is not None:
                sessions.append(self.used(session))
        return sessions

    def next_due(self) -> datetime | None:
        """The soonest moment something is due in one of the platform's games."""
        return self.store.next_due(self.platform, skip=self.refused)

    def used(self, session: GameSession) -> GameSession:
        """Note a game as the one used last (the last dropped, should memory be full)."""
        if self.games.get(session.room) is session:
            del self.games[session.room]
            self.games[session.room] = session
        return session

    def _make_room(self) -> None:
        """Make room for one more game within `kept`: the least recently used go (none with
        actions not yet stored), to be read from the store when next asked for."""
        for room in list(self.games)[: max(0, len(self.games) + 1 - self.kept)]:
            if not self.games[room].unsaved:
                del self.games[room]

    def handled_before(self, delivery_id: str, session: GameSession | None) -> bool:
        """Whether an input was applied (or refused) already. The progress of the game in
        memory it is most likely for (`session`) is read in the same look-up, for
        `up_to_date`."""
        if session is None:
            return self.store.delivery_seen(self.platform, delivery_id)
        seen, progress = self.store.delivery_seen_and_progress(
            self.platform, delivery_id, session.game_id
        )
        self._progress_read = (session.game_id, progress)
        return seen

    def done_reading(self) -> None:
        self._progress_read = None

    # --- keeping up with the store ---------------------------------------------------------------

    def up_to_date(self, session: GameSession) -> GameSession | None:
        """The session as far as the store is: another worker on the same store may have moved
        the game on (or ended it), or shown its players something (what their numbers name).
        One cheap read (for an input, made with its delivery id: `handled_before`); what
        memory lacks read in the same read transaction, and a rebuild only when that cannot
        bring it forward."""
        read, self._progress_read = self._progress_read, None
        if read is not None and read[0] == session.game_id:
            progress = read[1]
        else:
            progress = self.store.game_progress(session.game_id)
        if progress is not None and _current(session, progress):
            return session
        if progress is None or progress.status != IN_PROGRESS:
            if self.games.get(session.room) is session:
                del self.games[session.room]
            return None
        try:
            lacking = self._read_lacking(session, progress)
            if lacking is not None and self._caught_up(session, progress.actions, lacking):
                since = lacking.last_action_at
            else:
                self.reload(session)
                since = self.store.last_action_at(session.game_id)
        except (UnreadableGame, ValueError) as error:
            # Damaged in the store meanwhile: not continued, as at a start.
            self.refused[session.game_id] = str(error)
            self.forget_game(session.game_id)
            return None
        fresh = self.games.get(session.room)
        if fresh is None or fresh.game_id != session.game_id:
            return None
        if since is not None:
            fresh.refresh_waiting(since)
            if fresh.trade_window_until is None:
                turns.resume_trade_window(fresh, since)
        return fresh

    def _read_lacking(self, session: GameSession, progress: GameProgress) -> GameSince | None:
        """What a game in memory lacks of the game as stored, in one read; None where it is
        to be rebuilt instead (too far behind, or actions of its own unsaved). UnreadableGame
        if the time of its last action is not one."""
        held = len(session.game.actions)
        if not 0 <= progress.actions - held <= CAUGHT_UP_AT_MOST or session.unsaved:
            return None
        return self.store.game_since(session.game_id, held, self.platform)

    def _caught_up(self, session: GameSession, stored: int, lacking: GameSince) -> bool:
        """Bring a game in memory forward by what it lacks (the actions another worker
        stored after its own, the chat state as stored...), without replaying it from the
        start; False (memory unchanged) where the game is to be rebuilt instead."""
        state, links = lacking.chat_state, lacking.links
        held = len(session.game.actions)
        if state is None or state.action_count != stored:
            return False
        if len(links) != stored - held or (links and links[0].seq != held):
            return False
        try:
            if not session.catch_up(read_links(links)):
                return False
        except IllegalActionError:
            return False  # memory went a way of its own: the game is rebuilt
        for control in session.seats:
            if control.is_human:
                control.bot = None  # a stand-in plays on only if the state says so
        session.restore(state)
        seat_moved(session, lacking.moves)
        use_player_settings(session, lacking.settings, self.bots_wait)
        return True

    def adopt(self, game_id: str) -> GameSession | None:
        """Take up a stored game in progress of this platform (started here before a restart,
        or by another worker on the same store); None if it is not one, or if the store holds
        it altered or damaged (then `refused` says why: it is never continued)."""
        if game_id in self.refused:
            return None
        self._make_room()
        with self.store.reading():
            return self._adopted(game_id)

    def _adopted(self, game_id: str) -> GameSession | None:
        try:
            stored = self.store.load_stored(game_id)
        except UnreadableGame as error:
            self.refused[game_id] = str(error)
            return None
        options = stored.game.options
        if (
            stored.status != IN_PROGRESS
            or options.get("platform") != self.platform
            or "room" not in options
        ):
            return None
        failure = audit_game(stored)
        if failure is not None:
            self.refused[game_id] = str(failure)
            return None
        try:
            session, last_action_at = self._rebuilt(game_id, stored)
            since = last_action_at or stored.game.created_at
        except UnreadableGame as error:
            self.refused[game_id] = str(error)
            return None
        except ValueError as error:  # RecordError included: options or actions unreadable
            self.refused[game_id] = f"game {game_id}: {error}"
            return None
        session.refresh_waiting(since)
        if session.trade_window_until is None:
            turns.resume_trade_window(session, since)
        self.games[session.room] = session
        return session

    def rebuild(self, game_id: str, stored: StoredGame | None = None) -> GameSession:
        """A game's session made anew from the store (or from `stored`, as just read from
        it): its actions, seats and chat state."""
        return self._rebuilt(game_id, stored)[0]

    def _rebuilt(
        self, game_id: str, stored: StoredGame | None = None
    ) -> tuple[GameSession, datetime | None]:
        """`rebuild`, and when the game's last action was stored (None: it has none)."""
        with self.store.reading():
            stored = stored or self.store.load_stored(game_id)
            now = self.store.game_since(game_id, len(stored.links), self.platform)
        session = self._session(stored.game, stored.record())
        seat_moved(session, now.moves)
        if now.chat_state is not None:
            session.restore(now.chat_state)
        use_player_settings(session, now.settings, self.bots_wait)
        return session, now.last_action_at

    def session_of_new_game(self, game: NewGame) -> GameSession:
        """The session of a game about to be stored, before its first action (memory made
        room for it)."""
        self._make_room()
        seats = tuple(SeatRecord(s.name, s.kind, s.strategy) for s in game.seats)
        record = GameRecord(
            seats=seats, deck=game.deck, options=dict(game.options), game_id=game.game_id
        )
        session = self._session(game, record)
        load_player_settings(session, self.store, self.bots_wait)
        return session

    def _session(self, game: NewGame, record: GameRecord) -> GameSession:
        options = game.options
        rng = random.Random(self.rng.random())
        story = StoryKeeper()
        shuffles = RecordedShuffles(record.reshuffles, rng)
        return GameSession(
            game_id=game.game_id,
            platform=self.platform,
            room=str(options["room"]),
            language=str(options.get("language", "en")),
            turn_seconds=int(options.get("turn_seconds", 0)),
            trade_window_seconds=int(
                options.get("trade_window_seconds", DEFAULT_TRADE_WINDOW_SECONDS)
            ),
            game=resume_game(record, rng, story.seen, shuffles),
            seats=new_controls(game.seats, rng),
            rng=rng,
            story=story,
            shuffles=shuffles,
            creator=str(options.get("creator", "")),
            hints=hints_on(options),
        )

    def reload(self, session: GameSession) -> None:
        """Rebuild a game from the store, dropping whatever memory holds beyond it."""
        fresh = self.rebuild(session.game_id)
        for old, new in zip(session.seats, fresh.seats, strict=True):
            if old.stand_in:
                new.bot = old.bot
            new.misses = old.misses
        self.games[session.room] = fresh
        if fresh.game.is_over:
            del self.games[session.room]

    def forget_touched(self, game_ids: Collection[str], rooms: Collection[str]) -> None:
        """After a unit of work failed or found another writer first: the games and the
        rooms' lobbies it touched, and any game holding moves not stored, are dropped, to be
        read from the store anew."""
        for game_id in game_ids:
            self.forget_game(game_id)
        for room in rooms:
            self.lobbies.pop(room, None)
            self.lobby_versions.pop(room, None)
        for session in list(self.games.values()):
            if session.unsaved:
                self.forget_game(session.game_id)

    def forget_game(self, game_id: str) -> None:
        """Drop a game from memory: it is read from the store when next asked for."""
        self.games = {room: s for room, s in self.games.items() if s.game_id != game_id}

    # --- lobbies -------------------------------------------------------------------------------

    def lobby_now(self, room: str, lobby: Lobby | None) -> None:
        """A room's lobby as the store now holds it (None: none), one version on."""
        version = self.lobby_versions.pop(room, 0)
        self.lobbies.pop(room, None)
        if lobby is not None:
            self.lobbies[room] = lobby
            self.lobby_versions[room] = version + 1

    def fetch_lobby(self, room: str) -> None:
        """Take the room's lobby as stored (or none)."""
        stored = self.store.load_lobby(self.platform, room)
        self.lobbies.pop(room, None)
        self.lobby_versions.pop(room, None)
        if stored is not None:
            self.lobbies[room] = lobby_from(stored.data)
            self.lobby_versions[room] = stored.version


def _current(session: GameSession, progress: GameProgress) -> bool:
    """Whether a game in memory is the game as stored (in progress, with as many actions and
    the same chat state) and holds nothing unsaved."""
    return (
        progress.status == IN_PROGRESS
        and progress.actions == len(session.game.actions)
        and progress.chat_version == session.chat_version
        and not session.unsaved
    )
