"""The documentation says what the code does."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

from bohnanza.core.cards import VARIETIES, cards_of
from bohnanza.core.record import GameRecord, replay

ROOT = Path(__file__).resolve().parent.parent
DOCTEST_MODULES = ["cards", "table_setup", "actions", "notation", "game"]


@pytest.mark.parametrize("name", DOCTEST_MODULES)
def test_the_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(f"bohnanza.core.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_the_card_id_table_in_the_record_doc_matches_the_code() -> None:
    text = (ROOT / "docs" / "game-record.md").read_text()
    rows = re.findall(r"\| `([a-z-]+)` \| (\d+)-(\d+) \|", text)
    table = {code: (int(a), int(b)) for code, a, b in rows}
    assert table == {v.value: (cards_of(v).start, cards_of(v).stop - 1) for v in VARIETIES}


def test_the_example_record_in_the_docs_replays_to_its_stated_result() -> None:
    record = GameRecord.loads((ROOT / "docs" / "examples" / "duel.json").read_text())
    assert record.result is not None
    assert replay(record).result() == record.result
