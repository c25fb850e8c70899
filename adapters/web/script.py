"""The script of a board page, inlined into it (the page loads nothing else, and talks only to
the server it came from).

It follows the board's state as the server streams it (Server-Sent Events read with `fetch`,
connecting again after a drop, a little later each time, and showing the game as it then
stands), draws it, and sends each move the player makes with a delivery id of its own, the same
when it is sent again, so that it is applied once. Every word is written with `textContent`:
no name or line ever becomes markup. Keys: 1-9 make the listed moves, Esc clears an offer.

One function in three parts: this module's (who opens the board, sending, drawing what the state
is, following the server), `script_board` (a game) and `script_tables` (a web table's lobby, an
empty table, the home page).
"""

from __future__ import annotations

from .script_board import BOARD
from .script_tables import TABLES

HEAD = r"""
"use strict";
(() => {
  const C = JSON.parse(document.getElementById("board-config").textContent);
  const L = JSON.parse(document.getElementById("board-words").textContent);
  const WANT_CODES = "0123456789a";
  const $ = (id) => document.getElementById(id);
  const fill = (t, v) => t.replace(/\{(\w+)\}/g, (w, k) => (k in v ? String(v[k]) : w));
  const bare = (t) => fill(t, { beans: "", cards: "" }).replace(/[:\s]+$/, "");
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const button = (label, key, act, cls) => {
    const b = el("button", cls || "", label);
    b.type = "button";
    if (key) b.dataset.key = key;
    b.addEventListener("click", act);
    return b;
  };
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
  const counted = (list, n) => list[Math.min(n, list.length - 1)].replace(/\d+/, String(n));

  // --- who opens the board ------------------------------------------------------------------
  let initData = "";
  if (C.telegram) {
    const hash = new URLSearchParams(location.hash.slice(1));
    initData = hash.get("tgWebAppData") || "";
    try {
      if (initData) sessionStorage.setItem("tgWebAppData", initData);
      else initData = sessionStorage.getItem("tgWebAppData") || "";
    } catch (e) { /* no storage: the hash is all there is */ }
    const post = (type) => {
      const text = JSON.stringify({ eventType: type, eventData: {} });
      if (window.TelegramWebviewProxy) window.TelegramWebviewProxy.postEvent(type, "{}");
      else if (window.parent !== window) window.parent.postMessage(text, "https://web.telegram.org");
    };
    try { post("web_app_ready"); post("web_app_expand"); } catch (e) { /* not in Telegram */ }
  }
  const headers = (json) => {
    const h = {};
    if (initData) h.Authorization = "tma " + initData;
    if (json) { h["Content-Type"] = "application/json"; h["X-Bohnanza"] = "1"; }
    return h;
  };
  const where = new URLSearchParams(C.where || {}).toString();

  // --- what is shown ------------------------------------------------------------------------
  let S = null;
  let moves = [];
  let busy = false;
  const B = { sig: "", target: "", hand: new Set(), up: new Set(), want: new Map() };

  const card = (code, count, pos) => {
    const box = el("span", "bean");
    box.title = L.beans[code];
    box.dataset.variety = C.codes[code];
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "card");
    svg.setAttribute("viewBox", "0 0 60 84");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", L.beans[code]);
    const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
    use.setAttribute("href", "#bean-" + C.codes[code]);
    svg.appendChild(use);
    box.appendChild(svg);
    if (pos !== undefined) box.appendChild(el("span", "pos", String(pos)));
    if (count !== undefined) box.appendChild(el("span", "count", "\u00d7" + count));
    return box;
  };

  let answered = 0;
  const answer = (lines) => {
    const box = $("answer");
    const shown = (lines || []).filter((line) => line);
    box.textContent = shown.join("\n");
    box.hidden = shown.length === 0;
    const now = ++answered;
    if (shown.length) setTimeout(() => { if (answered === now) box.hidden = true; }, 12000);
  };

  const setLive = (live) => {
    const box = $("live");
    box.textContent = live ? "\u25cf " + L.live : L.away;
    box.classList.toggle("away", !live);
  };

  // --- sending ------------------------------------------------------------------------------
  const delivery = () => {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  };

  const post = async (path, body) => {
    for (let attempt = 0; attempt < 6; attempt++) {
      try {
        const res = await fetch(path, {
          method: "POST", headers: headers(true), body: JSON.stringify(body), cache: "no-store",
        });
        if (res.status >= 500) throw new Error(String(res.status));
        return [res.status, await res.json()];
      } catch (e) {
        await sleep(400 * (attempt + 1));
      }
    }
    return [0, null];
  };

  const send = async (text, isButton) => {
    if (busy) return;
    busy = true;
    document.body.setAttribute("aria-busy", "true");
    try {
      const [status, reply] = await post("/api/input", {
        where: C.where, text: text, button: !!isButton, delivery: delivery(),
      });
      if (!reply) answer([L.offline]);
      else if (status === 403) refused(reply.refused);
      else if (reply.error) answer([L[reply.error] || reply.error]);
      else answer(reply.answers);
    } finally {
      busy = false;
      document.body.removeAttribute("aria-busy");
    }
  };

"""

