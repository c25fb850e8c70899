"""The HTTP face of the simulated Bot API: URLs, bodies, status codes and JSON envelopes."""

from __future__ import annotations

import json
import time
import traceback
from typing import Any

from aiohttp import web

from .errors import ApiError, bad_request, not_found, unauthorized
from .flood import FloodControl
from .methods import find_method
from .params import Params
from .records import ApiCall, Upload
from .webhook import WebhookDeliverer
from .world import World

JsonDict = dict[str, Any]
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
MAX_UPLOAD = 50 * 1024 * 1024
"""The largest file a bot may upload (the body may hold a little more: the other fields)."""


class BotApiServer:
    """A Bot API server on 127.0.0.1 for one `World`; use as `async with BotApiServer(w):`."""

    def __init__(
        self,
        world: World,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        webhook_retry_delays: tuple[float, ...] = (0.1, 0.2, 0.5, 1.0),
    ) -> None:
        self.world = world
        self.flood = FloodControl()
        self.host = host
        self.port = port
        self.deliverer = WebhookDeliverer(world, webhook_retry_delays)
        self._runner: web.AppRunner | None = None

    @property
    def base_url(self) -> str:
        """For `ApplicationBuilder().base_url(...)`: the token and method are appended."""
        return f"http://{self.host}:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        """For `ApplicationBuilder().base_file_url(...)`; no files are served."""
        return f"http://{self.host}:{self.port}/file/bot"

    def method_url(self, method: str, token: str | None = None) -> str:
        """The full URL of one method, for calling the server without PTB."""
        return f"{self.base_url}{token or self.world.token}/{method}"

    async def start(self) -> None:
        """Listen on a free port (or the one given) and start webhook delivery."""
        app = web.Application(client_max_size=MAX_UPLOAD + 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/file/bot{token}/{path:.*}", self._file)
        # Cancelling handlers when the client goes away ends abandoned long polls at once.
        self._runner = web.AppRunner(
            app, handler_cancellation=True, shutdown_timeout=0.5, access_log=None
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        await self.deliverer.start()

    async def stop(self) -> None:
        """Stop delivering and listening."""
        await self.deliverer.stop()
        # Wakes pending long polls so that shutdown does not wait for their timeout.
        self.world.poll_generation += 1
        self.world.notify()
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> BotApiServer:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def _file(self, request: web.Request) -> web.Response:
        return _reply(not_found().code, not_found().to_wire())

    async def _handle(self, request: web.Request) -> web.Response:
        started = time.monotonic()
        name = request.match_info["method"]
        if request.match_info["token"] != self.world.token:
            return _reply(401, unauthorized().to_wire())
        found = find_method(name)
        if found is None:
            return _reply(404, not_found().to_wire())
        method, handler = found
        long_poll = method == "getUpdates"
        raw: JsonDict = {}
        chat_id: int | str | None = None
        self.world.in_flight += not long_poll
        try:
            raw, uploads = await _read_params(request)
            params = Params(raw, uploads)
            chat_id = params.chat_id() if "chat_id" in raw else None
            self.flood.check(method, chat_id)
            status, body = 200, {"ok": True, "result": await handler(self.world, params)}
        except ApiError as error:
            status, body = error.code, error.to_wire()
        except Exception:
            # A server bug must fail the test, not look like a Telegram answer.
            self.world.server_errors.append(traceback.format_exc())
            status = 500
            body = {"ok": False, "error_code": 500, "description": "Internal Server Error"}
        finally:
            self.world.in_flight -= not long_poll
        self.world.record_call(
            ApiCall(method, raw, chat_id, started, status, body.get("description"))
        )
        return _reply(status, body)


async def _read_params(request: web.Request) -> tuple[JsonDict, dict[str, Upload]]:
    """Query string plus body, whether form-encoded, multipart or JSON; and the files of a
    multipart body, by the name of their part."""
    params: JsonDict = dict(request.query)
    uploads: dict[str, Upload] = {}
    if not request.body_exists:
        return params, uploads
    if request.content_type == "application/json":
        try:
            body = json.loads(await request.text() or "{}")
        except ValueError:
            raise bad_request("can't parse JSON body") from None
        if not isinstance(body, dict):
            raise bad_request("can't parse JSON body")
        params.update(body)
    elif request.content_type in _FORM_TYPES:
        try:
            form = await request.post()
        except web.HTTPRequestEntityTooLarge:
            raise ApiError(413, "Request Entity Too Large") from None
        for key, value in form.items():
            if isinstance(value, str):
                params[key] = value
            elif isinstance(value, web.FileField):
                uploads[key] = Upload(value.filename, value.content_type, value.file.read())
                # The log shows that a file was sent, not its bytes.
                params[key] = f"<file {value.filename}>"
            else:
                params[key] = f"<file {key}>"
    return params, uploads


def _reply(status: int, body: JsonDict) -> web.Response:
    return web.json_response(body, status=status)
