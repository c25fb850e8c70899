"""Message text as the real API stores it: HTML parsed into entities, commands detected.

Entity offsets and lengths count UTF-16 code units, as the Bot API does.
"""

from __future__ import annotations

import html
import re
from typing import Any

from .errors import bad_request

JsonDict = dict[str, Any]

MAX_TEXT_LENGTH = 4096

# Tag name -> entity type, for the HTML subset the Bot API documents.
_SIMPLE_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "code": "code",
    "pre": "pre",
}
_OTHER_TAGS = {"a", "span", "blockquote", "tg-emoji", "tg-time"}

_TOKEN = re.compile(r"<(/?)([a-zA-Z][\w-]*)?([^<>]*)>|&(#\d+|#x[0-9a-fA-F]+|lt|gt|amp|quot);|<")
_ATTRIBUTE = re.compile(r"([\w-]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'>]+))")
_AUTO_ENTITIES = (
    ("bot_command", re.compile(r"(?<![\w/])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![\w/@])")),
    ("mention", re.compile(r"(?<![\w@])@[A-Za-z0-9_]{4,32}(?![\w@])")),
    ("url", re.compile(r"(?<!\w)https?://[^\s<>\"]+")),
    ("hashtag", re.compile(r"(?<![\w#])#\w*[A-Za-z_]\w*")),
)


def utf16_length(text: str) -> int:
    """Length in UTF-16 code units, the unit of Bot API offsets and limits."""
    return len(text.encode("utf-16-le")) // 2


def utf16_slice(text: str, offset: int, length: int) -> str:
    """The substring an entity with this UTF-16 offset and length covers."""
    units = text.encode("utf-16-le")
    return units[offset * 2 : (offset + length) * 2].decode("utf-16-le")


def detect_entities(text: str) -> list[JsonDict]:
    """Entities the server finds by itself: commands, mentions, links and hashtags."""
    found: list[JsonDict] = []
    for kind, pattern in _AUTO_ENTITIES:
        for match in pattern.finditer(text):
            found.append(
                {
                    "offset": utf16_length(text[: match.start()]),
                    "length": utf16_length(match.group()),
                    "type": kind,
                }
            )
    return found


def parse_text(
    text: str, parse_mode: str | None, entities: list[JsonDict] | None = None
) -> tuple[str, list[JsonDict]]:
    """The stored text and entities of a message, or a 400 error like the real API's."""
    mode = (parse_mode or "").lower()
    if mode == "html":
        plain, explicit = _parse_html(text)
    elif mode in ("", "markdown", "markdownv2"):
        # Markdown is accepted without parsing; the text is stored as sent.
        plain, explicit = text, list(entities or [])
    else:
        raise bad_request(f"unsupported parse_mode {parse_mode}")
    if not plain.strip():
        raise bad_request("message text is empty")
    if utf16_length(plain) > MAX_TEXT_LENGTH:
        raise bad_request("message is too long")
    return plain, _merge(explicit, detect_entities(plain))


def _merge(explicit: list[JsonDict], automatic: list[JsonDict]) -> list[JsonDict]:
    """Explicit entities win; automatic ones are kept where they overlap none of them."""

    def overlaps(a: JsonDict, b: JsonDict) -> bool:
        return bool(
            a["offset"] < b["offset"] + b["length"] and b["offset"] < a["offset"] + a["length"]
        )

    merged = list(explicit)
    merged += [a for a in automatic if not any(overlaps(a, e) for e in explicit)]
    return sorted(merged, key=lambda e: (e["offset"], -e["length"]))


def _parse_html(source: str) -> tuple[str, list[JsonDict]]:
    """Strip the supported tags into entities; refuse unsupported or unbalanced tags."""
    parts: list[str] = []
    length = 0  # UTF-16 length of the plain text so far
    stack: list[tuple[str, int, JsonDict]] = []
    entities: list[JsonDict] = []
    position = 0
    for match in _TOKEN.finditer(source):
        chunk = source[position : match.start()]
        parts.append(chunk)
        length += utf16_length(chunk)
        position = match.end()
        byte_offset = len(source[: match.start()].encode())
        closing, name, attributes, escape = match.groups()
        if escape is not None:
            char = html.unescape(f"&{escape};")
            parts.append(char)
            length += utf16_length(char)
        elif name is None:
            raise bad_request(
                f'can\'t parse entities: Unsupported start tag "" at byte offset {byte_offset}'
            )
        elif closing:
            _close(stack, name.lower(), byte_offset, length, entities)
        else:
            stack.append((name.lower(), length, _open(name.lower(), attributes, byte_offset)))
    tail = source[position:]
    parts.append(tail)
    if stack:
        raise bad_request(
            "can't parse entities: Can't find end tag corresponding to start tag "
            f'"{stack[-1][0]}"'
        )
    return "".join(parts), entities


def _open(name: str, attributes: str, byte_offset: int) -> JsonDict:
    """The entity a start tag opens, before its extent is known."""
    attrs = {
        m.group(1).lower(): m.group(2) or m.group(3) or m.group(4) or ""
        for m in _ATTRIBUTE.finditer(attributes)
    }
    if name in _SIMPLE_TAGS:
        return {"type": _SIMPLE_TAGS[name]}
    if name == "a" and attrs.get("href"):
        return {"type": "text_link", "url": attrs["href"]}
    if name == "span" and attrs.get("class") == "tg-spoiler":
        return {"type": "spoiler"}
    if name == "blockquote":
        expandable = "expandable" in attributes.split()
        return {"type": "expandable_blockquote" if expandable else "blockquote"}
    if name == "tg-emoji" and attrs.get("emoji-id"):
        return {"type": "custom_emoji", "custom_emoji_id": attrs["emoji-id"]}
    if name in _OTHER_TAGS:
        return {}
    raise bad_request(
        f'can\'t parse entities: Unsupported start tag "{name}" at byte offset {byte_offset}'
    )


def _close(
    stack: list[tuple[str, int, JsonDict]],
    name: str,
    byte_offset: int,
    length: int,
    entities: list[JsonDict],
) -> None:
    """Finish the innermost open tag, which must be the one being closed."""
    if not stack or stack[-1][0] != name:
        expected = f'expected "</{stack[-1][0]}>", ' if stack else ""
        raise bad_request(
            f"can't parse entities: Unmatched end tag at byte offset {byte_offset}, "
            f'{expected}found "</{name}>"'
        )
    _, start, entity = stack.pop()
    if entity and length > start:
        entities.append({"offset": start, "length": length - start, **entity})
