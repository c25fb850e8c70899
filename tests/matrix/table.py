"""The Matrix bot on the test homeserver, and people who play through their own clients.

`RunningBot` is `bohnanza serve matrix` as a test builds it: a store, the catalogs and a
`MatrixBot` on its own account, its sync loop running as a task in the test's event loop.
`Table` decides each person's move with a bot looking at that person's own view, then makes it
the way a person on Matrix does: '!bean CMD' in the room, or 'CMD' in his direct room with the
bot. Nothing goes into a game except through the homeserver.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from nio import Event, MegolmEvent, MessageDirection, RoomMessagesResponse

from bohnanza.adapters.matrix import MatrixBot, MatrixSettings
from bohnanza.adapters.matrix.translate import command_text
from bohnanza.adapters.store import open_store
from bohnanza.adapters.store.sql_store import SqlGameStore
from bohnanza.core.actions import AcceptTrade, Action, ProposeTrade
from bohnanza.core.app.i18n import English, Translator
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.session import GameSession
from bohnanza.core.bots import Bot, make_bot
from bohnanza.core.errors import IllegalActionError
from bohnanza.core.legal import asking_order
from bohnanza.core.notation import action_text
from bohnanza.core.state import Step

from .accounts import Account
from .messages import TimelineEvent
from .players import Player
from .synapse import Homeserver

HAND_LINE = "Your hand (front first): "
PASSED = "You pass on trading this time."
WAIT = 60.0
"""Seconds to wait for what is to happen before it is taken not to come: far more than it
takes, however loaded the machine (a wait ends as soon as it happens)."""


def translators() -> dict[str, Translator]:
    """The shipped catalogs, or English alone if they cannot be read."""
    try:
        from bohnanza.adapters.i18n import load_translators

        return load_translators()
    except Exception:
        return {"en": English()}


class BotStopped(RuntimeError):
    """The bot's sync loop ended while a test waited on it."""


