// The replay page of a finished (or going) playtest game: the board of
// each ply (board.svg?ply=N, drawn by the server), the move list with the
// move shown marked, first/previous/next/last buttons and the arrow keys;
// and on request the bots' annotations (POST, then GET
// /api/games/{id}/annotations until they are done) beside the moves.
// Text from people and rules files is written with textContent only.
"use strict";

(function () {
  const root = document.getElementById("replay");
  if (!root) return;
  const id = root.dataset.game;
  const players = Number(root.dataset.players) || 2;
  const api = "/api/games/" + encodeURIComponent(id);
  const shared = window.murusGame;
  const names = shared.names();
  const el = shared.el;
  const $ = (x) => document.getElementById(x);
  const board = $("board");

  let game = null;    // the game as loaded
  let ply = 0;        // the ply shown: the position after this many moves
  let asked = 0;      // the latest board asked for (older answers dropped)
  let notes = null;   // the annotations, by ply index, once done
  let polling = false;

  function who(letter) {
    return shared.who(names, letter);
  }

  function resultText(r) {
    return shared.resultText(names, r);
  }

  // A move's number as records write it: 1. for the first player's, 1...
  // for the others'.
  function number(i) {
    const n = Math.floor(i / players) + 1;
    return i % players === 0 ? n + "." : n + "...";
  }

  function renderMoves() {
    const body = $("moves");
    body.replaceChildren();
    game.moves.forEach((m, i) => {
      const tr = el("tr");
      tr.dataset.ply = String(i + 1);
      tr.appendChild(el("td", "num", number(i)));
      const td = el("td");
      const b = el("button", "ply", m);
      b.type = "button";
      b.addEventListener("click", () => show(i + 1));
      td.appendChild(b);
      const note = notes && notes[i];
      if (note && note.glyph) td.appendChild(el("span", "glyph", note.glyph));
      tr.appendChild(td);
      tr.appendChild(el("td", "note score", note && note.score ? note.score : ""));
      const better = note && note.better
        ? note.better + (note.better_score ? " " + note.better_score : "")
        : "";
      tr.appendChild(el("td", "note better", better));
      body.appendChild(tr);
    });
    $("plies").classList.toggle("annotated", notes !== null);
    mark();
  }

  function mark() {
    for (const tr of $("moves").children) {
      const current = Number(tr.dataset.ply) === ply;
      tr.classList.toggle("current", current);
      if (current) tr.setAttribute("aria-current", "step");
      else tr.removeAttribute("aria-current");
    }
  }

  function renderStatus() {
    const total = game.moves.length;
    let text = ply === 0 ? "The start" : "Ply " + ply + " of " + total + ": " + number(ply - 1) + " " + game.moves[ply - 1];
    if (ply === 0) text += " (" + total + " plies in all)";
    $("status").textContent = text + ".";
    $("first").disabled = $("prev").disabled = ply === 0;
    $("next").disabled = $("last").disabled = ply === total;
  }

  async function drawBoard(n) {
    const mine = ++asked;
    try {
      const res = await fetch(api + "/board.svg?ply=" + n, { cache: "no-store" });
      if (!res.ok) throw new Error("the board did not load (" + res.status + ")");
      const text = await res.text();
      if (mine !== asked) return;
      const doc = new DOMParser().parseFromString(text, "image/svg+xml");
      const svg = doc.documentElement;
      if (svg.nodeName !== "svg") throw new Error("the board is not an SVG");
      board.replaceChildren(document.importNode(svg, true));
      board.dataset.ply = String(n);
    } catch (e) {
      $("message").textContent = e.message;
    }
  }

  function show(n) {
    if (game === null) return;
    ply = Math.max(0, Math.min(game.moves.length, n));
    history.replaceState(null, "", "#" + ply);
    renderStatus();
    mark();
    drawBoard(ply);
  }

  function stateText(a) {
    switch (a.state) {
      case "running":
        return "The bots are annotating the game (" + a.budget_ms + " ms a position)…";
      case "done":
        return "Annotated by the bots' analysis (" + a.budget_ms + " ms a position).";
      case "failed":
        return "The annotation failed: " + (a.error || "") + " Ask again.";
      default:
        return "";
    }
  }

  function took(a) {
    $("annotations-state").textContent = stateText(a);
    const over = game !== null && game.result !== null;
    $("annotate").hidden = !over || a.state === "done";
    $("annotate").disabled = a.state === "running";
    if (a.state === "done") {
      notes = a.moves;
      renderMoves();
    } else if (a.state === "running") {
      poll();
    }
  }

  async function annotations(method) {
    const res = await fetch(api + "/annotations", {
      method: method,
      cache: "no-store",
      headers: method === "POST" ? { "Content-Type": "application/json" } : {},
      body: method === "POST" ? "{}" : undefined,
    });
    const body = await res.json();
    if (!res.ok) throw new Error(body.error || "the annotations did not load");
    return body;
  }

  function poll() {
    if (polling) return;
    polling = true;
    setTimeout(async () => {
      polling = false;
      try {
        took(await annotations("GET"));
      } catch (e) {
        $("message").textContent = e.message;
      }
    }, 1000);
  }

  async function load() {
    try {
      const res = await fetch(api, { cache: "no-store" });
      const g = await res.json();
      if (!res.ok) throw new Error(g.error || "the game did not load");
      game = g;
      $("result").textContent = g.result !== null ? resultText(g.result) : "The game goes on.";
      $("seats").textContent = g.seats.map((s) => who(s.player) + ": " + s.kind).join(" · ");
      renderMoves();
      const asked = Number(location.hash.slice(1));
      show(Number.isInteger(asked) && location.hash.length > 1 ? asked : 0);
      took(await annotations("GET"));
    } catch (e) {
      $("message").textContent = e.message;
    }
  }

  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(ply - 1));
  $("next").addEventListener("click", () => show(ply + 1));
  $("last").addEventListener("click", () => show(game ? game.moves.length : 0));
  $("annotate").addEventListener("click", async () => {
    $("annotate").disabled = true;
    try {
      took(await annotations("POST"));
    } catch (e) {
      $("message").textContent = e.message;
      $("annotate").disabled = false;
    }
  });
  document.addEventListener("keydown", (e) => {
    if (game === null || e.altKey || e.ctrlKey || e.metaKey) return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: game.moves.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  load();
})();
