"""Typed access to call parameters, which arrive as strings (forms) or JSON values."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .errors import bad_request
from .records import Upload


class Params:
    """The parameters of one API call, read with the coercions the real API applies; the
    files of a multipart body in `uploads`, by the name of their part."""

    def __init__(self, raw: Mapping[str, Any], uploads: Mapping[str, Upload] | None = None) -> None:
        self.raw: dict[str, Any] = dict(raw)
        self.uploads: dict[str, Upload] = dict(uploads or {})

    def upload(self, name: str) -> Upload | None:
        """The file sent as the part `name`, or named by an `attach://<part>` value."""
        if name in self.uploads:
            return self.uploads[name]
        value = self.raw.get(name)
        if isinstance(value, str) and value.startswith("attach://"):
            attached = self.uploads.get(value.removeprefix("attach://"))
            if attached is None:
                raise bad_request(f"can't find attached file {value.removeprefix('attach://')}")
            return attached
        return None

    def has(self, name: str) -> bool:
        """Whether the parameter was sent at all."""
        return name in self.raw and self.raw[name] is not None

    def text(self, name: str, default: str | None = None) -> str | None:
        """An optional text parameter."""
        value = self.raw.get(name)
        if value is None:
            return default
        return value if isinstance(value, str) else json.dumps(value)

    def required_text(self, name: str, empty_message: str | None = None) -> str:
        """A text parameter that must be present and non-empty."""
        value = self.text(name)
        if not value:
            raise bad_request(empty_message or f"{name} is empty")
        return value

    def integer(self, name: str, default: int | None = None) -> int | None:
        """An optional integer parameter."""
        value = self.raw.get(name)
        if value is None or value == "":
            return default
        try:
            return int(value)
        except (TypeError, ValueError):
            raise bad_request(f"invalid {name} specified") from None

    def required_integer(self, name: str) -> int:
        """An integer parameter that must be present."""
        value = self.integer(name)
        if value is None:
            raise bad_request(f"{name} is empty")
        return value

    def number(self, name: str, default: float) -> float:
        """A number parameter, e.g. a long polling timeout."""
        value = self.raw.get(name)
        if value is None or value == "":
            return default
        try:
            return float(value)
        except (TypeError, ValueError):
            raise bad_request(f"invalid {name} specified") from None

    def flag(self, name: str) -> bool:
        """A flag: forms send "true"/"false", JSON bodies send booleans."""
        value = self.raw.get(name)
        if isinstance(value, str):
            return value.strip().lower() in ("true", "1")
        return bool(value)

    def decoded(self, name: str) -> Any:
        """A nested object; form bodies carry it JSON-encoded in a string."""
        value = self.raw.get(name)
        if not isinstance(value, str):
            return value
        if value == "":
            return None
        try:
            return json.loads(value)
        except ValueError:
            raise bad_request(f"can't parse {name} JSON object") from None

    def chat_id(self, name: str = "chat_id") -> int | str | None:
        """A chat reference: a numeric id or an @username, as the real API accepts."""
        value = self.raw.get(name)
        if value is None or value == "":
            return None
        if isinstance(value, str) and value.startswith("@"):
            return value
        try:
            return int(value)
        except (TypeError, ValueError):
            raise bad_request("chat not found") from None
