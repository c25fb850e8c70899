"""What a seat's private message was made from is a value, kept in the chat state as the same
text as ever, and read back as the value it was."""

from __future__ import annotations

import pytest

from bohnanza.core.app.hand_keys import AwayKey, HandKey, hand_text, read_hand
from bohnanza.core.app.seat_screen import Screen

ASKED, PICKING = Screen("ask", "harvest 2"), Screen("pick", "s2 r1")
KEPT = [
    (HandKey("a1b2c3", (), None, None), "a1b2c3|[] None None"),
    (HandKey("a1b2c3", (1, 2), (3, (1,)), None), "a1b2c3|[1, 2] (3, (1,)) None"),
    (HandKey("0f0f0f", (4,), (2, ()), ASKED), "0f0f0f|[4] (2, ()) ask harvest 2"),
    (HandKey("0f0f0f", (), (7, (1, 2)), PICKING), "0f0f0f|[] (7, (1, 2)) pick s2 r1"),
    (AwayKey(4), "away 4"),
]


@pytest.mark.parametrize(("key", "text"), KEPT)
def test_a_key_is_kept_as_its_text_and_read_back(key: HandKey | AwayKey, text: str) -> None:
    assert hand_text(key) == text
    assert read_hand(text) == key


@pytest.mark.parametrize(
    "text", [None, 3, "", "what an older message showed", "a1|[x] None None", "away x"]
)
def test_anything_else_kept_reads_as_nothing_shown(text: object) -> None:
    assert read_hand(text) is None


def test_only_the_moves_changed_when_all_but_the_token_is_the_same() -> None:
    shown = HandKey("a1b2c3", (1,), None, Screen("ask", "harvest 2"))
    assert shown._replace(token="ffffff").same_but_moves(shown)
    assert not shown._replace(offers=()).same_but_moves(shown)
    assert not shown.same_but_moves(AwayKey(1))
    assert not shown.same_but_moves(None)
