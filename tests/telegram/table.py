"""The Telegram adapter wired to the simulated Bot API, and people who play through it.

`RunningBot` is the whole application as `bohnanza serve telegram` builds it (a store, the
catalogs, python-telegram-bot's Application, `TelegramBot`), pointed at a `BotApiServer`.
`Players` decides each person's move with a bot looking at that person's own view, then makes it
the way a person on Telegram does: pressing a button of his latest private message, or typing the
command in the group or in his private chat. Nothing goes into a game except through Telegram.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from telegram.ext import AIORateLimiter, BaseRateLimiter

from bohnanza.adapters.store import open_store
from bohnanza.adapters.store.sql_store import SqlGameStore
from bohnanza.adapters.telegram import TelegramBot, TelegramSettings, build_application
from bohnanza.core.actions import AcceptTrade, Action, CounterTrade
from bohnanza.core.app.i18n import English, Translator
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.markup import BEAN_MARKS
from bohnanza.core.app.session import GameSession
from bohnanza.core.bots import Bot, make_bot
from bohnanza.core.errors import IllegalActionError
from bohnanza.core.legal import asking_order
from bohnanza.core.notation import action_text
from bohnanza.core.state import Step

from .botapi import BotApiServer, CallbackAnswer, Chat, SimUser, StoredMessage, World
from .botapi.records import PATIENCE

HAND_LINE = "Your hand (front first): "
PASSED = "You pass on trading this time."


def translators() -> dict[str, Translator]:
    """The shipped catalogs, or English alone if they cannot be read."""
    try:
        from bohnanza.adapters.i18n import load_translators

        return load_translators()
    except Exception:
        return {"en": English()}


def settings_for(botapi: BotApiServer, **options: Any) -> TelegramSettings:
    """Settings that point the bot at the local server (its root URL, as the host would)."""
    return TelegramSettings(
        token=botapi.world.token, base_url=f"http://{botapi.host}:{botapi.port}", **options
    )


def unthrottled(max_retries: int = 3) -> AIORateLimiter:
    """Telegram's retry-after honoured, without the 20-a-minute group budget that would make a
    whole game take an hour."""
    return AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=max_retries)


class RunningBot:
    """The Telegram application on the database at `path`; `async with` starts and stops it."""

    def __init__(
        self,
        botapi: BotApiServer,
        path: Path,
        *,
        seed: int = 1,
        rate_limiter: BaseRateLimiter[Any] | None = None,
        settings: TelegramSettings | None = None,
    ) -> None:
        self.botapi = botapi
        self.world: World = botapi.world
        self.path = path
        self.seed = seed
        self.settings = settings or settings_for(botapi)
        self.store: SqlGameStore = open_store(str(path), create=True)
        self.application = build_application(self.settings, rate_limiter or unthrottled())
        self.bot = TelegramBot(self.application, self.store, translators())
        self.bot.service.rng = random.Random(seed)
        self.handled: Counter[str] = Counter()
        """How often the runner finished each delivery id (a redelivered update counts twice)."""
        self.in_hand = 0
        """Inputs the runner was given and has not stored and answered yet."""
        submit = self.bot.runner.submit

        async def counted(inbound: Inbound, wait: bool = True) -> asyncio.Future[None]:
            self.in_hand += 1
            try:
                delivered = await submit(inbound, wait)
            except BaseException:
                self._count(inbound)
                raise
            finally:
                self.in_hand -= 1
            delivered.add_done_callback(lambda _: self._count(inbound))
            return delivered

        self.bot.runner.submit = counted  # type: ignore[method-assign]
        self.world.at_work = self.at_work

    def at_work(self) -> bool:
        """Whether an update waits for the bot, an input is in hand or a message on its way."""
        queued = self.application.update_queue.qsize() > 0
        return queued or self.in_hand > 0 or self.bot.runner.sending

    def _count(self, inbound: Inbound) -> None:
        """The input is handled to its end: stored, and its messages delivered."""
        self.handled[inbound.delivery_id] += 1
        self.world.notify()

    async def __aenter__(self) -> RunningBot:
        await self.application.initialize()
        await self.bot.start(self.settings)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.bot.stop()
        await self.application.shutdown()

    def action_count(self, game_id: str) -> int:
        """How many actions the store holds for a game."""
        return next(s.actions for s in self.store.list_games() if s.game_id == game_id)

    async def handled_message(self, message: StoredMessage, timeout: float = PATIENCE) -> None:
        """Wait until the bot has handled a person's message to its end."""
        key = f"m:{message.chat.id}:{message.message_id}"
        await self.world.wait_until(lambda: self.handled[key] > 0, timeout, f"handling {key}")


