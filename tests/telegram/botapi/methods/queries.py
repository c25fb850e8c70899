"""Answers to button presses and inline queries."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from ..errors import QUERY_INVALID, bad_request
from ..markup import validate_reply_markup
from ..params import Params
from ..records import CallbackAnswer, InlineAnswer
from ..world import World
from .registry import api_method

JsonDict = dict[str, Any]

MAX_ALERT_LENGTH = 200
MAX_INLINE_RESULTS = 50
DEFAULT_INLINE_CACHE_TIME = 300


@api_method("answerCallbackQuery")
async def answer_callback_query(world: World, params: Params) -> bool:
    """Answer a button press once, within the query's lifetime."""
    query = world.callback_queries.get(params.required_text("callback_query_id"))
    if query is None or query.answer is not None or _expired(world, query.created):
        raise bad_request(QUERY_INVALID)
    text = params.text("text")
    if text is not None and len(text) > MAX_ALERT_LENGTH:
        raise bad_request("MESSAGE_TOO_LONG")
    query.answer = CallbackAnswer(
        text=text,
        show_alert=params.flag("show_alert"),
        url=params.text("url"),
        cache_time=params.integer("cache_time", 0) or 0,
    )
    query.answered.set()
    world.notify()
    return True


@api_method("answerInlineQuery")
async def answer_inline_query(world: World, params: Params) -> bool:
    """Answer an inline query once; the answer is cached for cache_time seconds."""
    record = world.inline_queries.get(params.required_text("inline_query_id"))
    if record is None or record.answer is not None or _expired(world, record.created):
        raise bad_request(QUERY_INVALID)
    results = _validated_results(params.decoded("results"))
    cache_time = params.integer("cache_time", DEFAULT_INLINE_CACHE_TIME)
    answer = InlineAnswer(
        results=results,
        cache_time=DEFAULT_INLINE_CACHE_TIME if cache_time is None else cache_time,
        is_personal=params.flag("is_personal"),
        next_offset=params.text("next_offset", "") or "",
        button=params.decoded("button"),
    )
    record.answer = answer
    if answer.cache_time > 0:
        personal_to = record.user.id if answer.is_personal else None
        expires = time.monotonic() + answer.cache_time
        cached = dataclasses.replace(answer, from_cache=True)
        world.inline_cache[(record.query, record.offset, personal_to)] = (cached, expires)
    record.answered.set()
    world.notify()
    return True


def _expired(world: World, created: float) -> bool:
    lifetime = world.query_lifetime
    return lifetime is not None and time.monotonic() - created > lifetime


def _validated_results(results: object) -> list[JsonDict]:
    if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
        raise bad_request("can't parse inline query results JSON object")
    if len(results) > MAX_INLINE_RESULTS:
        raise bad_request("RESULTS_TOO_MUCH")
    ids = [str(result.get("id", "")) for result in results]
    if any(not result_id or len(result_id.encode()) > 64 for result_id in ids):
        raise bad_request("RESULT_ID_INVALID")
    if len(set(ids)) != len(ids):
        raise bad_request("RESULT_ID_DUPLICATE")
    for result in results:
        if "type" not in result:
            raise bad_request("can't parse inline query result: type is missing")
        validate_reply_markup(result.get("reply_markup"))
    return results
