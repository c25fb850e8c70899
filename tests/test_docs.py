"""The documentation says what the code does."""

from __future__ import annotations

import ast
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
    # The docstrings are read from the source: a module compiled with mypyc (setup.py) has none.
    module = importlib.import_module(f"bohnanza.core.{name}")
    path = ROOT / "core" / f"{name}.py"
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            text = ast.get_docstring(node)
            if text:
                line = getattr(node, "lineno", 0)
                test = parser.get_doctest(text, dict(vars(module)), name, str(path), line)
                runner.run(test)
    result = runner.summarize(verbose=False)
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
