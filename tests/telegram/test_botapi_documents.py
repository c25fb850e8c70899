"""The simulated Bot API takes documents as the real one does: a multipart upload (or a file_id
of a document sent before), a caption, and a Message with a `document` back."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import pytest

from .botapi import BotApiServer, World
from .botapi.ptb import run

pytestmark = pytest.mark.server  # the local Bot API server

JsonDict = dict[str, Any]
Post = Callable[[str, aiohttp.FormData | dict[str, str]], Awaitable[tuple[int, JsonDict]]]
PAGE = "<!DOCTYPE html><p>Bohnen · ☕</p>".encode()


def with_poster(botapi: BotApiServer, body: Callable[[Post], Awaitable[None]]) -> None:
    """Run `body` with a `post(method, data)` that sends a form or a multipart body."""

    async def scenario() -> None:
        async with botapi, aiohttp.ClientSession() as session:

            async def post(
                method: str, data: aiohttp.FormData | dict[str, str]
            ) -> tuple[int, JsonDict]:
                async with session.post(botapi.method_url(method), data=data) as response:
                    return response.status, await response.json()

            await body(post)

    run(scenario())


def upload(
    chat_id: int, *, name: str = "page.html", data: bytes = PAGE, **fields: str
) -> aiohttp.FormData:
    form = aiohttp.FormData({"chat_id": str(chat_id), **fields})
    form.add_field("document", data, filename=name, content_type="text/html")
    return form


def test_an_uploaded_document_is_kept_and_returned_as_a_message(
    world: World, botapi: BotApiServer
) -> None:
    ann = world.create_user("Ann")
    group = world.create_group("Bean table", [ann])
    world.add_bot(group, by=ann)

    async def body(post: Post) -> None:
        status, answer = await post("sendDocument", upload(group.id, caption="<b>All</b> of it"))
        assert status == 200, answer
        message = answer["result"]
        assert message["chat"]["id"] == group.id and "text" not in message
        assert message["caption"] == "<b>All</b> of it"
        document = message["document"]
        assert document["file_name"] == "page.html"
        assert document["mime_type"] == "text/html"
        assert document["file_size"] == len(PAGE)
        assert document["file_id"] and document["file_unique_id"]

    with_poster(botapi, body)
    (shown,) = group.bot_documents
    assert shown.document is not None and shown.document.data == PAGE
    assert world.files[shown.document.file_id] is shown.document
    assert world.calls[-1].params["document"] == "<file page.html>"


def test_a_caption_may_be_html_and_a_document_sent_again_by_its_file_id(
    world: World, botapi: BotApiServer
) -> None:
    ann = world.create_user("Ann")
    ann.start_bot()

    async def body(post: Post) -> None:
        form = upload(ann.id, caption="<b>All</b> of it", parse_mode="HTML")
        _, first = await post("sendDocument", form)
        assert first["result"]["caption"] == "All of it"
        assert first["result"]["caption_entities"] == [{"offset": 0, "length": 3, "type": "bold"}]
        file_id = first["result"]["document"]["file_id"]
        status, again = await post("sendDocument", {"chat_id": str(ann.id), "document": file_id})
        assert status == 200, again
        assert again["result"]["document"] == first["result"]["document"]
        assert "caption" not in again["result"]

    with_poster(botapi, body)
    assert [m.document.data for m in ann.private_chat.bot_documents if m.document] == [PAGE] * 2


def test_a_document_attached_under_another_name_is_found(
    world: World, botapi: BotApiServer
) -> None:
    ann = world.create_user("Ann")
    ann.start_bot()

    async def body(post: Post) -> None:
        form = aiohttp.FormData({"chat_id": str(ann.id), "document": "attach://page"})
        form.add_field("page", PAGE, filename="game.html", content_type="text/html")
        status, answer = await post("sendDocument", form)
        assert status == 200, answer
        assert answer["result"]["document"]["file_name"] == "game.html"

    with_poster(botapi, body)


def test_a_missing_empty_unknown_or_overlong_document_is_refused(
    world: World, botapi: BotApiServer
) -> None:
    ann = world.create_user("Ann")
    ann.start_bot()
    stranger = world.create_user("Cat")

    async def body(post: Post) -> None:
        refusals: list[tuple[aiohttp.FormData | dict[str, str], int, str]] = [
            (
                {"chat_id": str(ann.id)},
                400,
                "Bad Request: there is no document in the request",
            ),
            (upload(ann.id, data=b""), 400, "Bad Request: file must be non-empty"),
            (
                {"chat_id": str(ann.id), "document": "BQACnothing"},
                400,
                "Bad Request: wrong file identifier/HTTP URL specified",
            ),
            (upload(ann.id, caption="x" * 1025), 400, "Bad Request: message caption is too long"),
            (
                upload(stranger.id),
                403,
                "Forbidden: bot can't initiate conversation with a user",
            ),
        ]
        for data, code, description in refusals:
            status, answer = await post("sendDocument", data)
            assert (status, answer["description"]) == (code, description)

    with_poster(botapi, body)
    assert ann.private_chat.bot_documents == []
    assert world.files == {}
