"""Typed errors with messages a player can read."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action the rules do not allow now. The state is unchanged.

    `code` names the reason for translation; `str(error)` is the English sentence.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class RecordError(ValueError):
    """A game record that is malformed or describes an impossible game."""

    def __init__(self, message: str, action_index: int | None = None) -> None:
        where = f"action {action_index}: " if action_index is not None else ""
        super().__init__(where + message)
        self.action_index = action_index
