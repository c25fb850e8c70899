"""Typed commands name a player by seat number or by name; the trading window's floor."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bohnanza.core.app.typed_names import seat_numbers
from bohnanza.core.errors import IllegalActionError

from .recording import People, Table

NAMES = ["Ann", "Bob", "Bobby", "Cat Stevens"]


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("offer bob 1", "offer 2 1"),
        ("offer BOBBY f1 for soy", "offer 3 f1 for soy"),
        ("offer cat stevens 2", "offer 4 2"),
        ("offer cat 2", "offer 4 2"),
        ("offer 3 1", "offer 3 1"),
        ("accept 2", "accept 2"),
    ],
)
def test_a_player_is_named_by_seat_or_by_name_whatever_the_case(typed: str, meant: str) -> None:
    assert seat_numbers(typed, NAMES, seat=0) == meant


@pytest.mark.parametrize(
    ("typed", "code"), [("offer zed 1", "no-such-player"), ("offer bo 1", "ambiguous-player")]
)
def test_an_unknown_or_ambiguous_name_is_refused(typed: str, code: str) -> None:
    with pytest.raises(IllegalActionError) as refused:
        seat_numbers(typed, NAMES, seat=0)
    assert refused.value.code == code


def test_the_game_refuses_an_ambiguous_name_in_one_line_and_changes_nothing(
    tmp_path: Path,
) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    asyncio.run(people.gather("g1", ["ann", "bob", "bobby"]))
    before = len(table.session("g1").game.actions)
    asyncio.run(people.say("ann", "offer bo 1"))
    assert table.port.last_answer("ann") == (
        "Several players' names begin so: type more of it, or the seat."
    )
    asyncio.run(people.say("ann", "offer zed 1"))
    assert table.port.last_answer("ann") == "There is no such player."
    assert len(table.session("g1").game.actions) == before


def test_a_trading_window_below_its_floor_is_refused_as_a_trading_window(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    asyncio.run(people.say("ann", "new"))
    for wrong in ("10s", "off", "soon"):
        asyncio.run(people.say("ann", f"set trade-window {wrong}"))
        assert table.port.last_answer("ann") == "A trading window is between 30 seconds and 1 hour."
