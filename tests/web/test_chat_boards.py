"""The boards of the chat platforms' games, served beside them in one process: a Telegram
player's board is a Mini App opened from his private messages, checked by the init data
Telegram signs with the bot's token; a Matrix player's is a private link bound to his account,
his seat and the game. Forged, altered, stale or someone else's passes are refused; a move made
on a board is the player's input to his game, and his chat follows it."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest

from bohnanza.adapters.boards import Boards
from bohnanza.adapters.runner import Runner
from bohnanza.adapters.store import open_store
from bohnanza.adapters.web.passes import BoardLink, link_token, telegram_init_data
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.ports import Capabilities
from bohnanza.core.app.service import ChatService
from bohnanza.core.app.session import GameSession

from ..app.recording import RecordingPort
from ..telegram.botapi import BotApiServer, World
from ..telegram.table import Players, RunningBot, unmarked
from .players import choice
from .serving import SECRET, Browser, Serving

pytestmark = pytest.mark.server  # the web server beside the local Bot API server

PUBLIC = "https://beans.example.org"
MATRIX = Capabilities(buttons=False, edits=True, personal_answers=False)
"""What the Matrix adapter can do: edits, and no buttons (choices are numbered lines)."""


def run(body: Any, timeout: float = 90.0) -> Any:
    return asyncio.run(asyncio.wait_for(body, timeout))


def mini_app_url(messages: list[Any]) -> str:
    """The Mini App a private message's "Open the board" button opens."""
    for message in reversed(messages):
        for row in message.inline_keyboard:
            for button in row:
                if "web_app" in button:
                    assert button["text"] == "Open the board"
                    url: str = button["web_app"]["url"]
                    return url
    raise LookupError("no Mini App button in the private messages")


def user(person: Any) -> dict[str, object]:
    return {"id": person.id, "first_name": person.account.first_name}


