"""The planted-blunder set and the tool that makes it: a slice of what `check.py` measures.

The whole measurement is a tool (`python bench/blunders/check.py`, docs/analysis.md); these
tests check that the set holds what it says, that the tool plants and prices a blunder, and
that the analysis calls a few of the set's declined gifts mistakes.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from bohnanza.core.actions import action_from_json
from bohnanza.core.analysis import SearchSize, decisions, judge
from bohnanza.core.record import GameRecord

FOLDER = Path(__file__).resolve().parents[2] / "bench" / "blunders"
sys.path.insert(0, str(FOLDER))

from blunder_games import plant, real_cost  # noqa: E402
from blunder_kinds import KINDS  # noqa: E402


@pytest.fixture(scope="module")
def blunders() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads((FOLDER / "set.json").read_text())["blunders"]
    return data


@pytest.fixture(scope="module")
def records() -> dict[str, GameRecord]:
    found = {}
    with gzip.open(FOLDER / "records.jsonl.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            item = json.loads(line)
            found[item["id"]] = GameRecord.from_json(item["record"])
    return found


def test_the_set_holds_blunders_of_every_kind_at_three_to_five_players(
    blunders: list[dict[str, Any]], records: dict[str, GameRecord]
) -> None:
    assert len(blunders) >= 60
    assert {b["kind"] for b in blunders} == set(KINDS)
    assert {b["players"] for b in blunders} == {3, 4, 5}
    assert sum(1 for b in blunders if b["kind"] == "decline-gift") >= 10
    assert sum(1 for b in blunders if b["real_cost"] >= 1.5) >= 10
    for blunder in blunders[::10]:
        record = records[blunder["id"]]
        assert len(record.seats) == blunder["players"]
        action = record.actions[blunder["action"]]
        assert action == action_from_json(blunder["blunder_json"])
        assert action.player == blunder["seat"]
        assert blunder["error"] >= 0


def test_a_blunder_is_planted_where_it_fits_and_priced_by_whole_games() -> None:
    planted = next(
        p for seed in range(20) if (p := plant("split", KINDS["split"], 3, seed)) is not None
    )
    assert planted.record.actions[planted.index] == planted.blunder
    assert planted.alternative != planted.blunder
    cost = real_cost(planted, deals=3)
    assert cost.deals == 3 and cost.error >= 0
    assert -40 < cost.mean < 40


@pytest.mark.slow
def test_declined_gifts_that_cost_are_called_mistakes(
    blunders: list[dict[str, Any]], records: dict[str, GameRecord]
) -> None:
    costly = [b for b in blunders if b["kind"] == "decline-gift" and b["real_cost"] >= 1.0]
    assert len(costly) >= 3
    for blunder in costly[:3]:
        record = records[blunder["id"]]
        moment = next(
            m
            for m in decisions(record, frozenset({blunder["seat"]}))
            if m.index == blunder["action"]
        )
        judged = judge(moment, SearchSize())
        assert judged.mistake, (blunder["id"], judged)
        assert judged.best is not None and type(judged.best).__name__ == "AcceptTrade"
