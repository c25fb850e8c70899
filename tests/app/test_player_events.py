"""The lines that tell a player at the terminal what the others did since his last screen: what
they planted, in the duel what his opponent did with the beans he left on offer, and who gave
what to whom in a trade."""

from __future__ import annotations

from bohnanza.core.actions import DiscardOffered, EndStep, Plant, PlantOffered, PlantSetAside
from bohnanza.core.app.event_log import Happened
from bohnanza.core.app.i18n import English
from bohnanza.core.app.player_events import player_lines
from bohnanza.core.app.story import story_line
from bohnanza.core.cards import Variety, cards_of
from bohnanza.core.events import BeanDiscarded, BeanPlanted, LeftOnOffer, TradeAccepted
from bohnanza.core.state import TradeOffer

NAMES = ["anna", "Bot 1", "Bot 2"]
SOY, BLUE, RED = (list(cards_of(v)) for v in (Variety.SOY, Variety.BLUE, Variety.RED))


def test_a_bots_plantings_in_a_row_are_one_line_with_their_fields() -> None:
    happened = [
        Happened(0, Plant(1, 0), (BeanPlanted(1, SOY[0], 0, "hand"),)),
        Happened(1, Plant(1, 0), (BeanPlanted(1, SOY[1], 0, "hand"),)),
        Happened(2, EndStep(1), ()),
        Happened(3, PlantSetAside(1, 0, 1), (BeanPlanted(1, BLUE[0], 1, "set-aside"),)),
        Happened(4, PlantSetAside(2, 0, 0), (BeanPlanted(2, RED[0], 0, "set-aside"),)),
        Happened(5, Plant(0, 0), (BeanPlanted(0, RED[1], 0, "hand"),)),
    ]

    lines = player_lines(English(), happened, 0, NAMES, typed=[5])

    assert lines == [
        "• Bot 1 planted 2x Soy Bean → 1, Blue Bean → 2.",
        "• Bot 2 planted Red Bean → 1.",
    ]


def test_in_the_duel_he_reads_what_his_opponent_did_with_the_beans_he_left_and_left_him() -> None:
    happened = [
        Happened(0, PlantOffered(1, 0, 1), (BeanPlanted(1, BLUE[0], 1, "offered"),)),
        Happened(1, DiscardOffered(1, 0), (BeanDiscarded(1, SOY[0], "offered"),)),
        Happened(2, EndStep(1), (LeftOnOffer(1, (RED[0], RED[1])),)),
    ]

    lines = player_lines(English(), happened, 0, NAMES[:2])

    assert lines == [
        "• Bot 1 planted what you left on offer: Blue Bean → 2.",
        "• Bot 1 tossed what you left on offer: Soy Bean.",
        "• Bot 1 left on offer for you: 2x Red Bean.",
    ]


def test_a_trade_between_others_says_who_gave_what_to_whom() -> None:
    gift = TradeAccepted(TradeOffer(3, 2, 1, (BLUE[0],), ()), ())
    swap = TradeAccepted(TradeOffer(4, 1, 2, (SOY[0], SOY[1]), (Variety.RED,)), (RED[0],))

    assert story_line(English(), gift, NAMES) == "Bot 2 gave Blue Bean to Bot 1 as a gift"
    assert story_line(English(), swap, NAMES) == "Bot 1 gave 2x Soy Bean to Bot 2 for Red Bean"
