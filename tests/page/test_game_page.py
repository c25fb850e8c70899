"""The game page embeds only what its viewer saw, escapes every name, and stays small."""

from __future__ import annotations

import html
import json
import re
from dataclasses import replace

import pytest

from bohnanza.adapters.game_page import embedded_json, game_page
from bohnanza.adapters.game_page_words import event_lines
from bohnanza.adapters.i18n import load_translator
from bohnanza.core.analysis import SearchSize, decisions, judge, summarise
from bohnanza.core.app.i18n import LANGUAGES
from bohnanza.core.app.render import STEP_NAMES
from bohnanza.core.cards import VARIETIES
from bohnanza.core.record import GameRecord, replay
from bohnanza.core.state import Step

from .pages import (
    DATA_START,
    HOSTILE_NAMES,
    bot_game,
    draws,
    embedded,
    hands_at_every_moment,
    renamed,
)

MOMENT_KEYS = {"p", "t", "a", "s", "d", "x", "top", "e", "fu", "of", "S", "o", "ft", "ev"}
"""Everything a moment of a spectator's page may hold."""


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return bot_game(4)


def test_a_spectator_page_embeds_no_hand_at_any_moment(record: GameRecord) -> None:
    data = embedded(game_page(record))
    assert data["viewer"] is None
    assert len(data["steps"]) == len(record.actions) + 1
    for moment in data["steps"]:
        assert set(moment) <= MOMENT_KEYS
        for seat in moment["S"]:
            assert seat == 0 or len(seat) == 4  # coins, hand size, fields, set aside


def test_a_spectator_page_names_no_card_of_any_hand(record: GameRecord) -> None:
    page = game_page(record)
    text = page.decode("utf-8")
    tr = load_translator("en")
    names = [seat.name for seat in record.seats]
    bean_names = [tr.gettext(v.title) for v in VARIETIES]
    for hands in hands_at_every_moment(record):
        for hand in hands:
            if len(hand) >= 5:
                assert json.dumps(hand, separators=(",", ":")) not in text
                assert ", ".join(bean_names[v] for v in hand) not in text
    for _, drawn in draws(record):
        told_to_him = event_lines(tr, drawn, names, drawn.player)[0]
        assert told_to_him not in text
        assert event_lines(tr, drawn, names, None)[0] in text


def test_a_players_page_holds_his_own_hand_at_every_moment(record: GameRecord) -> None:
    seat = 2
    data = embedded(game_page(record, seat=seat))
    assert data["viewer"] == seat
    hands = hands_at_every_moment(record)
    assert [moment["h"] for moment in data["steps"]] == [h[seat] for h in hands]


def test_a_players_page_differs_from_a_spectators_only_in_his_hand_and_his_draws(
    record: GameRecord,
) -> None:
    seat = 1
    tr = load_translator("en")
    names = [s.name for s in record.seats]
    mine = embedded(game_page(record, seat=seat))["steps"]
    public = embedded(game_page(record))["steps"]
    own_draws = {moment for moment, event in draws(record) if event.player == seat}
    for moment, (his, anyones) in enumerate(zip(mine, public, strict=True)):
        his = dict(his)
        his.pop("h")
        his_lines, public_lines = his.pop("ev", []), anyones.get("ev", [])
        assert his == {k: v for k, v in anyones.items() if k != "ev"}
        if moment not in own_draws:
            assert his_lines == public_lines
    for moment, event in draws(record):
        if event.player == seat:
            assert event_lines(tr, event, names, seat)[0] in mine[moment]["ev"]
        else:
            assert event_lines(tr, event, names, None)[0] in mine[moment]["ev"]


