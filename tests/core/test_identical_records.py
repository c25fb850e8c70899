"""Bot games play exactly as they did before the engine was made faster: the record of every
game below, for every player count and bot line-up, hashes to the digest stored in
`data/simulated_records.json`, written by the engine as it was before.

A change to the rules, the bots or the record format changes these digests on purpose; write them
again with `python -m tests.core.test_identical_records` and say why in the change.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from bohnanza.core.bots import make_bot, play_out
from bohnanza.core.game import Game
from bohnanza.core.record import GameRecord, SeatRecord, replay
from bohnanza.core.table_setup import MAX_PLAYERS, MIN_PLAYERS

DIGESTS = Path(__file__).parent / "data" / "simulated_records.json"
LINE_UPS = (("random",), ("heuristic",), ("heuristic", "random"), ("random", "heuristic"))
SEEDS = range(6)


def simulated_record(players: int, line_up: tuple[str, ...], seed: int) -> GameRecord:
    """One complete bot game, seeded as `bohnanza simulate` seeds its games."""
    seats = tuple(line_up[seat % len(line_up)] for seat in range(players))
    rng = random.Random(seed)
    game = Game.new(players, rng)
    play_out(game, [make_bot(strategy, random.Random(rng.random())) for strategy in seats])
    records = tuple(SeatRecord(f"{s}-{i + 1}", "bot", s) for i, s in enumerate(seats))
    game_id = f"p{players}-{'+'.join(line_up)}-{seed}"
    return GameRecord.of(game, records, {"seed": seed}, game_id=game_id)


def game_key(players: int, line_up: tuple[str, ...], seed: int) -> str:
    return f"{players}/{'+'.join(line_up)}/{seed}"


def digests() -> dict[str, str]:
    """The sha256 of every game's record text, by player count, line-up and seed."""
    return {
        game_key(players, line_up, seed): hashlib.sha256(
            simulated_record(players, line_up, seed).dumps().encode()
        ).hexdigest()
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)
        for line_up in LINE_UPS
        for seed in SEEDS
    }


@pytest.mark.slow
@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
@pytest.mark.parametrize("line_up", LINE_UPS, ids="+".join)
def test_bot_games_write_byte_identical_records_to_the_stored_digests(
    players: int, line_up: tuple[str, ...]
) -> None:
    stored = json.loads(DIGESTS.read_text())
    for seed in SEEDS:
        record = simulated_record(players, line_up, seed)
        text = record.dumps()
        digest = hashlib.sha256(text.encode()).hexdigest()
        assert digest == stored[game_key(players, line_up, seed)], (players, line_up, seed)
        assert replay(GameRecord.loads(text)).result() == record.result


def test_the_stored_digests_cover_every_player_count_line_up_and_seed() -> None:
    stored = json.loads(DIGESTS.read_text())
    assert len(stored) == (MAX_PLAYERS - MIN_PLAYERS + 1) * len(LINE_UPS) * len(SEEDS) == 144


if __name__ == "__main__":
    DIGESTS.write_text(json.dumps(digests(), indent=1, sort_keys=True) + "\n")
