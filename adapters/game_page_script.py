"""The style and the script of a game page, inlined into it (the page loads nothing else).

The script reads the page's embedded data (see `game_page_data`), rebuilds the table of the moment
chosen with the slider, the step buttons or the keys (← → Home End), and writes every word with
`textContent`: no name or line ever becomes markup.
"""

from __future__ import annotations

STYLE = """
[hidden]{display:none!important}
body{font:15px/1.4 system-ui,sans-serif;margin:0;padding:0 1rem 2rem;background:#f6f3ea;
color:#222}
header{padding:.6rem 0}h1{font-size:1.15rem;margin:.2rem 0}h2{font-size:1rem;margin:.8rem 0 .3rem}
.viewer{color:#555;margin:.2rem 0}.altered{color:#fff;background:#b00020;padding:.3rem .6rem}
.controls{position:sticky;top:0;z-index:2;display:flex;flex-wrap:wrap;gap:.4rem;
align-items:center;background:#f6f3ea;padding:.4rem 0;border-bottom:1px solid #ddd}
.controls button{font-size:1.1rem;min-width:2.4rem}
.track{flex:1;min-width:12rem;display:flex;flex-direction:column}.track input{width:100%}
.keys{color:#777;font-size:.85rem}
main{display:grid;grid-template-columns:minmax(0,3fr) minmax(14rem,2fr);gap:1rem}
@media (max-width:800px){main{grid-template-columns:1fr}}
.row{display:flex;flex-wrap:wrap;gap:.3rem;align-items:center;margin:.3rem 0}
.label{font-weight:600;margin-right:.3rem}
.seats{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:.5rem}
.seat{background:#fff;border:1px solid #ccc;border-radius:6px;padding:.4rem .5rem}
.seat.active{border:2px solid #333;box-shadow:0 0 0 3px #e8b92355}
.who{display:flex;gap:.4rem;align-items:center;font-weight:600;overflow-wrap:anywhere}
.swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:50%;flex:none}
.field{display:inline-flex;align-items:center;gap:.15rem;min-width:3rem;min-height:3.7rem;
border:1px dashed #aaa;border-radius:5px;padding:.1rem .25rem;color:#888;font-style:italic}
.bean{display:inline-flex;align-items:center;gap:.15rem;font-style:normal;color:#222}
svg.card{width:42px;height:59px;display:block}.count{font-weight:700}
.defs{position:absolute;width:0;height:0;overflow:hidden}
#events{max-height:26rem;overflow:auto;padding-left:0;margin:0;list-style:none}
#events li{color:#777}#events li.now{color:#111;font-weight:600}
.offers p{margin:.15rem 0}.last-turn{font-weight:700;color:#b00020}
#result{background:#fff;border:2px solid #e8b923;border-radius:6px;padding:.4rem .8rem;
margin:.6rem 0}#result .winner{font-weight:700}
.marks{position:relative;height:1rem;margin:0 8px}
.controls .mark{position:absolute;top:0;width:.5rem;min-width:0;height:1rem;
margin-left:-.25rem;padding:0;border:0;border-radius:2px;background:#e8b923;cursor:pointer}.mark.mistake{background:#b00020}
.better{background:#fff4f4;border-left:4px solid #b00020;padding:.3rem .6rem;margin:.3rem 0}
.better p{margin:.1rem 0}
.turning ol{margin:.2rem 0;padding-left:1.5rem}.turning h2{font-size:1rem;margin:.3rem 0}
.turning button{border:0;background:none;padding:0;text-align:left;cursor:pointer;
text-decoration:underline;font:inherit;color:inherit}
#analysis .note{color:#555;font-size:.85rem;margin:.3rem 0}
#chart{width:100%;max-width:48rem;height:auto;background:#fff;border:1px solid #ddd}
.legend{display:flex;flex-wrap:wrap;gap:.8rem;list-style:none;padding:0}
.legend li{display:flex;gap:.3rem;align-items:center}
.beans{display:flex;flex-wrap:wrap;gap:.6rem}.beans figure{margin:0;text-align:center;
font-size:.8rem;width:5rem}.beans svg.card{width:60px;height:84px;margin:auto}
"""

