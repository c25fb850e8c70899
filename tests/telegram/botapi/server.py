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
from .records import ApiCall
from .webhook import WebhookDeliverer
from .world import World

JsonDict = dict[str, Any]
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


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
        self._deliverer = WebhookDeliverer(world, webhook_retry_delays)
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
        app = web.Application()
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
        await self._deliverer.start()

    async def stop(self) -> None:
        """Stop delivering and listening."""
        await self._deliverer.stop()
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
            raw = await _read_params(request)
            params = Params(raw)
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


async def _read_params(request: web.Request) -> JsonDict:
    """Query string plus body, whether form-encoded, multipart or JSON."""
    params: JsonDict = dict(request.query)
    if not request.body_exists:
        return params
    if request.content_type == "application/json":
        try:
            body = json.loads(await request.text() or "{}")
        except ValueError:
            raise bad_request("can't parse JSON body") from None
        if not isinstance(body, dict):
            raise bad_request("can't parse JSON body")
        params.update(body)
    elif request.content_type in _FORM_TYPES:
        form = await request.post()
        for key, value in form.items():
            if isinstance(value, str):
                params[key] = value
            else:
                # Uploads are not stored; the log shows that one was sent.
                params[key] = f"<file {getattr(value, 'filename', key)}>"
    return params


def _reply(status: int, body: JsonDict) -> web.Response:
    return web.json_response(body, status=status)
