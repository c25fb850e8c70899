"""The web platform on its own: a table opened from the home page, joined by invitation,
filled with bots and started from its lobby page; its boards live and private; every input
checked as any other, and stored once."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bohnanza.adapters.boards import Boards
from bohnanza.adapters.store import open_store
from bohnanza.adapters.store.sql_store import SqlGameStore
from bohnanza.core.cards import VARIETIES, variety_of
from bohnanza.core.record import replay_steps

from .players import choice, command_of, play_to_the_end
from .serving import Browser, Serving

pytestmark = pytest.mark.server  # the web server

INDEX = {variety: i for i, variety in enumerate(VARIETIES)}
SEATED_KEYS = {"hand", "choices", "token", "trade", "note", "due"}
"""What only a seated player's board holds."""
TABLE_KEYS = {
    *("kind", "game", "language", "names", "viewer", "turn", "active", "step", "stepName"),
    *("deck", "discard", "top", "exhausted", "final", "lastTurn", "faceUp", "offered"),
    *("seats", "offers", "waiting", "story", "result", "replay"),
}
"""What every board of a game holds."""


def compact(hand: tuple[int, ...]) -> str:
    return json.dumps(list(hand), separators=(",", ":"))


def run(body: Any, timeout: float = 120.0) -> Any:
    return asyncio.run(asyncio.wait_for(body, timeout))


@asynccontextmanager
async def served(tmp_path: Path) -> AsyncIterator[tuple[Serving, SqlGameStore]]:
    store = open_store(str(tmp_path / "games.db"), create=True)
    try:
        async with Serving(store, Boards()) as serving:
            yield serving, store
    finally:
        store.close()


async def gathered(serving: Serving, names: list[str], bots: int) -> tuple[list[Browser], str]:
    """Browsers named `names`; the first opens a table, the others join by its link, bots
    fill seats; the table is started. The browsers and the table's room."""
    browsers = [Browser(serving.url) for _ in names]
    for browser, name in zip(browsers, names, strict=True):
        await browser.name(name)
    room = await browsers[0].new_table()
    where = {"t": room}
    for browser in browsers[1:]:
        status, reply = await browser.send(where, "join", button=False)
        assert (status, reply) == (200, {"answers": []})
    for _ in range(bots):
        await browsers[0].send(where, "bot heuristic", button=False)
    await browsers[0].send(where, "set deadline off", button=False)
    status, reply = await browsers[0].send(where, "start", button=False)
    assert status == 200, reply
    return browsers, room


