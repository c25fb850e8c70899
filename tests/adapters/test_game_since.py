"""A copy of a game behind the store catches up from one statement: the actions it lacks, when
the last was stored, the chat state, the seats moved and the people's settings, on SQLite and
PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, event

from bohnanza.adapters.store import open_store, prepared
from bohnanza.core.ports import ChatState, SeatIdentity

from .games import bot_game, new_game, stored_actions
from .test_chat_queries import NOW, target

__all__ = ["target"]


class Statements:
    """The statements sent to any store of this process while counting: through SQLAlchemy,
    and those compiled once and run on the driver's cursor (`prepared.py`)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        self._monkeypatch = monkeypatch

    def __enter__(self) -> Statements:
        event.listen(Engine, "before_cursor_execute", self._one)
        run = prepared._run

        def counted(*arguments: Any, **keywords: Any) -> Any:
            self._one()
            return run(*arguments, **keywords)

        self._monkeypatch.setattr(prepared, "_run", counted)
        return self

    def __exit__(self, *_: object) -> None:
        event.remove(Engine, "before_cursor_execute", self._one)
        self._monkeypatch.undo()

    def _one(self, *_: Any) -> None:
        self.count += 1


def test_what_a_copy_behind_lacks_comes_in_one_statement(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = bot_game(players=3)
    actions = stored_actions(record)
    robert = SeatIdentity("telegram", "robert", "Robert")
    due = NOW + timedelta(hours=1)
    with open_store(target, create=True) as store:
        store.add_game(new_game(record, "G1"))
        store.add_game(new_game(record, "G2"))
        store.append_actions("G1", actions[:12])
        store.append_actions("G2", actions[:20])
        store.save_chat_state("G1", ChatState({"seats": [{}, {}, {}]}, 12, due_at=due), NOW)
        store.save_chat_state("G2", ChatState({"seats": []}, 20), NOW)
        store.move_seat("G1", 2, robert, NOW, asked_by="1002", reason="claimed")
        for platform, user in (("telegram", "1000"), ("telegram", "robert")):
            store.save_player_settings(platform, user, {"notify": user}, NOW)
        store.save_player_settings("telegram", "someone-else", {"notify": "off"}, NOW)
        store.save_player_settings("sim", "1001", {"notify": "off"}, NOW)

        with Statements(monkeypatch) as statements:
            since = store.game_since("G1", 9, "telegram")
        assert statements.count == 1
        assert since.links == list(store.load_stored("G1").links[9:])
        assert [link.seq for link in since.links] == [9, 10, 11]
        assert since.last_action_at == actions[11].at
        assert since.chat_state == ChatState({"seats": [{}, {}, {}]}, 12)
        assert since.chat_state.version == 1 and since.chat_state.due_at == due
        assert since.moves == {2: robert}
        assert since.settings == {"1000": {"notify": "1000"}, "robert": {"notify": "robert"}}

        current = store.game_since("G1", 12, "telegram")
        assert current.links == [] and current.last_action_at == actions[11].at
        assert store.game_since("G1", 0, "telegram").links == list(store.load_stored("G1").links)


def test_a_game_with_nothing_beside_its_seats_lacks_nothing_else(target: str) -> None:
    with open_store(target, create=True) as store:
        store.add_game(new_game(bot_game(players=3), "G1"))
        since = store.game_since("G1", 0, "telegram")
        assert since.links == [] and since.last_action_at is None
        assert since.chat_state is None and since.moves == {} and since.settings == {}