class RunningBot:
    """A `MatrixBot` on `account`, its state and database in `folder`; `start` and `stop` it.

    It counts what it finished: each command handed to the runner (by event id) and each event
    of every sync it handled to its end, so a test waits for exactly what it sent.
    """

    def __init__(
        self, homeserver: Homeserver, account: Account, folder: Path, *, seed: int = 1
    ) -> None:
        self.settings = MatrixSettings(
            homeserver=homeserver.base_url,
            user_id=account.user_id,
            password=account.password,
            state_dir=folder / "matrix",
        )
        self.database = folder / "games.db"
        self.store: SqlGameStore = open_store(str(self.database), create=True)
        self.bot = MatrixBot(self.settings, self.store, translators())
        self.bot.service.rng = random.Random(seed)
        self.handled: Counter[str] = Counter()
        """How often the runner finished each command, by event id."""
        self.synced: set[str] = set()
        """Every event of the syncs the bot handled to their end."""
        self.submit_seconds: list[float] = []
        """Time spent inside `runner.submit`, per command."""
        self.submit_took: dict[str, float] = {}
        """Time spent inside `runner.submit`, by event id."""
        self.submitted_at: dict[str, float] = {}
        """When (time.perf_counter) the runner finished each command."""
        self.task: asyncio.Task[None] | None = None
        self.stop_during_next_command = False
        """Cancel the sync loop while the runner handles the next command (a host stopping
        the bot in the middle of a sync)."""
        self._arrived: list[str] = []
        self._changed = asyncio.Event()
        self._watch()

    @property
    def user_id(self) -> str:
        return self.settings.user_id

    def _watch(self) -> None:
        bot = self.bot
        submit, sync_once = bot.runner.submit, bot.sync_once

        async def counted_submit(inbound: Inbound, wait: bool = True) -> asyncio.Future[None]:
            if self.stop_during_next_command and self.task is not None:
                self.stop_during_next_command = False
                self.task.cancel()
            started = time.perf_counter()

            def count(_: object = None) -> None:
                # Handled to its end: stored, and its messages delivered.
                finished = time.perf_counter()
                self.submit_seconds.append(finished - started)
                self.submit_took[inbound.delivery_id] = finished - started
                self.submitted_at[inbound.delivery_id] = finished
                self.handled[inbound.delivery_id] += 1
                self._changed.set()

            try:
                delivered = await submit(inbound, wait)
            except BaseException:
                count()
                raise
            delivered.add_done_callback(count)
            return delivered

        async def watched_sync(timeout_ms: int = 30_000) -> None:
            await sync_once(timeout_ms)
            self.synced.update(self._arrived)
            self._arrived.clear()
            self._changed.set()

        def arrived(_room: object, event: Event) -> None:
            self._arrived.append(event.event_id)

        bot.runner.submit = counted_submit  # type: ignore[method-assign]
        bot.sync_once = watched_sync  # type: ignore[method-assign]
        bot.client.add_event_callback(arrived, (Event, MegolmEvent))

    async def start(self) -> RunningBot:
        """Log in (or restore the kept device) and run the sync loop as a task."""
        await self.bot.log_in()
        self.task = asyncio.create_task(self.bot.run())
        return self

    async def stop(self) -> None:
        """Stop as a host would: cancel the loop, then close the client."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        await self.bot.close()

    async def until(self, done: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
        """Return once `done()` holds; fail if the bot stopped or `timeout` passed first."""
        deadline = time.monotonic() + timeout
        while True:
            self._changed.clear()
            if done():
                return
            if self.task is not None and self.task.done():
                error = None if self.task.cancelled() else self.task.exception()
                raise BotStopped(f"the bot stopped before {what}") from error
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"the bot did not finish {what} within {timeout}s")
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(remaining, 0.5)):
                    await self._changed.wait()

    async def handled_command(self, event_id: str, timeout: float = WAIT) -> None:
        await self.until(lambda: self.handled[event_id] > 0, f"the command {event_id}", timeout)

    async def passed_over(self, event_id: str, timeout: float = WAIT) -> None:
        """Wait until the bot has synced `event_id` and handled that whole sync."""
        await self.until(lambda: event_id in self.synced, f"syncing {event_id}", timeout)

    def action_count(self, game_id: str) -> int:
        """How many actions the store holds for a game."""
        return next(s.actions for s in self.store.list_games() if s.game_id == game_id)

    def people_actions(self, game_id: str) -> int:
        """How many of a game's stored actions people made (the rest are bots')."""
        stored = self.store.load_stored(game_id)
        seats = stored.game.seats
        return sum(seats[a.player].kind == "human" for a in stored.record().actions)


Seat = Player | str
"""A person's client, or 'bot' / 'bot:random' for a seat the application fills."""