def test_hostile_names_stay_names(record: GameRecord) -> None:
    hostile = renamed(record, HOSTILE_NAMES)
    page = game_page(hostile).decode("utf-8")
    assert page.count("<script") == 2 and page.lower().count("</script") == 2
    assert "<!--" not in page and "<b>Bea" not in page
    script = page[page.index(DATA_START) :]
    assert "\u2028" not in script  # a line end to a JavaScript string
    assert embedded(page.encode())["names"][:3] == list(HOSTILE_NAMES)
    for name in HOSTILE_NAMES:
        assert html.escape(name, quote=True) in page  # the chart's legend


def test_the_embedded_json_holds_no_character_that_can_end_a_script() -> None:
    text = embedded_json({"name": "</script><!-- & \u2028\u2029"})
    assert not set(text) & set("<>&\u2028\u2029")
    assert json.loads(text) == {"name": "</script><!-- & \u2028\u2029"}


def test_the_page_loads_nothing_from_anywhere(record: GameRecord) -> None:
    page = game_page(record).decode("utf-8")
    assert "default-src 'none'" in page
    assert not re.search(r"<(link|img|iframe|object|embed)\b|\bsrc=|url\(", page)
    assert set(re.findall(r"https?://[^\s\"']+", page)) <= {"http://www.w3.org/2000/svg"}


def test_the_page_embeds_no_record(record: GameRecord) -> None:
    data = embedded(game_page(record))
    assert set(data) == {
        "game",
        "names",
        "viewer",
        "final",
        "labels",
        "steps",
        "result",
        "codes",
        "colours",
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_speaks_its_language(record: GameRecord, language: str) -> None:
    page = game_page(record, language)
    tr = load_translator(language)
    data = embedded(page)
    assert f'<html lang="{language}">' in page.decode("utf-8")
    assert data["labels"]["steps"]["trade"] == tr.gettext(STEP_NAMES[Step.TRADE])
    assert data["labels"]["beans"][0] == tr.gettext("Coffee Bean")


def test_the_page_ends_with_the_records_result(record: GameRecord) -> None:
    result = embedded(game_page(record))["result"]
    assert record.result is not None
    assert {seat: score for seat, score, _ in result["scores"]} == dict(
        enumerate(record.result.scores)
    )
    assert result["winners"] == list(record.result.winners)


@pytest.mark.parametrize("actions", [0, 40])
def test_a_game_in_progress_makes_a_page_without_a_result(record: GameRecord, actions: int) -> None:
    unfinished = replace(record, actions=record.actions[:actions], reshuffles=(), result=None)
    data = embedded(game_page(unfinished, seat=0))
    assert data["result"] is None and len(data["steps"]) == actions + 1


def test_a_page_refuses_an_unknown_language_or_seat(record: GameRecord) -> None:
    with pytest.raises(ValueError, match="language"):
        game_page(record, "fr")
    with pytest.raises(ValueError, match="seat"):
        game_page(record, "en", 4)


@pytest.mark.parametrize("strategy", ["heuristic", "random"])
def test_a_seven_player_game_page_is_under_one_megabyte(strategy: str) -> None:
    record = bot_game(7, seed=11, strategy=strategy)
    for seat in (None, 0):
        size = len(game_page(record, "ru", seat))
        print(f"7 players, {strategy} bots, {len(record.actions)} actions: {size:,} bytes")
        assert size < 1_000_000


def test_a_page_refuses_an_analysis_its_viewer_may_not_see() -> None:
    record = bot_game(3, seed=2)
    early = GameRecord.of(replay(record, upto=40), record.seats)
    size = SearchSize(seed=1, deals=1, horizon=1)
    seat_1 = frozenset({1})
    of_seat_1 = summarise(early, [judge(m, size) for m in decisions(early, seat_1)], seat_1)
    with pytest.raises(ValueError, match="his own decisions only"):
        game_page(early, seat=0, analysis=of_seat_1)
    with pytest.raises(ValueError, match="finished game only"):
        game_page(early, analysis=of_seat_1)
    assert embedded(game_page(early, seat=1, analysis=of_seat_1))["analysis"]["players"]
