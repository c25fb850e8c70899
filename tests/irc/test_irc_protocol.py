"""IRC lines read and written, and commands found in them: no server needed."""

from __future__ import annotations

import pytest

from bohnanza.adapters.irc import inbound_of, platform
from bohnanza.adapters.irc.protocol import casefold, encode, parse, sasl_plain
from bohnanza.adapters.irc.settings import read_settings as check


def test_a_line_is_read_with_its_source_and_trailing_parameter() -> None:
    line = parse("@msgid=abc;time=x :Ann[1]!ann@host PRIVMSG #Beans :!offer 2 for soy\r\n")
    assert line == ("PRIVMSG", ["#Beans", "!offer 2 for soy"], "Ann[1]")
    assert parse("PING :irc.test") == ("PING", ["irc.test"], "")
    assert parse(":irc.test 001 bot :Welcome home").params == ["bot", "Welcome home"]
    assert parse(":a!b@c PRIVMSG bot :").params == ["bot", ""]


@pytest.mark.parametrize(
    "evil", ["hi\r\nQUIT :bye", "hi\nJOIN #x", "hi\rKICK", "hi\0PART", "\r\n\r\n"]
)
def test_nothing_a_player_chose_ends_a_line_early(evil: str) -> None:
    data = encode("PRIVMSG", f"#chan{evil}", evil)
    assert data.endswith(b"\r\n") and data.count(b"\r") == 1 and data.count(b"\n") == 1
    assert b"\0" not in data and parse(data.decode()).command == "PRIVMSG"


def test_no_line_is_longer_than_the_protocol_allows() -> None:
    data = encode("PRIVMSG", "#chan", "🫘" * 300)
    assert len(data) <= 512
    data.decode()  # never cut inside a character


def test_nicks_are_one_under_irc_case_rules() -> None:
    assert casefold("Ann[1]\\~") == casefold("ann{1}|^") == "ann{1}|^"
    assert casefold("ÄNN") == "Änn"  # letters beyond ASCII are not folded by IRC servers


def test_sasl_plain_is_base64_in_pieces() -> None:
    assert sasl_plain("bot", "pw") == ["Ym90AGJvdABwdw=="]
    pieces = sasl_plain("b" * 99, "p" * 100)  # 300 bytes: 400 of base64 exactly
    assert [len(p) for p in pieces] == [400, 1] and pieces[-1] == "+"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (":Ann!a@h PRIVMSG #Beans :!join", ("ann", "#beans", "join", False)),
        (":Ann!a@h PRIVMSG #beans :BeanBot: plant 1", ("ann", "#beans", "plant 1", False)),
        (":Ann!a@h PRIVMSG #beans :beanbot, hand", ("ann", "#beans", "hand", False)),
        (":Ann!a@h PRIVMSG BeanBot :3", ("ann", "ann", "3", True)),
        (":Ann!a@h PRIVMSG BeanBot :!hand", ("ann", "ann", "hand", True)),
        (":Ann!a@h PRIVMSG #beans :hello all", None),
        (":Ann!a@h PRIVMSG #beans :!", None),
        (":Ann!a@h PRIVMSG BeanBot :\x01VERSION\x01", None),
        (":Ann!a@h NOTICE BeanBot :3", None),
    ],
)
def test_commands_are_found_where_they_are_addressed_to_the_bot(
    raw: str, expected: tuple[str, str, str, bool] | None
) -> None:
    inbound = inbound_of(parse(raw), "BeanBot", "!")
    if expected is None:
        assert inbound is None
    else:
        assert inbound is not None
        assert (inbound.user_id, inbound.room, inbound.text, inbound.private) == expected
        assert inbound.name == "Ann" and inbound.platform == "irc" and inbound.delivery_id == ""


def test_the_platform_checks_its_settings_before_serving() -> None:
    assert platform.name == "irc" and platform.check is check
