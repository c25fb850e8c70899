"""The script of a board page, inlined into it (the page loads nothing else, and talks only to
the server it came from).

It follows the board's state as the server streams it (Server-Sent Events read with `fetch`,
connecting again after a drop, a little later each time, and showing the game as it then
stands), draws it, and sends each move the player makes with a delivery id of its own, the same
when it is sent again, so that it is applied once. Every word is written with `textContent`:
no name or line ever becomes markup. Keys: 1-9 make the listed moves, Esc clears an offer.
"""

from __future__ import annotations

SCRIPT = r"""
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

  // --- the board ----------------------------------------------------------------------------
  const commandOf = (payload) => payload.split(" ").slice(3).join(" ");
  const offerOf = (payload) => {
    const found = /^(accept|decline|withdraw) (\d+)(?=[ ;]|$)/.exec(commandOf(payload));
    return found ? +found[2] : null;
  };

  const resetDraft = () => {
    B.hand.clear(); B.up.clear(); B.want.clear();
    const t = S && S.trade;
    B.target = t ? (t.partners.length === 1 ? "s" + (t.partners[0] + 1) : "a") : "";
  };

  const mask = (set) => Array.from(set).reduce((m, p) => m + 2 ** p, 0).toString(16);

  const draftPayload = () => {
    const want = Array.from(B.want.entries()).sort((a, b) => a[0] - b[0])
      .map(([code, n]) => WANT_CODES[code].repeat(n)).join("") || "-";
    return ["g", S.game, S.token, "send", B.target, mask(B.hand), mask(B.up), want].join(" ");
  };

  const targetName = () => {
    if (B.target === "a") return L.anyone;
    if (B.target[0] === "c") {
      const offer = S.offers.find((o) => "c" + o.id === B.target);
      return offer ? S.names[offer.from] : "?";
    }
    return S.names[+B.target.slice(1) - 1] || "?";
  };

  const draftLine = () => {
    const given = [...Array.from(B.up).sort().map((p) => S.faceUp[p]),
      ...Array.from(B.hand).sort((a, b) => a - b).map((p) => S.hand[p])];
    const to = targetName();
    if (!given.length) return fill(L.hint, { partner: to });
    const give = given.map((c) => L.beans[c]).join(", ");
    const wanted = [];
    for (const [code, n] of Array.from(B.want.entries()).sort((a, b) => a[0] - b[0])) {
      for (let i = 0; i < n; i++) wanted.push(L.beans[code]);
    }
    if (!wanted.length) return fill(L.gift, { partner: to, give: give });
    return fill(L.for, { partner: to, give: give, want: wanted.join(", ") });
  };

  const cardRow = (label, list, kind, pickable) => {
    const row = el("div", "row");
    row.dataset.row = kind;
    row.appendChild(el("span", "label", label));
    list.forEach((code, p) => {
      const chosen = kind === "hand" ? B.hand : B.up;
      const shown = card(code, undefined, kind === "hand" ? p + 1 : undefined);
      if (!pickable) { row.appendChild(shown); return; }
      const b = button("", kind + p, () => {
        if (chosen.has(p)) chosen.delete(p); else chosen.add(p);
        draw();
      }, "cardbtn");
      b.setAttribute("aria-pressed", String(chosen.has(p)));
      b.setAttribute("aria-label", (kind === "hand" ? p + 1 + ". " : "") + L.beans[code]);
      b.appendChild(shown);
      row.appendChild(b);
    });
    return row;
  };

  const tradePanel = () => {
    const t = S.trade;
    const box = el("div", "trade");
    box.appendChild(el("p", "", draftLine()));
    const partners = el("div", "row");
    if (t.partners.length > 1) {
      const pick = (target, label) => {
        const b = button(label, "to" + target, () => { B.target = target; draw(); }, "chip");
        b.setAttribute("aria-pressed", String(B.target === target));
        partners.appendChild(b);
      };
      for (const seat of t.partners) {
        pick("s" + (seat + 1), fill(L.offerTo, { name: S.names[seat] }));
      }
      pick("a", L.offerAnyone);
    }
    for (const id of t.counters) {
      const b = button(fill(L.counter, { offer: id }), "toc" + id, () => {
        B.target = "c" + id; draw();
      }, "chip");
      b.setAttribute("aria-pressed", String(B.target === "c" + id));
      partners.appendChild(b);
    }
    if (partners.childNodes.length) box.appendChild(partners);
    const wants = el("div", "row");
    wants.appendChild(el("span", "label", L.want));
    for (const code of t.beans) {
      const n = B.want.get(code) || 0;
      const label = n ? "\u2714 " + L.short[code] + " x" + n : "+ " + L.short[code];
      const b = button(label, "want" + code, () => {
        const next = (n + 1) % 3;
        if (next) B.want.set(code, next); else B.want.delete(code);
        draw();
      }, "chip");
      b.setAttribute("aria-pressed", String(n > 0));
      wants.appendChild(b);
    }
    box.appendChild(wants);
    const last = el("div", "row");
    const ready = (B.hand.size || B.up.size) && B.target;
    const go = button(B.want.size ? L.send : L.give, "send", () => {
      const payload = draftPayload();
      resetDraft();
      send(payload, true);
    }, "main");
    go.disabled = !ready;
    last.append(go, button(L.clear, "clear", () => { resetDraft(); draw(); }));
    box.appendChild(last);
    return box;
  };

  const offersPanel = (choices) => {
    const box = el("div", "offers");
    if (!S.offers.length) return box;
    box.appendChild(el("p", "label", L.offers));
    for (const offer of S.offers) {
      const item = el("div", "offer" + (offer.to === S.viewer ? " tome" : ""));
      item.dataset.offer = offer.id;
      item.appendChild(el("p", offer.stale ? "stale" : "", offer.line));
      const row = el("div", "row");
      for (const c of choices.filter((c) => offerOf(c.payload) === offer.id)) {
        row.appendChild(button(c.label, "o" + commandOf(c.payload), () => send(c.payload, true)));
      }
      if (S.trade && S.trade.counters.includes(offer.id)) {
        row.appendChild(button(fill(L.counter, { offer: offer.id }), "c" + offer.id, () => {
          B.target = "c" + offer.id; draw();
        }));
      }
      if (row.childNodes.length) item.appendChild(row);
      box.appendChild(item);
    }
    return box;
  };

  const seatBox = (k, seat) => {
    const [coins, hand, fields, aside] = seat;
    const over = S.step === "game-over";
    let cls = "seat" + (k === S.active && !over ? " active" : "") + (k === S.viewer ? " me" : "");
    const box = el("div", cls);
    Object.assign(box.dataset, { seat: k, coins: coins, hand: hand });
    const who = el("div", "who");
    const swatch = el("span", "swatch");
    swatch.style.background = C.colours[k % C.colours.length];
    who.append(swatch, el("span", "", fill(L.seat, {
      number: k + 1, name: S.names[k],
      coins: counted(L.coins, coins), cards: counted(L.cards, hand),
    })));
    if (S.waiting.includes(k)) {
      const mark = el("span", "wait");
      mark.title = L.waitingFor;
      mark.setAttribute("role", "img");
      mark.setAttribute("aria-label", L.waitingFor);
      who.appendChild(mark);
    }
    const planted = el("div", "row");
    for (const [code, count] of fields) {
      const field = el("span", "field", code < 0 ? L.empty : undefined);
      if (code >= 0) field.appendChild(card(code, count));
      planted.appendChild(field);
    }
    box.append(who, planted);
    if (aside.length) {
      const set = el("div", "row");
      set.appendChild(el("span", "label", bare(L.aside)));
      for (const code of aside) set.appendChild(card(code));
      box.appendChild(set);
    }
    return box;
  };

  const result = () => {
    const box = el("div", "result");
    box.appendChild(el("h2", "", S.result.over));
    const scores = el("ol", "scores");
    for (const [seat, score, line] of S.result.scores) {
      const item = el("li", "", line);
      Object.assign(item.dataset, { seat: seat, score: score });
      scores.appendChild(item);
    }
    box.append(scores, el("p", "winner", S.result.winner));
    if (S.replay && !C.telegram) {
      const link = el("a", "", L.replay);
      link.href = "/replay/" + encodeURIComponent(S.game) + "?" + where;
      link.target = "_blank";
      link.rel = "noopener";
      box.appendChild(link);
    }
    if (C.where.t) box.appendChild(button(L.again, "again", () => send("new")));
    return box;
  };

  const drawGame = (main) => {
    main.className = "game";
    const sig = JSON.stringify([S.game, S.turn, S.step, S.hand || [], S.faceUp, !!S.trade]);
    if (sig !== B.sig) { B.sig = sig; resetDraft(); }
    let head = fill(L.head, { game: S.game, turn: S.turn, step: S.stepName });
    if (S.step !== "game-over") head += " \u00b7 " + S.names[S.active];
    $("head").textContent = head;
    document.title = "Bohnanza \u00b7 " + fill(L.game, { game: S.game });
    const mine = el("section", "panel mine");
    const choices = S.choices || [];
    moves = [];
    if (S.result) mine.appendChild(result());
    if (S.viewer === null || S.viewer === undefined) {
      mine.appendChild(el("p", "", L.watching));
    } else if (!S.result) {
      if (S.waiting.includes(S.viewer)) {
        mine.classList.add("due");
        let line = L.yourMove;
        if (S.due) {
          const time = new Date(S.due * 1000).toLocaleTimeString(C.language,
            { hour: "2-digit", minute: "2-digit" });
          line += " " + fill(L.due, { time: time });
        }
        mine.appendChild(el("p", "yours", line));
      } else if (S.waiting.length) {
        const who = S.waiting.map((k) => S.names[k]).join(", ");
        mine.appendChild(el("p", "", fill(L.waiting, { players: who })));
      }
      if (S.note) mine.appendChild(el("p", "note", S.note));
      const list = el("div", "moves");
      list.setAttribute("aria-label", L.moves);
      for (const c of choices) {
        if (offerOf(c.payload) !== null) continue;
        const number = moves.length + 1;
        const b = button("", "m" + commandOf(c.payload), () => send(c.payload, true), "move");
        b.dataset.command = commandOf(c.payload);
        if (number <= 9) b.appendChild(el("span", "n", String(number)));
        b.appendChild(document.createTextNode(c.label));
        list.appendChild(b);
        moves.push(b);
      }
      if (moves.length) mine.appendChild(list);
      else mine.appendChild(el("p", "", L.noMoves));
    }
    if (S.lastTurn) mine.appendChild(el("p", "last-turn", L.lastTurn));
    const trade = S.trade || null;
    if (S.faceUp.length) {
      mine.appendChild(cardRow(bare(L.faceUp), S.faceUp, "up", !!trade && trade.faceUp > 0));
    }
    if (S.offered.length) {
      mine.appendChild(cardRow(bare(L.onOffer), S.offered, "offered", false));
    }
    if (S.hand) mine.appendChild(cardRow(bare(L.hand), S.hand, "hand", !!trade));
    if (trade) mine.appendChild(tradePanel());
    mine.appendChild(offersPanel(choices));
    if (moves.length) mine.appendChild(el("p", "keys", L.keys));
    const table = el("section", "");
    table.appendChild(el("h2", "", L.table));
    const seats = el("div", "seats");
    S.seats.forEach((seat, k) => seats.appendChild(seatBox(k, seat)));
    table.appendChild(seats);
    table.appendChild(el("p", "piles", fill(L.piles, {
      deck: S.deck, discard: S.discard, top: S.top < 0 ? "\u2014" : L.beans[S.top],
      exhausted: S.exhausted, final: S.final,
    })));
    const told = el("section", "");
    told.hidden = !S.story.length;
    told.appendChild(el("h2", "", L.story));
    const story = el("ul", "");
    story.id = "story";
    for (const line of S.story) story.appendChild(el("li", "", line));
    told.appendChild(story);
    table.appendChild(told);
    main.append(mine, table);
    story.scrollTop = story.scrollHeight;
  };

  // --- a web table: the lobby, an empty table, the home page ------------------------------
  const nameForm = (box) => {
    const row = el("div", "row");
    const input = el("input", "");
    input.type = "text";
    input.maxLength = 32;
    input.id = "name";
    input.value = C.name || "";
    input.setAttribute("aria-label", L.name);
    input.placeholder = L.name;
    const save = async () => {
      const name = input.value.trim();
      if (!name) return;
      const [status, reply] = await post("/api/player", { name: name });
      if (status === 200) location.reload();
      else answer([reply ? L[reply.error] || reply.error : L.offline]);
    };
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") save(); });
    row.append(input, button(L.saveName, "save-name", save));
    if (!C.name) box.appendChild(el("p", "", L.nameFirst));
    box.appendChild(row);
  };

  const duration = (s) => {
    if (!s) return "off";
    for (const [unit, size] of [["d", 86400], ["h", 3600], ["m", 60]]) {
      if (s % size === 0) return s / size + unit;
    }
    return s + "s";
  };

  const choose = (label, key, options, current, act) => {
    const row = el("label", "row");
    row.appendChild(el("span", "label", label));
    const select = el("select", "");
    select.dataset.key = key;
    for (const [value, text] of options) {
      const option = el("option", "", text);
      option.value = value;
      option.selected = value === current;
      select.appendChild(option);
    }
    select.addEventListener("change", () => act(select.value));
    row.appendChild(select);
    return row;
  };

  const drawLobby = (main) => {
    main.className = "";
    $("head").textContent = "Bohnanza";
    const box = el("section", "panel lobby");
    box.appendChild(el("h2", "", fill(L.gathering, { count: S.seats.length })));
    const seats = el("ul", "");
    for (const seat of S.seats) {
      seats.appendChild(el("li", "", seat.name + (seat.you ? " " + L.you : "")));
    }
    box.appendChild(seats);
    if (!C.name) nameForm(box);
    else {
      const row = el("div", "row");
      if (S.joined) row.appendChild(button(L.leave, "leave", () => send("leave")));
      else row.appendChild(button(L.join, "join", () => send("join"), "main"));
      if (S.joined) {
        const strategies = S.strategies.map((s) => [s, s]);
        const pick = el("select", "");
        pick.dataset.key = "strategy";
        pick.setAttribute("aria-label", L.addBot);
        for (const [value, text] of strategies) {
          const option = el("option", "", text);
          option.value = value;
          option.selected = value === "heuristic";
          pick.appendChild(option);
        }
        row.append(button(L.addBot, "add-bot", () => send("bot " + pick.value)), pick);
        if (S.seats.some((s) => s.bot)) {
          row.appendChild(button(L.removeBot, "remove-bot", () => send("bot remove")));
        }
      }
      box.appendChild(row);
      if (S.opener) {
        box.appendChild(choose(L.language, "lang", L.languages, S.language,
          (v) => send("set lang " + v)));
        box.appendChild(choose(L.deadline, "deadline", L.deadlines.map((d) => [d, d]),
          duration(S.deadline), (v) => send("set deadline " + v)));
        const go = el("div", "row");
        go.append(button(L.start, "start", () => send("start"), "main"),
          button(L.callOff, "call-off", () => send("cancel")));
        box.appendChild(go);
      } else box.appendChild(el("p", "", L.opener));
    }
    const invite = el("div", "invite");
    invite.appendChild(el("p", "label", L.invite));
    const link = el("input", "");
    link.type = "text";
    link.readOnly = true;
    link.id = "invite";
    link.value = location.origin + location.pathname;
    link.setAttribute("aria-label", L.invite);
    const copy = button(L.copy, "copy", async () => {
      link.select();
      try { await navigator.clipboard.writeText(link.value); answer([L.copied]); }
      catch (e) { answer([link.value]); }
    });
    const row = el("div", "row");
    row.append(link, copy);
    invite.appendChild(row);
    box.appendChild(invite);
    main.appendChild(box);
  };

  const drawEmpty = (main) => {
    main.className = "";
    $("head").textContent = "Bohnanza";
    const box = el("section", "panel");
    box.appendChild(el("p", "", L.empty));
    if (C.name) box.appendChild(button(L.newGame, "new", () => send("new"), "main"));
    else nameForm(box);
    main.appendChild(box);
  };

  const drawHome = (main) => {
    $("head").textContent = "Bohnanza";
    const box = el("section", "panel");
    box.appendChild(el("p", "", L.home));
    nameForm(box);
    if (C.name) {
      box.appendChild(button(L.newTable, "new-table", async () => {
        const [status, reply] = await post("/api/tables", { delivery: delivery() });
        if (status === 200 && reply.room) location.href = "/t/" + encodeURIComponent(reply.room);
        else answer([reply ? L[reply.error] || reply.error : L.offline]);
      }, "main"));
    }
    main.appendChild(box);
  };

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