class Players:
    """The people of one group, playing its games through Telegram."""

    def __init__(
        self, running: RunningBot, group: Chat, people: Iterable[SimUser], seed: int = 7
    ) -> None:
        self.running = running
        self.group = group
        self.people = {str(person.id): person for person in people}
        self.rng = random.Random(seed)
        self.minds: dict[tuple[str, int], Bot] = {}
        self.moves = 0
        self.presses = 0
        self.typed = 0
        self.counters = 0

    @property
    def room(self) -> str:
        return str(self.group.id)

    @property
    def world(self) -> World:
        return self.running.world

    def session(self) -> GameSession | None:
        return self.running.bot.service.games.get(self.room)

    # --- saying and pressing -------------------------------------------------------------

    async def say(self, person: SimUser, text: str, chat: Chat | None = None) -> StoredMessage:
        """`person` writes `text` in `chat` (None: his private chat) and the bot handles it."""
        message = person.say(chat, text)
        await self.running.handled_message(message)
        return message

    async def press(self, person: SimUser, message: StoredMessage, data: str) -> CallbackAnswer:
        """`person` presses the button with this data under `message`; the bot's answer."""
        query = person.press(message, data)
        answer = await query.wait_answer()
        key = f"cb:{query.id}"
        await self.world.wait_until(lambda: self.running.handled[key] > 0, what=key)
        return answer

    async def gather(self, seats: Sequence[str]) -> str:
        """Open a game in the group with these seats ('bot', 'bot:random', or a person's first
        name; the first a person who opens it), start it, and return its id."""
        by_name = {p.account.first_name: p for p in self.people.values()}
        opener = by_name[seats[0]]
        await self.say(opener, "/new", self.group)
        for seat in seats[1:]:
            if seat.startswith("bot"):
                strategy = seat.partition(":")[2]
                await self.say(opener, f"/bot {strategy}".strip(), self.group)
            elif self.rng.random() < 0.5:
                await self.press(by_name[seat], self.lobby_message(), "l join")
            else:
                await self.say(by_name[seat], f"/join@{self.world.bot.username}", self.group)
        await self.say(opener, "/set deadline off", self.group)
        await self.say(opener, "/start", self.group)
        session = self.session()
        assert session is not None, [m.text for m in self.group.bot_messages[-3:]]
        return session.game_id

    def lobby_message(self) -> StoredMessage:
        for message in reversed(self.group.bot_messages):
            if any(b.get("callback_data") == "l join" for r in message.inline_keyboard for b in r):
                return message
        raise LookupError("no lobby message in the group")

    # --- playing -------------------------------------------------------------------------

    def person_at(self, session: GameSession, seat: int) -> SimUser:
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
            if not legal and not trading:
                continue
            action = self._counter(session, seat)
            if action is None and legal:
                action = self._mind(session, seat).choose(session.view(seat), legal)
            if action is None and trading:
                return seat, None
            if action is None:
                assert seat not in waiting, f"seat {seat} is awaited but decided nothing"
                continue
            return seat, action
        return None

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
        assert len(session.game.actions) > before, self._trouble(session, seat)
        assert _same_move(session.game.actions[before], action)
        self.moves += 1
        return True

    def _counter(self, session: GameSession, seat: int) -> Action | None:
        """Now and then a person answers an offer made to him with one of his own."""
        if self.counters >= 2:
            return None
        view = session.view(seat)
        for offer in view.offers:
            if offer.receiver != seat or offer.stale or not view.hand:
                continue
            for want in (offer.give[:1], ()):
                counter = CounterTrade(seat, offer.id, (len(view.hand) - 1,), (), tuple(want))
                try:
                    session.game.check(counter)
                except IllegalActionError:
                    continue
                self.counters += 1
                return counter
        return None

    async def send(self, session: GameSession, seat: int, command: str) -> None:
        """The command as a person gives it: a button of his latest private message if it has
        one, else typed in the group or privately."""
        person = self.person_at(session, seat)
        message = latest_private(person, session.game_id)
        data = _button_data(message, session.game_id, command) if message else None
        if message is not None and data is not None and self.rng.random() < 0.7:
            self.presses += 1
            answer = await self.press(person, message, data)
            assert answer.text in ("✓", PASSED), answer.text
            return
        self.typed += 1
        started = person.private_chat.bot_status == "member"
        chat = person.private_chat if started and self.rng.random() < 0.5 else self.group
        await self.say(person, f"/{command}" if chat is self.group else command, chat)
        if command == "pass":
            assert chat.bot_messages[-1].text == PASSED, chat.bot_messages[-1].text

    def _trouble(self, session: GameSession, seat: int) -> str:
        person = self.person_at(session, seat)
        said = [m.text for m in person.private_messages[-2:]] + [
            m.text for m in self.group.bot_messages[-2:]
        ]
        answers = [
            q.answer.text
            for q in self.world.callback_queries.values()
            if q.user.id == person.id and q.answer
        ]
        return f"{person}'s move was not taken: {said} {answers[-2:]}"

    async def play(self, max_moves: int = 5_000, stop_after: int | None = None) -> None:
        """Play the group's game to its end (or until `stop_after` moves)."""
        for _ in range(max_moves):
            if self.session() is None or (stop_after is not None and self.moves >= stop_after):
                return
            assert await self.move(), "every person waits, and the game does not move"
        raise AssertionError(f"the game did not end within {max_moves} moves")


