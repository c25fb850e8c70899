"""What the Matrix adapter keeps across restarts: the device, the sync token, the direct rooms.

Kept in one JSON file (mode 0600, since it holds the access token), written atomically after
every sync and before each command is handed over, so a restart neither replays old commands
nor loses new ones.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path


@dataclass
class MatrixState:
    user_id: str = ""
    device_id: str = ""
    access_token: str = ""
    next_batch: str | None = None
    """The sync token after the last handled sync; None before the first."""
    direct_rooms: dict[str, str] = field(default_factory=dict)
    """Each player's direct room with the bot."""
    handled: list[str] = field(default_factory=list)
    """No longer written: each command's event id is stored with what it changed. Read and
    kept only so that a state file of an earlier version loads."""
    unreachable: list[str] = field(default_factory=list)
    """Players who left (or refused) their direct room: not written to until they open one."""

    def __repr__(self) -> str:
        return f"MatrixState(user_id={self.user_id!r}, device_id={self.device_id!r}, token=***)"

    @classmethod
    def load(cls, path: Path) -> MatrixState:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError) as error:
            raise ValueError(f"{path}: the Matrix state cannot be read ({error})") from None
        if not isinstance(data, dict):
            raise ValueError(f"{path}: the Matrix state is not an object")
        rooms = data.get("direct_rooms", {})
        handled, unreachable = data.get("handled", []), data.get("unreachable", [])
        return cls(
            user_id=str(data.get("user_id", "")),
            device_id=str(data.get("device_id", "")),
            access_token=str(data.get("access_token", "")),
            next_batch=data.get("next_batch") if isinstance(data.get("next_batch"), str) else None,
            direct_rooms={str(k): str(v) for k, v in rooms.items()}
            if isinstance(rooms, dict)
            else {},
            handled=[str(e) for e in handled] if isinstance(handled, list) else [],
            unreachable=[str(u) for u in unreachable] if isinstance(unreachable, list) else [],
        )

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump(asdict(self), file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
