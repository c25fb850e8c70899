"""Checks on reply_markup as the real API applies them, e.g. 64 bytes of callback_data."""

from __future__ import annotations

from typing import Any

from .errors import bad_request

JsonDict = dict[str, Any]

MAX_CALLBACK_DATA_BYTES = 64
MAX_INLINE_BUTTONS = 100
_INLINE_ACTIONS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)
_KINDS = ("inline_keyboard", "keyboard", "remove_keyboard", "force_reply")


def validate_reply_markup(markup: object) -> JsonDict | None:
    """The markup to store, or a 400 error like the real API's."""
    if markup is None:
        return None
    if not isinstance(markup, dict) or not any(kind in markup for kind in _KINDS):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" in markup:
        _validate_inline_keyboard(markup["inline_keyboard"])
    elif "keyboard" in markup:
        _validate_keyboard(markup["keyboard"])
    return markup


def require_inline(markup: JsonDict | None) -> JsonDict | None:
    """Edits accept only inline keyboards."""
    if markup is not None and "inline_keyboard" not in markup:
        raise bad_request("inline keyboard expected")
    return markup


def _rows(rows: object) -> list[list[Any]]:
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request("can't parse reply keyboard markup JSON object")
    return rows


def _validate_inline_keyboard(rows: object) -> None:
    buttons = [button for row in _rows(rows) for button in row]
    if len(buttons) > MAX_INLINE_BUTTONS:
        raise bad_request("BUTTONS_TOO_MUCH")
    for button in buttons:
        if not isinstance(button, dict) or not button.get("text"):
            raise bad_request("can't parse inline keyboard button: Text buttons are unallowed")
        actions = [action for action in _INLINE_ACTIONS if action in button]
        if len(actions) != 1:
            raise bad_request("can't parse inline keyboard button: Text buttons are unallowed")
        data = button.get("callback_data")
        if "callback_data" in button and (
            not isinstance(data, str) or not 1 <= len(data.encode()) <= MAX_CALLBACK_DATA_BYTES
        ):
            raise bad_request("BUTTON_DATA_INVALID")
        url = button.get("url")
        if "url" in button and not (isinstance(url, str) and "://" in url):
            raise bad_request("BUTTON_URL_INVALID")


def _validate_keyboard(rows: object) -> None:
    for row in _rows(rows):
        for button in row:
            text = button.get("text") if isinstance(button, dict) else button
            if not isinstance(text, str) or not text:
                raise bad_request("can't parse keyboard button: Text must be non-empty")
