"""The part of a board page's script that draws a game: the seat's moves, its hand and the
face-up cards (ticked to build an offer), the offer being built, the open offers with their
answers, every seat's fields and coins, the piles and the story (see `script`)."""

from __future__ import annotations

BOARD = r"""
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

"""
