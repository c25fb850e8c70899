"""The board page: one HTML document for every board (a web table, a Telegram Mini App, a private
link) and for the web's home page, in the game's language.

It holds its style, its script, its words and the replay page's card drawings, and loads
nothing: its Content-Security-Policy lets it run only its own script and style (named by their
digests) and talk only to the server it came from. What it shows comes from the server's stream
(`script`); the config says where the board looks, never who looks (that is proven on every
request: a cookie, the link, or Telegram's init data).
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from bohnanza.adapters.game_page import embedded_json
from bohnanza.adapters.game_page_art import PLAYER_COLOURS, card_symbols, text
from bohnanza.core.app.i18n import Translator
from bohnanza.core.cards import VARIETIES

from .script import SCRIPT
from .style import STYLE
from .words import board_words


def _digest(source: str) -> str:
    return base64.b64encode(hashlib.sha256(source.encode()).digest()).decode()


TELEGRAM_FRAMES = "https://web.telegram.org"
"""Telegram's web client shows a Mini App in a frame of its own."""


def page_policy(telegram: bool) -> str:
    """The page's Content-Security-Policy."""
    frames = TELEGRAM_FRAMES if telegram else "'none'"
    return (
        f"default-src 'none'; script-src 'sha256-{_digest(SCRIPT)}'; "
        f"style-src 'sha256-{_digest(STYLE)}'; connect-src 'self'; base-uri 'none'; "
        f"form-action 'none'; frame-ancestors {frames}"
    )


def board_page(tr: Translator, language: str, config: dict[str, Any]) -> str:
    """The page, with its config (`where` the board looks, `name` of a web visitor, `home`,
    `telegram`) and the words of `tr`."""
    words = board_words(tr)
    config = {
        **config,
        "language": language,
        "codes": [variety.value for variety in VARIETIES],
        "colours": list(PLAYER_COLOURS),
    }
    return f"""<!DOCTYPE html>
<html lang="{text(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Bohnanza</title>
<style>{STYLE}</style>
</head>
<body>
{card_symbols(words["beans"])}
<header><h1 id="head">Bohnanza</h1><span id="live" class="live" role="status"></span></header>
<p id="answer" class="answer" role="status" aria-live="polite" hidden></p>
<main id="main"></main>
<script type="application/json" id="board-config">{embedded_json(config)}</script>
<script type="application/json" id="board-words">{embedded_json(words)}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""
