"""Sending files: documents, uploaded in a multipart body or named by the id of a sent one."""

from __future__ import annotations

import mimetypes
from typing import Any

from ..errors import bad_request
from ..formatting import parse_text, utf16_length
from ..markup import validate_reply_markup
from ..params import Params
from ..records import StoredFile, Upload
from ..world import World
from .messages import replied_message
from .registry import api_method

JsonDict = dict[str, Any]

MAX_CAPTION_LENGTH = 1024
GENERIC_TYPE = "application/octet-stream"


@api_method("sendDocument")
async def send_document(world: World, params: Params) -> JsonDict:
    """Post a file from the bot, with an optional caption."""
    chat = world.find_chat(params.chat_id())
    world.check_bot_can_send(chat)
    caption, entities = _caption(params)
    markup = validate_reply_markup(params.decoded("reply_markup"))
    reply_to = replied_message(world, params, chat.id)
    # Checked last: a refused call keeps no file.
    document = _document(world, params)
    message = world.post(chat, world.bot, None, reply_markup=markup, reply_to=reply_to)
    message.document, message.caption, message.caption_entities = document, caption, entities
    return message.to_wire()


def _document(world: World, params: Params) -> StoredFile:
    """The file sent: a new upload, or one sent before, named by its file_id."""
    upload = params.upload("document")
    if upload is not None:
        if not upload.data:
            raise bad_request("file must be non-empty")
        return world.store_file(upload, mime_type(upload))
    named = params.text("document")
    if not named:
        raise bad_request("there is no document in the request")
    known = world.files.get(named)
    if known is None:
        raise bad_request("wrong file identifier/HTTP URL specified")
    return known


def mime_type(upload: Upload) -> str:
    """The type Telegram gives a file: the one it was sent with, or else its name's."""
    if upload.content_type and upload.content_type != GENERIC_TYPE:
        return upload.content_type
    guessed, _ = mimetypes.guess_type(upload.filename)
    return guessed or GENERIC_TYPE


def _caption(params: Params) -> tuple[str | None, list[JsonDict]]:
    caption = params.text("caption")
    if not caption:
        return None, []
    text, entities = parse_text(
        caption, params.text("parse_mode"), params.decoded("caption_entities")
    )
    if utf16_length(text) > MAX_CAPTION_LENGTH:
        raise bad_request("message caption is too long")
    return text, entities