SCRIPT = (
    HEAD
    + BOARD
    + TABLES
    + r"""
  const refused = (reason) => {
    stopped = true;
    const main = $("main");
    main.replaceChildren(el("p", "refused", L[reason] || reason));
    main.className = "";
  };

  const draw = () => {
    const focused = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.key : undefined;
    const main = $("main");
    main.replaceChildren();
    if (S.kind === "game") drawGame(main);
    else if (S.kind === "lobby") drawLobby(main);
    else if (S.kind === "empty") drawEmpty(main);
    else if (S.kind === "home") drawHome(main);
    else if (S.kind === "refused") refused(S.reason);
    else main.appendChild(el("p", "refused", L[S.kind] || S.kind));
    if (focused) {
      const again = main.querySelector('[data-key="' + CSS.escape(focused) + '"]');
      if (again) again.focus();
    }
  };

  const show = (state) => {
    if (state.language && C.language && state.language !== C.language) {
      // The table's language changed: the page's words are another's (once: no loop).
      let again = true;
      try {
        again = sessionStorage.getItem("reloadedFor") !== state.language;
        sessionStorage.setItem("reloadedFor", state.language);
      } catch (e) { /* no storage: reload */ }
      if (again) { location.reload(); return; }
    }
    S = state;
    draw();
  };

  document.addEventListener("keydown", (e) => {
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "Escape" && S && S.trade) { resetDraft(); draw(); return; }
    const n = /^[1-9]$/.test(e.key) ? +e.key : 0;
    if (n && moves[n - 1]) { e.preventDefault(); moves[n - 1].click(); }
  });

  // --- following the server -----------------------------------------------------------------
  let stopped = false;
  const follow = async () => {
    let delay = 500;
    while (!stopped) {
      const abort = new AbortController();
      let watchdog = setTimeout(() => abort.abort(), 45000);
      try {
        const res = await fetch("/api/events?" + where, {
          headers: headers(false), cache: "no-store", signal: abort.signal,
        });
        if (res.status === 403) { refused((await res.json()).refused); return; }
        if (!res.ok) throw new Error(String(res.status));
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          clearTimeout(watchdog);
          watchdog = setTimeout(() => abort.abort(), 45000);
          buffer += decoder.decode(value, { stream: true });
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const chunk = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = chunk.split("\n").filter((l) => l.startsWith("data: "))
              .map((l) => l.slice(6)).join("\n");
            if (data) { setLive(true); delay = 500; show(JSON.parse(data)); }
          }
        }
      } catch (e) { /* dropped: connect again */ }
      clearTimeout(watchdog);
      if (stopped) return;
      setLive(false);
      await sleep(delay);
      delay = Math.min(delay * 2, 5000);
    }
  };

  // Opened from the bot's menu (no game named): the player's game, or the choice of his games.
  const chooseGame = async () => {
    const res = await fetch("/api/games", { headers: headers(false), cache: "no-store" });
    const reply = await res.json();
    if (res.status === 403) { refused(reply.refused); return; }
    const games = reply.games || [];
    const go = (game) => {
      C.where = { g: game.game };
      location.replace("/tg/" + encodeURIComponent(game.game) + location.hash);
    };
    if (games.length === 1) { go(games[0]); return; }
    const main = $("main");
    const box = el("section", "panel");
    box.appendChild(el("p", "", games.length ? L.yourGames : L.noGames));
    for (const game of games) {
      box.appendChild(button(fill(L.game, { game: game.game }), "g" + game.game, () => go(game)));
    }
    main.replaceChildren(box);
  };

  if (C.home) { S = { kind: "home" }; draw(); }
  else if (C.telegram && !initData) refused("forged");
  else if (C.telegram && !C.where.g) chooseGame();
  else follow();
})();
"""
)
