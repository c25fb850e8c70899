"""At the end of a game on Matrix the room gets the game's page as one m.file event, after the
result: the file in the homeserver's media repository is the page (encrypted in an encrypted
room), its name `bohnanza-<game>.html` and the caption its body."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
from nio import DownloadResponse
from nio.crypto.attachments import decrypt_attachment

from bohnanza.core.ports import FINISHED

from ..page.pages import embedded
from .accounts import Account
from .messages import ReceivedMessage
from .players import Player, open_player
from .synapse import Homeserver
from .table import RunningBot, Seat, Table, room_history
from .test_adapter_games import seat_people

CAPTION = "The whole game to step through in a browser."
PAGE = "<!DOCTYPE html><p>Bohnen · ☕</p>".encode()


async def downloaded(person: Player, url: str) -> bytes:
    """The bytes of an mxc:// address, as the person's client fetches them."""
    response = await person.client.download(mxc=url)
    assert isinstance(response, DownloadResponse), response
    return bytes(response.body)


def is_file(room: str) -> Callable[[ReceivedMessage], bool]:
    return lambda m: m.room_id == room and m.msgtype == "m.file"


@pytest.mark.slow
async def test_the_room_gets_the_finished_games_page_as_one_file(
    synapse: Homeserver, new_account: Callable[[str], Account], tmp_path: Path
) -> None:
    running = await RunningBot(synapse, new_account("beanbot"), tmp_path, seed=3).start()
    async with AsyncExitStack() as stack:
        ann = await stack.enter_async_context(open_player(synapse, new_account("ann")))
        room = await seat_people(ann, [], running.user_id)
        table = Table(running, room, [ann], seed=3)
        seats: list[Seat] = [ann, "bot"]
        game_id = await table.gather(seats)
        await table.play()
        sent = await ann.wait_for_message(is_file(room))
        page = await downloaded(ann, str(sent.content["url"]))
        history = await room_history(ann, room)
    await running.stop()

    assert sent.sender == running.user_id
    assert sent.content["filename"] == f"bohnanza-{game_id}.html"
    assert sent.body == CAPTION
    assert sent.content["info"] == {"mimetype": "text/html", "size": len(page)}
    files = [e for e in history if e.content.get("msgtype") == "m.file"]
    assert [e.event_id for e in files] == [sent.event_id]
    bodies = [str(e.content.get("body", "")) for e in history if e.type == "m.room.message"]
    assert bodies[-1] == CAPTION
    assert bodies[-2].startswith(f"Game {game_id} is over.")

    summary = next(s for s in running.store.list_games() if s.game_id == game_id)
    assert summary.status == FINISHED
    record = running.store.load_record(game_id)
    assert record.result is not None
    data = embedded(page)
    assert {seat: score for seat, score, _ in data["result"]["scores"]} == dict(
        enumerate(record.result.scores)
    )
    assert data["viewer"] is None
    assert all("h" not in moment for moment in data["steps"])


async def test_in_an_encrypted_room_the_file_is_encrypted_and_its_keys_sent_with_it(
    synapse: Homeserver,
    new_account: Callable[[str], Account],
    crypto_store: Callable[[Account], Path],
    tmp_path: Path,
) -> None:
    running = await RunningBot(synapse, new_account("beanbot"), tmp_path, seed=4).start()
    account = new_account("ann")
    async with open_player(synapse, account, store_dir=crypto_store(account)) as ann:
        room = await ann.create_room(invite=[running.user_id], encrypted=True)
        await ann.wait_for_member(room, running.user_id)
        event_id = await running.bot.port.send_file(room, "bohnanza-X1.html", PAGE, "Ready")
        sent = await ann.wait_for_message(is_file(room))
        secret = sent.content["file"]
        stored = await downloaded(ann, str(secret["url"]))
    await running.stop()

    assert sent.event_id == event_id and sent.encrypted
    assert "url" not in sent.content
    assert (sent.body, sent.content["filename"]) == ("Ready", "bohnanza-X1.html")
    assert stored != PAGE
    page = decrypt_attachment(stored, secret["key"]["k"], secret["hashes"]["sha256"], secret["iv"])
    assert page == PAGE
