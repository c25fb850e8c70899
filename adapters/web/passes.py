"""Who opens a board, proven three ways, each checked on every request: a browser's name in a
signed cookie (the web platform's own tables), a signed expiring private link bound to an
account, a seat and a game (Matrix, IRC, any platform without Mini Apps), and Telegram's init
data, signed by Telegram with the bot's token.

Pure functions of their inputs and the time given. A check returns its value or raises
`Refused`, whose `reason` names what failed (the page says it in its language); nothing says
which part of a signature was wrong.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from urllib.parse import parse_qsl

from bohnanza.core.app.names import clean_name

MAC_BYTES = 16
"""A signature's length: 128 bits."""
CLOCK_SKEW = 60
"""Seconds Telegram's clock may be ahead of ours."""
MAX_PASS = 4096
"""Characters of a cookie, a link or init data read at most: anything longer is no pass."""


class Refused(Exception):
    """A pass that does not hold; `reason` is one of FORGED, EXPIRED, NOT_YOURS."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


FORGED = "forged"
"""Not signed by us (or by Telegram with this bot's token), or altered since."""
EXPIRED = "expired"
"""Signed, but too old."""
NOT_YOURS = "not-yours"
"""Signed, but the seat it names is not its holder's (checked against the game)."""


@dataclass(frozen=True)
class Visitor:
    """Someone who opened a board: an account on a platform, and his name there."""

    platform: str
    user_id: str
    name: str


@dataclass(frozen=True)
class BoardLink:
    """A private link's promise: this account plays this seat of this game, until `expires`
    (seconds since the epoch)."""

    platform: str
    user_id: str
    game_id: str
    seat: int
    expires: int


def _key(secret: bytes, purpose: bytes) -> bytes:
    """A key of its own for each kind of pass: a cookie is never taken for a link."""
    return hmac.new(secret, purpose, hashlib.sha256).digest()


def _mac(key: bytes, body: str) -> str:
    digest = hmac.new(key, body.encode(), hashlib.sha256).digest()[:MAC_BYTES]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _signed(key: bytes, data: object) -> str:
    body = base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode())
    text = body.decode().rstrip("=")
    return f"{text}.{_mac(key, text)}"


def _opened(key: bytes, token: str) -> object:
    """The data a signed token holds; Refused(FORGED) unless we signed it as it is."""
    body, _, mac = token.partition(".")
    if not body or len(token) > MAX_PASS or not hmac.compare_digest(_mac(key, body), mac):
        raise Refused(FORGED)
    try:
        return json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise Refused(FORGED) from None


# --- a browser's name (the web platform's own tables) ---------------------------------------


def new_browser_id() -> str:
    """A browser's id on the web platform, from the system's random source."""
    return secrets.token_urlsafe(12)


def browser_cookie(secret: bytes, browser_id: str, name: str) -> str:
    """The cookie that names a browser's player (no password: the browser is the account)."""
    return _signed(_key(secret, b"browser"), [browser_id, clean_name(name)])


def browser_of(secret: bytes, cookie: str) -> Visitor:
    """The web platform's player a cookie names; Refused(FORGED) for any other text."""
    data = _opened(_key(secret, b"browser"), cookie)
    if not (isinstance(data, list) and len(data) == 2 and all(isinstance(d, str) for d in data)):
        raise Refused(FORGED)
    browser_id, name = data
    if not browser_id or not clean_name(name):
        raise Refused(FORGED)
    return Visitor("web", browser_id, clean_name(name))


# --- private links (Matrix, IRC) -------------------------------------------------------------


def link_token(secret: bytes, link: BoardLink) -> str:
    """A link's token: what it promises, signed."""
    data = [link.platform, link.user_id, link.game_id, link.seat, link.expires]
    return _signed(_key(secret, b"link"), data)


def link_of(secret: bytes, token: str, now: float) -> BoardLink:
    """What a link promises, while it holds; Refused(FORGED) or Refused(EXPIRED). Whether its
    seat is still its holder's is for the game to say (`NOT_YOURS`)."""
    data = _opened(_key(secret, b"link"), token)
    if not (
        isinstance(data, list)
        and len(data) == 5
        and all(isinstance(d, str) for d in data[:3])
        and all(isinstance(d, int) and not isinstance(d, bool) for d in data[3:])
    ):
        raise Refused(FORGED)
    link = BoardLink(*data)
    if link.expires <= now:
        raise Refused(EXPIRED)
    return link


# --- Telegram's init data (a Mini App) -------------------------------------------------------


def telegram_visitor(bot_token: str, init_data: str, now: float, max_age: int) -> Visitor:
    """The Telegram user whose init data this is, as Telegram signed it for this bot, at
    most `max_age` seconds ago; Refused(FORGED) or Refused(EXPIRED) otherwise.

    Telegram signs the fields, sorted by name as `name=value` lines, with a key that is the
    HMAC-SHA256 of the bot's token under "WebAppData" (core.telegram.org/bots/webapps)."""
    if not bot_token or not init_data or len(init_data) > MAX_PASS:
        raise Refused(FORGED)
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise Refused(FORGED) from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise Refused(FORGED)  # a field twice: which one was signed?
    given = fields.pop("hash", "")
    check = "\n".join(f"{name}={value}" for name, value in sorted(fields.items()))
    key = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    expected = hmac.new(key, check.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, given.lower()):
        raise Refused(FORGED)
    auth_date = fields.get("auth_date", "")
    if not auth_date.isascii() or not auth_date.isdigit():
        raise Refused(FORGED)
    if not -CLOCK_SKEW <= now - int(auth_date) <= max_age:
        raise Refused(EXPIRED)
    try:
        user = json.loads(fields.get("user", ""))
    except ValueError:
        raise Refused(FORGED) from None
    user_id = user.get("id") if isinstance(user, dict) else None
    if not isinstance(user_id, int) or isinstance(user_id, bool) or user_id <= 0:
        raise Refused(FORGED)
    name = " ".join(
        str(user.get(part) or "") for part in ("first_name", "last_name") if user.get(part)
    )
    return Visitor("telegram", str(user_id), clean_name(name) or str(user_id))


def telegram_init_data(bot_token: str, user: dict[str, object], auth_date: int) -> str:
    """Init data as Telegram signs it for this bot (for tests and benchmarks: Telegram makes
    the real one)."""
    from urllib.parse import urlencode

    fields = {
        "auth_date": str(auth_date),
        "query_id": "AAH" + secrets.token_hex(8),
        "user": json.dumps(user, separators=(",", ":"), ensure_ascii=False),
    }
    check = "\n".join(f"{name}={value}" for name, value in sorted(fields.items()))
    key = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(key, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)
