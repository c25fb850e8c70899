"""The Matrix settings, from the environment (`BOHNANZA_MATRIX_*`), checked before anything
starts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bohnanza.adapters.kit import SettingsError, settings_by_rules

from .translate import DEFAULT_PREFIX

RULES = {
    "HOMESERVER": (None, r"https?://[^\s/?#]+(/\S*)?", "must be an http(s) URL"),
    "USER": (None, r"@[^\s:]+:\S+", "must be a user id like @bohnanza:example.org"),
    "PASSWORD": ("", r".*", ""),
    "ACCESS_TOKEN": ("", r"\S*", "may not hold a space"),
    "DEVICE_ID": ("", r"\S*", "may not hold a space"),
    "STATE": ("matrix-state", r".+", ""),
    "PREFIX": (DEFAULT_PREFIX, r"\S+", "may not hold a space"),
}
"""Per setting (`BOHNANZA_MATRIX_` left out): its default (None: required), the form of a valid
value, and what is wrong with another."""


@dataclass(frozen=True)
class MatrixSettings:
    """Where and as whom to connect. Password and token are secrets: never logged."""

    homeserver: str
    user_id: str
    password: str = ""
    access_token: str = ""
    device_id: str = ""
    state_dir: Path = Path("matrix-state")
    prefix: str = DEFAULT_PREFIX

    def __repr__(self) -> str:
        return f"MatrixSettings(homeserver={self.homeserver!r}, user_id={self.user_id!r}, ***)"

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> MatrixSettings:
        """The settings, or SettingsError naming the first one that is missing or wrong; the
        same is the platform's `check`, run before any store is opened."""
        found = settings_by_rules(env, "matrix", RULES)
        if not found["PASSWORD"] and not found["ACCESS_TOKEN"]:
            raise SettingsError("set BOHNANZA_MATRIX_PASSWORD or BOHNANZA_MATRIX_ACCESS_TOKEN")
        return cls(
            homeserver=found["HOMESERVER"],
            user_id=found["USER"],
            password=found["PASSWORD"],
            access_token=found["ACCESS_TOKEN"],
            device_id=found["DEVICE_ID"],
            state_dir=Path(found["STATE"]),
            prefix=found["PREFIX"],
        )
