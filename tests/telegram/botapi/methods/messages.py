"""Sending, editing and deleting messages, and chat actions."""

from __future__ import annotations

from typing import Any

from ..errors import NOT_MODIFIED, bad_request
from ..formatting import parse_text
from ..markup import require_inline, validate_reply_markup
from ..params import Params
from ..records import MessageVersion, StoredMessage
from ..world import World, now
from .registry import api_method

JsonDict = dict[str, Any]

CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)


@api_method("sendMessage")
async def send_message(world: World, params: Params) -> JsonDict:
    """Post a text message from the bot."""
    chat = world.find_chat(params.chat_id())
    world.check_bot_can_send(chat)
    text, entities = _text(params)
    markup = validate_reply_markup(params.decoded("reply_markup"))
    reply_to = replied_message(world, params, chat.id)
    message = world.post(
        chat, world.bot, text, entities=entities, reply_markup=markup, reply_to=reply_to
    )
    message.silent = params.flag("disable_notification")
    return message.to_wire()


@api_method("editMessageText")
async def edit_message_text(world: World, params: Params) -> JsonDict:
    """Replace a bot message's text; an omitted reply_markup removes the inline keyboard."""
    message = _editable(world, params)
    text, entities = _text(params)
    markup = require_inline(validate_reply_markup(params.decoded("reply_markup")))
    _apply_edit(world, message, text, entities, markup)
    return message.to_wire()


@api_method("editMessageReplyMarkup")
async def edit_message_reply_markup(world: World, params: Params) -> JsonDict:
    """Replace (or, if omitted, remove) a bot message's inline keyboard."""
    message = _editable(world, params)
    markup = require_inline(validate_reply_markup(params.decoded("reply_markup")))
    _apply_edit(world, message, message.text, message.entities, markup)
    return message.to_wire()


@api_method("deleteMessage")
async def delete_message(world: World, params: Params) -> bool:
    """Delete a message the bot may delete."""
    chat = world.find_chat(params.chat_id())
    message = chat.message(params.required_integer("message_id"))
    if message is None or message.deleted:
        raise bad_request("message to delete not found")
    others_allowed = chat.type == "private" or chat.bot_status == "administrator"
    if not message.from_bot and not others_allowed:
        raise bad_request("message can't be deleted")
    message.deleted = True
    world.notify()
    return True


@api_method("sendChatAction")
async def send_chat_action(world: World, params: Params) -> bool:
    """Show "typing…" or a similar status in a chat."""
    chat = world.find_chat(params.chat_id())
    world.check_bot_can_send(chat)
    action = params.required_text("action")
    if action not in CHAT_ACTIONS:
        raise bad_request("wrong parameter action in request")
    chat.actions.append(action)
    return True


def _text(params: Params) -> tuple[str, list[JsonDict]]:
    text = params.required_text("text", "message text is empty")
    entities = params.decoded("entities")
    return parse_text(text, params.text("parse_mode"), entities)


def replied_message(world: World, params: Params, chat_id: int) -> StoredMessage | None:
    reply = params.decoded("reply_parameters") or {}
    if not reply and params.has("reply_to_message_id"):
        reply = {
            "message_id": params.integer("reply_to_message_id"),
            "allow_sending_without_reply": params.flag("allow_sending_without_reply"),
        }
    if not reply:
        return None
    chat = world.find_chat(reply.get("chat_id", chat_id))
    message = chat.message(int(reply.get("message_id", 0)))
    if message is not None and not message.deleted:
        return message
    if reply.get("allow_sending_without_reply"):
        return None
    raise bad_request("message to be replied not found")


def _editable(world: World, params: Params) -> StoredMessage:
    if params.has("inline_message_id"):
        raise bad_request("MESSAGE_ID_INVALID")
    chat = world.find_chat(params.chat_id())
    message = chat.message(params.required_integer("message_id"))
    if message is None or message.deleted:
        raise bad_request("message to edit not found")
    if not message.from_bot or message.text is None:
        raise bad_request("message can't be edited")
    return message


def _apply_edit(
    world: World,
    message: StoredMessage,
    text: str | None,
    entities: list[JsonDict],
    markup: JsonDict | None,
) -> None:
    old_markup = message.reply_markup if message.inline_keyboard else None
    if (text, entities, markup) == (message.text, message.entities, old_markup):
        raise bad_request(NOT_MODIFIED)
    message.versions.append(
        MessageVersion(message.text, message.entities, message.reply_markup, message.edit_date)
    )
    message.text, message.entities, message.reply_markup = text, entities, markup
    message.edit_date = now()
    world.notify()
