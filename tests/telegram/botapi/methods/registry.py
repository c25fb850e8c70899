"""The table of Bot API methods the server implements, looked up case-insensitively."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..params import Params
from ..world import World

Handler = Callable[[World, Params], Awaitable[Any]]

METHODS: dict[str, tuple[str, Handler]] = {}


def api_method(name: str) -> Callable[[Handler], Handler]:
    """Register a handler under its Bot API method name."""

    def register(handler: Handler) -> Handler:
        METHODS[name.lower()] = (name, handler)
        return handler

    return register


def find_method(name: str) -> tuple[str, Handler] | None:
    """The canonical name and handler of a method, whatever its case in the URL."""
    return METHODS.get(name.lower())
