"""Who opens a board, proven: a browser's signed cookie, a signed expiring link, Telegram's
signed init data. Anything altered, forged, stale or of another kind is refused."""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import parse_qsl, urlencode

import pytest

from bohnanza.adapters.web.passes import (
    EXPIRED,
    FORGED,
    BoardLink,
    Refused,
    Visitor,
    browser_cookie,
    browser_of,
    link_of,
    link_token,
    telegram_init_data,
    telegram_visitor,
)

SECRET = b"a-secret-long-enough-for-the-board-0123456789"
TOKEN = "123456:ABC-the-bot-token"
NOW = 1_800_000_000
ANN = {"id": 42, "first_name": "Ann", "last_name": "Lee"}


def refused(reason: str) -> Any:
    return pytest.raises(Refused, match=f"^{reason}$")


def test_a_browsers_cookie_names_its_player() -> None:
    cookie = browser_cookie(SECRET, "b1", "Anna  <b>")
    assert browser_of(SECRET, cookie) == Visitor("web", "b1", "Anna <b>")


@pytest.mark.parametrize(
    "cookie",
    [
        "",
        "garbage",
        browser_cookie(b"another-secret-long-enough-0123456789", "b1", "Anna"),
        browser_cookie(SECRET, "b1", "Anna")[:-1] + "A",
        link_token(SECRET, BoardLink("web", "b1", "GAME01", 0, NOW + 60)),
    ],
    ids=["empty", "not one", "another secret", "altered", "a link, not a cookie"],
)
def test_any_other_cookie_is_refused(cookie: str) -> None:
    with refused(FORGED):
        browser_of(SECRET, cookie)


def test_a_link_holds_until_it_expires_and_not_after() -> None:
    link = BoardLink("matrix", "@ann:example.org", "GAME01", 2, NOW + 60)
    token = link_token(SECRET, link)
    assert link_of(SECRET, token, NOW) == link
    with refused(EXPIRED):
        link_of(SECRET, token, NOW + 60)


def test_an_altered_or_foreign_link_is_refused() -> None:
    token = link_token(SECRET, BoardLink("matrix", "@ann:example.org", "GAME01", 2, NOW + 60))
    body, mac = token.split(".")
    data = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    data[3] = 1  # another seat, the signature kept
    forged = base64.urlsafe_b64encode(json.dumps(data).encode()).decode()
    for bad in (
        f"{forged.rstrip('=')}.{mac}",
        token + "x",
        "." + mac,
        browser_cookie(SECRET, "b", "n"),
    ):
        with refused(FORGED):
            link_of(SECRET, bad, NOW)


def test_telegram_init_data_signed_for_this_bot_names_its_user() -> None:
    data = telegram_init_data(TOKEN, ANN, NOW - 10)
    assert telegram_visitor(TOKEN, data, NOW, 3600) == Visitor("telegram", "42", "Ann Lee")


def test_telegram_init_data_forged_altered_stale_or_odd_is_refused() -> None:
    good = telegram_init_data(TOKEN, ANN, NOW - 10)
    fields = parse_qsl(good)
    other_user = urlencode(
        [(k, json.dumps({**ANN, "id": 43}) if k == "user" else v) for k, v in fields]
    )
    no_hash = urlencode([(k, v) for k, v in fields if k != "hash"])
    twice = urlencode([*fields, ("user", json.dumps(ANN))])
    cases = {
        FORGED: [
            telegram_init_data("999:another-bot", ANN, NOW - 10),
            other_user,
            no_hash,
            twice,
            "",
            "not init data",
            telegram_init_data(TOKEN, {"first_name": "nobody"}, NOW - 10),
        ],
        EXPIRED: [
            telegram_init_data(TOKEN, ANN, NOW - 3601),
            telegram_init_data(TOKEN, ANN, NOW + 3600),  # from the future
        ],
    }
    for reason, datas in cases.items():
        for data in datas:
            with refused(reason):
                telegram_visitor(TOKEN, data, NOW, 3600)
    with refused(FORGED):
        telegram_visitor("", good, NOW, 3600)  # no bot token: nothing can be checked
