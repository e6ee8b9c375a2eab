// The designer's page: compile a rules file (POST /api/rules), list the
// rules versions (GET /api/rules), make a game (POST /api/games).
// Everything the server answers is put in the page as text (textContent),
// never as HTML.
"use strict";

const LEVELS = ["easy", "medium", "hard", "expert"];
let versions = [];
let chosen = null;

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  let json = null;
  try { json = await res.json(); } catch (_) { json = { error: "the server answered " + res.status }; }
  return { status: res.status, json };
}

function showDiagnostics(list) {
  const ol = document.getElementById("diagnostics");
  ol.replaceChildren();
  for (const d of list) {
    const li = el("li", undefined, d.severity);
    li.dataset.line = d.line;
    li.dataset.column = d.column;
    li.appendChild(el("strong", "line " + d.line + ", column " + d.column + ": " + d.severity + ": "));
    li.appendChild(el("span", d.message.split("\n")[0], "message"));
    li.appendChild(el("pre", d.rendered));
    li.addEventListener("click", () => goToLine(d.line, d.column));
    ol.appendChild(li);
  }
}

// Puts the cursor at a diagnostic's line and column in the text area.
function goToLine(line, column) {
  const area = document.getElementById("source");
  const lines = area.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += Math.max(0, column - 1);
  area.focus();
  area.setSelectionRange(at, at);
}

async function compile() {
  const verdict = document.getElementById("verdict");
  const source = document.getElementById("source").value;
  const input = document.getElementById("file");
  const file = input.files && input.files[0] ? input.files[0].name : undefined;
  verdict.textContent = "compiling…";
  verdict.className = "";
  const { status, json } = await api("POST", "/api/rules", file ? { source, file } : { source });
  if (status === 201) {
    const w = json.warnings.length;
    verdict.textContent = "compiles: " + json.name + " (" + json.title + ")" +
      (w ? ", " + w + (w === 1 ? " warning" : " warnings") : "") + "; kept as version " + json.key.slice(0, 12);
    verdict.className = "ok";
    showDiagnostics(json.warnings);
    await loadVersions(json.key);
  } else {
    verdict.textContent = json.error || ("the server answered " + status);
    verdict.className = "error";
    showDiagnostics(json.diagnostics || []);
  }
}

function readFile() {
  const input = document.getElementById("file");
  const f = input.files && input.files[0];
  if (!f) return;
  f.text().then((text) => {
    document.getElementById("source").value = text;
    compile();
  });
}

async function loadVersions(choose) {
  const { status, json } = await api("GET", "/api/rules");
  if (status !== 200) {
    document.getElementById("verdict").textContent = json.error || ("the server answered " + status);
    return;
  }
  versions = json.versions;
  const tbody = document.querySelector("#versions tbody");
  tbody.replaceChildren();
  for (const v of versions) {
    const tr = el("tr");
    tr.dataset.key = v.key;
    const pick = el("input");
    pick.type = "radio";
    pick.name = "version";
    pick.value = v.key;
    pick.setAttribute("aria-label", "Choose " + v.name);
    pick.addEventListener("change", () => choose_(v));
    const cell = el("td");
    cell.appendChild(pick);
    tr.appendChild(cell);
    tr.appendChild(el("td", v.name + (v.shipped ? " (shipped)" : "")));
    tr.appendChild(el("td", v.title));
    const key = el("td");
    key.appendChild(el("code", v.key.slice(0, 12), "key"));
    tr.appendChild(key);
    const sheet = el("td");
    const a = el("a", "Rules sheet");
    a.href = v.sheet_url;
    a.target = "_blank";
    a.rel = "noopener";
    sheet.appendChild(a);
    tr.appendChild(sheet);
    const played = el("td");
    const s = el("a", "Playtest summary");
    s.href = "/rules/" + encodeURIComponent(v.key) + "/summary";
    s.target = "_blank";
    s.rel = "noopener";
    played.appendChild(s);
    tr.appendChild(played);
    tbody.appendChild(tr);
  }
  const again = versions.find((v) => v.key === (choose || (chosen && chosen.key)));
  if (again) choose_(again);
}

function choose_(v) {
  chosen = v;
  for (const tr of document.querySelectorAll("#versions tbody tr")) {
    const on = tr.dataset.key === v.key;
    tr.classList.toggle("chosen", on);
    tr.querySelector("input").checked = on;
  }
  document.getElementById("chosen").textContent = v.name + " (" + v.title + ")";
  document.getElementById("create").disabled = false;
  seatSelectors(v.players);
}

// One seat selector a player of the version chosen: a person or a bot
// level.
function seatSelectors(players) {
  const box = document.getElementById("seats");
  box.replaceChildren();
  players.forEach((name, i) => {
    const label = el("label", name + " ");
    const select = el("select");
    select.className = "seat";
    select.dataset.seat = i;
    for (const kind of ["human"].concat(LEVELS)) {
      const o = el("option", kind === "human" ? "a person" : "bot: " + kind);
      o.value = kind;
      select.appendChild(o);
    }
    label.appendChild(select);
    box.appendChild(label);
    box.appendChild(el("br"));
  });
}

function linkRow(label, url) {
  const li = el("li");
  li.appendChild(el("span", label + ": "));
  const field = el("input");
  field.readOnly = true;
  field.value = url;
  li.appendChild(field);
  const copy = el("button", "Copy");
  copy.type = "button";
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = "Copied";
    } catch (_) {
      field.select();
      copy.textContent = "Press Ctrl+C";
    }
  });
  li.appendChild(copy);
  return li;
}

// The clock chosen: { minutes, increment } for a live game, null for a
// correspondence game (the server checks the numbers and says what is wrong).
function clockChosen() {
  const live = document.querySelector("#clock-choice input[name=clock]:checked");
  if (!live || live.value !== "live") return null;
  return {
    minutes: Number(document.getElementById("clock-minutes").value),
    increment: Number(document.getElementById("clock-increment").value),
  };
}

async function create() {
  if (!chosen) return;
  const seats = Array.from(document.querySelectorAll("#seats select.seat")).map((s) => s.value);
  const status_ = document.getElementById("create-status");
  status_.textContent = "creating…";
  const body = { variant: chosen.key, seats };
  const clock = clockChosen();
  if (clock) body.clock = clock;
  const { status, json } = await api("POST", "/api/games", body);
  const links = document.getElementById("links");
  links.replaceChildren();
  if (status !== 201) {
    status_.textContent = json.error || ("the server answered " + status);
    status_.className = "error";
    return;
  }
  status_.textContent = "game made: each link below is shown once, keep it";
  status_.className = "ok";
  const origin = window.location.origin;
  for (const s of json.seats) {
    const who = chosen.players[json.seats.indexOf(s)] || s.player;
    if (s.url) links.appendChild(linkRow("Invitation for " + who, origin + s.url));
    else links.appendChild(el("li", who + ": bot " + s.kind));
  }
  links.appendChild(linkRow("Spectators", origin + json.spectate_url));
}

document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("compile").addEventListener("click", compile);
  document.getElementById("file").addEventListener("change", readFile);
  document.getElementById("create").addEventListener("click", create);
  loadVersions();
});
