"""The harness itself: real clients on a real Synapse do what adapter tests will rely on."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .accounts import Account
from .messages import ReceivedMessage
from .players import Player, open_player
from .synapse import Homeserver


def saying(text: str) -> Callable[[ReceivedMessage], bool]:
    return lambda message: message.body == text


async def invite_and_join(host: Player, guest: Player, *, encrypted: bool = False) -> str:
    room_id = await host.create_room(invite=[guest.user_id], encrypted=encrypted)
    await guest.wait_for_invite(room_id)
    await guest.join(room_id)
    return room_id


async def test_two_players_exchange_messages_in_an_invited_room(
    synapse: Homeserver, alice: Account, bob: Account
) -> None:
    async with open_player(synapse, alice) as host, open_player(synapse, bob) as guest:
        room_id = await invite_and_join(host, guest)
        await host.send_text(room_id, "Who wants to trade Blue Beans?")
        heard = await guest.wait_for_message(saying("Who wants to trade Blue Beans?"))
        await guest.send_text(room_id, "Me, for a Chili Bean")
        answer = await host.wait_for_message(saying("Me, for a Chili Bean"))

    assert (heard.sender, heard.room_id, heard.encrypted) == (alice.user_id, room_id, False)
    assert answer.sender == bob.user_id


async def test_an_edit_replaces_the_text_the_other_player_sees(
    synapse: Homeserver, alice: Account, bob: Account
) -> None:
    async with open_player(synapse, alice) as host, open_player(synapse, bob) as guest:
        room_id = await invite_and_join(host, guest)
        first = await host.send_text(room_id, "Your turn: plant")
        await guest.wait_for_message(saying("Your turn: plant"))
        mark = guest.checkpoint()
        await host.edit_text(room_id, first, "Your turn: trade")
        edited = await guest.wait_for_message(saying("Your turn: trade"), after=mark)

    assert edited.event_id == first
    assert edited.edited
    assert edited.original_body == "Your turn: plant"
    assert [m.body for m in guest.messages(room_id)] == ["Your turn: trade"]


async def test_a_direct_room_reaches_the_invitee_flagged_direct(
    synapse: Homeserver, alice: Account, bob: Account
) -> None:
    async with open_player(synapse, alice) as host, open_player(synapse, bob) as guest:
        room_id = await host.create_room(invite=[guest.user_id], direct=True)
        invite = await guest.wait_for_invite(room_id)
        await guest.join(room_id)
        await host.wait_for_member(room_id, bob.user_id)
        await host.send_text(room_id, "Your hand: Soy Bean, Stink Bean")
        private = await guest.wait_for_message(saying("Your hand: Soy Bean, Stink Bean"))
        direct_rooms = await host.client.list_direct_rooms()

    assert (invite.inviter, invite.is_direct) == (alice.user_id, True)
    assert private.room_id == room_id
    assert direct_rooms.rooms == {bob.user_id: [room_id]}


async def test_players_exchange_encrypted_messages(
    synapse: Homeserver, alice: Account, bob: Account, crypto_store: Callable[[Account], Path]
) -> None:
    async with (
        open_player(synapse, alice, store_dir=crypto_store(alice)) as host,
        open_player(synapse, bob, store_dir=crypto_store(bob)) as guest,
    ):
        room_id = await invite_and_join(host, guest, encrypted=True)
        first = await host.send_text(room_id, "Secret offer: two Red Beans")
        heard = await guest.wait_for_message(saying("Secret offer: two Red Beans"))
        await guest.send_text(room_id, "Accepted")
        answer = await host.wait_for_message(saying("Accepted"))
        await host.edit_text(room_id, first, "Secret offer: three Red Beans")
        edited = await guest.wait_for_message(saying("Secret offer: three Red Beans"))

    assert heard.encrypted and answer.encrypted and edited.encrypted
    assert edited.event_id == first
    assert guest.undecryptable == []


async def test_a_kept_sync_token_does_not_replay_old_messages_after_a_restart(
    synapse: Homeserver, alice: Account, bob: Account
) -> None:
    async with open_player(synapse, alice) as host, open_player(synapse, bob) as guest:
        room_id = await invite_and_join(host, guest)
        await host.send_text(room_id, "before the restart")
        await guest.wait_for_message(saying("before the restart"))
        token = guest.next_batch
        await host.send_text(room_id, "while away")

    async with open_player(synapse, bob, since=token) as restarted:
        await restarted.wait_for_message(saying("while away"))
        bodies = [m.body for m in restarted.messages(room_id)]

    assert bodies == ["while away"]


async def test_an_encrypted_player_restarted_from_its_token_still_talks(
    synapse: Homeserver, alice: Account, bob: Account, crypto_store: Callable[[Account], Path]
) -> None:
    host_store, guest_store = crypto_store(alice), crypto_store(bob)
    async with (
        open_player(synapse, alice, store_dir=host_store) as host,
        open_player(synapse, bob, store_dir=guest_store) as guest,
    ):
        room_id = await invite_and_join(host, guest, encrypted=True)
        await host.send_text(room_id, "before the restart")
        await guest.wait_for_message(saying("before the restart"))
        token = guest.next_batch

    async with (
        open_player(synapse, alice, store_dir=host_store) as host,
        open_player(synapse, bob, store_dir=guest_store, since=token) as guest,
    ):
        await host.send_text(room_id, "after the restart")
        heard = await guest.wait_for_message(saying("after the restart"))
        bodies = [m.body for m in guest.messages(room_id)]
        await guest.send_text(room_id, "still here")
        answer = await host.wait_for_message(saying("still here"))

    assert heard.encrypted and answer.encrypted
    assert bodies == ["after the restart"]
