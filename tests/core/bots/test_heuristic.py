"""The heuristic bot: sets grown toward the beanometer, sensible sales, trades that help it."""

from __future__ import annotations

import random
import statistics

from bohnanza.core.actions import (
    AcceptTrade,
    Action,
    BuyField,
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
)
from bohnanza.core.bots import HeuristicBot, RandomBot, play_out
from bohnanza.core.bots.heuristic import PROPOSALS_AS_ACTIVE
from bohnanza.core.cards import Variety
from bohnanza.core.game import Game
from bohnanza.core.legal import LegalActions, legal_actions
from bohnanza.core.state import GameState, Step, TradeOffer
from bohnanza.core.view import PlayerView, view_for

from ..builders import CardPool, engine_for, table

BLUE, RED, SOY, CHILI, STINK, WAX = (
    Variety.BLUE,
    Variety.RED,
    Variety.SOY,
    Variety.CHILI,
    Variety.STINK,
    Variety.WAX,
)


def choice(state: GameState, seat: int = 0, bot: HeuristicBot | None = None) -> Action | None:
    """What a fresh heuristic bot (or the one given) does at `seat`."""
    bot = bot or HeuristicBot(random.Random(0))
    return bot.choose(view_for(state, seat), legal_actions(state, seat))


# --- planting ---------------------------------------------------------------------------------


def test_plants_the_front_card_onto_its_own_variety_rather_than_an_empty_field() -> None:
    pool = CardPool()
    state = table(4, hands=[pool.beans([BLUE, RED])], fields=[[pool.take(BLUE, 2), []]])
    assert choice(state) == Plant(0, 0)


def test_plants_onto_an_empty_field_when_no_field_grows_the_variety() -> None:
    pool = CardPool()
    state = table(4, hands=[pool.beans([RED])], fields=[[pool.take(BLUE, 2), []]])
    assert choice(state) == Plant(0, 1)


def test_plants_the_second_card_when_it_grows_a_field() -> None:
    pool = CardPool()
    state = table(
        4, hands=[pool.beans([BLUE, SOY])], fields=[[pool.take(BLUE, 3), [pool.one(RED)]]]
    )
    state.planted_this_step = 1
    assert choice(state) == Plant(0, 0)


def test_stops_planting_rather_than_sell_a_field_for_the_second_card() -> None:
    pool = CardPool()
    state = table(4, hands=[pool.beans([SOY])], fields=[[pool.take(BLUE, 3), [pool.one(RED)]]])
    state.planted_this_step = 1
    assert choice(state) == EndStep(0)


def test_keeps_the_empty_field_for_the_next_card_of_the_hand() -> None:
    pool = CardPool()
    state = table(4, hands=[pool.beans([SOY, CHILI])], fields=[[pool.take(BLUE, 3), []]])
    state.planted_this_step = 1
    assert choice(state) == EndStep(0)
    state = table(4, hands=[pool.beans([SOY, BLUE])], fields=[[pool.take(BLUE, 3), []]])
    state.planted_this_step = 1
    assert choice(state) == Plant(0, 1)


def test_harvests_the_field_that_earns_most_when_the_front_card_fits_nowhere() -> None:
    pool = CardPool()
    chili_earning_one, stink_earning_nothing = pool.take(CHILI, 3), pool.take(STINK, 2)
    state = table(4, hands=[pool.beans([SOY])], fields=[[stink_earning_nothing, chili_earning_one]])
    assert choice(state) == Harvest(0, 1)


def test_keeps_the_field_the_next_cards_of_the_hand_would_grow() -> None:
    pool = CardPool()
    fields = [[pool.take(CHILI, 3), pool.take(STINK, 3)]]
    state = table(4, hands=[pool.beans([SOY, CHILI, CHILI])], fields=fields)
    assert choice(state) == Harvest(0, 1)


def test_sells_a_field_that_reached_its_top_step() -> None:
    pool = CardPool()
    state = table(4, hands=[pool.beans([BLUE])], fields=[[pool.take(RED, 5), []]])
    assert choice(state) == Harvest(0, 0)


