"""What one player may see: his own hand, the table, never another hand or the deck order."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bohnanza.core.actions import AcceptTrade, Action, EndStep, Plant, ProposeTrade
from bohnanza.core.bots import Bot, make_bot, play_out
from bohnanza.core.cards import Card, Variety
from bohnanza.core.game import Game
from bohnanza.core.legal import LegalActions, legal_actions
from bohnanza.core.state import GameState, Step
from bohnanza.core.view import FieldView, PlayerView, TableViews, view_for

from .builders import CardPool, apply_all, new_game, random_playthrough, table, varieties

BLUE, RED, SOY, CHILI, STINK, GREEN, WAX, GARDEN = (
    Variety.BLUE,
    Variety.RED,
    Variety.SOY,
    Variety.CHILI,
    Variety.STINK,
    Variety.GREEN,
    Variety.WAX,
    Variety.GARDEN,
)


def with_hidden_cards_moved(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """A copy in which every card hidden from `seat` has changed place with another hidden card.

    Hidden: the deck's order, the other players' hands (except cards named in an open offer,
    which were shown when offered) and every coin stack (coins lie gold side up).
    """
    moved = replace(
        state,
        deck=list(state.deck),
        players=[replace(p, hand=list(p.hand), coins=list(p.coins)) for p in state.players],
    )
    shown = {card for offer in state.offers.values() for card in offer.give}
    slots: list[tuple[list[Card], int]] = [(moved.deck, i) for i in range(len(moved.deck))]
    for other, player in enumerate(moved.players):
        slots += [(player.coins, i) for i in range(len(player.coins))]
        if other != seat:
            slots += [(player.hand, i) for i, card in enumerate(player.hand) if card not in shown]
    cards = [place[i] for place, i in slots]
    rng.shuffle(cards)
    for (place, i), card in zip(slots, cards, strict=True):
        place[i] = card
    return moved


def assert_view_hides_what_is_hidden(game: Game, rng: random.Random) -> None:
    for seat in [*range(game.players), None]:
        moved = with_hidden_cards_moved(game.state, seat, rng)
        assert view_for(moved, seat) == game.view(seat), f"seat {seat} sees a hidden card"


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_no_view_ever_depends_on_another_players_hand_or_the_deck_order(players: int) -> None:
    """Checked for every seat and a spectator after every action of a whole random game."""
    rng = random.Random(players)
    game = Game.new(players, random.Random(100 + players))
    assert_view_hides_what_is_hidden(game, rng)
    for _ in random_playthrough(game, rng):
        assert_view_hides_what_is_hidden(game, rng)
    assert game.is_over


def test_the_view_would_notice_a_hand_card_it_shows_changing() -> None:
    """The check above is not blind: moving the viewer's own hand changes his view."""
    game = new_game(4, [[RED, SOY, BLUE, STINK, GREEN]])
    own = game.state.copy()
    own.players[0].hand.reverse()
    assert view_for(own, 0) != game.view(0)
    assert view_for(own, 1) == game.view(1)


def test_a_player_sees_his_own_hand_front_first_and_only_the_size_of_the_others() -> None:
    game = new_game(4, [[RED, SOY, BLUE, STINK, GREEN], [WAX, WAX, CHILI]])
    view = game.view(0)
    assert view.seat == 0
    assert view.hand == (RED, SOY, BLUE, STINK, GREEN)
    assert [s.hand_size for s in view.seats] == [5, 5, 5, 5]
    assert game.view(1).hand[:3] == (WAX, WAX, CHILI)
    assert view.deck_size == 130 - 20


def test_a_spectator_sees_no_hand() -> None:
    game = new_game(4, [[RED, SOY]])
    view = game.view(None)
    assert view.seat is None and view.hand == ()
    assert [s.hand_size for s in view.seats] == [5, 5, 5, 5]


def test_everyone_sees_the_fields_coins_face_up_cards_and_discard_pile() -> None:
    pool = CardPool()
    discard = pool.beans([BLUE, SOY])
    state = table(
        3,
        fields=[[pool.take(RED, 2), [], pool.take(SOY, 1)], [pool.take(STINK, 3)]],
        coins=[[], pool.take(CHILI, 2)],
        set_aside=[[], [], [pool.one(WAX)]],
        face_up=pool.beans([GREEN, GARDEN]),
        discard=discard,
        deck=pool.take(BLUE, 7),
        step=Step.TRADE,
    )
    view = view_for(state, 2)
    assert view.seats[0].fields == (FieldView(RED, 2), FieldView(None, 0), FieldView(SOY, 1))
    assert view.seats[1].fields[0] == FieldView(STINK, 3)
    assert [s.coins for s in view.seats] == [0, 2, 0]
    assert view.seats[2].set_aside == (WAX,)
    assert view.face_up == (GREEN, GARDEN)
    assert view.discard == (BLUE, SOY)
    assert view.deck_size == 7
    assert view.step is Step.TRADE
    assert view.third_field_price is None and view.final_exhaustion == 2


