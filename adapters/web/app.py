"""The web platform's HTTP side (Starlette): the pages, the boards' streams and their inputs.

Every request proves who makes it, each time (a board's pass is never kept on the server): a
web visitor by his signed cookie, a Telegram player by the init data Telegram signed (the
`Authorization: tma ...` header), a Matrix or IRC player by his private link. An input is taken
only as its visitor's own, only for the game (or table) of its board, and only in the forms a
board sends (a button's payload, a lobby's word); the chat application checks it further as it
checks any input. A POST must be JSON and carry `X-Bohnanza` (a form of another site can do
neither), and be small.

    GET  /                 the web's home page (tables on): a name, and a table to open
    GET  /t/ROOM           a web table's page: its lobby, its game, its scores
    GET  /tg/GAME          a Telegram player's board (a Mini App)
    GET  /b/TOKEN          a private link's board
    GET  /api/events       a board's states as they change (Server-Sent Events)
    GET  /api/state        a board's state now (JSON)
    POST /api/input        a move or a lobby's word, with its delivery id
    POST /api/player       a web visitor's name (the cookie)
    POST /api/tables       a new web table
    GET  /replay/GAME      a finished game's replay page, as the board's seat saw it
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import replace
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from bohnanza.adapters.game_page import game_page
from bohnanza.core.app.i18n import LANGUAGES, Translator
from bohnanza.core.app.inbound import MAX_TEXT
from bohnanza.core.app.names import clean_name
from bohnanza.core.ports import StoreError

from .hub import BoardHub, NotServed
from .page import board_page, page_policy
from .passes import (
    FORGED,
    Refused,
    Visitor,
    browser_cookie,
    browser_of,
    link_of,
    new_browser_id,
    telegram_visitor,
)
from .places import WEB, Place
from .settings import WebSettings

COOKIE = "bohnanza_player"
COOKIE_DAYS = 400
ROOM = re.compile(r"[A-Za-z0-9_-]{4,40}")
GAME = re.compile(r"[A-Z0-9]{4,12}")
DELIVERY = re.compile(r"[0-9a-f]{16,64}")
LOBBY_VERBS = frozenset({"new", "join", "leave", "bot", "set", "start", "cancel"})
"""What a web table's page says besides its buttons' payloads."""
MAX_BODY = 4096
STREAM_LIFETIME = 600.0
"""Seconds a stream lasts before the page connects again (and proves who it is again)."""
HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class BadRequest(Exception):
    """A request no board makes; `code` names the page's words for it."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _error(code: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": code}, status, headers=HEADERS)


