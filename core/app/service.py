"""The chat application of one platform, as its runner sees it: every input in, the messages
to show out.

`ChatService` is sans-I/O: a runner hands it `Inbound` input and the time, and delivers the
`Outbound` messages it returns. One input runs one way (docs/architecture.md):

    parse into a typed command (`commands`) → its family's handler (`routes`) decides on the
    game as stored (`tables`) → the views of every game it touched are derived and noted
    (`presenting`) → one unit of work stores everything it changed and showed with the
    input's delivery id (`work`) → the messages are returned.

A write that finds another writer first is a conflict: memory is reloaded and the input
decided once more; a second conflict tells the player the game moved on.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime, timedelta
from functools import partial

from ..bots import SEARCHING
from ..ports import FINISHED, IN_PROGRESS, Delivery, DuplicateDelivery, StoreError
from .clock import tick_session
from .commands import Command, parse_command
from .context import Context
from .folding import folded_answers
from .i18n import English, Translator
from .inbound import Inbound
from .lobby import Lobby
from .messages import Message, Outbound, Reply
from .ports import Capabilities, ChatStore
from .presenting import Said, Show, every_view, looked_at, present
from .routes import route
from .seat_commands import rename
from .session import GameSession
from .tables import Tables
from .updates import hand_slot
from .views import hands, private_views
from .work import Work, attempt

DELIVERIES_KEPT = timedelta(days=2)
"""How long an input's delivery id is kept: platforms redeliver for a day at most."""
MAX_DELIVERY_ID = 255
EXPIRY_EVERY = timedelta(hours=1)