def test_offers_show_their_beans_and_only_the_proposer_sees_his_hand_positions() -> None:
    game = new_game(4, [[RED, BLUE, SOY], [WAX, RED, CHILI]], then=[GARDEN, SOY])
    apply_all(game, Plant(0, 0), EndStep(0))
    game.apply(ProposeTrade(0, 1, hand=(1,), face_up=(1,), want=(RED,)))
    game.apply(ProposeTrade(1, 0, hand=(2,), want=(GARDEN,)))
    steves, annas = game.view(0).offers
    assert (steves.give, steves.want) == ((SOY, SOY), (RED,))
    assert steves.give_positions == (1,)
    assert annas.give == (CHILI,) and annas.give_positions is None
    assert game.view(1).offers[1].give_positions == (2,)
    assert game.view(2).offers[0].give_positions is None
    assert not steves.stale


def test_an_offer_whose_cards_are_gone_is_shown_stale() -> None:
    game = new_game(4, [[RED], [WAX, RED], [RED, RED]], then=[GARDEN, SOY])
    apply_all(game, Plant(0, 0), EndStep(0))
    game.apply(ProposeTrade(0, 1, face_up=(1,), want=(RED,)))
    game.apply(ProposeTrade(0, 2, face_up=(1,), want=(RED,)))
    game.apply(AcceptTrade(2, 2, hand=(0,)))
    (offer,) = game.view(1).offers
    assert offer.stale
    assert varieties(game.state.players[2].set_aside) == [SOY]


class Checking:
    """Wraps a bot: every view the driver hands it must equal the view computed afresh."""

    def __init__(self, bot: Bot, game: Game, seat: int) -> None:
        self.bot, self.game, self.seat = bot, game, seat
        self.strategy = bot.strategy
        self.views = 0

    def choose(self, view: PlayerView, legal: LegalActions) -> Action | None:
        assert view == view_for(self.game.state, self.seat)
        assert legal == legal_actions(self.game.state, self.seat)
        self.views += 1
        return self.bot.choose(view, legal)


@pytest.mark.parametrize("players", [2, 3, 5, 7])
def test_the_views_kept_from_moment_to_moment_equal_views_computed_afresh(players: int) -> None:
    for strategy in ("random", "heuristic"):
        game = Game.new(players, random.Random(players))
        bots = [
            Checking(make_bot(strategy, random.Random(seat)), game, seat) for seat in range(players)
        ]
        play_out(game, bots)
        assert game.is_over and all(bot.views > 0 for bot in bots)


def test_a_table_view_holds_the_table_as_it_was_at_its_moment() -> None:
    game = Game.new(4, random.Random(5))
    table = TableViews(game.state)
    table.next_moment()
    first, unread = table(0), table(1)
    before = [view_for(game.state, s) for s in (0, 1)]
    assert [first, unread] == before and type(first) is PlayerView
    game.apply(game.legal_actions(0).actions[0])
    table.next_moment()
    # Views are values: what the table shows later changes none of them, read or not.
    assert [first, unread] == before
    assert table(1) == view_for(game.state, 1)
    seats = (None, 0, 1, 2, 3)
    whole, afresh = [table(s) for s in seats], [view_for(game.state, s) for s in seats]
    assert whole == afresh
    game.apply(game.legal_actions(game.state.active).actions[0])
    table.next_moment()
    assert whole == afresh
    assert table(0) == view_for(game.state, 0) != afresh[1]


def test_a_table_keeps_a_seats_side_and_hand_while_they_stay_the_same() -> None:
    game = Game.new(4, random.Random(5))
    table = TableViews(game.state)
    table.next_moment()
    view = table(0)
    hand, side = view.hand, view.seats[1]
    assert hand == view_for(game.state, 0).hand
    assert table(0).hand is hand  # kept: the hand has not changed
    game.apply(game.legal_actions(0).actions[0])  # seat 0 plants its front card
    table.next_moment()
    now = table(0)
    assert view.hand is hand and now.hand == hand[1:] == view_for(game.state, 0).hand
    assert now.seats[1] is side  # seat 1 was not changed: its side is the one shown before
    assert now.seats[0] != view.seats[0]


def test_a_bystanders_legal_actions_while_trading_are_those_of_the_rules() -> None:
    game = Game.new(4, random.Random(5))
    while game.state.step is not Step.TRADE:
        game.apply(game.legal_actions(game.state.active).actions[0])
    table = TableViews(game.state)
    table.next_moment()
    other = (game.state.active + 1) % 4
    legal = table.legal(other)
    assert legal and not legal.waiting and legal.trade is not None
    assert legal == legal_actions(game.state, other) == table.bystander_legal(other)
    game.apply(EndStep(game.state.active))
    table.next_moment()
    assert legal.trade is not None  # a value: the menu of its moment stays as it was