def latest_private(person: SimUser, game_id: str) -> StoredMessage | None:
    """The person's latest private message about his hand in one game."""
    for message in reversed(person.private_messages):
        if (message.text or "").startswith(f"Game {game_id}\n") and message.inline_keyboard:
            return message
    return None


def _button_data(message: StoredMessage, game_id: str, command: str) -> str | None:
    for row in message.inline_keyboard:
        for button in row:
            words = str(button.get("callback_data", "")).split(maxsplit=3)
            if words[:2] == ["g", game_id] and words[3:] == [command]:
                return str(button["callback_data"])
    return None


def _same_move(stored: Action, sent: Action) -> bool:
    """The stored action is the one sent (an accept's cards may be chosen for it)."""
    if isinstance(sent, AcceptTrade) and not sent.hand and not sent.face_up:
        return isinstance(stored, AcceptTrade) and stored.offer == sent.offer
    return stored == sent


def sent_buttons(world: World) -> list[dict[str, Any]]:
    """Every inline button the bot ever asked Telegram to show."""
    buttons = []
    for call in world.calls:
        markup = call.params.get("reply_markup")
        if isinstance(markup, str):
            markup = json.loads(markup)
        for row in (markup or {}).get("inline_keyboard", []):
            buttons += row
    return buttons


# --- privacy ---------------------------------------------------------------------------------


def unmarked(text: str | None) -> str:
    """A text Telegram shows without the beans' markers, as the plain text reads (a message
    sent in HTML shows a marker before each bean)."""
    text = text or ""
    for mark in BEAN_MARKS.values():
        text = text.replace(f"{mark} ", "")
    return text


def all_texts(messages: Iterable[StoredMessage]) -> list[str]:
    """Every text these messages ever showed, earlier versions of edited ones included (read
    without the beans' markers)."""
    texts = []
    for message in messages:
        texts += [unmarked(v.text) for v in message.versions if v.text]
        if message.text:
            texts.append(unmarked(message.text))
    return texts


def hand_lines(texts: Iterable[str]) -> set[str]:
    """The hands listed in these texts (two cards or more: a single card is no secret)."""
    lines = set()
    for text in texts:
        for line in text.splitlines():
            if line.startswith(HAND_LINE) and " · " in line:
                lines.add(line.removeprefix(HAND_LINE))
    return lines


def _lines(texts: Iterable[str]) -> set[str]:
    """Each line of these texts, and what follows the hand heading on it."""
    return {part for text in texts for line in text.splitlines() for part in line.split(HAND_LINE)}


def hand_leaks(world: World, group: Chat, people: Sequence[SimUser]) -> list[str]:
    """Every place one player's hand was shown to anyone else: the group, another person's
    private chat, a button answer or an inline result given to another. Empty if none."""
    public = all_texts(group.history)
    leaks = [f"the group was shown a hand: {t!r}" for t in public if HAND_LINE in t]
    seen_by: dict[int, list[str]] = {p.id: all_texts(p.private_chat.history) for p in people}
    for query in world.callback_queries.values():
        if query.answer is not None and query.answer.text:
            seen_by.setdefault(query.user.id, []).append(query.answer.text)
    for inline in world.inline_queries.values():
        for result in inline.answer.results if inline.answer else []:
            shown = [result.get("title"), result.get("description")]
            shown.append(result.get("input_message_content", {}).get("message_text"))
            seen_by.setdefault(inline.user.id, []).extend(str(t) for t in shown if t)
    hands = {p.id: hand_lines(all_texts(p.private_messages)) for p in people}
    public_lines = _lines(public)
    for person in people:
        assert hands[person.id], f"{person} never saw his hand"
        leaks += [f"the group saw {person}'s hand {h!r}" for h in hands[person.id] & public_lines]
        for reader, texts in seen_by.items():
            if reader == person.id:
                continue
            # A hand the reader once held himself is no secret to him.
            secret = hands[person.id] - hands.get(reader, set())
            leaks += [f"{reader} saw {person}'s hand {h!r}" for h in secret & _lines(texts)]
    return leaks
