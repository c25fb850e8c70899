"""Users registered on the test homeserver, each with the device registration created."""

from __future__ import annotations

import json
import secrets
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass

from .synapse import Homeserver


@dataclass(frozen=True)
class Account:
    """A registered user and its first device: what a bot or a client logs in with."""

    user_id: str
    password: str
    device_id: str
    access_token: str


def register_account(homeserver: Homeserver, localpart: str, password: str = "") -> Account:
    """Register `localpart` through open registration; blocking, so usable outside a loop."""
    password = password or secrets.token_hex(8)
    payload = {
        "username": localpart,
        "password": password,
        "auth": {"type": "m.login.dummy"},
        "initial_device_display_name": f"{localpart} test device",
    }
    body = _post(homeserver, "/_matrix/client/v3/register", payload)
    return Account(body["user_id"], password, body["device_id"], body["access_token"])


def unique_localpart(name: str) -> str:
    """`name` with a random suffix, so every test gets users nobody else has touched."""
    return f"{name.lower()}-{secrets.token_hex(4)}"


def log_in(homeserver: Homeserver, account: Account, device_name: str = "") -> Account:
    """Log `account` in with its password: the same user on a new device."""
    payload = {
        "type": "m.login.password",
        "identifier": {"type": "m.id.user", "user": account.user_id},
        "password": account.password,
        "initial_device_display_name": device_name or "another test device",
    }
    body = _post(homeserver, "/_matrix/client/v3/login", payload)
    return Account(account.user_id, account.password, body["device_id"], body["access_token"])


def _post(homeserver: Homeserver, path: str, payload: Mapping[str, object]) -> dict[str, str]:
    request = urllib.request.Request(
        f"{homeserver.base_url}{path}",
        data=json.dumps(payload).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        body: dict[str, str] = json.load(response)
        return body