def test_buys_the_third_field_early_when_it_can_afford_it() -> None:
    pool = CardPool()
    hand, coins = pool.beans([BLUE]), pool.take(WAX, 3)
    state = table(4, hands=[hand], coins=[coins], deck=pool.rest())
    assert choice(state) == BuyField(0)


def test_does_not_buy_the_third_field_when_the_game_is_about_to_end() -> None:
    pool = CardPool()
    hand, coins, deck = pool.beans([BLUE]), pool.take(WAX, 3), pool.take(SOY, 5)
    state = table(4, hands=[hand], coins=[coins], deck=deck, exhaustions=2)
    assert choice(state) == Plant(0, 0)


def test_a_seat_the_game_does_not_wait_on_leaves_its_fields_alone() -> None:
    pool = CardPool()
    fields = [[pool.take(BLUE, 2), pool.take(RED, 2)], [pool.take(CHILI, 2), pool.take(SOY, 2)]]
    state = table(4, hands=[pool.beans([STINK]), pool.beans([STINK])], fields=fields)
    assert choice(state, seat=1) is None


def test_plants_set_aside_beans_onto_matching_fields_first() -> None:
    pool = CardPool()
    state = table(
        4,
        set_aside=[pool.beans([SOY, BLUE])],
        fields=[[pool.take(BLUE, 2), []]],
        step=Step.PLANT_SET_ASIDE,
    )
    assert choice(state) == PlantSetAside(0, 1, 0)


# --- trading ----------------------------------------------------------------------------------


def trading_table(pool: CardPool, face_up: list[Variety], **layout: object) -> GameState:
    return table(4, face_up=pool.beans(face_up), step=Step.TRADE, **layout)  # type: ignore[arg-type]


def test_accepts_a_donation_that_grows_one_of_its_fields() -> None:
    pool = CardPool()
    state = trading_table(pool, [BLUE], fields=[[], [pool.take(BLUE, 2), [pool.one(RED)]]])
    state.offers[1] = TradeOffer(1, 0, 1, (state.face_up[0],), ())
    assert choice(state, seat=1) == AcceptTrade(1, 1)


def test_declines_a_donation_it_could_plant_only_by_selling_a_field() -> None:
    pool = CardPool()
    state = trading_table(pool, [SOY], fields=[[], [pool.take(BLUE, 2), [pool.one(RED)]]])
    state.offers[1] = TradeOffer(1, 0, 1, (state.face_up[0],), ())
    assert choice(state, seat=1) == DeclineTrade(1, 1)


def test_declines_giving_away_the_beans_it_grows() -> None:
    pool = CardPool()
    state = trading_table(
        pool,
        [SOY],
        hands=[[], pool.beans([BLUE, RED])],
        fields=[[], [pool.take(BLUE, 2), [pool.one(RED)]]],
    )
    state.offers[1] = TradeOffer(1, 0, 1, (state.face_up[0],), (BLUE,))
    assert choice(state, seat=1) == DeclineTrade(1, 1)


def partner_table(pool: CardPool, partner_hand: list[Variety]) -> GameState:
    """Seat 0 grows Red and Wax and turned up Blue and Soy; seat 1 grows Blue and Red."""
    return trading_table(
        pool,
        [BLUE, SOY],
        hands=[[], pool.beans(partner_hand)],
        fields=[
            [pool.take(RED, 2), pool.take(WAX, 2)],
            [pool.take(BLUE, 2), [pool.one(RED)]],
        ],
    )


def test_asks_the_active_player_for_a_face_up_bean_it_grows_giving_one_it_cannot_use() -> None:
    state = partner_table(CardPool(), [WAX, RED])
    assert choice(state, seat=1) == ProposeTrade(1, 0, hand=(0,), want=(BLUE,))


def test_offers_the_active_player_nothing_his_fields_could_not_take() -> None:
    state = partner_table(CardPool(), [CHILI, RED])
    assert choice(state, seat=1) is None


