"""What addresses a message to the bot in a room: a prefix or the bot's name, the same rule
for every platform."""

from __future__ import annotations

from collections.abc import Sequence


def command_text(
    text: str, prefixes: Sequence[str], bot_names: Sequence[str] = (), private: bool = False
) -> str | None:
    """The command in a message, without what addresses it to the bot; None when the message
    is not for the bot.

    In a room only what starts with a prefix (`!join`, `!bean join`, `/join@BeanBot` naming
    this bot after `@`) or with the bot's name (`BeanBot: join`) is read: people talk there
    too. A word prefix alone (`!bean`) asks for help. In a private chat every message is a
    command (a prefix is allowed there too)."""
    said = text.strip()
    names = [name.casefold() for name in bot_names if name]
    for prefix in prefixes:
        if not prefix or not said.casefold().startswith(prefix.casefold()):
            continue
        rest = said[len(prefix) :]
        word = prefix[-1].isalnum()
        if word and rest and not rest[0].isspace():
            continue  # '!beans' is not '!bean'
        verb, _, args = rest.strip().partition(" ")
        at = verb.rfind("@")
        if at > 0:
            if verb[at + 1 :].casefold() not in names:
                return None  # meant for another bot
            verb = verb[:at]
        command = f"{verb} {args}".strip()
        return command or ("help" if word else None)
    head, sep, rest = said.partition(" ")
    if sep and head[-1:] in (":", ",") and head[:-1].casefold() in names:
        return rest.strip() or None
    return said if private and said else None
