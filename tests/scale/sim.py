"""Simulated players driving many games through several worker processes on one store.

Each game is played by people (one per seat) whose moves a bot chooses on the seat's own view,
from a copy of the game the driver keeps by applying the actions the workers acknowledged. Every
command goes to a worker picked at random, so one game's commands reach different workers; while
trading, two seats sometimes act at once through two workers, racing for the same place in the
game. The store serializes them: one wins, the other is decided again or refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sys
import time
import zlib
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from bohnanza.adapters.store import SqlGameStore, database_url, open_store
from bohnanza.core.actions import Action, action_from_json
from bohnanza.core.bots import Bot, make_bot
from bohnanza.core.cards import Card
from bohnanza.core.game import Game
from bohnanza.core.legal import asking_order, trading_moment
from bohnanza.core.notation import action_text
from bohnanza.core.state import Step

ROOT = Path(__file__).resolve().parents[2]
PLATFORM = "sim"


@contextlib.contextmanager
def fresh_schema(url: str, name: str) -> Iterator[str]:
    """A URL whose tables live in a new, empty PostgreSQL schema, dropped afterwards."""
    engine = create_engine(database_url(url))
    with engine.begin() as connection:
        connection.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
        connection.execute(text(f'CREATE SCHEMA "{name}"'))
    scoped = make_url(database_url(url)).update_query_dict({"options": f"-csearch_path={name}"})
    try:
        yield scoped.render_as_string(hide_password=False)
    finally:
        with engine.begin() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
        engine.dispose()


class Lost(Exception):
    """The worker died before answering."""


class Worker:
    """One worker process, fed commands over its stdin, answering on its stdout."""

    def __init__(self, url: str, index: int) -> None:
        self.url = url
        self.index = index
        self.process: asyncio.subprocess.Process | None = None
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None
        self.starts = 0

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None and self._ready

    async def start(self) -> None:
        self._ready = False
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.scale.worker",
            self.url,
            str(self.index * 1000 + self.starts),
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=2**24,
        )
        self.starts += 1
        assert self.process.stdout is not None
        line = await self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"worker {self.index} did not start")
        self._ready = True
        self._reader = asyncio.create_task(self._read(self.process))

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None
        while line := await process.stdout.readline():
            answer = json.loads(line)
            future = self._pending.pop(answer["id"], None)
            if future is not None and not future.done():
                future.set_result(answer)
        self._ready = False
        for future in self._pending.values():
            if not future.done():
                future.set_exception(Lost())
        self._pending.clear()

    async def send(self, request: dict[str, Any]) -> dict[str, Any]:
        if not self.alive or self.process is None or self.process.stdin is None:
            raise Lost()
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request["id"]] = future
        try:
            self.process.stdin.write((json.dumps(request) + "\n").encode())
            await self.process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            self._pending.pop(request["id"], None)
            raise Lost() from None
        return await future

    def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self._ready = False
            os.kill(self.process.pid, signal.SIGKILL)

    async def wait(self) -> None:
        if self.process is not None:
            await self.process.wait()
        if self._reader is not None:
            await self._reader

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            await self.wait()


class _Shuffler:
    """Hands the replica the reshuffles the store recorded, as they are acknowledged."""

    def __init__(self) -> None:
        self.orders: deque[list[Card]] = deque()

    def __call__(self, cards: list[Card]) -> list[Card]:
        return self.orders.popleft()


@dataclass
class Replica:
    """The driver's copy of one game, built from acknowledged actions only."""

    game: Game
    shuffler: _Shuffler
    waiting: dict[int, tuple[str, str]] = field(default_factory=dict)

    @classmethod
    def new(cls, players: int, deck: list[Card]) -> Replica:
        shuffler = _Shuffler()
        return cls(Game(players, deck, shuffler), shuffler)

    def acknowledge(self, seq: int, payload: str, reshuffles: str) -> None:
        self.waiting[seq] = (payload, reshuffles)
        while (nxt := len(self.game.actions)) in self.waiting:
            payload, orders = self.waiting.pop(nxt)
            self.shuffler.orders.extend(json.loads(orders))
            self.game.apply(action_from_json(json.loads(payload)))


