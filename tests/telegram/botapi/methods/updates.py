"""Getting updates: long polling with getUpdates, or a webhook."""

from __future__ import annotations

import ipaddress
import time
from typing import Any
from urllib.parse import urlsplit

from ..errors import bad_request, conflict
from ..params import Params
from ..records import WebhookConfig
from ..world import DEFAULT_ALLOWED_UPDATES, World
from .registry import api_method

JsonDict = dict[str, Any]

MAX_LIMIT = 100
_SECRET_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


@api_method("getUpdates")
async def get_updates(world: World, params: Params) -> list[JsonDict]:
    """Return pending updates, waiting up to `timeout` seconds for the first one."""
    if world.webhook is not None:
        raise conflict(
            "can't use getUpdates method while webhook is active; "
            "use deleteWebhook to delete the webhook first"
        )
    limit = min(max(params.integer("limit", MAX_LIMIT) or MAX_LIMIT, 1), MAX_LIMIT)
    deadline = time.monotonic() + max(params.number("timeout", 0.0), 0.0)
    _set_allowed_updates(world, params)
    world.confirm(params.integer("offset"))
    # A newer getUpdates ends this one, as the real API does with concurrent pollers.
    world.poll_generation += 1
    generation = world.poll_generation
    world.notify()
    while True:
        if world.webhook is not None or world.poll_generation != generation:
            raise conflict(
                "terminated by other getUpdates request; "
                "make sure that only one bot instance is running"
            )
        if world.pending:
            return world.pending[:limit]
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return []
        await world.changed(remaining)


@api_method("setWebhook")
async def set_webhook(world: World, params: Params) -> bool:
    """Deliver updates by POST to a URL from now on (an empty url removes the webhook)."""
    url = params.text("url", "") or ""
    if not url:
        deleted: bool = await delete_webhook(world, params)
        return deleted
    _check_webhook_url(url)
    secret = params.text("secret_token")
    if secret is not None and not (1 <= len(secret) <= 256 and set(secret) <= _SECRET_TOKEN_CHARS):
        raise bad_request("secret token contains unallowed characters")
    _set_allowed_updates(world, params)
    if params.flag("drop_pending_updates"):
        world.pending.clear()
    world.webhook = WebhookConfig(
        url=url,
        secret_token=secret,
        max_connections=params.integer("max_connections", 40) or 40,
        ip_address=params.text("ip_address"),
    )
    world.notify()
    return True


@api_method("deleteWebhook")
async def delete_webhook(world: World, params: Params) -> bool:
    """Stop webhook delivery so getUpdates may be used."""
    if params.flag("drop_pending_updates"):
        world.pending.clear()
    world.webhook = None
    world.notify()
    return True


@api_method("getWebhookInfo")
async def get_webhook_info(world: World, params: Params) -> JsonDict:
    """The webhook's URL and delivery state."""
    hook = world.webhook
    info: JsonDict = {
        "url": hook.url if hook else "",
        "has_custom_certificate": False,
        "pending_update_count": len(world.pending),
    }
    if hook is None:
        return info
    info["max_connections"] = hook.max_connections
    if hook.ip_address:
        info["ip_address"] = hook.ip_address
    if hook.last_error_date is not None:
        info["last_error_date"] = hook.last_error_date
        info["last_error_message"] = hook.last_error_message
    if world.allowed_updates != DEFAULT_ALLOWED_UPDATES:
        info["allowed_updates"] = sorted(world.allowed_updates)
    return info


def _set_allowed_updates(world: World, params: Params) -> None:
    allowed = params.decoded("allowed_updates")
    if allowed is None:
        return
    if not isinstance(allowed, list):
        raise bad_request("can't parse allowed_updates JSON object")
    world.allowed_updates = frozenset(allowed) if allowed else DEFAULT_ALLOWED_UPDATES


def _check_webhook_url(url: str) -> None:
    """HTTPS as the real API demands, except plain HTTP to this machine for tests."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.scheme == "https" and host:
        return
    if parts.scheme == "http" and (host == "localhost" or _is_loopback(host)):
        return
    raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