def test_a_telegram_board_opens_with_init_data_telegram_signed_and_refuses_any_other(
    tmp_path: Path,
) -> None:
    world = World()
    botapi = BotApiServer(world)
    ann, bob, cat = (world.create_user(name) for name in ("Ann", "Bob", "Cat"))
    group = world.create_group("Beans", [ann, bob, cat])
    world.add_bot(group, by=ann)

    async def scenario() -> None:
        boards = Boards()
        async with botapi, RunningBot(botapi, tmp_path / "games.db") as running:
            running.bot.runner.boards = boards
            boards.attach(running.bot.runner)
            env = {"BOHNANZA_WEB_URL": PUBLIC, "BOHNANZA_TELEGRAM_TOKEN": world.token}
            async with Serving(running.store, boards, BOHNANZA_WEB_TABLES="off", **env) as web:
                for person in (ann, bob, cat):
                    person.start_bot()
                await world.settle()
                players = Players(running, group, [ann, bob, cat])
                game = await players.gather(["Ann", "bot", "Bob"])
                await world.settle()
                url = mini_app_url(ann.private_messages)
                assert url == f"{PUBLIC}/tg/{game}"
                browser = Browser(web.url)
                async with browser.http.get(web.url + urlsplit(url).path) as page:
                    assert page.status == 200
                    policy = page.headers["Content-Security-Policy"]
                    assert "frame-ancestors https://web.telegram.org" in policy
                where = {"g": game}
                now = int(time.time())

                refusing: list[Browser] = []

                def tma(init_data: str) -> Browser:
                    refusing.append(Browser(web.url, {"Authorization": f"tma {init_data}"}))
                    return refusing[-1]

                signed = telegram_init_data(world.token, user(ann), now)
                opened = tma(signed)
                status, state = await opened.state(where)
                session = running.bot.service.games[str(group.id)]
                seat = session.seat_of(str(ann.id))
                assert status == 200 and state["viewer"] == seat
                assert state["hand"] == hand_codes(session, seat)

                refusals = {
                    "forged": telegram_init_data("999:another-bot", user(ann), now),
                    "altered": signed.replace(str(ann.id), str(bob.id)),
                    "expired": telegram_init_data(world.token, user(ann), now - 2 * 86400),
                    "none": "",
                    "not seated": telegram_init_data(world.token, user(cat), now),
                }
                refused = {}
                for what, init_data in refusals.items():
                    status, reply = await tma(init_data).state(where)
                    refused[what] = (status, reply)
                    page = await tma(init_data).open(where)
                    assert page.refused == reply["refused"], what
                assert refused == {
                    "forged": (403, {"refused": "forged"}),
                    "altered": (403, {"refused": "forged"}),
                    "expired": (403, {"refused": "expired"}),
                    "none": (403, {"refused": "forged"}),
                    "not seated": (403, {"refused": "not-yours"}),
                }
                # The bot's menu button opens /tg: the player's games to choose from.
                async with opened.http.get(web.url + "/tg") as page:
                    assert page.status == 200
                async with opened.http.get(web.url + "/api/games", headers=opened.headers) as got:
                    assert (await got.json())["games"] == [{"game": game, "language": "en"}]
                cats = tma(telegram_init_data(world.token, user(cat), now))
                async with cats.http.get(web.url + "/api/games", headers=cats.headers) as got:
                    assert (await got.json())["games"] == []
                twice = [*parse_qsl(signed), ("auth_date", str(now))]
                status, _ = await tma(urlencode(twice)).state(where)
                assert status == 403

                # A move on the board is Ann's input to her game: her chat follows it.
                board = await opened.open(where)
                await players_move_until_ann_can(players, session, seat)
                await board.until(lambda s: seat in s["waiting"])
                payload, _ = choice(board.state, random.Random(2)) or ("", "")
                actions = running.action_count(game)
                status, reply = await opened.send(where, payload)
                assert status == 200 and reply == {"answers": []}
                await board.until(lambda s: (s != state and seat not in s["waiting"]) or True)
                assert running.action_count(game) > actions
                await world.settle()
                latest = unmarked(ann.private_messages[-1].text)
                assert hand_line(session, seat) in latest.splitlines()
                status, reply = await opened.send(where, f"g ZZZZZZ {state['token']} plant 1")
                assert (status, reply) == (400, {"error": "notThisGame"})
                for each in (browser, opened, *refusing):
                    await each.close()

    run(scenario())


def hand_codes(session: GameSession, seat: int) -> list[int]:
    from bohnanza.core.cards import VARIETIES

    return [VARIETIES.index(variety) for variety in session.view(seat).hand]


def hand_line(session: GameSession, seat: int) -> str:
    from bohnanza.core.app.i18n import English, bean_name

    cards = " · ".join(
        f"{i}. {bean_name(English(), v)}" for i, v in enumerate(session.view(seat).hand, 1)
    )
    return f"Your hand (front first): {cards or 'empty'}"


async def players_move_until_ann_can(players: Players, session: GameSession, seat: int) -> None:
    """The others play until a decision is Ann's (it is at once, when she opened)."""
    for _ in range(200):
        if seat in session.pending():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("Ann never had a move")


async def chat_table(
    tmp_path: Path, boards: Boards, platform: str = "matrix", caps: Capabilities = MATRIX
) -> tuple[ChatService, Runner, RecordingPort]:
    store = open_store(str(tmp_path / "games.db"), create=True)
    port = RecordingPort(caps)
    port.platform = platform
    service = ChatService(platform, caps, store, rng=random.Random(4))
    runner = Runner(service, port, store=store, boards=boards)
    await runner.start()
    return service, runner, port


async def said(
    runner: Runner, user: str, text: str, room: str = "!beans:example.org", private: bool = False
) -> None:
    platform = runner.port.platform
    name = user.strip("@").split(":")[0].title()
    where = user if private else room
    inbound = Inbound(platform, user, name, where, text, f"m{time.time_ns()}", private)
    await (await runner.submit(inbound, wait=False))