@dataclass
class Tally:
    """Everything the workers acknowledged, and what happened to the commands."""

    acked: list[tuple[str, int, str, int]] = field(default_factory=list)
    """(game, seq, payload, worker) for every acknowledged action."""
    commands: int = 0
    answered: int = 0
    trips: int = 0
    """Round trips to the store (statements and commits) of the answered commands."""
    cpu: float = 0.0
    """Processor seconds the workers spent on the answered commands."""
    lost: int = 0
    refused: int = 0
    finished: int = 0
    games: dict[str, str] = field(default_factory=dict)
    """Room -> game id."""


class Simulation:
    """Plays `games` games through `workers`, each command to a random live worker."""

    def __init__(
        self,
        workers: list[Worker],
        seed: int,
        players: tuple[int, ...] = (2, 3, 4),
        race: float = 0.3,
        sticky: bool = False,
    ) -> None:
        self.workers = workers
        self.sticky = sticky
        """Each room's commands to one worker (as a load balancer with affinity would send
        them), rather than to any worker."""
        self.rng = random.Random(seed)
        self.players = players
        self.race = race
        self.tally = Tally()
        self._ids = 0
        self.stop_at = float("inf")
        """A monotonic time after which nothing more is sent: the generous bound of a run."""
        self.moves_per_game: int | None = None
        """Each game stops once this many of its actions are stored (None: at its end)."""

    def _worker(self, room: str) -> Worker | None:
        alive = [w for w in self.workers if w.alive]
        if not alive:
            return None
        if self.sticky:
            return alive[zlib.crc32(room.encode()) % len(alive)]
        return self.rng.choice(alive)

    async def command(self, user: str, room: str, command: str) -> dict[str, Any] | None:
        """Send one command to a random live worker; None if it was lost on the way."""
        worker = self._worker(room)
        if worker is None:
            await asyncio.sleep(0.05)
            return None
        self._ids += 1
        self.tally.commands += 1
        request = {"id": self._ids, "user": user, "room": room, "text": command}
        try:
            answer = await worker.send(request)
        except Lost:
            self.tally.lost += 1
            return None
        self.tally.answered += 1
        self.tally.trips += int(answer.get("trips", 0))
        self.tally.cpu += float(answer.get("cpu", 0.0))
        for game_id, seq, payload, _ in answer["acked"]:
            self.tally.acked.append((game_id, seq, payload, worker.index))
        return answer

    async def play(self, games: int, store: SqlGameStore, max_rounds: int = 100_000) -> None:
        """Play `games` games at once until each ends (or has `moves_per_game` actions), or
        `stop_at` (a monotonic time) passes."""
        await asyncio.gather(*(self._game(index, store, max_rounds) for index in range(games)))

    async def _game(self, index: int, store: SqlGameStore, max_rounds: int) -> None:
        rng = random.Random(self.rng.random())
        room = f"room-{index}"
        players = rng.choice(self.players)
        users = [f"g{index}-p{seat}" for seat in range(players)]
        replica = await self._gather(room, users, store)
        if replica is None:
            return
        game_id = self.tally.games[room]
        bots = [make_bot("heuristic", random.Random(rng.random())) for _ in users]
        passed: dict[int, object] = {}
        rounds = 0
        while not self._done(replica) and rounds < max_rounds:
            rounds += 1
            moves = next_moves(replica.game, bots, passed, rng.random() < self.race)
            if not moves:
                raise AssertionError(f"game {game_id}: nobody can act")
            answers = await asyncio.gather(
                *(self.command(users[seat], room, action_text(a)) for seat, a in moves)
            )
            for answer in answers:
                if answer is None:
                    continue
                if not answer["acked"]:
                    self.tally.refused += 1
                for acked_game, seq, payload, reshuffles in answer["acked"]:
                    if acked_game == game_id:
                        replica.acknowledge(seq, payload, reshuffles)
            if any(answer is None for answer in answers) or replica.waiting:
                # A lost answer: the action may or may not be stored; read the game back.
                replica = _from_store(store, game_id)
        if replica.game.is_over:
            self.tally.finished += 1

    def _done(self, replica: Replica) -> bool:
        """Whether a game has been played far enough (or the run's time is up)."""
        if replica.game.is_over or time.monotonic() >= self.stop_at:
            return True
        return self.moves_per_game is not None and len(replica.game.actions) >= self.moves_per_game

    async def _gather(self, room: str, users: list[str], store: SqlGameStore) -> Replica | None:
        """Open, fill and start the game in `room`, robust to lost commands: each step looks
        at the store to see what is still to do."""
        while time.monotonic() < self.stop_at:
            game_id = store.active_game_in(PLATFORM, room)
            if game_id is not None:
                self.tally.games[room] = game_id
                return _from_store(store, game_id)
            lobby = store.load_lobby(PLATFORM, room)
            seated = {seat[1] for seat in lobby.data["seats"]} if lobby else set()
            missing = [user for user in users if user not in seated]
            if lobby is None:
                step = (users[0], "new")
            elif missing:
                step = (missing[0], "join")
            else:
                step = (str(lobby.data["creator"]), "start")
            answer = await self.command(step[0], room, step[1])
            if answer is not None and answer["game"] is not None:
                self.tally.games[room] = answer["game"]["id"]
                return Replica.new(answer["game"]["players"], answer["game"]["deck"])
        return None