def test_proposes_at_most_one_offer_per_turn_as_a_partner() -> None:
    state = partner_table(CardPool(), [WAX, RED])
    bot = HeuristicBot(random.Random(0))
    assert isinstance(choice(state, 1, bot), ProposeTrade)
    assert choice(state, 1, bot) is None


def test_offers_a_face_up_bean_it_cannot_plant_to_a_partner_growing_it() -> None:
    pool = CardPool()
    state = trading_table(
        pool,
        [SOY, BLUE],
        hands=[[], pool.beans([RED]), pool.beans([BLUE]), pool.beans([STINK])],
        fields=[
            [pool.take(BLUE, 2), pool.take(RED, 2)],
            [pool.take(CHILI, 2), pool.take(STINK, 1)],
            [pool.take(SOY, 3), []],
            [pool.take(WAX, 2), pool.take(CHILI, 1)],
        ],
    )
    proposal = choice(state)
    assert isinstance(proposal, ProposeTrade)
    assert (proposal.partner, proposal.face_up, proposal.hand) == (2, (0,), ())


def test_leaves_its_offer_open_for_its_receiver_and_offers_nothing_else_meanwhile() -> None:
    pool = CardPool()
    state = trading_table(pool, [SOY], fields=[[pool.take(BLUE, 2), pool.take(RED, 2)]])
    state.offers[4] = TradeOffer(4, 0, 2, (state.face_up[0],), ())
    # Ending the step is what it would do: the table holds trading open while a person may
    # still answer, and a bot answered at once.
    assert choice(state) == EndStep(0)


def test_takes_back_an_offer_whose_cards_are_gone() -> None:
    pool = CardPool()
    state = trading_table(pool, [SOY], fields=[[pool.take(BLUE, 2), pool.take(RED, 2)]])
    state.offers[4] = TradeOffer(4, 0, 2, pool.beans([CHILI]), ())
    assert choice(state) == WithdrawTrade(0, 4)


def test_a_partner_takes_back_its_offer_once_its_cards_are_gone() -> None:
    pool = CardPool()
    state = partner_table(pool, [WAX, RED])
    state.offers[3] = TradeOffer(3, 1, 0, pool.beans([CHILI]), ())
    assert choice(state, 1) == WithdrawTrade(1, 3)


def test_declines_an_offer_for_the_bean_it_has_offered_to_someone_else() -> None:
    def table_with_an_offer_for_its_soy() -> GameState:
        pool = CardPool()
        state = trading_table(
            pool,
            [SOY, CHILI],
            hands=[[], pool.beans([BLUE]), pool.beans([RED])],
            fields=[[pool.take(BLUE, 2), pool.take(RED, 2)], [], []],
        )
        blue = state.players[1].hand[0]
        state.offers[5] = TradeOffer(5, 1, 0, (blue,), (SOY,))
        return state

    alone = table_with_an_offer_for_its_soy()
    assert choice(alone) == AcceptTrade(0, 5, face_up=(0,))
    promised = table_with_an_offer_for_its_soy()
    promised.offers[4] = TradeOffer(4, 0, 2, (promised.face_up[0],), ())
    assert choice(promised) == DeclineTrade(0, 5)


def test_ends_trading_after_a_few_offers_however_its_partners_answer() -> None:
    pool = CardPool()
    state = trading_table(
        pool,
        [SOY, CHILI],
        hands=[pool.beans([STINK, WAX, STINK]), pool.beans([BLUE]), pool.beans([RED])],
        fields=[
            [pool.take(BLUE, 2), pool.take(RED, 2)],
            [pool.take(SOY, 2), pool.take(STINK, 1)],
            [pool.take(CHILI, 3), pool.take(WAX, 1)],
            [pool.take(STINK, 2), []],
        ],
        deck=pool.take(Variety.GREEN, 10),
    )
    engine = engine_for(state)
    bot = HeuristicBot(random.Random(0))
    for _ in range(3 * PROPOSALS_AS_ACTIVE):
        action = choice(state, 0, bot)
        assert action is not None
        engine.apply(action)
        if isinstance(action, EndStep):
            break
        for offer in list(state.offers.values()):
            engine.apply(DeclineTrade(offer.receiver, offer.id))
    assert state.step is not Step.TRADE


