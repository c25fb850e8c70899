"""The rule of stable numbers on its own (`bohnanza.core.app.numbers`): a choice keeps its
number within a decision, a new one takes the next free number, a gone one leaves its number
unused, and a typed number is taken only for what it named in every list its player may read."""

from __future__ import annotations

from bohnanza.core.app.messages import Button
from bohnanza.core.app.numbers import (
    Cards,
    Choice,
    SeatNumbers,
    choice_key,
    keyed_choices,
    numbered,
    seat_numbers,
    sent,
    verdict,
)
from bohnanza.core.app.picker import Draft
from bohnanza.core.cards import Variety

TRADING = "4 trade"
NO_CARDS = Cards()


def listed(*labels_and_commands: tuple[str, str]) -> list[Choice]:
    buttons = [Button(label, f"g G tok {command}") for label, command in labels_and_commands]
    return keyed_choices(buttons, NO_CARDS, None)


NO_TRADE = ("No trade", "pass")
OFFER_TO_ANN = ("🤝 Offer to Ann", "pick s1 0 0 -")
ACCEPT_1 = ("Accept #1", "accept 1")
DECLINE_1 = ("Decline #1", "decline 1")
ACCEPT_2 = ("Accept #2", "accept 2")


def shown(
    numbers: SeatNumbers | None, choices: list[Choice], answer: bool, decision: str = TRADING
) -> tuple[list[int], SeatNumbers]:
    given, numbering = numbered(numbers, decision, choices, answer)
    return given, sent(numbers, decision, numbering, list(zip(given, choices, strict=True)), answer)


def test_another_s_offer_gives_new_numbers_and_leaves_his_to_their_choices() -> None:
    first, numbers = shown(None, listed(NO_TRADE, OFFER_TO_ANN), answer=True)
    assert first == [1, 2]
    later = listed(ACCEPT_1, DECLINE_1, NO_TRADE, OFFER_TO_ANN)
    second, numbers = shown(numbers, later, answer=False)
    assert second == [3, 4, 1, 2]
    found = verdict(numbers, TRADING, later, 1)
    assert found.outcome == "take" and found.choice is not None
    assert found.choice.button.label == "No trade"


def test_a_gone_choice_leaves_its_number_unused_and_a_new_one_takes_the_next() -> None:
    _, numbers = shown(None, listed(NO_TRADE, ACCEPT_1, DECLINE_1), answer=True)
    now = listed(NO_TRADE, ACCEPT_2)
    given, numbers = shown(numbers, now, answer=False)
    assert given == [1, 4]
    gone = verdict(numbers, TRADING, now, 2)
    assert (gone.outcome, gone.label, gone.key) == ("gone", "Accept #1", "accept 1")


def test_a_choice_that_does_something_else_now_is_not_taken_until_shown_again() -> None:
    sale = ("Sell 1 Wax Bean: 0 coins", "ask harvest 1")
    grown = ("Sell 2 Wax Bean: 1 coin", "ask harvest 1")
    _, numbers = shown(None, listed(sale), answer=True)
    now = listed(grown)
    _, numbers = shown(numbers, now, answer=False)
    assert verdict(numbers, TRADING, now, 1).outcome == "changed"
    # Shown again in answer, it is what he reads.
    _, numbers = shown(numbers, now, answer=True)
    assert verdict(numbers, TRADING, now, 1).outcome == "take"


def test_a_new_decision_sent_while_he_may_read_the_last_numbers_after_it() -> None:
    _, numbers = shown(None, listed(NO_TRADE, OFFER_TO_ANN), answer=True)
    planting = listed(("Wax Bean → field 1 (empty)", "aside 1 1"))
    given, numbers = shown(numbers, planting, answer=False, decision="4 plant-set-aside")
    assert given == [3]
    refused = verdict(numbers, "4 plant-set-aside", planting, 1)
    assert (refused.outcome, refused.earlier) == ("earlier", TRADING)
    assert verdict(numbers, "4 plant-set-aside", planting, 3).outcome == "take"
    # In answer to his own input a new decision counts from 1.
    given, _ = shown(numbers, planting, answer=True, decision="5 plant")
    assert given == [1]


def test_a_choice_is_known_by_its_cards_not_their_places() -> None:
    cards = Cards(
        hand=(Variety.GREEN, Variety.COFFEE),
        aside=(Variety.WAX, Variety.CHILI),
        fields=(Variety.GREEN, None),
    )
    assert choice_key("aside 2 2", cards, None) == choice_key(
        "aside 1 2", Cards(aside=(Variety.CHILI,)), None
    )
    assert choice_key("plant 1", cards, None) != choice_key(
        "plant 1", Cards(hand=(Variety.COFFEE,)), None
    )
    assert choice_key("ask harvest 1", cards, None) == choice_key("harvest 1", cards, None)
    assert choice_key("done;aside 1 1;aside 1 2", cards, None) == choice_key("done", cards, None)
    # In the picker, a tick is the card it toggles, however much is ticked already.
    draft = Draft("s1", frozenset({0}))
    assert choice_key("pick s1 3 0 -", draft=draft, cards=cards) == "tick hand 1"
    assert choice_key("send s1 1 0 -", draft=draft, cards=cards) == "send"


def test_numbers_kept_in_a_chat_state_read_back_and_anything_else_is_not_known() -> None:
    _, numbers = shown(None, listed(NO_TRADE, ACCEPT_1), answer=True)
    assert seat_numbers(numbers.data()) == numbers
    for damaged in (None, [], {"decisions": {}}, {"decisions": {"x": [1]}, "reading": {}}):
        assert seat_numbers(damaged) is None
    assert seat_numbers({"decisions": {}, "reading": {"²": []}}) is None
