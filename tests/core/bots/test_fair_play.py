"""Bots act only on their own view and their legal actions, and every action they take is legal."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import bohnanza.core.bots as bots_package
from bohnanza.core.actions import AcceptTrade, Action, CounterTrade, ProposeTrade
from bohnanza.core.bots import play_out
from bohnanza.core.game import Game
from bohnanza.core.legal import LegalActions, TradeOptions, legal_actions
from bohnanza.core.state import GameState
from bohnanza.core.view import PlayerView, view_for

from .recording import bot_of, watched_game


def offer_within_bounds(
    action: ProposeTrade | CounterTrade, view: PlayerView, trade: TradeOptions
) -> bool:
    if isinstance(action, ProposeTrade):
        partner = action.partner
        if partner not in trade.partners:
            return False
    else:
        partner = next(o.proposer for o in view.offers if o.id == action.offer)
    partner_cards = view.seats[partner].hand_size
    if partner == view.active:
        partner_cards += len(view.face_up)
    return (
        bool(action.hand or action.face_up)
        and len(set(action.hand)) == len(action.hand)
        and len(set(action.face_up)) == len(action.face_up)
        and all(0 <= i < trade.hand_size for i in action.hand)
        and all(0 <= i < trade.face_up for i in action.face_up)
        and len(action.want) <= partner_cards
    )


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["random", "heuristic", "expert"])
@pytest.mark.parametrize("players", [2, 3, 5, 7])
def test_every_bot_action_is_a_listed_action_or_an_offer_within_the_trade_bounds(
    strategy: str, players: int
) -> None:
    for bot in watched_game(players, strategy, seed=11):
        for view, legal, action in bot.calls:
            assert view.seat == legal.player == bot.seat
            if action is None:
                assert not legal.waiting
            elif isinstance(action, ProposeTrade | CounterTrade):
                assert legal.trade is not None
                assert offer_within_bounds(action, view, legal.trade)
            else:
                assert action in legal.actions


def test_heuristic_bots_trade_with_each_other() -> None:
    accepted = [
        action
        for bot in watched_game(4, "heuristic", seed=3)
        for _, _, action in bot.calls
        if isinstance(action, AcceptTrade)
    ]
    assert accepted


def test_bots_are_handed_only_their_own_view_and_legal_actions() -> None:
    game = Game.new(4, random.Random(4))
    handed: list[tuple[object, object]] = []

    class Handed:
        strategy = "heuristic"

        def __init__(self, seat: int) -> None:
            self.seat = seat
            self.bot = bot_of("heuristic", random.Random(seat))

        def choose(self, view: PlayerView, legal: LegalActions) -> Action | None:
            handed.append((view, legal))
            assert isinstance(view, PlayerView) and isinstance(legal, LegalActions)
            assert view == view_for(game.state, self.seat) and view.seat == self.seat
            assert legal == legal_actions(game.state, self.seat)
            return self.bot.choose(view, legal)

    play_out(game, [Handed(seat) for seat in range(4)])
    assert game.is_over and len(handed) > 100


def hidden_cards_redealt(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same table with the cards `seat` cannot see (others' hands, the deck) redealt."""
    other = state.copy()
    hidden = [c for s, p in enumerate(other.players) if s != seat for c in p.hand] + other.deck
    rng.shuffle(hidden)
    for s, player in enumerate(other.players):
        if s != seat:
            size = len(player.hand)
            player.hand, hidden = hidden[:size], hidden[size:]
    other.deck = hidden
    return other


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["random", "heuristic", "expert"])
def test_a_bot_decides_the_same_whatever_the_cards_it_cannot_see(strategy: str) -> None:
    rng = random.Random(8)
    game = Game.new(4, random.Random(8))
    bots = [bot_of(strategy, random.Random(i)) for i in range(4)]
    checked = 0
    for _ in range(120):
        if game.is_over:
            break
        seat = game.waiting_for()[0]
        twin = hidden_cards_redealt(game.state, seat, rng)
        assert view_for(twin, seat) == game.view(seat)
        choices = []
        for state in (game.state, twin):
            bot = bot_of(strategy, random.Random(seat))
            choices.append(bot.choose(view_for(state, seat), legal_actions(state, seat)))
        assert choices[0] == choices[1]
        checked += 1
        action = bots[seat].choose(game.view(seat), game.legal_actions(seat))
        assert action is not None
        game.apply(action)
    assert checked > 50


PURE_IMPORTS = {"__future__", "random", "collections", "collections.abc", "typing"}
CORE_PARTS = {"actions", "cards", "legal", "view", "state", "valuation", "base"}


def test_bot_modules_import_neither_the_game_state_nor_the_engine() -> None:
    forbidden = {"GameState", "PlayerState", "Engine", "Game", "view_for", "legal_actions"}
    package = Path(bots_package.__file__).parent
    for module in ("base.py", "random_bot.py", "heuristic.py", "valuation.py"):
        for node in ast.walk(ast.parse((package / module).read_text())):
            if isinstance(node, ast.Import):
                assert {alias.name for alias in node.names} <= PURE_IMPORTS, module
            elif isinstance(node, ast.ImportFrom):
                names = {alias.name for alias in node.names}
                assert not names & forbidden, module
                if node.level:
                    assert node.module in CORE_PARTS, module
                else:
                    assert node.module in PURE_IMPORTS, module


BOT_MODULES = ("base.py", "random_bot.py", "heuristic.py", "valuation.py", "expert.py")


@pytest.mark.parametrize("module", BOT_MODULES)
def test_bots_read_views_only_through_their_fields(module: str) -> None:
    """A bot reads a view through its fields only (no private attribute but its own, no
    `__dict__`, `vars`, `getattr`); what lies behind them is values alone
    (`test_what_bots_receive.py`)."""
    source = (Path(bots_package.__file__).parent / module).read_text()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            owner = node.value
            assert isinstance(owner, ast.Name), (module, node.lineno)
            assert owner.id in ("self", "object"), (module, node.lineno)
            assert owner.id == "self" or node.attr == "__new__", (module, node.lineno)
        if isinstance(node, ast.Name):
            assert node.id not in ("vars", "getattr", "__dict__"), (module, node.lineno)


SEARCH_MODULES = ("expert.py", "sampling.py", "rollout.py")


def test_the_expert_reaches_no_real_game() -> None:
    """The expert simulates states it dealt itself from its view: it may build game states and
    run an engine on them, but never imports the game, nor a way to view a real table."""
    forbidden = {"Game", "view_for", "game"}
    package = Path(bots_package.__file__).parent
    for module in SEARCH_MODULES:
        for node in ast.walk(ast.parse((package / module).read_text())):
            if isinstance(node, ast.Import):
                assert {alias.name for alias in node.names} <= PURE_IMPORTS | {"math"}, module
            elif isinstance(node, ast.ImportFrom):
                assert not {alias.name for alias in node.names} & forbidden, module
                assert node.module not in forbidden, module
