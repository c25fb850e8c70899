"""Bots in a chat game decide on views worked out as they read them: each is the view a
fresh `view_for` gives at that moment, with the moves the engine lists (but offers to people
who passed on trading this turn), and the game plays to its end as before."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from bohnanza.core.actions import Action
from bohnanza.core.app.session import GameSession
from bohnanza.core.bots import Bot
from bohnanza.core.legal import LegalActions, legal_actions
from bohnanza.core.view import PlayerView, view_for

from .recording import People, Table


@dataclass
class Checked:
    """A bot that, before deciding, compares what it was shown with the game itself."""

    bot: Bot
    session: GameSession
    seat: int
    decisions: list[int] = field(default_factory=list)

    def choose(self, view: PlayerView, legal: LegalActions) -> Action | None:
        state = self.session.state
        assert view == view_for(state, self.seat)
        listed = legal_actions(state, self.seat)
        assert replace(legal, trade=listed.trade) == listed
        partners = set(listed.trade.partners) if listed.trade is not None else set()
        offered = set(legal.trade.partners) if legal.trade is not None else set()
        assert offered <= partners
        for seat in partners - offered:  # `pass`: no trading for him this turn
            passed = self.session.seats[seat].passed
            assert passed is not None and passed[0] == state.turn
        self.decisions.append(len(self.session.game.actions))
        return self.bot.choose(view, legal)


@pytest.mark.slow
def test_bots_in_a_chat_game_see_what_a_fresh_view_shows(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table, seed=3)
    asyncio.run(people.gather("g1", ["ann", "bot", "bob", "bot"]))
    session = table.session("g1")
    checked = []
    for seat, control in enumerate(session.seats):
        if control.bot is not None:
            control.bot = Checked(control.bot, session, seat)
            checked.append(control.bot)
    asyncio.run(people.play(["g1"]))

    assert "g1" not in table.service.games
    record = table.store.load_record(session.game_id)
    assert record.result is not None
    # Bots decided at many moments, most of them right after another action was applied.
    assert all(len(bot.decisions) > 100 for bot in checked)