# --- the bean duel ----------------------------------------------------------------------------


def test_duel_plants_an_offered_bean_that_fits_and_discards_one_that_does_not() -> None:
    pool = CardPool()
    fields = [[pool.take(BLUE, 2), pool.take(RED, 2)]]
    state = table(2, offered=pool.beans([SOY, BLUE]), fields=fields, step=Step.DUEL_OFFERED)
    assert choice(state) == PlantOffered(0, 1, 0)
    state = table(2, offered=pool.beans([SOY]), fields=fields, step=Step.DUEL_OFFERED)
    assert choice(state) == DiscardOffered(0, 0)


def test_duel_discards_the_worst_hand_card_after_planting() -> None:
    pool = CardPool()
    state = table(
        2,
        hands=[pool.beans([SOY, RED])],
        fields=[[pool.take(BLUE, 2), pool.take(RED, 2)]],
        step=Step.DUEL_PLANT,
    )
    state.planted_this_step = 1
    assert choice(state) == DiscardFromHand(0, 0)


def test_duel_plants_fitting_face_up_beans_and_leaves_the_rest() -> None:
    pool = CardPool()
    fields = [[pool.take(BLUE, 2), pool.take(RED, 2)]]
    state = table(2, face_up=pool.beans([SOY, BLUE]), fields=fields, step=Step.DUEL_FACE_UP)
    assert choice(state) == PlantFaceUp(0, 1, 0)
    state = table(2, face_up=pool.beans([SOY]), fields=fields, step=Step.DUEL_FACE_UP)
    assert choice(state) == EndStep(0)


# --- strength ---------------------------------------------------------------------------------


def test_a_heuristic_bot_outscores_random_bots_in_four_player_games() -> None:
    heuristic, randoms, wins = [], [], 0
    for seed in range(20):
        seat = seed % 4
        game = Game.new(4, random.Random(seed))
        bots = [
            HeuristicBot(random.Random(seed)) if s == seat else RandomBot(random.Random(seed + s))
            for s in range(4)
        ]
        play_out(game, bots)
        scores = game.result().scores
        heuristic.append(scores[seat])
        randoms += [score for s, score in enumerate(scores) if s != seat]
        wins += seat in game.result().winners
    assert statistics.mean(heuristic) > statistics.mean(randoms) + 5
    assert wins >= 18


# --- what it keeps between decisions ------------------------------------------------------------


class _Twinned:
    """A heuristic bot that plays from kept views (`play_out`'s), beside a twin asked the same
    questions from views made anew each time (`view_for`): their choices must be the same."""

    def __init__(self, game: Game, seed: int) -> None:
        self.strategy = "heuristic"
        self.game = game
        self.bot = HeuristicBot(random.Random(seed))
        self.twin = HeuristicBot(random.Random(seed))
        self.asked = 0

    def choose(self, view: PlayerView, legal: LegalActions) -> Action | None:
        state = self.game.state
        fresh = self.twin.choose(view_for(state, legal.player), legal_actions(state, legal.player))
        chosen = self.bot.choose(view, legal)
        assert chosen == fresh
        self.asked += 1
        return chosen


def test_what_it_keeps_between_decisions_never_outlives_what_it_was_worked_out_from() -> None:
    # Kept views share their unchanged parts from one decision to the next, which is what
    # lets the bot keep what it worked out; fresh views share nothing.
    for seed in range(3):
        game = Game.new(5, random.Random(seed))
        bots = [_Twinned(game, seed * 7 + s) for s in range(5)]
        play_out(game, bots)
        assert game.is_over and sum(bot.asked for bot in bots) > 400