class Table:
    """The people of one room, playing its game through their clients."""

    def __init__(
        self, running: RunningBot, room: str, people: Iterable[Player], seed: int = 7
    ) -> None:
        self.running = running
        self.room = room
        self.people = {person.user_id: person for person in people}
        self.direct: dict[str, str] = {}
        """Each person's direct room with the bot, once he has joined it."""
        self.rng = random.Random(seed)
        self.minds: dict[tuple[str, int], Bot] = {}
        self.moves = 0
        self.proposals = 0
        self.in_room = 0
        self.in_private = 0

    @property
    def bot(self) -> MatrixBot:
        return self.running.bot

    def session(self) -> GameSession | None:
        return self.bot.service.games.get(self.room)

    # --- saying ----------------------------------------------------------------------------

    async def say(self, person: Player, text: str, room: str | None = None) -> str:
        """`person` writes `text` in `room` (the table's by default); return once the bot has
        handled it (a command) or passed over it (anything else). Returns the event id."""
        room = room or self.room
        private = self.bot.state.direct_rooms.get(person.user_id) == room
        event_id = await person.send_text(room, text)
        if command_text(text, self.bot.settings.prefix, private) is None:
            await self.running.passed_over(event_id)
        else:
            await self.running.handled_command(event_id)
        return event_id

    async def gather(self, seats: Sequence[Seat]) -> str:
        """Open a game with these seats (the first a person, who opens it), start it, join the
        direct rooms the bot opens, and return the game's id."""
        opener = seats[0]
        assert isinstance(opener, Player)
        await self.say(opener, "!bean new")
        for seat in seats[1:]:
            if isinstance(seat, str):
                strategy = seat.partition(":")[2]
                await self.say(opener, f"!bean bot {strategy}".strip())
            else:
                await self.say(seat, "!bean join")
        await self.say(opener, "!bean set deadline off")
        await self.say(opener, "!bean start")
        session = self.session()
        assert session is not None, "the game did not start"
        await self.join_direct_rooms()
        return session.game_id

    async def join_direct_rooms(self) -> None:
        """Each seated person accepts the bot's invite into his direct room."""
        for person in self.people.values():
            room = self.bot.state.direct_rooms.get(person.user_id)
            if room is None or person.user_id in self.direct:
                continue
            invite = await person.wait_for_invite(room)
            assert (invite.inviter, invite.is_direct) == (self.running.user_id, True)
            await person.join(room)
            self.direct[person.user_id] = room

    # --- playing ---------------------------------------------------------------------------

    def person_at(self, session: GameSession, seat: int) -> Player:
        return self.people[session.seats[seat].identity.user_id]

    def _mind(self, session: GameSession, seat: int) -> Bot:
        key = (session.game_id, seat)
        if key not in self.minds:
            self.minds[key] = make_bot("heuristic", random.Random(self.rng.random()))
        return self.minds[key]

    def _order(self, session: GameSession) -> list[int]:
        return [s for s in asking_order(session.state) if session.seats[s].is_human]

    def decide(self, session: GameSession) -> tuple[int, Action | None] | None:
        """Which person acts next and what he does (None: he passes on trading), if anyone."""
        waiting = session.game.waiting_for()
        for seat in self._order(session):
            control = session.seats[seat]
            trading = session.state.step is Step.TRADE and seat != session.state.active
            if seat not in waiting and control.passed == session.moment(seat):
                continue
            legal = session.legal(seat)
            action = self._proposal(session, seat)
            if action is None and legal:
                action = self._mind(session, seat).choose(session.view(seat), legal)
            if action is None and trading:
                return seat, None
            if action is None:
                assert seat not in waiting, f"seat {seat} is awaited but decided nothing"
                continue
            return seat, action
        return None

    def _proposal(self, session: GameSession, seat: int) -> Action | None:
        """Twice a game, a person on turn offers his last hand card to the next player, so
        every game has people's offers to answer (the minds seldom make them)."""
        state = session.state
        if self.proposals >= 2 or state.step is not Step.TRADE or seat != state.active:
            return None
        if state.offers or len(session.view(seat).hand) < 2:
            return None
        partner = (seat + 1) % len(session.seats)
        offer = ProposeTrade(seat, partner, (len(session.view(seat).hand) - 1,))
        try:
            session.game.check(offer)
        except IllegalActionError:
            return None
        self.proposals += 1
        return offer

    async def move(self) -> bool:
        """One person does what he decides; False if nobody would act."""
        session = self.session()
        decision = self.decide(session) if session is not None else None
        if session is None or decision is None:
            return False
        seat, action = decision
        if action is None:
            await self.send(session, seat, "pass")
            return True
        before = len(session.game.actions)
        await self.send(session, seat, action_text(action))
        assert len(session.game.actions) > before, f"{action_text(action)} was not taken"
        assert _same_move(session.game.actions[before], action)
        self.moves += 1
        return True

    async def send(self, session: GameSession, seat: int, command: str) -> None:
        """The command as a person types it: in his direct room, or with the prefix in the
        game's room."""
        person = self.person_at(session, seat)
        direct = self.direct.get(person.user_id)
        if direct is not None and self.rng.random() < 0.5:
            self.in_private += 1
            await self.say(person, command, direct)
        else:
            self.in_room += 1
            await self.say(person, f"!bean {command}")

    async def play(self, max_moves: int = 3_000, stop_after: int | None = None) -> None:
        """Play the room's game to its end (or until `stop_after` more moves)."""
        start = self.moves
        for _ in range(max_moves):
            if self.session() is None:
                return
            if stop_after is not None and self.moves - start >= stop_after:
                return
            assert await self.move(), "every person waits, and the game does not move"
        raise AssertionError(f"the game did not end within {max_moves} moves")


