// The player's and the spectators' page of a playtest game. Everything it
// shows comes from the JSON API: the game (GET /api/games/{id}, then every
// change over Server-Sent Events), the board (board.svg, drawn by the
// server). A player clicks a stack of theirs, its moves' targets light up,
// a click on one plays it. Text from people and rules files is written
// with textContent only.
"use strict";

(function () {
  const root = document.getElementById("game");
  if (!root) return;
  const id = root.dataset.game;
  const playing = root.dataset.mode === "play";
  const seat = playing && root.dataset.seat !== "" ? Number(root.dataset.seat) : null;
  const players = Number(root.dataset.players) || 2;
  const token = playing ? new URLSearchParams(location.search).get("token") : null;
  const api = "/api/games/" + encodeURIComponent(id);
  const shared = window.murusGame;
  const names = shared.names();
  const el = shared.el;
  const $ = (x) => document.getElementById(x);
  const board = $("board");

  let game = null;      // the game as last heard of
  let selected = null;  // the cell of the stack chosen, if any
  let boardPly = -1;    // the ply the board shows
  let boardAsked = 0;   // the latest board asked for (older answers are dropped)
  let busy = false;     // a request of this page is under way

  function who(letter) {
    return shared.who(names, letter);
  }

  function say(text) {
    $("message").textContent = text || "";
  }

  function myTurn() {
    return game !== null && seat !== null && game.result === null && game.to_move_seat === seat;
  }

  // The clocks of a live game: each seat's time left at the answer's time,
  // counted down here from when the answer came (this browser's clock is
  // never compared with the server's), corrected by every update. Low time
  // (under 20 s) is highlighted.
  let clockCame = 0;   // performance.now() when the last answer came
  let clockTick = null;

  function renderClocks(g) {
    const box = $("clocks");
    if (!box) return;
    box.hidden = !g.clock;
    if (!g.clock) return;
    clockCame = performance.now();
    if (clockTick === null) clockTick = setInterval(tickClocks, 100);
    tickClocks();
  }

  function clockText(ms) {
    const tenths = Math.max(0, Math.ceil(ms / 100));
    const s = Math.floor(tenths / 10);
    const mmss = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    return s < 10 ? mmss + "." + (tenths % 10) : mmss;
  }

  function tickClocks() {
    const c = game && game.clock;
    if (!c) return;
    const box = $("clocks");
    box.replaceChildren();
    c.left_ms.forEach((left, i) => {
      const letter = game.seats[i] ? game.seats[i].player : String(i + 1);
      let text = who(letter) + ": ";
      let cls = "clock";
      if (left === null) {
        text += "bot";
      } else {
        const now = c.running === i ? left - (performance.now() - clockCame) : left;
        text += clockText(now);
        if (c.running === i) cls += " running";
        if (now < 20000) cls += " low";
      }
      const span = el("span", cls, text);
      span.dataset.seat = String(i);
      box.appendChild(span);
    });
  }

  // The move list as records write it: 1. a1-a3 b8-b6 2. …
  function renderMoves(g) {
    const list = $("moves");
    list.replaceChildren();
    for (let i = 0; i < g.moves.length; i += players) {
      const li = el("li");
      li.appendChild(el("span", "num", String(i / players + 1) + "."));
      for (let j = i; j < Math.min(i + players, g.moves.length); j++) {
        const ply = el("span", j === g.moves.length - 1 ? "ply last" : "ply", g.moves[j]);
        li.appendChild(document.createTextNode(" "));
        li.appendChild(ply);
      }
      list.appendChild(li);
    }
  }

  function resultText(r) {
    return shared.resultText(names, r);
  }

  function renderStatus(g) {
    const status = $("status");
    status.classList.toggle("yours", myTurn());
    if (g.result !== null) {
      status.textContent = "The game is over.";
    } else if (myTurn()) {
      status.textContent = "Your move (" + who(g.to_move) + ").";
    } else if (seat !== null) {
      status.textContent = who(g.to_move) + " to move: waiting.";
    } else {
      status.textContent = who(g.to_move) + " to move.";
    }
    if (g.result === null && g.draw_offered_by) {
      status.textContent += " " + who(g.draw_offered_by) + " offers a draw.";
    }
    $("result").textContent = g.result !== null ? resultText(g.result) : "";
    $("after").hidden = g.result === null;
    $("seats").textContent = g.seats
      .map((s, i) => who(s.player) + ": " + s.kind + (i === seat ? " (you)" : ""))
      .join(" · ");
  }

  function renderControls(g) {
    const controls = $("controls");
    board.classList.toggle("active", myTurn() && !busy);
    if (!controls) return; // a spectator's page has none
    controls.hidden = false;
    const over = g.result !== null;
    const myColour = g.seats[seat] ? g.seats[seat].player : null;
    const offered = g.draw_offered_by;
    const draw = $("draw");
    if (offered && offered !== myColour) {
      draw.textContent = "Accept draw";
    } else {
      draw.textContent = offered ? "Draw offered" : "Offer draw";
    }
    draw.disabled = over || busy || (offered !== null && offered === myColour);
    $("resign").disabled = over || busy;
    $("typed").querySelector("button").disabled = !myTurn() || busy;
    // After the game, a player's answers for the designer.
    $("feedback").hidden = !over;
  }

  // The moves that need no cell (the pie rule's swap) are buttons.
  function renderChoices(moves) {
    const box = $("choices");
    box.replaceChildren();
    for (const m of moves) {
      const b = el("button", "choice", m.move);
      b.type = "button";
      b.addEventListener("click", () => play(m.move));
      box.appendChild(b);
    }
  }

  function defaultChoices() {
    renderChoices(myTurn() ? game.legal.filter((m) => m.from === null) : []);
  }

  function render(g) {
    if (game !== null && g.ply < game.ply) return; // an older answer
    const moved = game === null || g.ply !== game.ply || (g.result === null) !== (game.result === null);
    game = g;
    if (moved) selected = null;
    renderStatus(g);
    renderMoves(g);
    renderControls(g);
    renderClocks(g);
    if (g.ply !== boardPly) drawBoard(g.ply);
    else mark();
    if (moved) defaultChoices();
  }

  async function drawBoard(ply) {
    const asked = ++boardAsked;
    try {
      // A player's board from their side (their home at the bottom); a
      // spectator's from the first player's.
      const side = seat !== null ? "&seat=" + seat : "";
      const res = await fetch(api + "/board.svg?ply=" + ply + side, { cache: "no-store" });
      if (!res.ok) throw new Error("the board did not load (" + res.status + ")");
      const text = await res.text();
      if (asked !== boardAsked) return;
      const doc = new DOMParser().parseFromString(text, "image/svg+xml");
      const svg = doc.documentElement;
      if (svg.nodeName !== "svg") throw new Error("the board is not an SVG");
      board.replaceChildren(document.importNode(svg, true));
      boardPly = ply;
      mark();
    } catch (e) {
      say(e.message);
    }
  }

  // The chosen stack and its moves' targets, lit on the board.
  function mark() {
    for (const c of board.querySelectorAll(".cell.origin, .cell.target")) {
      c.classList.remove("origin", "target");
    }
    if (selected === null || game === null) return;
    const cell = (name) => board.querySelector('.cell[data-cell="' + CSS.escape(name) + '"]');
    const origin = cell(selected);
    if (origin) origin.classList.add("origin");
    for (const m of game.legal) {
      if (m.from !== selected) continue;
      for (const t of m.to) {
        const c = cell(t);
        if (c) c.classList.add("target");
      }
    }
  }

  board.addEventListener("click", (e) => {
    const target = e.target.closest("[data-cell]");
    if (!target || !myTurn() || busy) return;
    clicked(target.dataset.cell);
  });

  function clicked(cell) {
    say("");
    if (selected !== null) {
      const moves = game.legal.filter((m) => m.from === selected && m.to.includes(cell));
      if (moves.length === 1) {
        play(moves[0].move);
        return;
      }
      if (moves.length > 1) {
        // Two moves end on this cell (a split, sacrifices of one stone or
        // two): the player says which.
        renderChoices(moves);
        return;
      }
    }
    if (cell !== selected && game.legal.some((m) => m.from === cell)) {
      selected = cell;
    } else {
      if (selected === null && cell !== null) say("No move starts on " + cell + ".");
      selected = null;
    }
    defaultChoices();
    mark();
  }

  async function send(path, body) {
    busy = true;
    renderControls(game);
    try {
      const res = await fetch(api + path, {
        method: "POST",
        headers: Object.assign(
          { Authorization: "Bearer " + token },
          body ? { "Content-Type": "application/json" } : {}
        ),
        body: body ? JSON.stringify(body) : undefined,
      });
      let answer = null;
      try {
        answer = await res.json();
      } catch (_) {
        answer = null;
      }
      if (!res.ok) {
        say(answer && answer.error ? answer.error : "refused (" + res.status + ")");
        if (res.status === 409) load();
        return;
      }
      say("");
      render(answer);
    } catch (e) {
      say("The server cannot be reached: " + e.message);
    } finally {
      busy = false;
      if (game) renderControls(game);
    }
  }

  function play(text) {
    if (!game) return;
    selected = null;
    send("/moves", { move: text, ply: game.ply });
  }

  if ($("controls")) wireControls();

  function wireControls() {
    $("typed").addEventListener("submit", (e) => {
      e.preventDefault();
      const input = $("move-text");
      const text = input.value.trim();
      if (text === "" || !myTurn()) return;
      input.value = "";
      play(text);
    });

    $("resign").addEventListener("click", () => {
      if (window.confirm("Resign this game?")) send("/resign");
    });

    $("draw").addEventListener("click", () => send("/draw"));

    $("feedback").addEventListener("submit", (e) => {
      e.preventDefault();
      sendFeedback(e.target);
    });
  }

  // The feedback form's answers, kept by the server for the designer; a
  // second answer replaces the first.
  async function sendFeedback(form) {
    const said = $("feedback-said");
    const button = form.querySelector("button");
    button.disabled = true;
    try {
      const res = await fetch(api + "/feedback", {
        method: "POST",
        headers: { Authorization: "Bearer " + token, "Content-Type": "application/json" },
        body: JSON.stringify({
          fun: Number(form.elements.fun.value),
          clarity: Number(form.elements.clarity.value),
          again: form.elements.again.checked,
          text: form.elements.text.value,
        }),
      });
      let answer = null;
      try {
        answer = await res.json();
      } catch (_) {
        answer = null;
      }
      said.textContent = res.ok
        ? "Thank you: your answers are kept (sending again replaces them)."
        : (answer && answer.error) || "refused (" + res.status + ")";
    } catch (e) {
      said.textContent = "The server cannot be reached: " + e.message;
    } finally {
      button.disabled = false;
    }
  }

  async function load() {
    try {
      const res = await fetch(api, { cache: "no-store" });
      const answer = await res.json();
      if (!res.ok) {
        say(answer.error || "the game did not load");
        return;
      }
      render(answer);
    } catch (e) {
      say("The server cannot be reached: " + e.message);
    }
  }

  // Every change, for players and spectators alike; EventSource comes
  // back by itself after a dropped connection, and the game it is sent
  // then is the game as it is.
  function listen() {
    const live = $("live");
    const source = new EventSource(api + "/events");
    source.addEventListener("open", () => {
      live.textContent = "live";
    });
    source.addEventListener("error", () => {
      live.textContent = "reconnecting…";
    });
    source.addEventListener("game", (e) => {
      try {
        render(JSON.parse(e.data));
      } catch (_) {
        /* a broken event: the next one will do */
      }
    });
  }

  load().then(listen);
})();
