"""The box of cards and the beanometer (rules/README.md, beanometer table; examples 1, 5, 6)."""

from __future__ import annotations

import pytest

from bohnanza.core.cards import (
    CARD_COUNT,
    VARIETIES,
    Variety,
    cards_of,
    parse_variety,
    variety_of,
)

# variety: cards in box, cards needed for 1 / 2 / 3 / 4 coins (None: no such step)
BEANOMETER_TABLE = {
    Variety.COFFEE: (24, (4, 7, 10, 12)),
    Variety.WAX: (22, (4, 7, 9, 11)),
    Variety.BLUE: (20, (4, 6, 8, 10)),
    Variety.CHILI: (18, (3, 6, 8, 9)),
    Variety.STINK: (16, (3, 5, 7, 8)),
    Variety.GREEN: (14, (3, 5, 6, 7)),
    Variety.SOY: (12, (2, 4, 6, 7)),
    Variety.BLACK_EYED: (10, (2, 4, 5, 6)),
    Variety.RED: (8, (2, 3, 4, 5)),
    Variety.GARDEN: (6, (None, 2, 3, None)),
    Variety.COCOA: (4, (None, 2, 3, 4)),
}


def expected_coins(steps: tuple[int | None, ...], cards: int) -> int:
    """The highest beanometer step the number of cards reaches."""
    return max(
        (coins for coins, needed in enumerate(steps, 1) if needed and cards >= needed), default=0
    )


def test_the_box_holds_eleven_varieties_and_154_cards() -> None:
    assert len(VARIETIES) == 11
    assert CARD_COUNT == 154
    assert set(VARIETIES) == set(BEANOMETER_TABLE)


@pytest.mark.parametrize("variety", list(BEANOMETER_TABLE), ids=lambda v: v.value)
def test_each_variety_has_its_card_count_and_beanometer(variety: Variety) -> None:
    count, steps = BEANOMETER_TABLE[variety]
    assert variety.count == count
    assert variety.beanometer == steps


@pytest.mark.parametrize("variety", list(BEANOMETER_TABLE), ids=lambda v: v.value)
def test_selling_any_number_of_beans_earns_the_highest_step_reached(variety: Variety) -> None:
    count, steps = BEANOMETER_TABLE[variety]
    for cards in range(count + 5):
        assert variety.coins_for(cards) == expected_coins(steps, cards), cards


@pytest.mark.parametrize("variety", list(BEANOMETER_TABLE), ids=lambda v: v.value)
def test_a_sale_never_earns_more_coins_than_cards_sold(variety: Variety) -> None:
    for cards in range(variety.count + 1):
        assert variety.coins_for(cards) <= cards


@pytest.mark.parametrize(
    ("stink_beans", "coins"),
    [(1, 0), (2, 0), (3, 1), (4, 1), (5, 2), (6, 2), (7, 3), (8, 4), (12, 4), (16, 4)],
)
def test_example_1_stink_beans_earn_by_the_beanometer(stink_beans: int, coins: int) -> None:
    assert Variety.STINK.coins_for(stink_beans) == coins


def test_example_5_three_chili_beans_earn_one_coin() -> None:
    assert Variety.CHILI.coins_for(3) == 1


def test_example_6_two_chili_beans_earn_nothing() -> None:
    assert Variety.CHILI.coins_for(2) == 0


@pytest.mark.parametrize(("garden_beans", "coins"), [(1, 0), (2, 2), (3, 3), (6, 3)])
def test_garden_beans_have_no_one_or_four_coin_step(garden_beans: int, coins: int) -> None:
    assert Variety.GARDEN.coins_for(garden_beans) == coins


@pytest.mark.parametrize(("cocoa_beans", "coins"), [(1, 0), (2, 2), (3, 3), (4, 4)])
def test_cocoa_beans_have_no_one_coin_step(cocoa_beans: int, coins: int) -> None:
    assert Variety.COCOA.coins_for(cocoa_beans) == coins


def test_card_ids_are_grouped_by_variety_and_cover_the_box_once() -> None:
    seen: list[int] = []
    for variety in VARIETIES:
        ids = list(cards_of(variety))
        assert len(ids) == variety.count
        assert all(variety_of(card) is variety for card in ids)
        seen += ids
    assert seen == list(range(CARD_COUNT))


def test_a_card_ids_variety_is_fixed() -> None:
    assert variety_of(0) is Variety.COFFEE
    assert variety_of(24) is Variety.WAX
    assert variety_of(CARD_COUNT - 1) is Variety.COCOA


@pytest.mark.parametrize(
    ("text", "variety"),
    [
        ("red", Variety.RED),
        ("Red Bean", Variety.RED),
        ("BLACK_EYED", Variety.BLACK_EYED),
        ("black-eyed", Variety.BLACK_EYED),
        ("Black-eyed Beans", Variety.BLACK_EYED),
        ("  cocoa ", Variety.COCOA),
    ],
)
def test_a_variety_is_read_from_its_code_or_english_name(text: str, variety: Variety) -> None:
    assert parse_variety(text) is variety


@pytest.mark.parametrize("text", ["", "bean", "tomato", "reds"])
def test_an_unknown_variety_name_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="unknown bean variety"):
        parse_variety(text)


def test_every_variety_has_an_english_title() -> None:
    assert Variety.BLACK_EYED.title == "Black-eyed Bean"
    assert all(v.title.endswith(" Bean") for v in VARIETIES)
