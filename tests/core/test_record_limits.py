"""A record's text is bounded before it is trusted: numbers, Unicode and the names it shows."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bohnanza.core.errors import RecordError
from bohnanza.core.game import Game
from bohnanza.core.record import MAX_DIGITS, GameRecord, SeatRecord, replay

SEATS = (SeatRecord("Anna"), SeatRecord("Bob", "bot", "random"), SeatRecord("Clara"))


@pytest.fixture
def data() -> dict[str, Any]:
    """A short three-player record as parsed JSON, ready to be tampered with."""
    game = Game.new(3, random.Random(4))
    record = GameRecord.of(game, SEATS, {"seed": 4}, game_id="g-1")
    parsed: dict[str, Any] = json.loads(record.dumps())
    return parsed


def refusal(text: str) -> str:
    with pytest.raises(RecordError) as caught:
        GameRecord.loads(text)
    return str(caught.value)


def with_number(data: dict[str, Any], digits: str) -> str:
    """The record's text with `digits` as the value of a new option, written as a bare number."""
    data["options"]["huge"] = 0
    return json.dumps(data).replace('"huge": 0', f'"huge": {digits}')


@pytest.mark.parametrize("digits", ["9" * 5000, "-" + "1" * 5000, "1" * (MAX_DIGITS + 1)])
def test_a_number_longer_than_any_a_record_holds_is_refused_before_it_is_converted(
    data: dict[str, Any], digits: str
) -> None:
    assert refusal(with_number(data, digits)) == f"a number has more than {MAX_DIGITS} digits"


def test_a_huge_number_as_a_card_or_an_action_field_is_refused_the_same_way(
    data: dict[str, Any],
) -> None:
    data["deck"][0] = 0
    text = json.dumps(data).replace('"deck": [0', '"deck": [' + "7" * 5000, 1)
    assert "more than 19 digits" in refusal(text)


def test_a_64_bit_option_is_kept_and_a_larger_one_refused(data: dict[str, Any]) -> None:
    assert GameRecord.loads(with_number(data, str(2**63 - 1))).options["huge"] == 2**63 - 1
    assert "64-bit integers" in refusal(with_number(data, str(2**63)))


def test_a_huge_number_given_in_python_is_refused_with_a_short_message(
    data: dict[str, Any],
) -> None:
    data["version"] = 10**5000
    with pytest.raises(RecordError, match="a number too large to show"):
        GameRecord.from_json(data)


@pytest.mark.parametrize(
    "where", ["seat name", "option value", "option key", "action type", "unknown key"]
)
def test_a_lone_surrogate_anywhere_is_refused_as_invalid_unicode(
    data: dict[str, Any], where: str
) -> None:
    lone = "\ud800x"
    if where == "seat name":
        data["seats"][0]["name"] = lone
    elif where == "option value":
        data["options"]["lang"] = lone
    elif where == "option key":
        data["options"][lone] = 1
    elif where == "action type":
        data["actions"] = [{"type": lone, "player": 0}]
    else:
        data[lone] = 1
    text = json.dumps(data)  # ensure_ascii: the surrogate is written as the escape \ud800
    assert refusal(text) == "not valid Unicode: a string holds a lone surrogate"


def test_a_surrogate_pair_is_a_character_like_any_other(data: dict[str, Any]) -> None:
    data["seats"][0]["name"] = "Anna 🫘"
    assert GameRecord.loads(json.dumps(data)).seats[0].name == "Anna 🫘"


@pytest.mark.parametrize(
    ("character", "code"),
    [
        ("\u202e", "U+202E"),  # right-to-left override
        ("\u2066", "U+2066"),  # left-to-right isolate
        ("\u200f", "U+200F"),  # right-to-left mark
        ("\n", "U+000A"),
        ("\x1b", "U+001B"),  # escape: terminal control sequences
        ("\x85", "U+0085"),  # a C1 control
        ("\u2028", "U+2028"),  # line separator
    ],
)
def test_a_name_with_a_control_or_direction_character_is_refused_naming_the_field(
    data: dict[str, Any], character: str, code: str
) -> None:
    data["seats"][2]["name"] = f"Eve{character}gnp.exe"
    message = refusal(json.dumps(data))
    assert message == f"seat 2 'name' holds the control character {code}; refused"


@pytest.mark.parametrize(
    ("field", "where"),
    [
        ("game_id", "'game_id'"),
        ("strategy", "seat 1 'strategy'"),
        ("option", "option 'lang'"),
    ],
)
def test_other_shown_text_is_held_to_the_same_rule(
    data: dict[str, Any], field: str, where: str
) -> None:
    hidden = "x\u202ey"
    if field == "game_id":
        data["game_id"] = hidden
    elif field == "strategy":
        data["seats"][1]["strategy"] = hidden
    else:
        data["options"]["lang"] = hidden
    assert refusal(json.dumps(data)) == f"{where} holds the control character U+202E; refused"


def test_names_in_any_script_with_joiners_and_emoji_are_accepted(data: dict[str, Any]) -> None:
    names = ["Дмитрий", "שׂרה", "عائشة", "👩‍👩‍👧"]
    for seat, name in zip(data["seats"], names, strict=False):
        seat["name"] = name
    record = GameRecord.loads(json.dumps(data))
    assert [seat.name for seat in record.seats] == names[:3]
    assert replay(record).actions == []