SCRIPT = r"""
"use strict";
(() => {
  const D = JSON.parse(document.getElementById("game-data").textContent);
  const L = D.labels, steps = D.steps, last = steps.length - 1;
  for (let i = 1; i <= last; i++) {
    steps[i].S = steps[i].S.map((seat, k) => (seat === 0 ? steps[i - 1].S[k] : seat));
  }
  const $ = (id) => document.getElementById(id);
  const fill = (template, values) =>
    template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
  const el = (tag, className, words) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (words !== undefined) node.textContent = words;
    return node;
  };
  const card = (variety, count) => {
    const box = el("span", "bean");
    box.title = L.beans[variety];
    box.dataset.variety = D.codes[variety];
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "card");
    svg.setAttribute("viewBox", "0 0 60 84");
    const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
    use.setAttribute("href", "#bean-" + D.codes[variety]);
    svg.appendChild(use);
    box.appendChild(svg);
    if (count !== undefined) box.appendChild(el("span", "count", "\u00d7" + count));
    return box;
  };
  const row = (box, template, varieties) => {
    box.replaceChildren();
    box.hidden = varieties.length === 0;
    box.appendChild(el("span", "label", fill(template, { beans: "", cards: "" }).trim()));
    for (const variety of varieties) box.appendChild(card(variety));
  };
  const seatBox = (k, seat, moment) => {
    const [coins, hand, fields, aside] = seat;
    const over = moment.s === "game-over";
    const box = el("div", "seat" + (k === moment.a && !over ? " active" : ""));
    Object.assign(box.dataset, { seat: k, coins: coins, hand: hand });
    const who = el("div", "who");
    const swatch = el("span", "swatch");
    swatch.style.background = D.colours[k % D.colours.length];
    who.append(swatch, el("span", "", fill(L.seat, {
      number: k + 1, name: D.names[k], coins: L.coins[coins], cards: L.cards[hand],
    })));
    const planted = el("div", "row");
    for (const [variety, count] of fields) {
      const field = el("span", "field", variety < 0 ? L.empty : undefined);
      if (variety >= 0) field.appendChild(card(variety, count));
      planted.appendChild(field);
    }
    box.append(who, planted);
    if (aside.length) {
      const set = el("div", "row");
      row(set, L.aside, aside);
      box.appendChild(set);
    }
    return box;
  };
  const story = (at) => {
    const list = $("events");
    list.replaceChildren();
    for (let i = Math.max(0, at - 12); i <= at; i++) {
      for (const line of steps[i].ev || []) {
        list.appendChild(el("li", i === at ? "now" : "", line));
      }
    }
    list.scrollTop = list.scrollHeight;
  };
  const result = (at) => {
    const box = $("result");
    box.hidden = !(at === last && D.result);
    box.replaceChildren();
    if (box.hidden) return;
    box.appendChild(el("h2", "", D.result.over));
    const scores = el("ol", "scores");
    for (const [seat, score, line] of D.result.scores) {
      const item = el("li", "", line);
      Object.assign(item.dataset, { seat: seat, score: score });
      scores.appendChild(item);
    }
    box.append(scores, el("p", "winner", D.result.winner));
  };
  const A = D.analysis;
  const marked = (at) => {
    const box = $("better");
    const lines = (A.marks[String(at)] || []).map((mark) => mark[3]);
    box.hidden = lines.length === 0;
    box.replaceChildren(...lines.map((line) => el("p", "", line)));
  };
  let current = 0;
  const show = (at) => {
    current = Math.max(0, Math.min(last, at));
    const moment = steps[current];
    $("slider").value = String(current);
    $("counter").textContent = fill(L.action, { number: current, total: last });
    let head = fill(L.head, { game: D.game, turn: moment.t, step: L.steps[moment.s] });
    if (moment.s !== "game-over") head += " · " + D.names[moment.a];
    $("head").textContent = head;
    $("piles").textContent = fill(L.piles, {
      deck: moment.d, discard: moment.x, top: moment.top < 0 ? "—" : L.beans[moment.top],
      exhausted: moment.e, final: D.final,
    });
    $("last-turn").hidden = !moment.ft;
    row($("face-up"), L.faceUp, moment.fu);
    row($("offered"), L.onOffer, moment.of);
    $("seats").replaceChildren(...moment.S.map((seat, k) => seatBox(k, seat, moment)));
    if (moment.h) row($("hand"), L.hand, moment.h);
    const offers = $("offers");
    offers.replaceChildren();
    if (moment.o) {
      offers.appendChild(el("p", "label", L.offers));
      for (const line of moment.o) offers.appendChild(el("p", "", line));
    }
    story(current);
    result(current);
    if (A) marked(current);
    const chart = $("chart");
    if (chart) {
      const x = +chart.dataset.x0 + (moment.t - +chart.dataset.first) * +chart.dataset.dx;
      for (const end of ["x1", "x2"]) $("chart-now").setAttribute(end, x.toFixed(1));
    }
  };
  $("slider").max = String(last);
  if (A) {
    for (const [at, marks] of Object.entries(A.marks)) {
      const mark = el("button", marks.some((m) => m[2]) ? "mark mistake" : "mark");
      mark.type = "button";
      mark.dataset.step = at;
      mark.title = marks.map((m) => m[3]).join("\n");
      mark.style.left = ((100 * +at) / Math.max(1, last)).toFixed(3) + "%";
      mark.addEventListener("click", () => show(+at));
      $("marks").appendChild(mark);
    }
    for (const point of document.querySelectorAll("#turning button")) {
      point.addEventListener("click", () => show(+point.dataset.step));
    }
  }
  $("slider").addEventListener("input", () => show(+$("slider").value));
  $("first").addEventListener("click", () => show(0));
  $("previous").addEventListener("click", () => show(current - 1));
  $("next").addEventListener("click", () => show(current + 1));
  $("last").addEventListener("click", () => show(last));
  document.addEventListener("keydown", (event) => {
    if (event.target === $("slider") || event.altKey || event.ctrlKey || event.metaKey) return;
    const to = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    show(to);
  });
  const wanted = /^#(\d+)$/.exec(location.hash);
  show(wanted ? +wanted[1] : 0);
})();
"""