def test_a_table_opened_in_the_browser_is_gathered_from_its_lobby_page(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served(tmp_path) as (serving, _):
            anna, bruno, guest = Browser(serving.url), Browser(serving.url), Browser(serving.url)
            await anna.name("Anna")
            await bruno.name("Bruno")
            room = await anna.new_table()
            lobby = await anna.open({"t": room})
            assert lobby.state["kind"] == "lobby"
            assert lobby.state["seats"] == [{"name": "Anna", "bot": False, "you": True}]
            assert lobby.state["opener"] is True
            watching = await guest.open({"t": room})
            assert watching.state["opener"] is False and watching.state["joined"] is False

            await bruno.send({"t": room}, "join", button=False)
            await anna.send({"t": room}, "bot random", button=False)
            state = await lobby.until(lambda s: len(s["seats"]) == 3)
            assert [s["name"] for s in state["seats"]] == ["Anna", "Bruno", "Bot 1 (random)"]
            status, reply = await bruno.send({"t": room}, "start", button=False)
            assert reply["answers"] == ["Only the player who opened the game can start it."]
            status, reply = await guest.send({"t": room}, "join", button=False)
            assert (status, reply) == (400, {"error": "nameFirst"})

            await anna.send({"t": room}, "start", button=False)
            board = await lobby.until(lambda s: s["kind"] == "game")
            seen = await watching.until(lambda s: s["kind"] == "game")
            assert board["viewer"] == 0 and len(board["hand"]) == 5 and board["choices"]
            assert seen["viewer"] is None and not SEATED_KEYS & set(seen)
            assert [n for n in board["names"]] == ["Anna", "Bruno", "Bot 1 (random)"]
            for browser in (anna, bruno, guest):
                await browser.close()

    run(scenario())


def test_two_tabs_of_one_player_stay_in_step(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served(tmp_path) as (serving, _):
            (anna, bruno), room = await gathered(serving, ["Anna", "Bruno"], bots=1)
            where = {"t": room}
            first, second = await anna.open(where), await anna.open(where)
            other = await bruno.open(where)
            assert first.state == second.state
            before = first.state
            payload, _ = choice(before, random.Random(1)) or ("", "")
            await anna.send(where, payload)
            after = await second.until(lambda s: s != before)
            assert await first.until(lambda s: s == after) == after
            await other.until(lambda s: s["seats"] == after["seats"])
            for browser in (anna, bruno):
                await browser.close()

    run(scenario())


def test_an_input_sent_again_is_applied_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served(tmp_path) as (serving, store):
            (anna,), room = await gathered(serving, ["Anna"], bots=2)
            where = {"t": room}
            _, state = await anna.state(where)
            game = state["game"]
            before = store.game_progress(game)
            payload, _ = choice(state, random.Random(1)) or ("", "")
            first = await anna.send(where, payload, delivery="ab" * 16)
            again = await anna.send(where, payload, delivery="ab" * 16)
            assert first[0] == again[0] == 200
            assert again[1] == {"answers": []}
            after = store.game_progress(game)
            assert before is not None and after is not None
            # Once: the move and the bots' answers to it, then nothing more.
            _, state = await anna.state(where)
            assert after.actions > before.actions
            assert store.game_progress(game) == after
            await anna.close()

    run(scenario())


def test_forged_inputs_are_refused_in_one_line_and_change_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served(tmp_path) as (serving, store):
            (anna, bruno), room = await gathered(serving, ["Anna", "Bruno"], bots=0)
            where = {"t": room}
            _, state = await anna.state(where)
            game, token = state["game"], state["token"]
            before = store.game_progress(game)
            refusals = {
                "another game": f"g ZZZZZZ {token} plant 1",
                "an old moment": f"g {game} 000000 plant 1",
                "a move that is not legal": f"g {game} {token} harvest 9",
                "a command that is not one": f"g {game} {token} conquer 1",
            }
            answers = {}
            for what, payload in refusals.items():
                status, reply = await anna.send(where, payload)
                assert status == 200, what
                answers[what] = reply["answers"]
            assert answers["another game"] == ["This button belongs to a game that is over."]
            assert answers["an old moment"] == [
                "That button was from an earlier moment: here is the game as it stands now."
            ]
            assert all(len(lines) == 1 for lines in answers.values()), answers
            # Bruno's board is not Anna's: her seat's moves are not his to make.
            _, bruno_state = await bruno.state(where)
            assert bruno_state["viewer"] == 1
            annas = command_of(state["choices"][0]["payload"])
            status, reply = await bruno.send(where, f"g {game} {token} {annas}")
            assert reply["answers"] and status == 200
            status, reply = await anna.send(where, "move someone", button=False)
            assert (status, reply) == (400, {"error": "badInput"})
            status, reply = await anna.post(
                "/api/input", {"where": where, "text": "join", "button": False, "delivery": "x"}
            )
            assert (status, reply) == (400, {"error": "badInput"})
            async with anna.http.post(
                serving.url + "/api/input",
                data=json.dumps({"where": where, "text": "join", "button": False}),
                headers={"Content-Type": "application/json"},
            ) as response:
                assert response.status == 400  # no X-Bohnanza: not the board's own script
            assert store.game_progress(game) == before
            for browser in (anna, bruno):
                await browser.close()

    run(scenario())


def test_no_board_shows_what_is_not_its_seats(tmp_path: Path) -> None:
    """Every state every page was sent, through a whole game of three people and a bot: a
    seat's board holds its own hand only, names drawn cards to their drawer only, and a
    spectator's board holds no hand and no move."""

    async def scenario() -> tuple[dict[int | None, list[dict[str, Any]]], str, SqlGameStore]:
        async with served(tmp_path) as (serving, store):
            browsers, room = await gathered(serving, ["Anna", "Bruno", "Carla"], bots=1)
            where = {"t": room}
            guest = Browser(serving.url)
            pages = {seat: await browsers[seat].open(where) for seat in range(3)}
            pages[None] = await guest.open(where)
            inputs = await play_to_the_end(browsers, where, seed=3)
            assert inputs > 50
            for page in pages.values():
                await page.until(lambda s: "result" in s)
            game = pages[0].state["game"]
            for browser in [*browsers, guest]:
                await browser.close()
            return {seat: page.states for seat, page in pages.items()}, game, store

    states, game, store = run(scenario(), timeout=300)
    record = store.load_stored(game).record()
    names = [seat.name for seat in record.seats]
    held: dict[int, set[tuple[int, ...]]] = {seat: set() for seat in range(4)}
    for played, _, _, _ in replay_steps(record):
        for seat, player in enumerate(played.state.players):
            held[seat].add(tuple(INDEX[variety_of(card)] for card in player.hand))
    for seat, shown in states.items():
        assert len(shown) > 20, seat
        others = {hand for other in held if other != seat for hand in held[other]}
        others -= set() if seat is None else held[seat]
        for state in shown:
            if state["kind"] != "game":
                continue
            text = json.dumps(state, separators=(",", ":"))
            assert not [h for h in others if len(h) >= 5 and compact(h) in text]
            if seat is None:
                assert set(state) <= TABLE_KEYS, set(state) - TABLE_KEYS
            elif "result" not in state:
                assert set(state) <= TABLE_KEYS | SEATED_KEYS, set(state) - TABLE_KEYS
                assert tuple(state["hand"]) in held[seat]
                assert state["viewer"] == seat
            named = [line for line in state["story"] if " drew " in line and " card" not in line]
            own = [] if seat is None else [n for n in named if n.startswith(f"{names[seat]} drew")]
            assert named == own, named


def test_a_hostile_name_stays_a_name_on_every_page(tmp_path: Path) -> None:
    hostile = "</script><b>Eve</b>&amp;"

    async def scenario() -> None:
        async with served(tmp_path) as (serving, _):
            eve = Browser(serving.url)
            await eve.name(hostile)
            room = await eve.new_table()
            for path in ("/", f"/t/{room}"):
                async with eve.http.get(serving.url + path) as page:
                    html = await page.text()
                    policy = page.headers["Content-Security-Policy"]
                assert "</script><b>" not in html and "<b>Eve" not in html
                assert "default-src 'none'" in policy and "connect-src 'self'" in policy
                assert "unsafe-inline" not in policy
            lobby = await eve.open({"t": room})
            assert lobby.state["seats"][0]["name"] == hostile
            await eve.close()

    run(scenario())
