"""The drawings of a game page, as inline SVG: one card per bean variety, and the coins chart.

Each variety is a card of one colour with its name and its beanometer (how many beans sell for
1, 2, 3 and 4 coins), drawn once as a `<symbol>` that the page's script places wherever that bean
lies. Every text written into the SVG is escaped: the bean names are translations, the player
names are user input.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from bohnanza.core.cards import VARIETIES, Variety

BEAN_COLOURS: dict[Variety, tuple[str, str]] = {
    Variety.COFFEE: ("#6f4e37", "#ffffff"),
    Variety.WAX: ("#f2d45c", "#2b2b2b"),
    Variety.BLUE: ("#3b6fd8", "#ffffff"),
    Variety.CHILI: ("#d9412b", "#ffffff"),
    Variety.STINK: ("#8a8f3c", "#ffffff"),
    Variety.GREEN: ("#3f9b45", "#ffffff"),
    Variety.SOY: ("#e3c99a", "#2b2b2b"),
    Variety.BLACK_EYED: ("#efece4", "#2b2b2b"),
    Variety.RED: ("#a3213a", "#ffffff"),
    Variety.GARDEN: ("#4fb3a5", "#2b2b2b"),
    Variety.COCOA: ("#3e2417", "#ffffff"),
}
"""Each variety's card colour and the colour of the words on it."""

PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#17becf", "#e377c2")
"""One colour per seat, in the chart and beside the names."""

CARD_VIEW = "0 0 60 84"
_WIDE_NAME = 11
"""A name longer than this is squeezed to the card's width."""


def text(value: object) -> str:
    """Text for HTML or SVG: `<`, `>`, `&` and quotes escaped."""
    return escape(str(value), quote=True)


def card_symbols(bean_names: Sequence[str]) -> str:
    """An SVG holding one `<symbol id="bean-CODE">` per variety (names in the page's language)."""
    symbols = "".join(_card(v, name) for v, name in zip(VARIETIES, bean_names, strict=True))
    return f'<svg class="defs" aria-hidden="true"><defs>{symbols}</defs></svg>'


def _card(variety: Variety, name: str) -> str:
    fill, ink = BEAN_COLOURS[variety]
    squeeze = ' textLength="54" lengthAdjust="spacingAndGlyphs"' if len(name) > _WIDE_NAME else ""
    parts = [
        f'<symbol id="bean-{variety.value}" viewBox="{CARD_VIEW}">',
        f'<rect x="1" y="1" width="58" height="82" rx="6" fill="{fill}" stroke="#222"/>',
        f'<text x="30" y="11" font-size="7.5" text-anchor="middle" fill="{ink}"{squeeze}>'
        f"{text(name)}</text>",
        '<ellipse cx="30" cy="35" rx="12" ry="17" fill="#fff" fill-opacity=".35" stroke="'
        f'{ink}" stroke-opacity=".5"/>',
        f'<path d="M25 25 q6 10 0 20" fill="none" stroke="{ink}" stroke-opacity=".5"/>',
        '<rect x="4" y="57" width="52" height="24" rx="3" fill="#fff" fill-opacity=".85"/>',
    ]
    for coins, needed in enumerate(variety.beanometer, start=1):
        if needed is None:
            continue
        x = 10 + (coins - 1) * 13.3
        parts.append(
            f'<text x="{x:.1f}" y="67" font-size="8" font-weight="bold" text-anchor="middle" '
            f'fill="#222">{needed}</text>'
            f'<circle cx="{x:.1f}" cy="74.5" r="4.2" fill="#e8b923" stroke="#8a6d0b" '
            'stroke-width=".6"/>'
            f'<text x="{x:.1f}" y="76.8" font-size="6" text-anchor="middle" fill="#222">'
            f"{coins}</text>"
        )
    parts.append("</symbol>")
    return "".join(parts)


_WIDTH, _HEIGHT = 640, 220
_LEFT, _RIGHT, _TOP, _BOTTOM = 34, 12, 12, 26


def coins_chart(
    coins_by_turn: Sequence[tuple[int, Sequence[int]]], names: Sequence[str], title: str
) -> str:
    """A line per player of his coins at the end of each turn, with a marker (`#chart-now`)
    that the script moves to the turn shown."""
    turns = [turn for turn, _ in coins_by_turn]
    first, last = turns[0], turns[-1]
    top = max(1, *(c for _, row in coins_by_turn for c in row))
    dx = (_WIDTH - _LEFT - _RIGHT) / max(1, last - first)
    plot = _HEIGHT - _TOP - _BOTTOM

    def xy(turn: int, coins: int) -> str:
        return f"{_LEFT + (turn - first) * dx:.1f},{_TOP + plot * (1 - coins / top):.1f}"

    parts = [
        f'<svg id="chart" viewBox="0 0 {_WIDTH} {_HEIGHT}" role="img" data-first="{first}" '
        f'data-x0="{_LEFT}" data-dx="{dx:.4f}"><title>{text(title)}</title>',
        f'<g stroke="#bbb" stroke-width="1"><line x1="{_LEFT}" y1="{_TOP + plot}" '
        f'x2="{_WIDTH - _RIGHT}" y2="{_TOP + plot}"/><line x1="{_LEFT}" y1="{_TOP}" '
        f'x2="{_LEFT}" y2="{_TOP + plot}"/></g>',
        '<g font-size="11" fill="#555">',
    ]
    for value in sorted({0, top // 2, top}):
        y = _TOP + plot * (1 - value / top)
        parts.append(f'<text x="{_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{value}</text>')
    for turn in _ticks(first, last):
        x = _LEFT + (turn - first) * dx
        parts.append(f'<text x="{x:.1f}" y="{_HEIGHT - 8}" text-anchor="middle">{turn}</text>')
    parts.append("</g>")
    for seat, name in enumerate(names):
        points = " ".join(xy(turn, row[seat]) for turn, row in coins_by_turn)
        colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}">'
            f"<title>{text(name)}</title></polyline>"
        )
    parts.append(
        f'<line id="chart-now" x1="{_LEFT}" x2="{_LEFT}" y1="{_TOP}" y2="{_TOP + plot}" '
        'stroke="#333" stroke-dasharray="4 3"/></svg>'
    )
    return "".join(parts)


def _ticks(first: int, last: int) -> list[int]:
    """About ten turn numbers along the axis, the first and the last among them."""
    step = max(1, (last - first) // 10)
    ticks = list(range(first, last + 1, step))
    if ticks[-1] != last:
        if last - ticks[-1] < step / 2 and len(ticks) > 1:
            ticks.pop()
        ticks.append(last)
    return ticks


def legend(names: Sequence[str]) -> str:
    """The players' names beside their colours."""
    items = "".join(
        f'<li><span class="swatch" style="background:{PLAYER_COLOURS[i % len(PLAYER_COLOURS)]}">'
        f"</span>{text(name)}</li>"
        for i, name in enumerate(names)
    )
    return f'<ul class="legend">{items}</ul>'


def bean_legend(bean_names: Sequence[str]) -> str:
    """Every variety's card, with its name under it."""
    cards = "".join(
        f'<figure><svg class="card" viewBox="{CARD_VIEW}"><use href="#bean-{v.value}"/></svg>'
        f"<figcaption>{text(name)}</figcaption></figure>"
        for v, name in zip(VARIETIES, bean_names, strict=True)
    )
    return f'<div class="beans">{cards}</div>'
