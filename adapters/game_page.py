"""A game as one self-contained HTML page: the table at every action, from one side.

`game_page(record, lang, seat)` returns the page's bytes (UTF-8). The page loads nothing (its
style, script and drawings are inline, and its Content-Security-Policy forbids any request), so
it can be sent as a file at the end of a game and opened anywhere, offline. It shows the table
after each action with a slider, step buttons and the keys ← → Home End: every player's fields,
coins and hand size, the face-up cards, the deck, the open offers and what happened, in the
page's language; a chart of everyone's coins over the turns; and the final scores at the end.

What it holds is what one viewer saw: by default a spectator (no hand at all, only hand sizes),
or with `seat` that player (his own hand at every moment, nothing else hidden from him). Only the
moments computed from the engine's view of that side are embedded (see `game_page_data`), never
the record. Every user text is escaped: in the markup as entities, in the embedded JSON as
`\\u003c`, `\\u003e`, `\\u0026`, so a name like `</script>` stays a name.
"""

from __future__ import annotations

import json
from typing import Any

from bohnanza.core.analysis import Analysis
from bohnanza.core.app.i18n import LANGUAGES, Translator
from bohnanza.core.cards import VARIETIES
from bohnanza.core.record import GameRecord

from .game_page_analysis import check_page_analysis, page_analysis, turning_points_html
from .game_page_art import PLAYER_COLOURS, bean_legend, card_symbols, coins_chart, legend, text
from .game_page_data import page_data
from .game_page_script import SCRIPT, STYLE
from .game_page_words import page_words, viewer_words
from .i18n import load_translator

__all__ = ["embedded_json", "game_page", "page_text"]

_POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"
_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028"}
_JSON_ESCAPES["\u2029"] = "\\u2029"


def game_page(
    record: GameRecord,
    lang: str = "en",
    seat: int | None = None,
    altered: str | None = None,
    analysis: Analysis | None = None,
) -> bytes:
    """The page of a recorded game in `lang` (one of `LANGUAGES`), as the player at `seat` saw
    it (None: a spectator), as UTF-8 bytes. `altered` (why the game is not to be believed) is
    shown above the table; `analysis` (of that seat alone, or of every seat on a spectator's
    page of a finished game) marks the slider's steps that lost coins.

    Raises ValueError for an unknown language or seat, RecordError (a ValueError) if an action
    of the record is not legal."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    if seat is not None and not 0 <= seat < len(record.seats):
        raise ValueError(f"no seat {seat} in a game of {len(record.seats)} players")
    if analysis is not None:
        check_page_analysis(record, analysis, seat)
    tr = load_translator(lang)
    return page_text(record, tr, lang, seat, altered, analysis).encode("utf-8")


def embedded_json(data: Any) -> str:
    """JSON that can sit inside a `<script>` element: no `<`, `>` or `&` in it (each is written
    as its JSON escape), so no text in it can end the element or start a comment."""
    dumped = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return "".join(_JSON_ESCAPES.get(char, char) for char in dumped)


def page_text(
    record: GameRecord,
    tr: Translator,
    lang: str,
    seat: int | None,
    altered: str | None = None,
    analysis: Analysis | None = None,
) -> str:
    """The page as text (see `game_page`), with the words of `tr`."""
    page = page_data(record, tr, seat)
    data = page.data
    data["codes"] = [variety.value for variety in VARIETIES]
    data["colours"] = list(PLAYER_COLOURS)
    marks = better = review = ""
    if analysis is not None:
        shown = data["analysis"] = page_analysis(analysis, tr, data["names"])
        marks = '<span id="marks" class="marks"></span>'
        better = '<div id="better" class="better" hidden></div>' + turning_points_html(tr, shown)
        title_line = tr.gettext("Analysis of {game}").format(game=data["game"])
        lines = "".join(f"<p>{text(line)}</p>" for line in shown["players"])
        lines += "".join(f'<div class="note">{text(line)}</div>' for line in shown["legend"])
        review = f'<section id="analysis">\n<h2>{text(title_line)}</h2>\n{lines}\n</section>'
    names = data["names"]
    bean_names = data["labels"]["beans"]
    words = page_words(tr)
    warning = f'<p class="altered">{text(altered)}</p>' if altered else ""
    hand = '<div id="hand" class="row"></div>' if seat is not None else ""
    title = tr.gettext("Game {game}").format(game=data["game"])
    return f"""<!DOCTYPE html>
<html lang="{text(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{_POLICY}">
<title>Bohnanza · {text(title)}</title>
<style>{STYLE}</style>
</head>
<body>
{card_symbols(bean_names)}
<header>
<h1 id="head"></h1>
<p class="viewer" id="viewer">{text(viewer_words(tr, seat, names))}</p>
{warning}
</header>
<nav class="controls">
<button id="first" type="button" title="{text(words["first"])}"
aria-label="{text(words["first"])}">|◀</button>
<button id="previous" type="button" title="{text(words["previous"])}"
aria-label="{text(words["previous"])}">◀</button>
<span class="track">
<input id="slider" type="range" min="0" max="0" value="0" aria-label="{text(words["slider"])}">
{marks}</span>
<button id="next" type="button" title="{text(words["next"])}"
aria-label="{text(words["next"])}">▶</button>
<button id="last" type="button" title="{text(words["last"])}"
aria-label="{text(words["last"])}">▶|</button>
<span id="counter"></span>
<span class="keys">{text(words["keys"])}</span>
</nav>
{better}
<section id="result" hidden></section>
<main>
<section id="table">
<p id="piles"></p>
<p id="last-turn" class="last-turn" hidden>{text(data["labels"]["lastTurn"])}</p>
<div id="face-up" class="row"></div>
<div id="offered" class="row"></div>
{hand}
<div id="seats" class="seats"></div>
<div id="offers" class="offers"></div>
</section>
<section>
<h2>{text(words["story"])}</h2>
<ul id="events"></ul>
</section>
</main>
<section>
<h2>{text(words["chart"])}</h2>
{coins_chart(page.coins_by_turn, names, words["chart"])}
{legend(names)}
</section>
<section>
<h2>{text(words["beans"])}</h2>
{bean_legend(bean_names)}
</section>
{review}
<script type="application/json" id="game-data">{embedded_json(data)}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""
