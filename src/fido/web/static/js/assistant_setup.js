// The table assistant's setup page: the set and the players, checked by the
// server (POST /api/assistant/state with no moves), then kept in this browser.

import { errorText, loadGame, post, saveGame } from "./assistant_store.js";
import { nt, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function showRows() {
  const n = Number($("count").value);
  document.querySelectorAll(".seat-row").forEach((row) => {
    row.hidden = Number(row.dataset.seat) >= n;
  });
}

/** The seats as typed; `unnamed` gets the seats left without a name (they take the ranking's). */
function setup(unnamed = new Set()) {
  const n = Number($("count").value);
  const seats = [];
  for (let i = 0; i < n; i++) {
    const typed = $(`name${i}`).value.trim();
    if (!typed) unnamed.add(i);
    const name = typed || t("Player {n}", { n: i + 1 });
    const raw = $(`number${i}`).value.trim();
    const seat = { name };
    if (raw) seat.number = /^\d+$/.test(raw) ? Number(raw) : raw;
    seats.push(seat);
  }
  return { set: Number($("set").value), counterclockwise: $("counterclockwise").checked, seats };
}

async function start(e) {
  e.preventDefault();
  document.querySelectorAll(".field-error").forEach((x) => { x.textContent = ""; });
  $("form-error").textContent = "";
  const unnamed = new Set();
  const s = setup(unnamed);
  const bad = s.seats.findIndex((x) => typeof x.number === "string");
  if (bad >= 0) {
    $(`error${bad}`).textContent = t("a ranking number is a whole number");
    return;
  }
  let answer;
  try {
    answer = await post("/api/assistant/state", { ...s, opener: null, moves: [] });
  } catch {
    $("form-error").textContent = t("No connection to the server: try again when it is back.");
    return;
  }
  if (!answer.ok) {
    const text = errorText(answer);
    // the server names the input it refused ("seats.2" or "seats.2.name"): its row shows it
    const m = /^seats\.(\d+)/.exec(answer.body?.error?.field || "");
    const row = m && $(`error${Number(m[1])}`);
    if (row) row.textContent = text;
    else $("form-error").textContent = text;
    return;
  }
  const names = answer.body.ranking_names || [];
  s.seats.forEach((seat, i) => { if (names[i] && unnamed.has(i)) seat.name = names[i]; });
  saveGame({ setup: s, opener: null, moves: [], pips: null, sent: null, started: Date.now() });
  location.assign("/assistant/play");
}

$("count").addEventListener("change", showRows);
$("setup").addEventListener("submit", start);
showRows();
const old = loadGame();
if (old) {
  $("resume").hidden = false;
  $("resume-what").textContent = nt("{names}, {n} move entered", "{names}, {n} moves entered",
    old.moves.length, { names: old.setup.seats.map((s) => s.name).join(", ") });
  $("start").textContent = t("Start a new game instead");
}