class ChatService:
    """Lobbies and games of one platform, each in its own room."""

    def __init__(
        self,
        platform: str,
        capabilities: Capabilities,
        store: ChatStore,
        translators: Mapping[str, Translator] | None = None,
        *,
        rng: random.Random,
        user_id_of: Callable[[str], str] | None = None,
        codes: random.Random | None = None,
    ) -> None:
        """`rng`: where decks, game ids and the bots' generators come from (the adapter
        chooses: the system's generator when serving, a seeded one in a test); `codes`: the
        one-time codes of seat claims (`rng` if none)."""
        self.ctx = Context(
            platform=platform,
            capabilities=capabilities,
            store=store,
            tables=Tables(platform, store, rng, capabilities.bots_wait),
            translators=translators or {"en": English()},
            rng=rng,
            codes=codes or rng,
            user_id_of=user_id_of or str.strip,
        )
        self.platform = platform
        self.capabilities = capabilities
        self.store = store
        self._deliveries_expired: datetime | None = None

    # --- what it holds -------------------------------------------------------------------

    @property
    def rng(self) -> random.Random:
        """Where decks, game ids and the seats' own generators come from."""
        return self.ctx.rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self.ctx.rng = self.ctx.tables.rng = rng

    @property
    def translators(self) -> Mapping[str, Translator]:
        return self.ctx.translators

    @translators.setter
    def translators(self, translators: Mapping[str, Translator]) -> None:
        self.ctx.translators = translators

    @property
    def games(self) -> dict[str, GameSession]:
        """Games in progress by room."""
        return self.ctx.tables.games

    @property
    def lobbies(self) -> dict[str, Lobby]:
        return self.ctx.tables.lobbies

    @property
    def refused(self) -> dict[str, str]:
        """Stored games found altered or damaged, and why: they are not continued."""
        return self.ctx.tables.refused

    @property
    def gone(self) -> set[str]:
        """Players the platform found gone or unreachable (the runner keeps it)."""
        return self.ctx.gone

    def translator(self, language: str) -> Translator:
        return self.ctx.translator(language)

    def room_language(self, room: str) -> str:
        return self.ctx.room_language(room)

    def may_take_long(self, inbound: Inbound | None = None) -> bool:
        """Whether handling `inbound` may make searching bots think (a game or lobby with one
        in its room; for a private input, a game of its sender), or, without an input, whether
        playing what is due may (any game with one)."""
        if inbound is None:
            return any(session.searching for session in self.games.values())
        if self._parsed(inbound).asks_hint:
            return True  # the expert works a hint out
        if inbound.private:
            return any(session.searching for session in self.sessions_of(inbound.user_id))
        session = self.games.get(inbound.room)
        if session is not None:
            return session.searching
        lobby = self.lobbies.get(inbound.room)
        return lobby is not None and any(seat.strategy in SEARCHING for seat in lobby.seats)

    def sessions_of(self, user_id: str) -> list[GameSession]:
        """The games a player of this platform is seated in."""
        return self.ctx.tables.sessions_of(user_id)

    def hand_of(self, user_id: str) -> list[Message]:
        """Each of the player's games as he alone may see it (for inline results)."""
        return hands(self.ctx, user_id)

    def rooms(self) -> list[str]:
        """Every room of the platform with a game in progress or a lobby gathering: the
        rooms a platform that must join its rooms (IRC) joins on start."""
        playing = {room for _, room in self.store.open_games(self.platform)}
        return sorted(playing | set(self.store.lobby_rooms(self.platform)))

    def open_games(self) -> list[str]:
        """The ids of the platform's games in progress as stored, the latest moved first:
        what a runner brings up to date after a start, game by game."""
        return [game_id for game_id, _ in self.store.open_games(self.platform)]

    def private_slots(self, session: GameSession) -> list[str]:
        """The slots of a player's private chat that a game shows."""
        return [hand_slot(session.game_id)]

    # --- start ---------------------------------------------------------------------------

    def resume(self, now: datetime, only: Collection[str] | None = None) -> int:
        """Pick up every game of this platform the store holds in progress (and checks out:
        see `refused`), or those of them in `only`; return how many."""
        known = {s.game_id for s in self.games.values()}
        count = 0
        for summary in self.store.list_games():
            if summary.status != IN_PROGRESS or summary.game_id in known:
                continue
            if only is not None and summary.game_id not in only:
                continue
            if self.ctx.tables.adopt(summary.game_id) is not None:
                count += 1
        return count

    # --- input ---------------------------------------------------------------------------

    def handle(self, inbound: Inbound, now: datetime) -> list[Outbound]:
        """Everything one input causes, in the order it should be shown. An input delivered
        again (a platform retrying, another worker) is applied once: its delivery id is stored
        in the transaction of what it changed, or alone when it changed nothing. StoreError:
        nothing of it was stored, and the platform is to deliver it again."""
        delivery_id = inbound.delivery_id[:MAX_DELIVERY_ID]
        tables = self.ctx.tables
        command = self._parsed(inbound)
        game = self._game_of(inbound, command) if delivery_id else None
        delivery = Delivery(self.platform, delivery_id) if delivery_id else None
        looked = False

        def decide(work: Work) -> Sequence[Said]:
            nonlocal looked
            if delivery_id and not looked:
                # Looked up once, with the first attempt's other reads.
                looked = True
                if tables.handled_before(delivery_id, game):
                    raise DuplicateDelivery(self.platform, delivery_id)
            return route(self.ctx, work, inbound, command, now)

        try:
            out = attempt(
                self.store,
                now,
                decide,
                partial(present, self.ctx),
                lambda work: tables.forget_touched(work.games, work.rooms),
                delivery,
            )
        except DuplicateDelivery:
            return []  # another worker applied it a moment ago
        finally:
            tables.done_reading()
        if out is not None:
            return folded_answers(out) if self.capabilities.compact else out
        tr = self.translator(self.room_language(inbound.room))
        moved_on = tr.gettext("The game moved on meanwhile; look at it again and retry.")
        return [Reply(inbound, moved_on)]

    def _parsed(self, inbound: Inbound) -> Command:
        """The input as a typed command (a lobby gathering in its room: `start` starts it)."""
        return parse_command(inbound, inbound.room in self.lobbies)

    def _game_of(self, inbound: Inbound, command: Command) -> GameSession | None:
        """The game in memory an input is most likely for: its button's, or its room's."""
        if command.press is not None and command.press.game_id:
            return self.ctx.tables.session_by_id(command.press.game_id)
        return None if inbound.private else self.games.get(inbound.room)

    def rename(self, old_id: str, new_id: str, new_name: str, now: datetime) -> list[Outbound]:
        """A player's id changed on the platform (an IRC nick change): his seats follow. One
        unit of work, as an input is: memory keeps the move only once the store does (else
        the games it touched are read from the store anew), and StoreError tells the runner
        to try it again."""
        tables = self.ctx.tables
        out = attempt(
            self.store,
            now,
            lambda work: rename(self.ctx, work, old_id, new_id, new_name, now),
            partial(present, self.ctx),
            lambda work: tables.forget_touched(work.games, work.rooms),
        )
        return out or []

    # --- what everyone should see now ----------------------------------------------------

    def views(self, room: str | None = None, now: datetime | None = None) -> list[Outbound]:
        """The table and every private message of each game memory holds (or of the one in
        progress in `room`, read from the store if need be) as the game stands now; a runner
        shows only those that differ from what was delivered, so this heals views that a
        failed send or a crash left behind."""
        if room is not None:
            session = self.ctx.tables.room_session(room)
            return [] if session is None else self.views_of_game(session.game_id, now)
        out: list[Outbound] = []
        for game_id in [session.game_id for session in self.games.values()]:
            out += self._healed(partial(self._in_memory, game_id), now)
        return out

    def views_of_game(self, game_id: str, now: datetime | None = None) -> list[Outbound]:
        """The table and every private message of one game in progress as it stands now,
        read from the store if memory does not hold it: a runner heals the views of every
        game after a start with it, game by game."""

        def shows() -> list[Show]:
            session = self.ctx.tables.button_session(game_id)
            return [] if session is None else [every_view(session)]

        return self._healed(shows, now)

    def views_of(
        self,
        user_id: str,
        room: str | None = None,
        private: bool = True,
        now: datetime | None = None,
    ) -> list[Outbound]:
        """The private messages of one player's games as they stand now (said in a group: of
        the game in that group only)."""

        def shows() -> list[Show]:
            if private or room is None:
                return private_views(self.sessions_of(user_id), user_id)
            session = self.games.get(room)
            return [] if session is None else private_views([session], user_id)

        return self._healed(shows, now)

    def _in_memory(self, game_id: str) -> list[Show]:
        """Every view of a game memory holds (none once it dropped it)."""
        session = self.ctx.tables.session_by_id(game_id)
        return [] if session is None else [every_view(session)]

    def _healed(self, shows: Callable[[], list[Show]], now: datetime | None) -> list[Outbound]:
        """Views derived to heal what fell behind, presented in a unit of work of their own as
        an input's are (`now`): what they show is stored with their games, so the numbers of
        a list shown name its choices from then on, after a restart and on any worker. None
        if the store took nothing (they come again at the next heal). Without `now`, a look:
        nothing is noted."""
        if now is None:
            return looked_at(self.ctx, shows())
        tables = self.ctx.tables
        try:
            out = attempt(
                self.store,
                now,
                lambda work: shows(),
                partial(present, self.ctx),
                lambda work: tables.forget_touched(work.games, work.rooms),
            )
        except StoreError:
            return []
        return out or []

    # --- time ------------------------------------------------------------------------------

    def next_wakeup(self) -> datetime | None:
        """When `tick` should next be called: the soonest moment due in a game of the
        platform, in memory or not (one look at the store's index of due moments)."""
        return self.ctx.tables.next_due()

    def tick(self, now: datetime) -> list[Outbound]:
        """Reminders, deadlines and trading windows that are due by `now`, in the games the
        store finds due (read from it if memory does not hold them): no other is looked at."""
        out: list[Outbound] = []
        for session in self.ctx.tables.due_sessions(now):
            out += tick_session(self.ctx, session, now)
        if self._deliveries_expired is None or now - self._deliveries_expired > EXPIRY_EVERY:
            self._deliveries_expired = now
            work = Work(self.store)
            work.forget_deliveries(now - DELIVERIES_KEPT)
            work.commit(now)
        return out


__all__ = ["FINISHED", "ChatService"]