def _same_move(stored: Action, sent: Action) -> bool:
    """The stored action is the one sent (an accept's cards may be chosen for it)."""
    if isinstance(sent, AcceptTrade) and not sent.hand and not sent.face_up:
        return isinstance(stored, AcceptTrade) and stored.offer == sent.offer
    return stored == sent


# --- what people received ----------------------------------------------------------------------


async def room_history(player: Player, room_id: str) -> list[TimelineEvent]:
    """Every event of a room the player can read, from the server's history (decrypted where
    his client can), oldest first."""
    events: list[TimelineEvent] = []
    start = player.next_batch
    while True:
        response = await player.client.room_messages(
            room_id, start=start, direction=MessageDirection.back, limit=100
        )
        assert isinstance(response, RoomMessagesResponse), response
        for event in response.chunk:
            encrypted = bool(getattr(event, "decrypted", False))
            events.append(TimelineEvent(0, room_id, event.source, encrypted))
        if not response.chunk or not response.end:
            return events[::-1]
        start = response.end


async def everything_received(player: Player) -> list[TimelineEvent]:
    """What the player's client got by sync, and the whole history of each of his rooms."""
    await player.sync()
    history: list[TimelineEvent] = []
    for room_id in list(player.client.rooms):
        history += await room_history(player, room_id)
    return player.events + history


def texts_of(event: TimelineEvent) -> list[str]:
    """The texts an event shows: its body, and an edit's new body."""
    content = event.content
    texts = [str(content.get("body", ""))]
    new = content.get("m.new_content") or {}
    texts.append(str(new.get("body", "")))
    return [text for text in texts if text]


def hand_lines(texts: Iterable[str]) -> set[str]:
    """The hands listed in these texts (two cards or more: a single card is no secret)."""
    lines = set()
    for text in texts:
        for line in text.replace("* ", "", 1).splitlines():
            if line.startswith(HAND_LINE) and " · " in line:
                lines.add(line.removeprefix(HAND_LINE))
    return lines


def hand_leaks(
    bot_user: str, direct_rooms: dict[str, str], received: dict[str, list[TimelineEvent]]
) -> list[str]:
    """Every hand a player received anywhere but in his own direct room with the bot, and every
    other player's hand a player received at all. Empty if none."""
    leaks: list[str] = []
    own: dict[str, set[str]] = {}
    for user, events in received.items():
        mine = direct_rooms.get(user)
        own[user] = hand_lines(
            t for e in events if e.room_id == mine and e.sender == bot_user for t in texts_of(e)
        )
        for event in events:
            if any(HAND_LINE in text for text in texts_of(event)) and event.room_id != mine:
                leaks.append(f"{user} received a hand in {event.room_id}: {texts_of(event)}")
    for reader, events in received.items():
        lines = {
            part
            for e in events
            for text in texts_of(e)
            for line in text.splitlines()
            for part in line.split(HAND_LINE)
        }
        for user, hands in own.items():
            if user == reader:
                continue
            # A hand the reader once held himself is no secret to him.
            secret = hands - own[reader]
            leaks += [f"{reader} received {user}'s hand {h!r}" for h in secret & lines]
    return leaks
