"""The part of a board page's script that draws a web table when no game is on it: its lobby
(join, leave, bots, the language and the time per move, start, the invitation link), an empty
table, and the home page (a name, a table to open) (see `script`)."""

from __future__ import annotations

TABLES = r"""
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

"""
