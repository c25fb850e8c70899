"""Invariants over random games: they end, conserve every card, replay exactly, refuse nonsense."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bohnanza.core.actions import (
    AcceptTrade,
    Action,
    ActionFormatError,
    BuyField,
    CounterTrade,
    DeclineTrade,
    DiscardFromHand,
    DiscardOffered,
    EndStep,
    Harvest,
    Plant,
    PlantFaceUp,
    PlantOffered,
    PlantSetAside,
    ProposeTrade,
    WithdrawTrade,
    action_from_json,
    action_to_json,
)
from bohnanza.core.cards import CARD_COUNT, VARIETIES, Variety, variety_of
from bohnanza.core.checks import check_action
from bohnanza.core.errors import IllegalActionError
from bohnanza.core.events import DeckExhausted, GameEnded
from bohnanza.core.game import Game
from bohnanza.core.record import GameRecord, SeatRecord, replay
from bohnanza.core.state import GameState

from .builders import random_playthrough

ALL_CARDS = list(range(CARD_COUNT))
BOX_COUNTS = Counter({v: v.count for v in VARIETIES})

seeds = st.integers(min_value=0, max_value=2**32 - 1)
player_counts = st.integers(min_value=2, max_value=7)


def assert_every_card_in_one_place(state: GameState) -> None:
    cards = state.all_cards()
    assert sorted(cards) == ALL_CARDS
    assert Counter(variety_of(card) for card in cards) == BOX_COUNTS


def assert_menu_is_legal(game: Game) -> None:
    """Every action the menu offers passes validation, and the game waits on someone."""
    waiting = game.waiting_for()
    assert waiting or game.is_over
    for seat in range(game.players):
        legal = game.legal_actions(seat)
        assert legal.waiting == (seat in waiting)
        for action in legal.actions:
            check_action(game.state, action)


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 8))
@settings(max_examples=6)
@given(deal_seed=seeds, play_seed=seeds)
def test_random_legal_games_end_conserve_every_card_and_replay_from_their_record(
    players: int, deal_seed: int, play_seed: int
) -> None:
    game = Game.new(players, random.Random(deal_seed))
    assert_every_card_in_one_place(game.state)
    for _ in random_playthrough(game, random.Random(play_seed)):
        assert_every_card_in_one_place(game.state)
        assert_menu_is_legal(game)
    assert game.is_over
    assert game.state.exhaustions == game.state.setup.final_exhaustion
    assert all(not f.cards for p in game.state.players for f in p.fields)
    seats = tuple(SeatRecord(f"p{i}") for i in range(players))
    text = GameRecord.of(game, seats).dumps()
    again = replay(GameRecord.loads(text))
    assert again.state == game.state
    assert again.result() == game.result()


@pytest.mark.parametrize("players", range(2, 8))
@settings(max_examples=3)
@given(deal_seed=seeds, play_seed=seeds)
def test_every_game_exhausts_its_deck_the_set_up_number_of_times_then_ends_once(
    players: int, deal_seed: int, play_seed: int
) -> None:
    """Ruling 4 and the set-up table: only the last exhaustion is final."""
    game = Game.new(players, random.Random(deal_seed))
    events = list(game.opening_events)
    for _, caused in random_playthrough(game, random.Random(play_seed)):
        events += caused
    exhausted = [e for e in events if isinstance(e, DeckExhausted)]
    final = game.state.setup.final_exhaustion
    assert [(e.count, e.final) for e in exhausted] == [(n, n == final) for n in range(1, final + 1)]
    assert sum(isinstance(e, GameEnded) for e in events) == 1
    assert isinstance(events[-1], GameEnded)


# --- refusals ------------------------------------------------------------------------------------


def actions_with(ints: st.SearchStrategy[int]) -> st.SearchStrategy[Action]:
    """Actions of every kind, with seats, fields, positions and offer ids drawn from `ints`."""
    positions = st.lists(ints, max_size=4).map(tuple)
    wants = st.lists(st.sampled_from(VARIETIES), max_size=4).map(tuple)
    return st.one_of(
        st.builds(Plant, player=ints, field=ints),
        st.builds(PlantSetAside, player=ints, index=ints, field=ints),
        st.builds(PlantFaceUp, player=ints, index=ints, field=ints),
        st.builds(PlantOffered, player=ints, index=ints, field=ints),
        st.builds(DiscardOffered, player=ints, index=ints),
        st.builds(DiscardFromHand, player=ints, position=ints),
        st.builds(EndStep, player=ints),
        st.builds(Harvest, player=ints, field=ints),
        st.builds(BuyField, player=ints),
        st.builds(
            ProposeTrade, player=ints, partner=ints, hand=positions, face_up=positions, want=wants
        ),
        st.builds(
            CounterTrade, player=ints, offer=ints, hand=positions, face_up=positions, want=wants
        ),
        st.builds(AcceptTrade, player=ints, offer=ints, hand=positions, face_up=positions),
        st.builds(DeclineTrade, player=ints, offer=ints),
        st.builds(WithdrawTrade, player=ints, offer=ints),
    )


any_action = actions_with(st.integers(min_value=-3, max_value=12))
well_formed_action = actions_with(st.integers(min_value=0, max_value=9_999))


@settings(max_examples=60)
@given(
    players=player_counts,
    deal_seed=seeds,
    play_seed=seeds,
    moves=st.integers(min_value=0, max_value=400),
    attempts=st.lists(any_action, min_size=1, max_size=25),
)
def test_random_actions_are_either_legal_or_refused_without_changing_anything(
    players: int, deal_seed: int, play_seed: int, moves: int, attempts: list[Action]
) -> None:
    game = Game.new(players, random.Random(deal_seed))
    for count, _ in enumerate(random_playthrough(game, random.Random(play_seed)), 1):
        if count >= moves:
            break
    for action in attempts:
        before = game.state.copy()
        try:
            game.check(action)
        except IllegalActionError as refusal:
            assert refusal.code and str(refusal)
            try:
                game.apply(action)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"{action} was refused by check but applied") from None
            assert game.state == before
        else:
            game.apply(action)
            assert_every_card_in_one_place(game.state)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 20_000) | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)
action_keys = st.sampled_from(
    ["type", "player", "field", "index", "position", "partner", "offer", "hand", "face_up", "want"]
)
action_types = st.sampled_from(
    ["plant", "plant-set-aside", "harvest", "propose-trade", "accept-trade", "end-step", "x"]
)
json_actions = st.one_of(
    json_values,
    st.dictionaries(action_keys, json_values).flatmap(
        lambda d: action_types.map(lambda kind: {**d, "type": kind})
    ),
    st.builds(action_to_json, any_action).flatmap(
        lambda d: st.sampled_from(list(d)).map(lambda k: {key: d[key] for key in d if key != k})
    ),
)


@pytest.mark.slow
@settings(max_examples=120)
@given(raw=json_actions)
def test_malformed_json_actions_are_refused_with_a_format_error(raw: object) -> None:
    try:
        action = action_from_json(raw)
    except ActionFormatError:
        return
    assert isinstance(raw, dict) and raw["type"] == action.kind
    assert action_from_json(action_to_json(action)) == action


@settings(max_examples=100)
@given(action=well_formed_action)
def test_every_action_reads_back_from_its_json(action: Action) -> None:
    assert action_from_json(action_to_json(action)) == action


@given(action=any_action)
def test_a_json_action_with_a_negative_number_is_refused(action: Action) -> None:
    data = action_to_json(action)
    numbers = [v for v in data.values() if isinstance(v, int)]
    numbers += [v for v in data.values() if isinstance(v, list) for v in v if isinstance(v, int)]
    if min(numbers) >= 0:
        assert action_from_json(data) == action
    else:
        with pytest.raises(ActionFormatError, match="non-negative"):
            action_from_json(data)


def test_the_wanted_varieties_read_back_by_code() -> None:
    action = ProposeTrade(0, 1, hand=(2,), want=(Variety.BLACK_EYED, Variety.RED))
    data = action_to_json(action)
    assert data["want"] == ["black-eyed", "red"]
    assert action_from_json(data) == action


def bounded_actions(state: GameState, seat: int) -> list[Action]:
    """Every action of a kind the menu lists whole (not the open-ended offers and accepts,
    which `legal.trade` bounds) that a seat could name now, legal or not."""
    player = state.players[seat]
    fields = range(len(player.fields) + 1)
    cards = range(max(len(player.hand), len(player.set_aside), len(state.face_up)) + 1)
    offers = [*state.offers, max(state.offers, default=0) + 1]
    return [
        EndStep(seat),
        BuyField(seat),
        *(kind(seat, f) for kind in (Plant, Harvest) for f in fields),
        *(
            kind(seat, i, f)
            for kind in (PlantSetAside, PlantFaceUp, PlantOffered)
            for i in cards
            for f in fields
        ),
        *(DiscardOffered(seat, i) for i in range(len(state.offered) + 1)),
        *(DiscardFromHand(seat, p) for p in range(len(player.hand) + 1)),
        *(kind(seat, offer) for kind in (DeclineTrade, WithdrawTrade) for offer in offers),
    ]


@pytest.mark.parametrize("players", range(2, 8))
@settings(max_examples=2)
@given(deal_seed=seeds, play_seed=seeds)
def test_the_menu_lists_every_action_the_rules_accept_and_nothing_they_refuse(
    players: int, deal_seed: int, play_seed: int
) -> None:
    """`legal_actions` asks the rules inlined where it runs before every decision: held to
    `check_action` both ways, at every moment of random games."""
    game = Game.new(players, random.Random(deal_seed))
    moments = random_playthrough(game, random.Random(play_seed))
    for count, _ in enumerate(moments):
        if count % 3:
            continue  # every third moment: the menu and the rules asked of every seat
        assert_menu_is_legal(game)
        for seat in range(players):
            listed = game.legal_actions(seat).actions
            for action in bounded_actions(game.state, seat):
                try:
                    check_action(game.state, action)
                except IllegalActionError:
                    assert action not in listed, action
                else:
                    assert action in listed, action
