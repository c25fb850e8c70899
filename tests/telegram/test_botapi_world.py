"""The simulated Telegram behaves like the real one for the people in it, without a server."""

from __future__ import annotations

import asyncio

import pytest

from .botapi import World
from .botapi.formatting import parse_text, utf16_length
from .botapi.methods.queries import answer_inline_query
from .botapi.params import Params
from .botapi.ptb import run


def kinds(world: World) -> list[str]:
    """The kind of each queued update, e.g. "message"."""
    return [next(key for key in update if key != "update_id") for update in world.pending]


def test_privacy_mode_lets_through_commands_and_replies_to_the_bot_only(world: World) -> None:
    ann, bob = world.create_user("Ann"), world.create_user("Bob")
    table = world.create_group("Table", [ann, bob])
    world.add_bot(table, by=ann)
    world.pending.clear()
    offer = world.post(table, world.bot, "Who trades?")

    ann.say(table, "chatter")
    ann.say(table, "/trade@SomeOtherBot")
    bob.say(table, "me!", reply_to=offer)
    bob.say(table, "/trade")

    texts = [update["message"]["text"] for update in world.pending]
    assert texts == ["me!", "/trade"]
    assert world.pending[0]["message"]["reply_to_message"]["text"] == "Who trades?"


def test_an_admin_bot_or_one_without_privacy_mode_reads_everything(world: World) -> None:
    ann = world.create_user("Ann")
    table = world.create_group("Table", [ann])
    world.add_bot(table, by=ann, admin=True)
    ann.say(table, "chatter")
    assert kinds(world)[-1] == "message"


def test_starting_and_blocking_the_bot_are_reported_as_my_chat_member(world: World) -> None:
    ann = world.create_user("Ann")
    ann.start_bot()
    ann.block_bot()
    statuses = [
        update["my_chat_member"]["new_chat_member"]["status"]
        for update in world.pending
        if "my_chat_member" in update
    ]
    assert statuses == ["member", "kicked"]
    with pytest.raises(RuntimeError):
        ann.say(None, "hello?")


def test_allowed_updates_filter_what_is_queued(world: World) -> None:
    world.allowed_updates = frozenset({"callback_query"})
    ann = world.create_user("Ann")
    ann.start_bot()
    assert world.pending == [] and len(world.updates) == 2


def test_a_press_names_a_button_by_label_or_data_and_rejects_missing_ones(world: World) -> None:
    ann = world.create_user("Ann")
    keyboard = {"inline_keyboard": [[{"text": "Plant", "callback_data": "plant"}]]}
    message = world.post(ann.private_chat, world.bot, "Choose", reply_markup=keyboard)
    by_label, by_data = ann.press(message, "Plant"), ann.press(message, "plant")
    assert by_label.data == by_data.data == "plant"
    with pytest.raises(LookupError):
        ann.press(message, "Harvest")
    body = world.pending[-1]["callback_query"]
    assert body["chat_instance"] == ann.private_chat.chat_instance
    assert body["message"]["reply_markup"] == keyboard


def test_reply_keyboards_stay_until_removed_and_keys_send_their_label(world: World) -> None:
    ann = world.create_user("Ann")
    ann.start_bot()
    chat = ann.private_chat
    world.post(chat, world.bot, "Pick", reply_markup={"keyboard": [["Blue", {"text": "Red"}]]})
    assert ann.press_key(chat, "Red").text == "Red"
    world.post(chat, world.bot, "Done", reply_markup={"remove_keyboard": True})
    with pytest.raises(LookupError):
        ann.press_key(chat, "Blue")


def test_personal_inline_answers_are_cached_per_person(world: World) -> None:
    ann, bob = world.create_user("Ann"), world.create_user("Bob")

    async def bot_answers_with_the_asker_name() -> None:
        while True:
            await world.wait_until(lambda: bool(world.pending))
            query = world.pending.pop()["inline_query"]
            results = [{"type": "article", "id": query["from"]["first_name"]}]
            params = {"inline_query_id": query["id"], "results": results, "is_personal": True}
            await answer_inline_query(world, Params(params))

    async def scenario() -> list[list[str]]:
        bot = asyncio.create_task(bot_answers_with_the_asker_name())
        answers = [await user.inline_query("hand") for user in (ann, bob, ann)]
        bot.cancel()
        return [answer.ids for answer in answers]

    assert run(scenario()) == [["Ann"], ["Bob"], ["Ann"]]
    assert len(world.inline_queries) == 2


def test_entity_offsets_count_utf16_code_units() -> None:
    text, entities = parse_text("🫘 <b>beans</b> /harvest", "HTML")
    assert text == "🫘 beans /harvest"
    assert utf16_length("🫘") == 2
    assert entities == [
        {"offset": 3, "length": 5, "type": "bold"},
        {"offset": 9, "length": 8, "type": "bot_command"},
    ]