def _from_store(store: SqlGameStore, game_id: str) -> Replica:
    record = store.load_record(game_id)
    shuffler = _Shuffler()
    shuffler.orders.extend(list(order) for order in record.reshuffles)
    game = Game(len(record.seats), record.deck, shuffler)
    for action in record.actions:
        game.apply(action)
    return Replica(game, shuffler)


def next_moves(
    game: Game, bots: list[Bot], passed: dict[int, object], race: bool
) -> list[tuple[int, Action]]:
    """The next move, as `bohnanza.core.bots.play_out` picks it; with `race`, while trading,
    a second seat's move too, to be sent at the same moment."""
    state = game.state
    waiting = game.waiting_for()
    moves: list[tuple[int, Action]] = []
    for seat in asking_order(state):
        moment = None
        if seat not in waiting:
            moment = trading_moment(state, seat)
            if passed.get(seat) == moment:
                continue
        legal = game.legal_actions(seat)
        action = bots[seat].choose(game.view(seat), legal) if legal else None
        if action is not None:
            moves.append((seat, action))
            if not (race and state.step is Step.TRADE and len(moves) < 2):
                break
        elif moment is not None:
            passed[seat] = moment
    return moves


def check_acknowledged(store: SqlGameStore, tally: Tally, exact: bool) -> dict[str, int]:
    """Every acknowledged action is stored as acknowledged, none twice; with `exact`, every
    stored action was acknowledged. Returns the stored action count per game."""
    seen: dict[tuple[str, int], str] = {}
    for game_id, seq, payload, worker in tally.acked:
        key = (game_id, seq)
        assert key not in seen, f"game {game_id}: action {seq} acknowledged twice ({worker})"
        seen[key] = payload
    counts = {}
    stored_keys = set()
    for stored in store.stored_games():
        assert not isinstance(stored, Exception), stored
        counts[stored.game.game_id] = stored.action_count
        for link in stored.links:
            stored_keys.add((stored.game.game_id, link.seq))
            if (stored.game.game_id, link.seq) in seen:
                assert seen[(stored.game.game_id, link.seq)] == link.payload
    missing = set(seen) - stored_keys
    assert not missing, f"acknowledged but not stored: {sorted(missing)[:5]}"
    if exact:
        unacknowledged = stored_keys - set(seen)
        assert not unacknowledged, f"stored but never acknowledged: {sorted(unacknowledged)[:5]}"
    return counts


async def start_workers(url: str, count: int) -> list[Worker]:
    with open_store(url, create=True):
        pass
    workers = [Worker(url, index) for index in range(count)]
    await asyncio.gather(*(worker.start() for worker in workers))
    return workers
