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
from bohnanza.core.table_setup import setup_for

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


DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"(?ms)^```.*?^```", "", path.read_text())
    return {slug(h) for h in re.findall(r"(?m)^#+ (.+)$", text)}


def relative_links(path: Path) -> list[str]:
    text = re.sub(r"(?ms)^```.*?^```", "", path.read_text())
    text = re.sub(r"`[^`\n]*`", "", text)
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t)]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_of_the_repository(doc: Path) -> None:
    for link in relative_links(doc):
        target, _, anchor = link.partition("#")
        path = (doc.parent / target).resolve() if target else doc
        assert path.is_relative_to(ROOT) and path.is_file(), f"{doc.name}: {link} leads nowhere"
        if anchor and path.suffix == ".md":
            assert anchor in anchors(path), f"{doc.name}: {link}: no such heading"


def test_the_readme_stays_short_and_points_to_the_rules() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(readme.encode()) <= 15_000
    assert "docs/how-to-play.md" in relative_links(ROOT / "README.md")
    assert "shared/rules" not in readme


def table_rows(text: str, first: str) -> list[list[str]]:
    """The cells of a markdown table's rows whose first cell matches `first`."""
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines()]
    return [r for r in rows if re.fullmatch(first, r[0])]


def test_the_beanometer_in_how_to_play_is_the_engines() -> None:
    text = (ROOT / "docs" / "how-to-play.md").read_text()
    table = {
        name: (int(count), tuple(None if c == "\u2013" else int(c) for c in coins))
        for name, count, *coins in table_rows(text, r"[A-Z][a-z]+(-eyed)?")
    }
    engine = {v.title.removesuffix(" Bean"): (v.count, v.beanometer) for v in VARIETIES}
    assert table == engine


def test_the_player_counts_in_how_to_play_are_the_engines() -> None:
    text = (ROOT / "docs" / "how-to-play.md").read_text()
    rows = table_rows(text, r"\d( or \d)?( \(duel\))?")
    assert len(rows) == 4
    for counts, left_out, fields, third, _, drawn, ends in rows:
        for players in map(int, re.findall(r"\d", counts)):
            setup = setup_for(players)
            price = re.match(r"(\d) coins", third)
            assert setup.fields_at_start == int(fields)
            assert setup.third_field_price == (int(price.group(1)) if price else None)
            assert setup.draw_in_step_4 == int(drawn)
            assert str(setup.final_exhaustion) == ends[0]
            removed = {v.title.removesuffix(" Bean") for v in setup.removed}
            assert removed == set(left_out.split(", "))
