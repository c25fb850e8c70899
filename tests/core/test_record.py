"""The JSON game record: it round-trips, replays exactly, and refuses anything malformed."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from bohnanza.core.actions import Plant, action_to_json
from bohnanza.core.engine import Shuffler
from bohnanza.core.errors import RecordError
from bohnanza.core.events import DeckReshuffled
from bohnanza.core.game import Game
from bohnanza.core.record import GameRecord, SeatRecord, replay
from bohnanza.core.scoring import GameResult
from bohnanza.core.table_setup import setup_for

from .builders import random_playthrough

SEATS = (
    SeatRecord("Anna"),
    SeatRecord("Bob", "bot", "random"),
    SeatRecord("Clara"),
    SeatRecord("Dmitri", "human"),
)


@pytest.fixture(scope="module")
def finished() -> Game:
    """A whole four-player game with its two reshuffles."""
    rng = random.Random(11)
    game = Game.new(4, random.Random(5))
    for _ in random_playthrough(game, rng):
        pass
    assert len(game.reshuffles) == 2
    return game


@pytest.fixture
def record(finished: Game) -> GameRecord:
    return GameRecord.of(finished, SEATS, {"seed": 5, "mode": "test"}, game_id="g-1")


@pytest.fixture
def data(record: GameRecord) -> dict[str, Any]:
    """The record as parsed JSON, ready to be tampered with."""
    parsed: dict[str, Any] = json.loads(record.dumps())
    return parsed


def refusal(data: object) -> RecordError:
    """The error raised while reading and replaying a tampered record."""
    with pytest.raises(RecordError) as caught:
        replay(GameRecord.loads(json.dumps(data)))
    return caught.value


def reshuffle_action(game: Game, which: int) -> int:
    """The index of the action during which the `which`-th reshuffle (1-based) happened."""
    again = Game(game.players, game.initial_deck, _orders(game.reshuffles))
    seen = 0
    for index, action in enumerate(game.actions):
        seen += sum(isinstance(e, DeckReshuffled) for e in again.apply(action))
        if seen >= which:
            return index
    raise AssertionError("no such reshuffle")


def _orders(orders: list[list[int]]) -> Shuffler:
    """A shuffler that hands out recorded orders."""
    queue = [list(order) for order in orders]
    return lambda cards: queue.pop(0)


# --- round trip ---------------------------------------------------------------------------------


def test_a_record_reads_back_equal_to_itself(record: GameRecord) -> None:
    again = GameRecord.loads(record.dumps())
    assert again == record
    assert GameRecord.from_json(record.to_json()) == record


def test_a_finished_record_replays_to_the_identical_state_and_result(
    finished: Game, record: GameRecord
) -> None:
    game = replay(GameRecord.loads(record.dumps()))
    assert game.state == finished.state
    assert game.actions == finished.actions
    assert game.is_over
    assert game.result() == record.result == finished.result()


def test_a_record_replays_any_prefix_of_its_actions(finished: Game, record: GameRecord) -> None:
    upto = len(record.actions) // 2
    partial = replay(record, upto)
    fresh = Game(4, record.deck, _orders(finished.reshuffles))
    for action in record.actions[:upto]:
        fresh.apply(action)
    assert partial.state == fresh.state


def test_a_trusted_replay_skips_the_rules_and_reaches_the_same_state(
    finished: Game, record: GameRecord
) -> None:
    trusted = replay(record, trusted=True)
    assert trusted.state == finished.state
    assert trusted.actions == finished.actions
    assert trusted.result() == finished.result()


def test_a_replay_names_the_first_illegal_action_and_an_action_after_the_end(
    record: GameRecord,
) -> None:
    first = record.actions[0]
    bad = replace(record, actions=(first, first, *record.actions[1:]), result=None)
    with pytest.raises(RecordError, match=r"^action 1: illegal"):
        replay(bad)
    extra = replace(record, actions=(*record.actions, record.actions[-1]), result=None)
    with pytest.raises(RecordError, match="action after the end of the game"):
        replay(extra)


def test_a_game_played_through_quietly_equals_one_played_action_by_action(
    finished: Game, record: GameRecord
) -> None:
    quiet = Game(4, record.deck, _orders(finished.reshuffles), events=False)
    assert quiet.opening_events == []
    assert quiet.apply(record.actions[0]) == []
    quiet.play_through(record.actions[1:])
    assert quiet.state == finished.state
    assert quiet.actions == finished.actions


def test_an_unfinished_game_is_recorded_without_a_result() -> None:
    game = Game.new(3, random.Random(2))
    game.apply(Plant(0, 0))
    record = GameRecord.of(game, SEATS[:3])
    assert record.result is None and "result" not in record.to_json()
    assert replay(GameRecord.loads(record.dumps())).state == game.state


def test_the_record_states_its_format_version_and_one_action_per_line(
    record: GameRecord, data: dict[str, Any]
) -> None:
    assert data["format"] == "bohnanza-game-record"
    assert data["version"] == 1
    assert data["seats"][1] == {"name": "Bob", "kind": "bot", "strategy": "random"}
    assert record.result is not None
    assert data["result"]["winners"] == list(record.result.winners)
    lines = record.dumps().splitlines()
    assert len(lines) == len(record.actions) + 2
    assert json.loads(lines[1].rstrip(",")) == action_to_json(record.actions[0])


def test_a_record_needs_one_seat_per_player(finished: Game) -> None:
    with pytest.raises(ValueError, match="one seat record per player"):
        GameRecord.of(finished, SEATS[:3])


# --- malformed records --------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "{", "[1, 2", "not json", '{"format": }'])
def test_text_that_is_not_json_is_refused(text: str) -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        GameRecord.loads(text)


@pytest.mark.parametrize("text", ["[]", "3", '"record"', "null"])
def test_json_that_is_not_an_object_is_refused(text: str) -> None:
    with pytest.raises(RecordError, match="must be a JSON object"):
        GameRecord.loads(text)


def test_a_record_of_another_format_is_refused(data: dict[str, Any]) -> None:
    data["format"] = "chess-pgn"
    assert "not a game record" in str(refusal(data))


@pytest.mark.parametrize("version", [0, 2, "1", None])
def test_a_record_of_another_version_is_refused(data: dict[str, Any], version: object) -> None:
    data["version"] = version
    assert "unsupported record version" in str(refusal(data))


def test_unknown_keys_are_refused(data: dict[str, Any]) -> None:
    data["comment"] = "hi"
    assert "unexpected keys ['comment']" in str(refusal(data))


@pytest.mark.parametrize("card", [154, -1, "3", True, 2.0, None])
def test_a_deck_holding_something_that_is_not_a_card_id_is_refused(
    data: dict[str, Any], card: object
) -> None:
    data["deck"][7] = card
    assert "not a card id" in str(refusal(data))


def test_a_deck_that_is_not_a_permutation_of_the_cards_in_play_is_refused(
    data: dict[str, Any],
) -> None:
    data["deck"][3] = data["deck"][4]
    error = refusal(data)
    assert "bad deck" in str(error) and error.action_index is None


def test_a_deck_for_another_player_count_is_refused(data: dict[str, Any]) -> None:
    data["seats"] = data["seats"][:3]  # three players play with the Coffee the deck lacks
    del data["result"]
    assert "bad deck" in str(refusal(data))


@pytest.mark.parametrize(
    "seats",
    [[], [{"name": "solo"}], [{"name": "a"}] * 8, [{"name": ""}, {"name": "b"}], [{"kind": "bot"}]],
)
def test_seat_lists_of_the_wrong_shape_are_refused(data: dict[str, Any], seats: object) -> None:
    data["seats"] = seats
    assert "seat" in str(refusal(data))


def test_a_seat_of_an_unknown_kind_is_refused(data: dict[str, Any]) -> None:
    data["seats"][0]["kind"] = "alien"
    assert "'kind' is 'human' or 'bot'" in str(refusal(data))


def test_options_that_are_not_short_strings_or_integers_are_refused(data: dict[str, Any]) -> None:
    data["options"] = {"seed": [1, 2]}
    assert "option values" in str(refusal(data))


def test_an_unknown_action_names_its_index(data: dict[str, Any]) -> None:
    data["actions"][9] = {"type": "steal", "player": 0}
    error = refusal(data)
    assert error.action_index == 9
    assert str(error).startswith("action 9: unknown action type 'steal'")


@pytest.mark.parametrize(
    "broken",
    [
        {"type": "plant", "player": 0},
        {"type": "plant", "player": 0, "field": 0, "card": 3},
        {"type": "plant", "player": "0", "field": 0},
        {"type": "plant", "player": 0, "field": -1},
        {"type": "propose-trade", "player": 0, "partner": 1, "want": ["tomato"]},
        {"type": "propose-trade", "player": 0, "partner": 1, "hand": "0"},
        ["plant", 0, 0],
    ],
)
def test_an_action_of_the_wrong_shape_names_its_index(data: dict[str, Any], broken: object) -> None:
    data["actions"][4] = broken
    error = refusal(data)
    assert error.action_index == 4 and str(error).startswith("action 4: ")


def test_an_illegal_action_names_its_index(data: dict[str, Any], record: GameRecord) -> None:
    k = 17
    wrong_seat = (record.actions[k].player + 1) % 4
    data["actions"][k] = {"type": "plant", "player": wrong_seat, "field": 0}
    error = refusal(data)
    assert error.action_index == k
    assert str(error).startswith(f"action {k}: illegal plant by seat {wrong_seat}")


def test_an_action_after_the_end_of_the_game_is_refused(data: dict[str, Any]) -> None:
    data["actions"].append(data["actions"][-1])
    error = refusal(data)
    last = len(data["actions"]) - 1
    assert error.action_index == last and str(error).startswith(f"action {last}: ")


@pytest.mark.parametrize(
    ("key", "value"),
    [("scores", [99, 0, 0, 0]), ("winners", [3, 2]), ("hand_sizes", [0, 0, 0, 0])],
)
def test_a_tampered_result_is_refused(data: dict[str, Any], key: str, value: list[int]) -> None:
    data["result"][key] = value
    assert "stated result differs" in str(refusal(data))


@pytest.mark.parametrize(
    "result",
    [
        {"scores": [1, 2, 3], "hand_sizes": [0, 0, 0, 0], "winners": [0]},
        {"scores": [1, 2, 3, 4], "winners": [0]},
        {"scores": [1, 2, 3, -4], "hand_sizes": [0, 0, 0, 0], "winners": [0]},
        {"scores": "all", "hand_sizes": [0, 0, 0, 0], "winners": [0]},
    ],
)
def test_a_result_of_the_wrong_shape_is_refused(
    data: dict[str, Any], result: dict[str, Any]
) -> None:
    data["result"] = result
    assert "result" in str(refusal(data))


def test_a_result_stated_for_an_unfinished_game_is_refused(data: dict[str, Any]) -> None:
    data["actions"] = data["actions"][:30]
    data["reshuffles"] = []
    assert "the game has not ended" in str(refusal(data))


def test_a_missing_reshuffle_names_the_action_that_needed_it(
    finished: Game, data: dict[str, Any]
) -> None:
    data["reshuffles"] = data["reshuffles"][:1]
    error = refusal(data)
    assert error.action_index == reshuffle_action(finished, 2)
    assert "reshuffle 2 happened but the record has no order for it" in str(error)


def test_an_extra_reshuffle_is_refused(data: dict[str, Any]) -> None:
    data["reshuffles"].append(data["reshuffles"][0])
    error = refusal(data)
    assert "more reshuffles than the game made" in str(error)


def test_a_reshuffle_that_is_not_the_discard_pile_reordered_is_refused(
    finished: Game, data: dict[str, Any]
) -> None:
    first = data["reshuffles"][0]
    first[0] = next(c for c in setup_for(4).cards_in_play() if c not in first)
    error = refusal(data)
    assert error.action_index == reshuffle_action(finished, 1)
    assert "reshuffle 1 is not the discard pile reordered" in str(error)


def test_reshuffles_must_be_lists_of_card_ids(data: dict[str, Any]) -> None:
    data["reshuffles"] = {"1": []}
    assert "'reshuffles' must be a list" in str(refusal(data))
    data["reshuffles"] = [["a"]]
    assert "not a card id" in str(refusal(data))


def test_a_record_built_in_code_is_checked_the_same_way(record: GameRecord) -> None:
    tampered = replace(record, result=GameResult((0, 0, 0, 0), (0, 0, 0, 0), (0, 1, 2, 3)))
    with pytest.raises(RecordError, match="stated result differs"):
        replay(tampered)
