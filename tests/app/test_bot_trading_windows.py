"""A person at a table of bots: a bot's offer to him stays open until he answers it, a bot's
turn waits for him only as he chose (`set trading offers|always`), and every move of his is
answered at once, an offer by its number and what became of it."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest

from bohnanza.core.actions import DeclineTrade, ProposeTrade
from bohnanza.core.app.session import GameSession
from bohnanza.core.events import TradeClosed, TradeProposed
from bohnanza.core.record import replay_steps
from bohnanza.core.state import Step

from .recording import TEXT_ONLY, People, Table

TURNS = 12
"""How far the games below are played: enough for bots to make offers to the person."""


def table_of_ann_and_bots(
    tmp_path: Path, trading: str | None = None, players: int = 3, seed: int = 1
) -> tuple[Table, People]:
    table = Table.open(tmp_path / "games.db", seed=seed)
    people = People(table, seed=seed)
    if trading is not None:
        asyncio.run(people.say("ann", f"set trading {trading}", private=True))
    asyncio.run(people.gather("g1", ["ann", *["bot"] * (players - 1)]))
    return table, people


def offer_to_ann_open(session: GameSession) -> bool:
    return any(offer.receiver == 0 for offer in session.state.offers.values())


def bot_trading(session: GameSession) -> bool:
    state = session.state
    return state.step is Step.TRADE and session.seats[state.active].bot is not None


def play_until(table: Table, people: People, done: Callable[[GameSession], bool]) -> GameSession:
    """Ann plays (her moves decided as a person's, from her own view) until `done`."""
    for _ in range(2_000):
        session = table.session("g1")
        if done(session):
            return session
        assert asyncio.run(people.move("g1")), "the game waits on nobody"
    raise AssertionError("the moment never came")


def withdrawn_before_she_acted(table: Table) -> tuple[int, int]:
    """Offers the bots made to Ann (seat 0) in the stored game, and how many of them a bot
    took back before she made any move after it."""
    record = table.store.load_record(table.session("g1").game_id)
    acted_since: dict[int, bool] = {}
    taken_back = 0
    for _, _, action, events in replay_steps(record):
        if action is not None and action.player == 0:
            acted_since = dict.fromkeys(acted_since, True)
        for event in events:
            if isinstance(event, TradeProposed) and event.offer.receiver == 0:
                acted_since[event.offer.id] = False
            elif isinstance(event, TradeClosed) and event.reason == "withdrawn":
                taken_back += acted_since.get(event.offer.id) is False
    return len(acted_since), taken_back


@pytest.mark.parametrize("trading", ["offers", "always"])
def test_a_bots_offer_to_a_person_stays_open_until_he_answers(tmp_path: Path, trading: str) -> None:
    table, people = table_of_ann_and_bots(tmp_path, trading)

    play_until(table, people, lambda session: session.state.turn > TURNS)

    offers, taken_back = withdrawn_before_she_acted(table)
    assert offers >= 3, "the bots made offers to the person"
    assert taken_back == 0


def test_with_trading_on_offers_a_bots_turn_waits_only_while_its_offer_to_him_is_open(
    tmp_path: Path,
) -> None:
    table, people = table_of_ann_and_bots(tmp_path, "offers")
    waited = []
    for _ in range(400):
        session = table.session("g1")
        if session.state.turn > TURNS:
            break
        if bot_trading(session):
            waited.append(offer_to_ann_open(session))
        assert asyncio.run(people.move("g1"))
    assert waited, "a bot's turn waited for her answer at least once"
    assert all(waited)
    assert not any(a == "You pass on trading this time." for a in table.port.answers_to("ann"))


def test_with_trading_always_every_bots_turn_waits_until_he_passes(tmp_path: Path) -> None:
    table, people = table_of_ann_and_bots(tmp_path, "always")

    session = play_until(table, people, lambda s: bot_trading(s) and not offer_to_ann_open(s))
    turn = session.state.turn
    asyncio.run(people.say("ann", "pass"))

    assert table.port.last_answer("ann") == "You pass on trading this time."
    assert not bot_trading(table.session("g1")) or table.session("g1").state.turn > turn


def test_the_person_sees_until_when_a_bot_waits_for_his_answer(tmp_path: Path) -> None:
    table, people = table_of_ann_and_bots(tmp_path, "offers")

    session = play_until(table, people, lambda s: bot_trading(s) and offer_to_ann_open(s))

    shown = table.port.hand_message("ann", session.game_id)
    assert shown is not None
    bot = session.names[session.state.active]
    until = session.trade_window_until
    assert until is not None and until == table.clock.now() + timedelta(minutes=2)
    # A time of day: the message is edited as the game changes, not as time passes.
    closes = f"trading closes at {until:%H:%M:%S} UTC."
    assert f"⏳ {bot} waits for your answer: {closes}" in shown.text


def test_passing_declines_the_offers_made_to_him(tmp_path: Path) -> None:
    table, people = table_of_ann_and_bots(tmp_path, "offers")
    session = play_until(table, people, lambda s: bot_trading(s) and offer_to_ann_open(s))
    game_id = session.game_id
    (offer,) = [o.id for o in session.state.offers.values() if o.receiver == 0]
    before = table.action_count(game_id)

    asyncio.run(people.say("ann", "pass"))

    stored = table.store.load_record(game_id).actions[before:]
    assert stored[0] == DeclineTrade(0, offer)
    assert table.port.last_answer("ann") == "You pass on trading this time."


def test_the_setting_is_the_players_own_and_kept_for_his_next_games(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    asyncio.run(people.say("ann", "set trading sometimes", private=True))
    assert table.port.last_answer("ann") == "Write: set trading offers or always."

    asyncio.run(people.say("ann", "set trading offers", private=True))
    assert table.port.last_answer("ann").startswith(
        "A bot on turn waits for you only while its offer to you is open"
    )
    asyncio.run(people.gather("g1", ["ann", "bot", "bot"]))
    assert table.session("g1").seats[0].trading == "offers"
    assert table.restarted().service.ctx.tables.room_session("g1") is not None
    again = table.restarted()
    assert again.service.ctx.tables.room_session("g1").seats[0].trading == "offers"  # type: ignore[union-attr]


def test_an_offer_of_his_is_answered_at_once_with_its_number_and_the_bots_answer(
    tmp_path: Path,
) -> None:
    table = Table.open(tmp_path / "games.db", capabilities=TEXT_ONLY)
    people = People(table)
    asyncio.run(people.gather("g1", ["ann", "bot", "bot"]))
    asyncio.run(people.say("ann", "plant 1"))
    asyncio.run(people.say("ann", "done"))
    assert table.session("g1").state.step is Step.TRADE

    asyncio.run(people.say("ann", "offer 2 1"))

    answer = table.port.last_answer("ann").split("\n")
    made = re.fullmatch(r"Your offer #(\d+) to Bot 1 \(heuristic\): (.+) as a gift\.", answer[0])
    assert made is not None, answer
    number, gift = made.groups()
    assert answer[1:] in (
        [f"Bot 1 (heuristic) declined your offer #{number}."],
        [f"Bot 1 (heuristic) accepted your offer #{number}: you gave {gift} as a gift."],
    )


def test_an_offer_asking_for_a_bean_the_game_leaves_out_is_refused(tmp_path: Path) -> None:
    table, people = table_of_ann_and_bots(tmp_path, players=3)
    asyncio.run(people.say("ann", "plant 1"))
    asyncio.run(people.say("ann", "done"))
    game_id = table.session("g1").game_id
    before = table.action_count(game_id)

    asyncio.run(people.say("ann", "offer 2 1 for cocoa"))

    assert table.port.last_answer("ann") == (
        "There is no Cocoa Bean in this game: it is played without Cocoa Bean."
    )
    assert table.action_count(game_id) == before


def test_a_pass_holds_for_the_whole_bots_turn_though_his_own_offer_is_answered_after_it(
    tmp_path: Path,
) -> None:
    table = Table.open(tmp_path / "games.db", seed=1)
    people = People(table, seed=1)
    asyncio.run(people.gather("g1", ["ann", "bot:random", "bot:random"]))
    session = play_until(table, people, lambda s: bot_trading(s) and not s.state.offers)
    turn, bot = session.state.turn, session.state.active
    asyncio.run(people.say("ann", f"offer {bot + 1} 1"))
    assert [o.proposer for o in table.session("g1").state.offers.values()] == [0], (
        "a random bot leaves her offer open"
    )

    asyncio.run(people.say("ann", "pass"))  # the bot answers her offer after her pass

    session = table.session("g1")
    assert session.state.turn > turn, "the bot's turn does not wait for her again"


def test_no_bot_makes_her_an_offer_for_the_rest_of_a_turn_she_passed_on(tmp_path: Path) -> None:
    """`pass`: no trading for her this turn. At every bot's turn of a whole game she passes as
    soon as trading opens: no bot proposes to her after it until the next turn (an offer open
    to her then is declined by the pass itself)."""
    table, people = table_of_ann_and_bots(tmp_path, "always", players=4, seed=2)
    game_id = table.session("g1").game_id
    proposals_after_passes = 0
    passes = 0
    for _ in range(2_000):
        session = table.service.games.get("g1")
        if session is None:
            break  # the game is over
        if not bot_trading(session):
            assert asyncio.run(people.move("g1")), "the game waits on nobody"
            continue
        turn, before = session.state.turn, table.action_count(game_id)
        asyncio.run(people.say("ann", "pass"))
        passes += 1
        for game, index, action, _ in replay_steps(table.store.load_record(game_id)):
            if index is None or index < before or game.state.turn != turn:
                continue
            proposals_after_passes += isinstance(action, ProposeTrade) and action.partner == 0
    assert passes >= 20
    assert proposals_after_passes == 0
