"""Errors of the simulated Bot API, shaped as the real API reports them on the wire."""

from __future__ import annotations

from typing import Any

JsonDict = dict[str, Any]

QUERY_INVALID = "query is too old and response timeout expired or query ID is invalid"
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the "
    "same as a current content and reply markup of the message"
)


class ApiError(Exception):
    """A failed Bot API call: HTTP status, description and optional response parameters."""

    def __init__(self, code: int, description: str, parameters: JsonDict | None = None) -> None:
        super().__init__(f"{code} {description}")
        self.code = code
        self.description = description
        self.parameters = parameters

    def to_wire(self) -> JsonDict:
        """The JSON body the real API sends for this error."""
        body: JsonDict = {"ok": False, "error_code": self.code, "description": self.description}
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(detail: str) -> ApiError:
    """A 400 error: the call itself is wrong."""
    return ApiError(400, f"Bad Request: {detail}")


def forbidden(detail: str) -> ApiError:
    """A 403 error: the bot may not act in that chat."""
    return ApiError(403, f"Forbidden: {detail}")


def conflict(detail: str) -> ApiError:
    """A 409 error: webhook and polling, or two pollers, collide."""
    return ApiError(409, f"Conflict: {detail}")


def too_many_requests(retry_after: int) -> ApiError:
    """A 429 error telling the client to wait `retry_after` whole seconds."""
    return ApiError(
        429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
    )


def unauthorized() -> ApiError:
    """The 401 error for a token the server does not know."""
    return ApiError(401, "Unauthorized")


def not_found() -> ApiError:
    """The 404 error for a method the server does not know."""
    return ApiError(404, "Not Found")