def test_a_matrix_link_opens_its_players_board_and_no_other_seat(tmp_path: Path) -> None:
    ann, bob = "@ann:example.org", "@bob:example.org"

    async def scenario() -> None:
        boards = Boards()
        service, runner, port = await chat_table(tmp_path, boards)
        async with Serving(service.store, boards, BOHNANZA_WEB_URL=PUBLIC) as web:  # type: ignore[arg-type]
            for who, text in [(ann, "new"), (bob, "join"), (ann, "bot"), (ann, "start")]:
                await said(runner, who, text)
            session = service.games["!beans:example.org"]
            game, seats = session.game_id, {who: session.seat_of(who) for who in (ann, bob)}
            lines = [line for text in port.private_texts(ann) for line in text.splitlines()]
            links = [
                line.split(": ", 1)[1] for line in lines if line.startswith("Open the board: ")
            ]
            assert links and all(link.startswith(f"{PUBLIC}/b/") for link in links)
            token = urlsplit(links[-1]).path.rsplit("/", 1)[1]
            browser = Browser(web.url)
            status, state = await browser.state({"l": token})
            assert status == 200 and state["viewer"] == seats[ann]
            assert state["hand"] == hand_codes(session, seats[ann] or 0)
            async with browser.http.get(f"{web.url}/b/{token}") as page:
                assert page.status == 200

            later = int(time.time()) + 86400
            another_seat = link_token(
                SECRET.encode(), BoardLink("matrix", ann, game, seats[bob] or 0, later)
            )
            not_signed = link_token(
                b"another-secret" * 3, BoardLink("matrix", ann, game, seats[ann] or 0, later)
            )
            stale = link_token(
                SECRET.encode(), BoardLink("matrix", ann, game, seats[ann] or 0, 1000)
            )
            altered = token[:5] + ("A" if token[5] != "A" else "B") + token[6:]
            refused = {}
            for what, bad in {
                "another seat": another_seat,
                "not signed": not_signed,
                "stale": stale,
                "altered": altered,
            }.items():
                refused[what] = await browser.state({"l": bad})
            assert refused == {
                "another seat": (403, {"refused": "not-yours"}),
                "not signed": (403, {"refused": "forged"}),
                "stale": (403, {"refused": "expired"}),
                "altered": (403, {"refused": "forged"}),
            }
            # A link promises one game: a button of another is not taken from its board.
            status, reply = await browser.send({"l": token}, f"g ZZZZZZ {state['token']} done")
            assert (status, reply) == (400, {"error": "notThisGame"})
            await browser.close()
        await runner.stop(5.0)

    run(scenario())


IRC = Capabilities(compact=True, line_bytes=400)
"""What IRC can do: no edits, no buttons, every line counts."""


def links_in(texts: list[str]) -> list[str]:
    entry = "Open the board: "
    lines = [part for text in texts for line in text.splitlines() for part in line.split(" // ")]
    return [line.removeprefix(entry) for line in lines if line.startswith(entry)]


def test_on_irc_the_link_comes_with_decisions_and_asked_for_hands_only(tmp_path: Path) -> None:
    ann, bob = "ann", "bob"

    async def scenario() -> None:
        boards = Boards()
        service, runner, port = await chat_table(tmp_path, boards, "irc", IRC)
        async with Serving(service.store, boards, BOHNANZA_WEB_URL=PUBLIC):  # type: ignore[arg-type]
            for who, text in [(ann, "new"), (bob, "join"), (ann, "start")]:
                await said(runner, who, text, room="#beans")
            sent = [m for shown in port.private.get(bob, []) for m in shown.history]
            texts = [m.text for m in sent]
            assert all(not links_in([m.text]) for m in sent if not m.alert)
            await said(runner, bob, "hand", private=True)
            asked = [m.text for shown in port.private[bob] for m in shown.history][len(texts) :]
            assert links_in(asked), asked
            assert all(link.startswith(f"{PUBLIC}/b/") for link in links_in(asked))
        await runner.stop(5.0)

    run(scenario())
