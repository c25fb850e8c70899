"""At the end of a game the room gets the game's page as a file, once, after the result; a
restart, a heal or a failed upload never sends it again, nor holds back the room."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from bohnanza.adapters.runner import page_filename
from bohnanza.core.app.messages import GamePage

from ..page.pages import embedded
from .recording import BUTTONS_AND_EDITS, People, RecordingPort, Table

FILES = replace(BUTTONS_AND_EDITS, files=True)
CAPTION = "The whole game to step through in a browser."


class FailingFilesPort(RecordingPort):
    """A platform that takes files, whose every upload fails."""

    def __init__(self) -> None:
        super().__init__(FILES)
        self.file_tries = 0

    async def send_file(self, room: str, filename: str, data: bytes, caption: str) -> str:
        self.file_tries += 1
        raise ConnectionError("the upload failed")


def played(tmp_path: Path, port: RecordingPort, seats: list[str], seed: int = 3) -> Table:
    """The room's game played to its end on this port; the table, and the game id as g1's."""
    table = Table.open(tmp_path / "games.db", seed=seed, port=port)
    table.runner.outboxes.retry_delays = (0.01, 0.01)
    people = People(table, seed=seed)

    async def scenario() -> None:
        await people.gather("g1", seats)
        await people.play(["g1"])

    asyncio.run(scenario())
    return table


def only_game(table: Table) -> str:
    (summary,) = table.store.list_games()
    return summary.game_id


@pytest.mark.slow
def test_the_room_gets_the_finished_games_page_once_after_the_result(tmp_path: Path) -> None:
    table = played(tmp_path, RecordingPort(FILES), ["ann", "bot", "bob"])
    game_id = only_game(table)

    (sent,) = table.port.files["g1"]
    assert sent.filename == page_filename(game_id) == f"bohnanza-{game_id}.html"
    assert sent.caption == CAPTION
    result = table.port.rooms["g1"][-1]
    assert result.text.startswith(f"Game {game_id} is over.")
    assert int(sent.id) > int(result.id)
    page = embedded(sent.data)
    record = table.store.load_record(game_id)
    assert record.result is not None
    assert {seat: score for seat, score, _ in page["result"]["scores"]} == dict(
        enumerate(record.result.scores)
    )
    assert page["viewer"] is None
    assert all("h" not in moment for moment in page["steps"])
    assert table.port.files.keys() == {"g1"}


def test_the_page_speaks_the_rooms_language(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db", seed=4, port=RecordingPort(FILES))
    people = People(table, seed=4)

    async def scenario() -> None:
        await people.gather("g1", ["ann", "bot"], options=("set deadline off", "set lang de"))
        await people.play(["g1"])

    asyncio.run(scenario())
    (sent,) = table.port.files["g1"]
    assert '<html lang="de">' in sent.data.decode("utf-8")
    assert sent.caption == table.service.translator("de").gettext(CAPTION)


def test_a_platform_without_files_gets_no_page(tmp_path: Path) -> None:
    table = played(tmp_path, RecordingPort(BUTTONS_AND_EDITS), ["ann", "bot"])
    assert table.port.files == {}
    assert table.port.last_room_text("g1").startswith(f"Game {only_game(table)} is over.")


def test_a_restart_and_a_heal_after_the_end_send_no_page_again(tmp_path: Path) -> None:
    table = played(tmp_path, RecordingPort(FILES), ["ann", "bot"])
    shown = len(table.port.rooms["g1"])
    fresh = table.restarted()

    async def restart_and_heal() -> list[object]:
        await fresh.runner.start()
        out = fresh.service.views() + fresh.service.views("g1")
        await fresh.runner.post(out)
        await fresh.runner.tick()
        await fresh.runner.drain(5.0)
        return list(out)

    out = asyncio.run(restart_and_heal())
    assert not any(isinstance(item, GamePage) for item in out)
    assert len(table.port.files["g1"]) == 1
    assert len(table.port.rooms["g1"]) == shown


def test_a_page_that_cannot_be_sent_is_retried_then_left_and_the_room_goes_on(
    tmp_path: Path,
) -> None:
    port = FailingFilesPort()
    table = played(tmp_path, port, ["ann", "bot"])
    game_id = only_game(table)
    assert port.file_tries == 1 + len(table.runner.outboxes.retry_delays)
    assert table.port.last_room_text("g1").startswith(f"Game {game_id} is over.")

    people = People(table, seed=8)

    async def next_game() -> str:
        await table.runner.tick()
        return await people.gather("g1", ["ann", "bot"])

    second = asyncio.run(next_game())
    assert second != game_id
    assert port.file_tries == 1 + len(table.runner.outboxes.retry_delays)
    assert table.port.last_room_text("g1").startswith(f"Bohnanza · game {second}")
