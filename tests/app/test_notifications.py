"""A person is notified once when a decision falls to him through another's move, by a new
private message; never for his own next step, never while the bot plays his seat, and as he
chose with `set notify off|turn|all`."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bohnanza.core.app.messages import Message
from bohnanza.core.app.session import GameSession

from .recording import BUTTONS_AND_EDITS, People, RecordingPort, Table, user_of

SEATS = ["ann", "bob", "bot", "cat", "bot:random"]


class NotingPort(RecordingPort):
    """Notes, in order, every notifying message each person got."""

    def __init__(self) -> None:
        super().__init__(BUTTONS_AND_EDITS)
        self.log: list[tuple[str, str, bool]] = []
        """(what, user, opens his turn): 'alert' for a notification, 'act' for an input."""

    async def send_private(self, user_id: str, message: Message) -> str:
        if message.alert:
            self.log.append(("alert", user_id, False))
        return await super().send_private(user_id, message)


class NotedPeople(People):
    """People whose every input is noted in the port's log, with whether it opens his turn."""

    def __init__(self, table: Table, port: NotingPort) -> None:
        super().__init__(table, seed=17)
        self.port = port
        self.turn_seen: dict[str, int] = {}
        self.last_user = ""
        """Who gave the latest input."""

    async def _send(self, session: GameSession, seat: int, command: str) -> None:
        user = user_of(session, seat)
        state = session.state
        actions = session.game.actions
        # A turn that follows his own last input at once (planting a traded card as the one
        # before him ends his turn, or passing while a bot trades, the bots then playing on)
        # finds him acting already: nothing to announce.
        others_moved = bool(actions) and self.last_user != user
        opens = state.active == seat and self.turn_seen.get(user) != state.turn and others_moved
        if state.active == seat:
            self.turn_seen[user] = state.turn
        self.port.log.append(("act", user, opens))
        self.last_user = user
        await super()._send(session, seat, command)


def played(tmp_path: Path, settings: dict[str, str] | None = None) -> NotingPort:
    port = NotingPort()
    table = Table.open(tmp_path / "games.db", port=port)
    people = NotedPeople(table, port)

    async def game() -> None:
        for user, mode in (settings or {}).items():
            await people.say(user, f"set notify {mode}", private=True)
        await people.gather("g1", SEATS)
        await people.play(["g1"])

    asyncio.run(game())
    return port


def between_inputs(log: list[tuple[str, str, bool]], user: str) -> list[tuple[int, bool]]:
    """For each input of `user`: the notifications he got since his previous one, and whether
    the input opened his turn."""
    out, alerts = [], 0
    for what, who, opens in log:
        if who != user:
            continue
        if what == "alert":
            alerts += 1
        else:
            out.append((alerts, opens))
            alerts = 0
    return out


@pytest.mark.slow
def test_each_turn_of_a_person_is_announced_once_and_his_own_next_steps_never(
    tmp_path: Path,
) -> None:
    port = played(tmp_path)

    announced = 0
    for user in ("ann", "bob", "cat"):
        inputs = between_inputs(port.log, user)
        turns = [alerts for alerts, opens in inputs if opens]
        announced += len(turns)
        # One notification before each of his turns (the opener starting the game, and a
        # turn that follows his own input at once, find him acting already: not counted).
        assert turns == [1] * len(turns), user
        assert all(alerts <= 1 for alerts, _ in inputs), user  # never two for one decision
        # The steps that follow his own move at once (second planting, trading) ring nothing.
        assert sum(alerts for alerts, _ in inputs) < len(inputs)
    # Cat, after a bot, usually passes last on its trading and so opens his turn himself.
    assert announced >= 6


@pytest.mark.slow
def test_a_notification_is_a_new_message_and_the_one_it_replaces_is_retired(
    tmp_path: Path,
) -> None:
    port = played(tmp_path)

    alerted = [shown for shown in port.private["bob"] if shown.history[0].alert]
    assert len(alerted) >= 3
    retired = [shown for shown in port.private["bob"] if shown.history[-1].buttons == ()]
    assert any("moved on; your newest message is below" in s.text for s in retired)
    assert "▶ Your move." in alerted[1].history[0].text


@pytest.mark.slow
def test_a_person_who_asked_for_no_notifications_gets_none_and_one_who_asked_for_all_more(
    tmp_path: Path,
) -> None:
    port = played(tmp_path, {"ann": "off", "cat": "all"})

    alerts = {
        user: sum(1 for what, who, _ in port.log if what == "alert" and who == user)
        for user in ("ann", "bob", "cat")
    }
    assert alerts["ann"] == 0
    assert alerts["cat"] > alerts["bob"] > 0
    assert "I will not notify you; your private messages stay current." in port.answers_to("ann")


def test_the_reminder_before_a_deadline_notifies(tmp_path: Path) -> None:
    port = NotingPort()
    table = Table.open(tmp_path / "games.db", port=port)
    people = People(table)
    asyncio.run(people.gather("g1", ["ann", "bob", "bot"], ["set deadline 10m"]))
    wake = table.service.next_wakeup()
    assert wake is not None
    table.clock.set(wake)
    before = len(port.log)

    asyncio.run(table.runner.tick())

    reminded = [shown for shown in port.private["ann"] if "is due" in shown.text]
    assert len(reminded) == 1 and reminded[0].history[0].alert
    assert port.log[before:] == [("alert", "ann", False)]


def test_asking_for_all_notifications_does_not_repost_a_hand_that_did_not_change(
    tmp_path: Path,
) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    asyncio.run(people.say("bob", "set notify all", private=True))
    asyncio.run(people.gather("g1", ["ann", "bob", "bot"]))
    sent = len(table.port.private["bob"])

    for _ in range(3):
        asyncio.run(people.say("bob", "help", "g1"))

    assert len(table.port.private["bob"]) == sent


def test_a_new_lobby_is_a_new_message_not_an_edit_of_the_last_one(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    asyncio.run(people.say("ann", "new", "g1"))
    asyncio.run(people.say("ann", "cancel", "g1"))
    asyncio.run(people.say("ann", "new", "g1"))

    lobbies = [
        s for s in table.port.rooms["g1"] if any("is being gathered" in m.text for m in s.history)
    ]
    assert len(lobbies) == 2
    assert lobbies[0].text == "The game was called off."  # the old one says so, unchanged since
