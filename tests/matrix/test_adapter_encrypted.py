"""An encrypted room: the bot, with end-to-end encryption and its key store in its state folder,
serves a game there; a message it cannot decrypt gets a plain answer, once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bohnanza.adapters.matrix.bot import UNDECRYPTABLE_NOTICE
from bohnanza.core.audit import audit_game

from .accounts import Account
from .players import open_player
from .synapse import Homeserver
from .table import RunningBot, Table, everything_received, hand_leaks

MOVES = 20


async def test_the_bot_serves_a_lobby_and_a_game_in_an_encrypted_room(
    synapse: Homeserver,
    new_account: Callable[[str], Account],
    crypto_store: Callable[[Account], Path],
    tmp_path: Path,
) -> None:
    ann_account, bob_account = new_account("ann"), new_account("bob")
    running = await RunningBot(synapse, new_account("beanbot"), tmp_path, seed=21).start()
    async with (
        open_player(synapse, ann_account, store_dir=crypto_store(ann_account)) as ann,
        open_player(synapse, bob_account, store_dir=crypto_store(bob_account)) as bob,
    ):
        room = await ann.create_room(invite=[running.user_id, bob.user_id], encrypted=True)
        await bob.wait_for_invite(room)
        await bob.join(room)
        await ann.wait_for_member(room, running.user_id)
        table = Table(running, room, [ann, bob], seed=21)
        for person, command in [
            (ann, "new"),
            (bob, "join"),
            (bob, "leave"),
            (ann, "bot"),
            (ann, "set deadline off"),
            (ann, "start"),
        ]:
            await table.say(person, f"!bean {command}")
        session = table.session()
        assert session is not None
        game_id = session.game_id
        await table.join_direct_rooms()
        await table.play(stop_after=MOVES)
        table_shown = await ann.wait_for_message(
            lambda m: m.room_id == room and m.body.startswith(f"Game {game_id}")
        )
        received = {p.user_id: await everything_received(p) for p in (ann, bob)}
    await running.stop()

    assert table_shown.encrypted and table_shown.sender == running.user_id
    assert table.moves == MOVES and running.people_actions(game_id) == MOVES
    assert running.bot.client.olm is not None
    assert (
        running.settings.state_dir / f"{running.user_id}_{running.bot.client.device_id}.db"
    ).exists()
    from_bot = [
        e for e in received[ann.user_id] if e.room_id == room and e.sender == running.user_id
    ]
    assert from_bot and all(e.encrypted for e in from_bot if e.type == "m.room.message")
    assert ann.undecryptable == [] and bob.undecryptable == []
    assert audit_game(running.store.load_stored(game_id)) is None
    assert hand_leaks(running.user_id, table.direct, received) == []


async def test_a_message_the_bot_cannot_decrypt_is_answered_plainly_once(
    synapse: Homeserver,
    new_account: Callable[[str], Account],
    crypto_store: Callable[[Account], Path],
    tmp_path: Path,
) -> None:
    ann_account = new_account("ann")
    running = await RunningBot(synapse, new_account("beanbot"), tmp_path).start()
    bot = running.bot.client
    async with open_player(synapse, ann_account, store_dir=crypto_store(ann_account)) as ann:
        room = await ann.create_room(invite=[running.user_id], encrypted=True)
        await ann.wait_for_member(room, running.user_id)
        await ann.sync()
        # Ann's client keeps its keys from the bot's device, as one that blocks unverified
        # devices would.
        ann.client.blacklist_device(ann.client.device_store[bot.user_id][bot.device_id])
        first = await ann.send_text(room, "!bean new")
        await running.passed_over(first)
        second = await ann.send_text(room, "!bean new")
        await running.passed_over(second)
        await ann.sync()
        notices = [
            m
            for m in ann.messages(room)
            if m.sender == running.user_id and not m.body.startswith("Hello! I run games")
        ]
    await running.stop()

    assert [m.body for m in notices] == [UNDECRYPTABLE_NOTICE]
    assert notices[0].encrypted
    assert running.handled[first] == running.handled[second] == 0
    assert room not in running.bot.service.lobbies
