// Korchma's web page: one WebSocket (/ws, docs/web.md), an output pane, an input line with
// history and completion, and panels drawn from the GMCP frames. No framework, no build step.
"use strict";
(function () {
  const SCROLLBACK = 5000; // lines kept in the output pane
  const HISTORY = 200; // typed lines kept for Up/Down
  const $ = (id) => document.getElementById(id);
  const output = $("output"), line = $("line"), entry = $("entry");
  const state = {
    ws: null, words: {}, lang: "", account: "", echo: true, history: [], at: 0, draft: "",
    room: null, tables: [], view: null, awaiting: null, ended: null, verbs: [], words_of: {}, timer: null,
  };
  window.korchma = state; // for a person (and the browser test) to look at what the page holds

  // -- the page's own few words (GET /texts: the catalogs' [web] section) -------------------
  function word(key) {
    const set = state.words[state.lang] || state.words.ru || {};
    return set[key] || "";
  }
  function applyWords() {
    document.documentElement.lang = state.lang || "ru";
    document.title = word("title") || document.title;
    drawRoom();
    for (const el of document.querySelectorAll("[data-word]")) {
      const text = word(el.dataset.word);
      if (!text) continue;
      if (el.tagName === "BUTTON" && el.id === "send") el.title = el.ariaLabel = text;
      else el.textContent = text;
    }
    line.placeholder = state.echo ? word("input") : word("password");
  }

  // -- output ------------------------------------------------------------------------------
  function atBottom() {
    return output.scrollHeight - output.scrollTop - output.clientHeight < 40;
  }
  function show(markup, cls) {
    // The server escapes everything but its own spans (server/web/markup.py).
    const stick = atBottom();
    for (const piece of markup.split("\n")) {
      const div = document.createElement("div");
      div.className = cls ? "l " + cls : "l";
      div.innerHTML = piece;
      output.appendChild(div);
    }
    while (output.childElementCount > SCROLLBACK) output.firstElementChild.remove();
    if (stick) output.scrollTop = output.scrollHeight;
  }
  function showTyped(text) {
    const div = document.createElement("div");
    div.className = "l typed";
    div.textContent = "> " + text;
    output.appendChild(div);
    output.scrollTop = output.scrollHeight;
  }

  // -- input: history (Up/Down) and completion (Tab) -----------------------------------------
  function send(text) {
    if (!state.ws || state.ws.readyState !== WebSocket.OPEN) return;
    state.ws.send(text);
    if (state.echo) {
      showTyped(text);
      if (text.trim() && state.history[state.history.length - 1] !== text) {
        state.history.push(text);
        if (state.history.length > HISTORY) state.history.shift();
      }
    }
    state.at = state.history.length;
  }
  entry.addEventListener("submit", (ev) => {
    ev.preventDefault();
    send(line.value);
    line.value = "";
    line.focus();
  });
  line.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowUp" || ev.key === "ArrowDown") {
      if (!state.echo || !state.history.length) return;
      ev.preventDefault();
      if (state.at === state.history.length) state.draft = line.value;
      state.at = Math.max(0, Math.min(state.history.length, state.at + (ev.key === "ArrowUp" ? -1 : 1)));
      line.value = state.at === state.history.length ? state.draft : state.history[state.at];
    } else if (ev.key === "Tab" && state.echo) {
      ev.preventDefault();
      complete();
    }
  });
  function names() {
    const out = new Set(state.room ? state.room.players : []);
    for (const t of state.tables) for (const s of t.seats) out.add(s.name);
    return [...out];
  }
  function complete() {
    const text = line.value;
    const start = text.search(/\S*$/);
    const part = text.slice(start).toLocaleLowerCase();
    const pool = start === 0 ? state.verbs : names();
    const found = [...new Set(pool.filter((w) => w.toLocaleLowerCase().startsWith(part)))].sort();
    if (!found.length) return;
    if (found.length === 1) { line.value = text.slice(0, start) + found[0] + " "; return; }
    let common = found[0].toLocaleLowerCase();
    for (const w of found) while (!w.toLocaleLowerCase().startsWith(common)) common = common.slice(0, -1);
    if (common.length > part.length) line.value = text.slice(0, start) + found[0].slice(0, common.length);
    else show(found.map(escapeHtml).join("  "), "typed");
  }
  function escapeHtml(s) {
    return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  }

  // -- panels from GMCP ----------------------------------------------------------------------
  function myTable() {
    if (state.view) return state.tables.find((t) => t.number === state.view.table) || null;
    return state.tables.find((t) => t.seats.some((s) => s.name === state.account)) || null;
  }
  function item(text, cls) {
    const li = document.createElement("li");
    li.textContent = text;
    if (cls) li.className = cls;
    return li;
  }
  function drawRoom() {
    const r = state.room;
    $("panel-room").hidden = !r;
    if (!r) return;
    const at = /^table:(\d+)$/.exec(r.room);
    $("room-name").textContent = r.room === "hall" ? word("hall") || r.room : at ? (word("table") + " " + at[1]).trim() : r.room;
    $("people").replaceChildren(...r.players.map((p) => item(p, p === state.account ? "me" : "")));
  }
  function card(text, cls, seat) {
    const span = document.createElement("span");
    span.className = "card " + cls;
    span.dataset.seat = String(seat);
    span.textContent = text;
    return span;
  }
  function drawTable() {
    const t = myTable();
    $("panel-table").hidden = !t;
    if (!t) return;
    const v = state.view && state.view.view;
    $("seats").replaceChildren(...t.seats.map((s) => {
      const li = item(s.name + (s.bot ? " ⚙" : ""), s.name === state.account ? "me" : "");
      if (v && Array.isArray(v.coins)) li.append(" · " + v.coins[s.number]);
      if (v && Array.isArray(v.alive) && !v.alive[s.number]) li.classList.add("out");
      if (v && Array.isArray(v.face_up))
        for (const r of v.face_up[s.number] || []) li.append(" ", card(cardName(r), "up", s.number));
      return li;
    }));
  }
  function drawHand() {
    const v = state.view && state.view.view;
    const hand = v && (v.hand || (v.role ? [v.role] : null));
    $("panel-you").hidden = !hand;
    if (!hand) return;
    const seat = state.view.seat;
    $("hand").replaceChildren(...hand.map((c) => {
      const el = card(typeof c === "object" ? JSON.stringify(c) : cardName(c), "mine", seat);
      el.dataset.key = String(c);
      return el;
    }));
  }
  // The game's words in the player's language (a {"words": ...} frame, server/web/words.py).
  function gameWords() {
    const v = state.view && state.view.view;
    return (v && state.words_of[v.game]) || { verb: {}, role: {}, card: {}, action: {} };
  }
  function cardName(c) {
    const w = gameWords();
    return w.role[c] || w.card[c] || String(c);
  }
  function drawAwaiting() {
    const a = state.awaiting;
    const open = a && a.kind && a.legal && a.legal.length;
    $("panel-waits").hidden = !open;
    clearInterval(state.timer);
    if (!open) return;
    // The server names the line for each answer (GMCP Awaiting "lines", docs/gmcp.md): a whole
    // one is typed at a click; one that needs more (a letter, the cards of a trade) goes into the
    // input line for the player to finish.
    $("answers").replaceChildren(...(a.lines || []).map((l) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = l.more ? l.line + " …" : l.line;
      b.dataset.line = l.line;
      if (l.more) {
        b.classList.add("more");
        b.addEventListener("click", () => { line.value = l.line + " "; line.focus(); });
      } else {
        b.addEventListener("click", () => send(l.line));
      }
      return b;
    }));
    const tick = () => {
      if (!a.deadline) { $("countdown").textContent = ""; return; }
      const left = Math.max(0, Math.round((Date.parse(a.deadline) - Date.now()) / 1000));
      $("countdown").textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    };
    tick();
    state.timer = setInterval(tick, 1000);
  }
  const GMCP = {
    "Korchma.Room": (d) => { state.room = d; drawRoom(); },
    "Korchma.Table": (d) => { state.tables = d.tables || []; drawTable(); },
    "Korchma.Game.View": (d) => { state.view = d; state.ended = null; drawTable(); drawHand(); },
    "Korchma.Game.Awaiting": (d) => { state.awaiting = d; drawAwaiting(); },
    "Korchma.Game.End": (d) => { state.ended = d; state.awaiting = null; drawAwaiting(); },
  };

  // -- the connection ----------------------------------------------------------------------
  function onFrame(ev) {
    let f;
    try { f = JSON.parse(ev.data); } catch (e) { return; }
    if (typeof f.text === "string") show(f.text);
    if (typeof f.gmcp === "string" && GMCP[f.gmcp]) GMCP[f.gmcp](f.data);
    if (typeof f.lang === "string") { state.lang = f.lang; applyWords(); }
    if (typeof f.account === "string") { state.account = f.account; drawRoom(); drawTable(); }
    if (Array.isArray(f.verbs)) state.verbs = f.verbs;
    if (f.words && typeof f.words.game === "string") { state.words_of[f.words.game] = f.words; drawHand(); drawTable(); }
    if (typeof f.echo === "boolean") {
      state.echo = f.echo;
      line.type = f.echo ? "text" : "password";
      applyWords();
    }
  }
  function connect() {
    $("gone").hidden = true;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const lang = (navigator.language || "").slice(0, 2);
    const ws = new WebSocket(scheme + "//" + location.host + "/ws?lang=" + encodeURIComponent(lang));
    state.ws = ws;
    ws.onmessage = onFrame;
    ws.onclose = () => {
      if (state.ws !== ws) return;
      state.echo = true;
      line.type = "text";
      $("gone").hidden = false;
    };
  }
  window.addEventListener("resize", () => { output.scrollTop = output.scrollHeight; });
  $("again").addEventListener("click", connect);
  fetch("/texts").then((r) => r.json()).then((w) => { state.words = w; applyWords(); }).catch(() => {});
  connect();
})();