class BoardApp:
    """The routes, over a hub of boards."""

    def __init__(self, hub: BoardHub, settings: WebSettings) -> None:
        self.hub = hub
        self.settings = settings
        self.translators: Mapping[str, Translator] = hub.translators

    def starlette(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/", self.home),
                Route("/t/{room}", self.table_page),
                Route("/tg", self.telegram_page),
                Route("/tg/{game}", self.telegram_page),
                Route("/b/{token}", self.link_page),
                Route("/api/events", self.events),
                Route("/api/state", self.state),
                Route("/api/games", self.games),
                Route("/api/input", self.input, methods=["POST"]),
                Route("/api/player", self.player, methods=["POST"]),
                Route("/api/tables", self.new_table, methods=["POST"]),
                Route("/replay/{game}", self.replay),
            ]
        )

    # --- who asks ------------------------------------------------------------------------------

    def browser(self, request: Request) -> Visitor | None:
        cookie = request.cookies.get(COOKIE)
        if not cookie:
            return None
        try:
            return browser_of(self.settings.secret, cookie)
        except Refused:
            return None

    def telegram_player(self, request: Request) -> Visitor:
        """The Telegram player whose init data a request carries (Refused otherwise)."""
        header = request.headers.get("authorization", "")
        if not header.startswith("tma "):
            raise Refused(FORGED)
        return telegram_visitor(
            self.settings.telegram_token, header[4:], time.time(), self.settings.init_max_age
        )

    def place_of(self, request: Request, where: object, visitor_needed: bool) -> Place:
        """The board a request is about, and who makes it (Refused, BadRequest)."""
        if not isinstance(where, Mapping):
            raise BadRequest("badInput")
        now = time.time()
        room, game, token = where.get("t"), where.get("g"), where.get("l")
        if isinstance(room, str):
            if not self.settings.tables or not ROOM.fullmatch(room):
                raise BadRequest("notServed")
            visitor = self.browser(request)
            if visitor is None and visitor_needed:
                raise BadRequest("nameFirst")
            return Place(WEB, room=room, visitor=visitor)
        if isinstance(game, str):
            if not GAME.fullmatch(game):
                raise BadRequest("badInput")
            return Place("telegram", game_id=game, visitor=self.telegram_player(request))
        if isinstance(token, str):
            link = link_of(self.settings.secret, token, now)
            visitor = Visitor(link.platform, link.user_id, link.user_id)
            return Place(link.platform, game_id=link.game_id, visitor=visitor, seat=link.seat)
        raise BadRequest("badInput")

    async def json_body(self, request: Request) -> dict[str, Any]:
        """A POST's JSON object, from a board's own script (BadRequest otherwise)."""
        if request.headers.get("x-bohnanza") != "1" or not request.headers.get(
            "content-type", ""
        ).startswith("application/json"):
            raise BadRequest("badInput")
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise BadRequest("badInput")
        try:
            data = json.loads(body)
        except ValueError:
            raise BadRequest("badInput") from None
        if not isinstance(data, dict):
            raise BadRequest("badInput")
        return data

    # --- pages ---------------------------------------------------------------------------------

    def _page(self, language: str, config: dict[str, Any], telegram: bool = False) -> Response:
        language = language if language in LANGUAGES else "en"
        tr = self.translators.get(language) or self.translators["en"]
        html = board_page(tr, language, config)
        headers = {**HEADERS, "Content-Security-Policy": page_policy(telegram)}
        return HTMLResponse(html, headers=headers)

    async def home(self, request: Request) -> Response:
        if not self.settings.tables:
            return Response("Boards are opened from the chat.\n", 404, media_type="text/plain")
        visitor = self.browser(request)
        name = None if visitor is None else visitor.name
        return self._page(preferred(request), {"home": True, "name": name, "where": {}})

    async def table_page(self, request: Request) -> Response:
        room = request.path_params["room"]
        if not self.settings.tables or not ROOM.fullmatch(room):
            return Response("No such table.\n", 404, media_type="text/plain")
        visitor = self.browser(request)
        language = await self.hub.language(Place(WEB, room=room))
        name = None if visitor is None else visitor.name
        return self._page(language, {"where": {"t": room}, "name": name})

    async def telegram_page(self, request: Request) -> Response:
        """A Telegram player's board: of the game named, or (the bot's menu button opens
        `/tg`) of his game in progress, or the choice of his games."""
        game = request.path_params.get("game", "")
        if game and not GAME.fullmatch(game):
            return Response("No such game.\n", 404, media_type="text/plain")
        language = await self.hub.language(Place("telegram", game_id=game)) if game else "en"
        config = {"where": {"g": game} if game else {}, "telegram": True}
        return self._page(language, config, telegram=True)

    async def games(self, request: Request) -> Response:
        """The games in progress of a Telegram player (by his init data)."""
        try:
            player = self.telegram_player(request)
            games = await self.hub.games_of(player.platform, player.user_id)
        except Refused as refused:
            return JSONResponse({"refused": refused.reason}, 403, headers=HEADERS)
        except NotServed:
            return _error("notServed", 503)
        return JSONResponse({"games": games}, headers=HEADERS)

    async def link_page(self, request: Request) -> Response:
        token = request.path_params["token"]
        language = "en"
        try:
            link = link_of(self.settings.secret, token, time.time())
            language = await self.hub.language(Place(link.platform, game_id=link.game_id))
        except Refused:
            pass  # the page says why, from its stream
        return self._page(language, {"where": {"l": token}})

    # --- boards ---------------------------------------------------------------------------------

    async def state(self, request: Request) -> Response:
        try:
            place = self.place_of(request, request.query_params, visitor_needed=False)
            return JSONResponse(await self.hub.state(place), headers=HEADERS)
        except Refused as refused:
            return JSONResponse({"refused": refused.reason}, 403, headers=HEADERS)
        except BadRequest as bad:
            return _error(bad.code)
        except NotServed:
            return _error("notServed", 503)

    async def events(self, request: Request) -> Response:
        try:
            place = self.place_of(request, request.query_params, visitor_needed=False)
            stream = self.hub.stream(place)
            first = await anext(stream)
        except Refused as refused:
            return JSONResponse({"refused": refused.reason}, 403, headers=HEADERS)
        except BadRequest as bad:
            return _error(bad.code)
        except NotServed:
            return _error("notServed", 503)

        async def body() -> AsyncIterator[str]:
            ends = asyncio.get_running_loop().time() + STREAM_LIFETIME
            try:
                yield first
                async for chunk in stream:
                    yield chunk
                    if asyncio.get_running_loop().time() > ends:
                        return
            finally:
                await stream.aclose()

        headers = {**HEADERS, "X-Accel-Buffering": "no"}
        return StreamingResponse(body(), media_type="text/event-stream", headers=headers)

    async def input(self, request: Request) -> Response:
        try:
            data = await self.json_body(request)
            place = self.place_of(request, data.get("where"), visitor_needed=True)
            text, button, delivery = data.get("text"), data.get("button"), data.get("delivery")
            if not (
                isinstance(text, str)
                and isinstance(button, bool)
                and isinstance(delivery, str)
                and DELIVERY.fullmatch(delivery)
                and 0 < len(text) <= MAX_TEXT
                and text.isprintable()
            ):
                raise BadRequest("badInput")
            check_input(place, text, button)
            answers = await self.hub.submit(place, text, button, delivery)
        except Refused as refused:
            return JSONResponse({"refused": refused.reason}, 403, headers=HEADERS)
        except BadRequest as bad:
            return _error(bad.code)
        except NotServed:
            return _error("notServed", 503)
        except StoreError:
            return _error("offline", 503)  # nothing was stored: the page sends it again
        return JSONResponse({"answers": answers}, headers=HEADERS)

    async def player(self, request: Request) -> Response:
        try:
            data = await self.json_body(request)
        except BadRequest as bad:
            return _error(bad.code)
        name = data.get("name")
        name = clean_name(name) if isinstance(name, str) else ""
        if not name or not self.settings.tables:
            return _error("nameFirst")
        visitor = self.browser(request)
        browser_id = new_browser_id() if visitor is None else visitor.user_id
        response = JSONResponse({"name": name}, headers=HEADERS)
        response.set_cookie(
            COOKIE,
            browser_cookie(self.settings.secret, browser_id, name),
            max_age=COOKIE_DAYS * 86400,
            path="/",
            secure=self.settings.url.startswith("https://"),
            httponly=True,
            samesite="lax",
        )
        return response

    async def new_table(self, request: Request) -> Response:
        """A table of its own for a web visitor: its room comes from his id and the delivery
        id, so a request sent again opens the same table, once."""
        try:
            data = await self.json_body(request)
            visitor = self.browser(request)
            delivery = data.get("delivery")
            if visitor is None or not self.settings.tables:
                raise BadRequest("nameFirst")
            if not isinstance(delivery, str) or not DELIVERY.fullmatch(delivery):
                raise BadRequest("badInput")
            seed = f"{visitor.user_id} {delivery}".encode()
            room = hashlib.blake2s(seed, key=self.settings.secret[:32], digest_size=9).hexdigest()
            place = Place(WEB, room=room, visitor=visitor)
            answers = await self.hub.submit(place, "new", False, delivery)
            language = preferred(request)
            if language != "en":
                await self.hub.submit(place, f"set lang {language}", False, delivery[::-1])
        except BadRequest as bad:
            return _error(bad.code)
        except NotServed:
            return _error("notServed", 503)
        except StoreError:
            return _error("offline", 503)
        return JSONResponse({"room": room, "answers": answers}, headers=HEADERS)

    async def replay(self, request: Request) -> Response:
        game = request.path_params["game"]
        try:
            if not GAME.fullmatch(game):
                raise BadRequest("badInput")
            place = self.place_of(request, request.query_params, visitor_needed=False)
            if place.game_id and place.game_id != game:
                raise BadRequest("notThisGame")  # a link is for one game
            found = await self.hub.finished_record(replace(place, game_id=game))
        except Refused as refused:
            return JSONResponse({"refused": refused.reason}, 403, headers=HEADERS)
        except (BadRequest, NotServed):
            return Response("No such game.\n", 404, media_type="text/plain")
        if found is None:
            return Response("No such game.\n", 404, media_type="text/plain")
        record, seat, language = found
        page = await asyncio.to_thread(game_page, record, language, seat)
        return Response(page, media_type="text/html; charset=utf-8", headers=HEADERS)


def check_input(place: Place, text: str, button: bool) -> None:
    """What a board of `place` may send: a game's board, a button of its game; a web table,
    a button or a word of its lobby (BadRequest otherwise)."""
    words = text.split()
    if not words:
        raise BadRequest("badInput")
    if button:
        if words[0] not in ("g", "h") or len(words) < 2:
            raise BadRequest("badInput")
        if place.game_id and words[1] != place.game_id:
            raise BadRequest("notThisGame")
        return
    if place.game_id or words[0].lower() not in LOBBY_VERBS:
        raise BadRequest("badInput")


def preferred(request: Request) -> str:
    """The first of the game's languages the browser asks for ('en' if none)."""
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"
