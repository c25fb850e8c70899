"""The one place names are cleaned and checked (`names`), and a typed offer read one way only
(`typed_names`)."""

from __future__ import annotations

import doctest

import pytest

from bohnanza.core.app import names, typed_names
from bohnanza.core.app.names import MAX_NAME, clean_name, name_key, seat_name, seat_names
from bohnanza.core.app.typed_names import TwoReadings, seat_numbers
from bohnanza.core.errors import IllegalActionError


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Ann\nTurn: ANN must pay 5 coins", "Ann Turn: ANN must pay 5 coins"),
        ("Ann\r\n\tLee", "Ann Lee"),
        ("\u202eAnn\u202c \u2066Lee\u2069", "Ann Lee"),  # bidi overrides and isolates
        ("A\u200bn\u200dn\ufeff\u2060", "Ann"),  # zero-width characters
        ("\u3164\u115f Ann \u2800", "Ann"),  # blank letters
        ("Zoe\u0308", "Zoe\u0308"),  # an accent is kept
        ("Z" + "\u0336" * 40, "Z\u0336\u0336"),  # a pile of marks is not
        ("x" * 200, "x" * MAX_NAME),
        ("\u200b\n", ""),
    ],
)
def test_a_name_keeps_only_what_a_table_line_can_show(raw: str, shown: str) -> None:
    assert clean_name(raw) == shown


def test_names_are_the_same_whatever_their_case_or_width() -> None:
    assert name_key("ANN") == name_key("ann") == name_key("\uff21\uff4e\uff4e")
    assert name_key("Ann  Lee") == name_key("ann lee")


def test_a_seat_name_is_unique_at_its_table_and_never_begins_with_a_number() -> None:
    assert seat_name("ann", ["ANN", "Bob"]) == "ann (2)"
    assert seat_name("Ann", ["ann", "Ann (2)"]) == "Ann (3)"
    assert seat_name("\u200b", ["Bob"], fallback="1004") == "#1004"
    assert seat_name("2 Fast", []) == "#2 Fast"
    long = seat_name("y" * 40, ["y" * MAX_NAME])
    assert long == "y" * (MAX_NAME - 4) + " (2)" and len(long) == MAX_NAME
    assert seat_names(["Ann", "ANN", "ann\u200b", "Bob"]) == ["Ann", "ANN (2)", "ann (3)", "Bob"]


def test_a_table_seated_before_names_were_unique_refuses_a_name_two_players_share() -> None:
    with pytest.raises(IllegalActionError) as refused:
        seat_numbers("offer ann 1", ["Bob", "Ann", "ANN"], seat=0)
    assert refused.value.code == "ambiguous-player"


@pytest.mark.parametrize(
    ("typed", "table", "meant"),
    [
        ("offer ann 2 3", ["Bob", "Ann 2", "Ann 3"], "offer 2 3"),
        ("offer ann (2) 1", ["Bob", "ANN", "Ann (2)"], "offer 3 1"),
        ("offer ann 1", ["ANN", "Ann (2)", "Cat"], "offer 2 1"),  # ANN offers to the other
        ("offer ann 1", ["Bob", "ANN", "Ann (2)"], "offer 2 1"),
    ],
)
def test_a_typed_offer_that_reads_one_way_names_its_seat(
    typed: str, table: list[str], meant: str
) -> None:
    assert seat_numbers(typed, table, seat=0) == meant


@pytest.mark.parametrize(
    ("typed", "table", "readings"),
    [
        ("offer ann 2 1", ["Bob", "Ann 2", "Cat"], ("offer 2 1", "offer 2 2 1")),
        ("offer ann 2 1", ["Bob", "Ann", "Ann 2"], ("offer 3 1", "offer 2 2 1")),
        ("offer ann 2 1", ["Ann", "Ann 2", "Cat"], ("offer 2 1", "offer 2 2 1")),  # by Ann
        ("offer ann 2 f1", ["Bob", "Ann", "Ann 2"], ("offer 3 f1", "offer 2 2 f1")),
        ("offer ann 2 for soy", ["Bob", "Ann 2", "Cat"], ("offer 2 for soy", "offer 2 2 for soy")),
    ],
)
def test_a_typed_offer_that_reads_two_ways_is_refused_with_each_reading(
    typed: str, table: list[str], readings: tuple[str, str]
) -> None:
    with pytest.raises(TwoReadings) as refused:
        seat_numbers(typed, table, seat=0)
    params = refused.value.params
    assert (params["typed"], params["first"], params["second"]) == (typed, *readings)


@pytest.mark.parametrize("module", [names, typed_names])
def test_the_docstring_examples_hold(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]
