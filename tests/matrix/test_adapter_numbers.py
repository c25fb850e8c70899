"""Numbered answers on Matrix against a real Synapse: another's offer gives its choices new
numbers and leaves his to theirs, whatever he sends in between; a number of an offer withdrawn
is refused saying so; a question asked before the bot was restarted is answered after the
restart and means what it meant (the sale is made, trading goes on)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bohnanza.core.actions import AcceptTrade, DeclineTrade, EndStep, Harvest
from bohnanza.core.state import Step

from .accounts import Account
from .players import Player, open_player
from .synapse import Homeserver
from .table import RunningBot, Table
from .test_adapter_games import seat_people


def numbered_lines(body: str) -> dict[str, str]:
    """A message's numbered choices: label by number."""
    out = {}
    for line in body.split("\n"):
        number, sep, label = line.partition(" · ")
        if sep and number.isdigit():
            out[number] = label
    return out


def number_of(body: str, label: str) -> str:
    found = [n for n, shown in numbered_lines(body).items() if shown.startswith(label)]
    assert found, f"no choice {label!r} in {body!r}"
    return found[0]


async def latest_list(table: Table, person: Player, game_id: str, having: str) -> str:
    """The body of the person's newest message of the game in his direct room, once it lists
    a choice starting with `having`."""
    direct = table.direct[person.user_id]

    def shows(body: str) -> bool:
        return body.startswith(f"Game {game_id}\n") and any(
            label.startswith(having) for label in numbered_lines(body).values()
        )

    await person.wait_for_message(lambda m: m.room_id == direct and shows(m.body))
    bodies = [
        m.body
        for m in person.messages(direct)
        if m.sender == table.running.user_id and m.body.startswith(f"Game {game_id}\n")
    ]
    assert shows(bodies[-1]), bodies[-1]
    return bodies[-1]


async def trading(table: Table, ann: Player, game_id: str) -> None:
    """Ann, on turn, plants her first card and trades."""
    direct = table.direct[ann.user_id]
    await table.say(ann, "plant 1", direct)
    await table.say(ann, "done", direct)
    session = table.session()
    assert session is not None and session.state.step is Step.TRADE


async def test_another_s_offer_leaves_his_numbers_to_their_choices_on_matrix(
    synapse: Homeserver, new_account: Callable[[str], Account], tmp_path: Path
) -> None:
    running = await RunningBot(synapse, new_account("beanbot"), tmp_path, seed=4).start()
    async with (
        open_player(synapse, new_account("ann")) as ann,
        open_player(synapse, new_account("bob")) as bob,
    ):
        room = await seat_people(ann, [bob], running.user_id)
        table = Table(running, room, [ann, bob], seed=4)
        game_id = await table.gather([ann, bob, "bot"])
        await trading(table, ann, game_id)
        seen = await latest_list(table, bob, game_id, "No trade")
        no_trade = number_of(seen, "No trade")
        direct = table.direct[bob.user_id]
        # Meanwhile Ann offers Bob a card: Accept and Decline come as new numbers.
        await table.say(ann, "offer 2 1", table.direct[ann.user_id])
        now = await latest_list(table, bob, game_id, "Accept #")
        assert numbered_lines(now)[no_trade] == "No trade"
        accept = number_of(now, "Accept #")
        assert accept not in numbered_lines(seen)
        # He asks for something else first: nothing new is sent to him.
        await table.say(bob, "help", direct)

        await table.say(bob, no_trade, direct)

        session = table.session()
        assert session is not None
        assert session.seats[1].passed is not None
        assert not any(isinstance(a, AcceptTrade) for a in session.game.actions)
        # His pass declined the offer to him: its number is refused saying so, with his list.
        offer = numbered_lines(now)[accept].removeprefix("Accept #")
        declined = [a for a in session.game.actions if isinstance(a, DeclineTrade)]
        assert [(a.player, a.offer) for a in declined] == [(1, int(offer))]
        before = running.action_count(game_id)
        await table.say(bob, accept, direct)
        await bob.wait_for_message(
            lambda m: m.room_id == direct and f"Offer #{offer} was declined." in m.body
        )
        assert running.action_count(game_id) == before
    await running.stop()


async def test_a_question_asked_before_a_restart_of_the_bot_is_answered_after_it(
    synapse: Homeserver, new_account: Callable[[str], Account], tmp_path: Path
) -> None:
    bot_account = new_account("beanbot")
    first = await RunningBot(synapse, bot_account, tmp_path, seed=5).start()
    async with open_player(synapse, new_account("ann")) as ann:
        room = await seat_people(ann, [], first.user_id)
        table = Table(first, room, [ann], seed=5)
        game_id = await table.gather([ann, "bot", "bot"])
        await trading(table, ann, game_id)
        session = table.session()
        assert session is not None
        sale = next(a for a in session.legal(0).actions if isinstance(a, Harvest))
        direct = table.direct[ann.user_id]
        shown = await latest_list(table, ann, game_id, "Sell ")
        await table.say(ann, number_of(shown, "Sell "), direct)
        asked = await latest_list(table, ann, game_id, "Yes")
        assert "? It cannot be undone." in asked
        assert numbered_lines(asked) == {"1": "Yes", "2": "No"}
        before = first.action_count(game_id)
        await first.stop()

        second = await RunningBot(synapse, bot_account, tmp_path, seed=6).start()
        table.running = second
        await table.say(ann, "1", direct)

        # The sale is made (the bots may answer it with offers); trading is not ended.
        after_restart = second.store.load_record(game_id).actions[before:]
        assert after_restart[0] == sale
        assert not [a for a in after_restart if a.player == 0 and isinstance(a, EndStep)]
        after = table.session()
        assert after is not None and after.state.step is Step.TRADE  # trading goes on
    await second.stop()
