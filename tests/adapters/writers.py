"""Writer processes for the two-writer tests: each plays the same game from its own store handle.

Every action a writer stores is chosen from the game as the store holds it, so a writer that
loses a race must reload before it can go on.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime
from multiprocessing.synchronize import Barrier

from bohnanza.adapters.store import open_store
from bohnanza.core.ports import Appended, StoredAction
from bohnanza.core.record import replay


@dataclass(frozen=True)
class WriterReport:
    """What one writer did: the sequence numbers it stored, and how often it lost a race."""

    won: tuple[int, ...]
    conflicts: int


def _next_action(target: str, game_id: str, rng: random.Random) -> StoredAction:
    with open_store(target) as store:
        record = store.load_record(game_id)
    game = replay(record)
    seat = rng.choice(game.waiting_for())
    action = rng.choice(game.legal_actions(seat).actions)
    return StoredAction(len(record.actions), action, datetime.now(UTC))


def race_in_lockstep(
    target: str, game_id: str, seed: int, rounds: int, barrier: Barrier
) -> WriterReport:
    """Each round: read the game, wait for the other writer, then both append at once."""
    rng = random.Random(seed)
    won, conflicts = [], 0
    with open_store(target) as store:
        for _ in range(rounds):
            action = _next_action(target, game_id, rng)
            barrier.wait()
            result = store.append_action(game_id, action)
            if isinstance(result, Appended):
                won.append(result.seq)
            else:
                conflicts += 1
            barrier.wait()
    return WriterReport(tuple(won), conflicts)


def race_freely(target: str, game_id: str, seed: int, until: int, barrier: Barrier) -> WriterReport:
    """Append as fast as possible until the game has `until` actions, reloading after a loss."""
    rng = random.Random(seed)
    won, conflicts = [], 0
    barrier.wait()
    with open_store(target) as store:
        while True:
            action = _next_action(target, game_id, rng)
            if action.seq >= until:
                break
            result = store.append_action(game_id, action)
            if isinstance(result, Appended):
                won.append(result.seq)
            else:
                conflicts += 1
    return WriterReport(tuple(won), conflicts)
