"""Formatted messages reach people's Matrix clients through a real Synapse, edits included."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bohnanza.adapters.i18n import load_translators
from bohnanza.adapters.matrix.translate import HTML_FORMAT

from ..app.formatted import read_html, samples
from .accounts import register_account, unique_localpart
from .synapse import Homeserver
from .test_adapter_port import MatrixHarness


@pytest.fixture(scope="module")
def matrix(
    synapse: Homeserver, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[MatrixHarness]:
    names = ("bot", "ann", "bob", "cat")
    accounts = {name: register_account(synapse, unique_localpart(name)) for name in names}
    harness = MatrixHarness(synapse, accounts, tmp_path_factory.mktemp("matrix-formatting"))
    yield harness
    harness.close()


def test_the_table_arrives_formatted_and_stays_formatted_when_edited(
    matrix: MatrixHarness,
) -> None:
    rendered = samples(load_translators()["ru"], players=4, seed=5)
    first, later = rendered[2].message, rendered[-2].message
    message_id = matrix.run(matrix.port.send(matrix.room, first))
    matrix.room_texts()
    ann = matrix.people["ann"]
    shown = next(m for m in ann.messages(matrix.room) if m.event_id == message_id)
    assert shown.body == first.text and shown.content["format"] == HTML_FORMAT
    assert shown.formatted_body is not None and first.html is not None
    assert read_html(shown.formatted_body, ("b", "i", "br")).text == read_html(first.html).text

    matrix.run(matrix.port.edit(matrix.room, message_id, later))
    matrix.room_texts()
    edited = next(m for m in ann.messages(matrix.room) if m.event_id == message_id)
    assert edited.edited and edited.body == later.text
    assert edited.formatted_body is not None and later.html is not None
    assert read_html(edited.formatted_body, ("b", "i", "br")).text == read_html(later.html).text
    assert "<b>[/x]</b>" in edited.formatted_body and "<b>&lt;b&gt;</b>" in edited.formatted_body


def test_a_private_hand_arrives_formatted(matrix: MatrixHarness) -> None:
    hand = samples(load_translators()["de"], players=4, seed=5)[3].message
    assert hand.html is not None
    matrix.run(matrix.port.send_private(matrix.player, hand))
    assert hand.text in matrix.private_texts(matrix.player)
    ann = matrix.people["ann"]
    direct = matrix.port.state.direct_rooms[matrix.player]
    shown = ann.messages(direct)[-1]
    assert shown.formatted_body is not None
    assert read_html(shown.formatted_body, ("b", "i", "br")).text == read_html(hand.html).text
