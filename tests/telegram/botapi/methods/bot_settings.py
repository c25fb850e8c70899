"""The bot's identity, its command menus, and what it may learn about chats."""

from __future__ import annotations

import json
import re
from typing import Any

from ..errors import bad_request
from ..params import Params
from ..world import World, chat_member
from .registry import api_method

JsonDict = dict[str, Any]

_COMMAND = re.compile(r"[a-z0-9_]{1,32}")
MAX_DESCRIPTION_LENGTH = 256
_SCOPES = {
    "default": (),
    "all_private_chats": (),
    "all_group_chats": (),
    "all_chat_administrators": (),
    "chat": ("chat_id",),
    "chat_administrators": ("chat_id",),
    "chat_member": ("chat_id", "user_id"),
}


@api_method("getMe")
async def get_me(world: World, params: Params) -> JsonDict:
    """The bot's own User object with its capabilities."""
    return {
        **world.bot.to_wire(),
        "can_join_groups": True,
        "can_read_all_group_messages": not world.privacy_mode,
        "supports_inline_queries": world.supports_inline_queries,
        "can_connect_to_business": False,
        "has_main_web_app": False,
    }


@api_method("setMyCommands")
async def set_my_commands(world: World, params: Params) -> bool:
    """Store the command menu for a scope and language."""
    commands = params.decoded("commands")
    if not isinstance(commands, list) or len(commands) > 100:
        raise bad_request("can't parse commands JSON object")
    for command in commands:
        if not isinstance(command, dict) or not _COMMAND.fullmatch(command.get("command", "")):
            raise bad_request("BOT_COMMAND_INVALID")
        description = command.get("description")
        if not isinstance(description, str) or not 1 <= len(description) <= MAX_DESCRIPTION_LENGTH:
            raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
    world.commands[_menu_key(params)] = [
        {"command": c["command"], "description": c["description"]} for c in commands
    ]
    return True


@api_method("getMyCommands")
async def get_my_commands(world: World, params: Params) -> list[JsonDict]:
    """The command menu stored for exactly this scope and language."""
    return world.commands.get(_menu_key(params), [])


@api_method("deleteMyCommands")
async def delete_my_commands(world: World, params: Params) -> bool:
    """Forget the command menu of a scope and language."""
    world.commands.pop(_menu_key(params), None)
    return True


@api_method("getChat")
async def get_chat(world: World, params: Params) -> JsonDict:
    """Full information about a chat the bot knows."""
    chat = world.find_chat(params.chat_id())
    return {
        **chat.to_wire(),
        "accent_color_id": 0,
        "max_reaction_count": 11,
        "accepted_gift_types": dict.fromkeys(
            (
                "unlimited_gifts",
                "limited_gifts",
                "unique_gifts",
                "premium_subscription",
                "gifts_from_channels",
            ),
            False,
        ),
    }


@api_method("getChatMember")
async def get_chat_member(world: World, params: Params) -> JsonDict:
    """One person's (or the bot's) membership in a chat."""
    chat = world.find_chat(params.chat_id())
    user_id = params.required_integer("user_id")
    if user_id == world.bot.id:
        return chat_member(world.bot, chat.bot_status)
    user = world.users.get(user_id)
    if user is None:
        raise bad_request("user not found")
    return chat_member(user.account, chat.members.get(user_id, "left"))


@api_method("getChatMemberCount")
async def get_chat_member_count(world: World, params: Params) -> int:
    """How many members a chat has, the bot included."""
    chat = world.find_chat(params.chat_id())
    people = sum(status != "left" for status in chat.members.values())
    return people + (chat.bot_status in ("member", "administrator"))


def _menu_key(params: Params) -> tuple[str, str]:
    scope = params.decoded("scope") or {"type": "default"}
    if not isinstance(scope, dict) or scope.get("type") not in _SCOPES:
        raise bad_request("can't parse BotCommandScope JSON object")
    fields = {"type": scope["type"], **{k: scope.get(k) for k in _SCOPES[scope["type"]]}}
    return json.dumps(fields, sort_keys=True), params.text("language_code", "") or ""
