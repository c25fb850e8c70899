"""At the end of a game on Telegram the group gets the game's page as one document, after the
result, captioned in the group's language; the page shows the final scores and no hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from bohnanza.adapters.telegram import TelegramPort, build_application
from bohnanza.core.ports import FINISHED
from bohnanza.core.record import GameRecord

from ..page.pages import embedded
from .botapi import BotApiServer, Chat, StoredMessage, World
from .botapi.ptb import run
from .table import Players, RunningBot, hand_leaks, settings_for, translators, unthrottled

pytestmark = pytest.mark.server  # the local Bot API server

CAPTION = "The whole game to step through in a browser."


def assert_spectators_page(page: bytes, record: GameRecord, language: str) -> None:
    """The page of the finished game: its language, the record's scores, nobody's hand."""
    assert page.startswith(b"<!DOCTYPE html>")
    assert f'<html lang="{language}">' in page.decode("utf-8")
    data = embedded(page)
    assert record.result is not None
    assert {seat: score for seat, score, _ in data["result"]["scores"]} == dict(
        enumerate(record.result.scores)
    )
    assert data["viewer"] is None
    assert len(data["steps"]) == len(record.actions) + 1
    assert all("h" not in moment for moment in data["steps"])


def the_document(group: Chat, game_id: str) -> StoredMessage:
    """The group's one document, which follows the result."""
    (document,) = group.bot_documents
    assert document.document is not None
    texts = [m for m in group.bot_messages if m.text is not None]
    result = next(m for m in texts if m.text and m.text.startswith(f"Game {game_id} is over."))
    assert result.message_id < document.message_id
    return document


def test_the_group_gets_the_finished_games_page_as_one_document(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    people = [world.create_user("Ann"), world.create_user("Bob")]
    group = world.create_group("Bean table", people)
    world.add_bot(group, by=people[0])

    async def scenario() -> tuple[RunningBot, str]:
        async with botapi, RunningBot(botapi, tmp_path / "games.db", seed=4) as running:
            for person in people:
                person.start_bot()
            await world.settle()
            players = Players(running, group, people, seed=4)
            game_id = await players.gather(["Ann", "bot", "Bob", "bot:random"])
            await players.play()
            await world.settle()
            return running, game_id

    running, game_id = run(scenario())

    summary = next(s for s in running.store.list_games() if s.game_id == game_id)
    assert summary.status == FINISHED
    message = the_document(group, game_id)
    document = message.document
    assert document is not None
    assert document.file_name == f"bohnanza-{game_id}.html"
    assert document.mime_type == "text/html"
    assert message.caption == CAPTION
    assert_spectators_page(document.data, running.store.load_record(game_id), "en")
    assert [c.method for c in world.calls if c.method == "sendDocument"] == ["sendDocument"]
    assert all(not p.private_chat.bot_documents for p in people)
    assert hand_leaks(world, group, people) == []
    assert [(c.method, c.description) for c in world.calls if c.status != 200] == []


def test_the_page_and_its_caption_speak_the_groups_language(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    ann = world.create_user("Ann")
    group = world.create_group("Bohnentisch", [ann])
    world.add_bot(group, by=ann)

    async def scenario() -> tuple[RunningBot, str]:
        async with botapi, RunningBot(botapi, tmp_path / "games.db", seed=6) as running:
            ann.start_bot()
            await world.settle()
            players = Players(running, group, [ann], seed=6)
            for command in ("/new", "/bot", "/set deadline off", "/set lang de", "/start"):
                await players.say(ann, command, group)
            session = players.session()
            assert session is not None and session.language == "de"
            await players.play()
            await world.settle()
            return running, session.game_id

    running, game_id = run(scenario())

    (message,) = group.bot_documents
    assert message.document is not None
    assert message.document.file_name == f"bohnanza-{game_id}.html"
    assert message.caption == translators()["de"].gettext(CAPTION)
    assert_spectators_page(message.document.data, running.store.load_record(game_id), "de")


def test_the_port_sends_a_file_as_a_document_with_its_caption(
    world: World, botapi: BotApiServer
) -> None:
    ann = world.create_user("Ann")
    group = world.create_group("Bean table", [ann])
    world.add_bot(group, by=ann)
    page = "<!DOCTYPE html><title>Bohnen · ☕</title>".encode()

    async def scenario() -> str:
        async with botapi:
            application = build_application(settings_for(botapi), unthrottled())
            await application.initialize()
            try:
                port = TelegramPort(application.bot)
                assert port.capabilities.files
                return await port.send_file(group_id(group), "bohnanza-X1.html", page, "Ready")
            finally:
                await application.shutdown()

    message_id = run(scenario())

    (message,) = group.bot_documents
    assert str(message.message_id) == message_id
    assert message.document is not None
    assert (message.document.file_name, message.document.data) == ("bohnanza-X1.html", page)
    assert message.document.mime_type == "text/html"
    assert message.caption == "Ready" and message.text is None


def group_id(group: Chat) -> str:
    return str(group.id)
