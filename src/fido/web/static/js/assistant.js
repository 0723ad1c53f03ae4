// The table assistant's play page: a game with real tiles, entered move by move.
//
// The game is this browser's (assistant_store.js: localStorage). Each entry is
// appended to the list at once, then the whole list goes to the server
// (POST /api/assistant/state), which answers with the state after the moves it
// accepts, the first refused one and the engine's reason, the table's drawing
// and where each tile may go. Without a connection, entries wait in the list
// (shown as waiting) and are judged when it is back; a reload loses nothing.

import { Viewport, bounds, drawBoard, placeTiles } from "./board.js";
import { errorText, loadGame, post, requestBody, saveGame } from "./assistant_store.js";
import { nt, num, t } from "./i18n.js";
import { describe, el, ordinal, pointsText, scored, split, tileFace, tilesText } from "./ui.js";

const $ = (id) => document.getElementById(id);

const state = {
  game: loadGame(),
  answer: null, // the server's last answer
  answered: null, // the request it answered (JSON), to know whether it is current
  online: true,
  busy: false,
  again: false,
  selected: null, // the tile chosen, e.g. "6-4"
  message: null,
};
window.fidoAssistant = state; // for the browser tests and the curious
state.isCurrent = () => current();

const board = $("board");
const viewport = new Viewport(board, [...document.querySelectorAll(".board-tools")]);

// ---------------------------------------------------------------- the game's list

function body() {
  return requestBody(state.game);
}

/** Whether the last answer is for the list as it is now. */
function current() {
  return state.answer !== null && state.answered === JSON.stringify(body());
}

/** Moves entered but not judged yet (after the last answer's accepted ones). */
function waiting() {
  if (!state.answer) return state.game.moves.slice();
  const done = state.answer.accepted;
  const sent = JSON.parse(state.answered).moves;
  const same = state.game.moves.slice(0, done).every((m, i) => m === sent[i]);
  return same ? state.game.moves.slice(done) : state.game.moves.slice();
}

function change(fn) {
  fn(state.game);
  saveGame(state.game);
  state.selected = null;
  render();
  sync();
}

function enter(move) {
  state.message = null;
  change((g) => { g.moves.push(move); g.pips = null; g.sent = null; });
}

// ---------------------------------------------------------------- the server

async function sync() {
  if (state.busy) { state.again = true; return; }
  state.busy = true;
  const sent = JSON.stringify(body());
  let answer = null;
  try {
    answer = await post("/api/assistant/state", JSON.parse(sent));
  } catch {
    state.online = false;
  }
  state.busy = false;
  if (answer) {
    state.online = true;
    if (!answer.ok) {
      state.message = t("The server refused the game: {reason}", { reason: errorText(answer) });
    } else if (JSON.stringify(body()) !== sent) {
      state.again = true; // entered meanwhile: ask again
    } else {
      accept(answer.body, sent);
    }
  }
  if (state.again) { state.again = false; sync(); }
  render();
}

function accept(answer, sent) {
  const g = state.game;
  if (answer.refused) {
    const dropped = g.moves.slice(answer.accepted);
    g.moves = g.moves.slice(0, answer.accepted);
    const later = dropped.length > 1
      ? " " + t("Not entered either (entered after it): {moves}.", { moves: dropped.slice(1).join(", ") }) : "";
    state.message = t("{move} was refused: {reason}.", { move: label(dropped[0]), reason: answer.refused.message })
      + later;
    saveGame(g);
    sent = JSON.stringify(body());
  }
  state.answer = answer;
  state.answered = sent;
  if (answer.pips_error) state.message = null;
}

function label(move) {
  return move === "draw" ? t("The draw") : move === "pass" ? t("The pass") : move;
}

// ---------------------------------------------------------------- drawing

function names() {
  return state.game.setup.seats.map((s) => s.name);
}

function render() {
  const g = state.game;
  const a = state.answer;
  const fresh = current();
  const queued = waiting();
  $("sum").textContent = a ? num(a.sum) : "–";
  $("divisor").textContent = a ? num(a.divisor) : "–";
  $("stock").textContent = a ? num(a.stock) : "–";
  const conn = $("conn");
  conn.dataset.state = state.online ? "connected" : "offline";
  conn.textContent = state.online
    ? (queued.length && !fresh ? t("checking…") : t("online"))
    : queued.length ? nt("offline · {n} waiting", "offline · {n} waiting", queued.length) : t("offline");
  const last = a?.history?.[a.history.length - 1];
  $("last-move").textContent = last && fresh
    ? `${describe(last, names()[last.seat])}${scored(last) ? `: ${scored(last)}` : ""}` : "";
  $("message").hidden = !state.message;
  $("message").textContent = state.message || "";
  renderTurn(fresh, queued);
  renderSeats(fresh);
  renderBoard(fresh, queued);
  renderEntry(fresh, queued);
  renderLog(queued);
  renderEnd(fresh);
}

function renderTurn(fresh, queued) {
  const a = state.answer;
  const g = state.game;
  let text;
  if (g.opener === null || g.opener === undefined) {
    text = t("Who opens? Tap the player who holds the highest double.");
  } else if (!a) {
    text = state.online ? t("Loading…") : t("No connection yet: the game is kept on this phone.");
  } else if (!fresh && queued.length) {
    text = state.online ? t("Checking…")
      : nt("No connection: {n} move waits and will be checked when it is back. Keep entering.",
        "No connection: {n} moves wait and will be checked when it is back. Keep entering.", queued.length);
  } else if (a.over) {
    const o = a.outcome;
    text = o.termination === "domino" ? t("{name} went out: the game is over.", { name: names()[o.out_seat] })
      : t("Nobody can move: the game is blocked.");
  } else if (!g.moves.length) {
    text = t("{name} opens: tap her double, then the table.", { name: names()[g.opener] });
  } else {
    text = t("{name} to move.", { name: names()[a.to_move] });
  }
  $("turn").textContent = text;
}

function renderSeats(fresh) {
  const a = state.answer;
  const g = state.game;
  const list = $("seats");
  list.replaceChildren();
  names().forEach((name, i) => {
    const choosing = g.opener === null || g.opener === undefined;
    const moving = a && fresh && !a.over && a.to_move === i;
    const li = el("li", { class: `seat${moving ? " to-move" : ""}`, "data-seat": i },
      el("span", { class: "who" }, el("span", { class: "seatno" }, String(i + 1)), name,
        g.setup.seats[i].number ? el("span", { class: "tag" }, `#${g.setup.seats[i].number}`) : null),
      el("span", { class: "facts" },
        el("span", { class: "score" }, pointsText(a ? a.scores[i] : 0)),
        el("span", {}, a ? tilesText(a.hand_counts[i]) : t("? tiles"))));
    if (choosing) {
      li.append(el("button", { type: "button", class: "opens", "data-opens": i,
        onclick: () => { state.message = null; change((x) => { x.opener = i; }); } }, t("opens")));
    }
    list.append(li);
  });
}

/** Where the chosen tile may go: the server's targets, or (not judged yet) every open slot. */
function targetsFor(tile, fresh, queued) {
  const a = state.answer;
  if (!a || !tile) return [];
  if (fresh) {
    return a.targets.filter((x) => x.tile === tile).map((x) => ({
      ...x, label: targetLabel(tile, x.slot, x.points),
    }));
  }
  // not judged yet: any slot still open as far as this phone knows; the server judges later
  const used = new Set(queued.map((m) => split(m).slot).filter(Boolean));
  const placedOffline = queued.some((m) => m !== "draw" && m !== "pass");
  const slots = a.layout.markers.map((m) => (typeof m.slot === "number"
    ? `${m.slot >> 2}${"nesw"[m.slot & 3]}` : m.slot)).filter((s) => !used.has(s));
  if (!a.table.length && !placedOffline) slots.push("open");
  return slots.map((slot) => ({
    slot, tile, points: 0, text: "?",
    move: slot === "open" ? tile : `${tile}@${slot}`,
    label: slot === "open" ? t("open with {tile}", { tile }) : t("{tile} on {slot} (checked later)", { tile, slot }),
  }));
}

/** A judged target in words: "9-4 on 3e: +2", "open with 6-6". */
function targetLabel(tile, slot, points) {
  if (slot === "open") return t("open with {tile}", { tile });
  return points ? t("{tile} on {slot}: +{points}", { tile, slot, points: num(points) })
    : t("{tile} on {slot}: no points", { tile, slot });
}

function renderBoard(fresh, queued) {
  const a = state.answer;
  if (!a) return;
  const geometry = placeTiles(a);
  const targets = targetsFor(state.selected, fresh, queued);
  drawBoard(board, geometry, {
    maxPips: a.max_pips, last: a.table.length - 1, targets,
    onTarget: (target) => enter(target.move),
  });
  if (viewport.auto) viewport.fit(bounds(geometry));
  const list = $("targets");
  list.replaceChildren(...targets.map((target) => el("li", {},
    el("button", { type: "button", class: target.points ? "scores" : "", "data-move": target.move,
      onclick: () => enter(target.move) }, target.label))));
}

function renderEntry(fresh, queued) {
  const a = state.answer;
  const g = state.game;
  const opened = g.opener !== null && g.opener !== undefined;
  const over = fresh && a?.over;
  $("entry").hidden = !opened || over;
  const noStock = a && fresh ? !a.can_draw : a ? a.stock - queued.filter((m) => m === "draw").length <= 0 : false;
  $("draw").textContent = noStock ? t("Pass") : t("Draw");
  $("draw").dataset.move = noStock ? "pass" : "draw"; // what a tap enters, whatever the words
  $("draw").disabled = !g.moves.length && !queued.length;
  $("undo").disabled = !g.moves.length && !opened;
  const picker = $("picker");
  picker.replaceChildren();
  if (!a) return;
  const gone = new Set(queued.map((m) => split(m).tile));
  const fits = new Set(a.targets.map((x) => x.tile));
  const all = $("all-tiles").checked || !fresh;
  const tiles = a.unplayed.filter((x) => !gone.has(x) && (all || fits.has(x)));
  if (fresh && !tiles.length) {
    picker.append(el("p", { class: "hint" }, t("No tile fits the table now: the player draws (or passes).")));
  }
  for (const tile of tiles) {
    const face = tileFace(tile, a.max_pips);
    const b = el("button", { type: "button",
      class: `pick${fresh && fits.has(tile) ? " fits" : ""}${state.selected === tile ? " selected" : ""}`,
      "data-tile": tile, "aria-pressed": state.selected === tile ? "true" : "false",
      "aria-label": t("tile {tile}", { tile }),
      onclick: () => { state.selected = state.selected === tile ? null : tile; render(); } }, face);
    picker.append(b);
  }
}

function renderLog(queued) {
  const a = state.answer;
  const list = $("moves");
  list.replaceChildren();
  const who = names();
  for (const h of a && current() ? a.history : (a?.history || []).slice(0, state.game.moves.length - queued.length)) {
    const sc = scored(h);
    list.append(el("li", { class: h.points ? "scored" : "" },
      describe(h, who[h.seat]), sc ? el("span", { class: h.points ? "pts" : "sum" }, ` · ${sc}`) : null));
  }
  for (const m of queued) {
    list.append(el("li", { class: "waiting" }, t("{move} · waiting to be checked", { move: label(m) })));
  }
  list.parentElement.scrollTop = list.parentElement.scrollHeight;
}

function renderEnd(fresh) {
  const a = state.answer;
  const g = state.game;
  const over = Boolean(a && fresh && a.over);
  $("pips-box").hidden = !over;
  $("sheet").hidden = !(over && a.result);
  if (!over) return;
  const rows = $("pips-rows");
  if (rows.dataset.for !== state.answered || !rows.children.length) {
    rows.dataset.for = state.answered;
    rows.replaceChildren(...names().map((name, i) => {
      const [lo, hi] = a.pip_bounds[i];
      const out = a.hand_counts[i] === 0;
      const input = el("input", { type: "number", inputmode: "numeric", min: lo, max: hi,
        id: `pips${i}`, name: `pips${i}`, value: g.pips ? g.pips[i] : out ? 0 : "", required: true });
      return el("li", {}, el("label", {}, `${name} `,
        el("span", { class: "hint" }, out ? t("(went out)")
          : nt("({n} tile: {low}–{high} pips)", "({n} tiles: {low}–{high} pips)", a.hand_counts[i],
            { low: num(lo), high: num(hi) })), input));
    }));
  }
  $("pips-error").textContent = a.pips_error || "";
  if (!a.result) return;
  const res = a.result;
  const set = /^fido set=(\d+)/.exec(a.ruleset); // the rest (a direction) stays notation
  const game = set ? t("FIDO double-{set}", { set: set[1] }) + a.ruleset.slice(set[0].length) : a.ruleset;
  const p = { game, divisor: num(a.divisor),
    name: names()[res.out_seat] };
  $("sheet-what").textContent = res.termination === "domino"
    ? t("{game}, divisor {divisor}: {name} went out.", p) : t("{game}, divisor {divisor}: blocked.", p);
  $("sheet-rows").replaceChildren(...[...res.seats].sort((x, y) => x.place - y.place).map((r) =>
    el("tr", { "data-seat": r.seat }, el("td", {}, ordinal(r.place)), el("th", { scope: "row" }, names()[r.seat]),
      el("td", {}, num(r.points)), el("td", {}, num(r.pips)),
      el("td", { class: "final" }, num(r.final)))));
  const ranked = g.setup.seats.every((s) => s.number);
  $("send-form").hidden = !ranked;
  if (!ranked) {
    $("sheet-what").textContent += " " + t("Not every player is a ranking player: this sheet is not sent to the ranking.");
  }
  if (!$("sheet-date").value) $("sheet-date").value = g.date || new Date(g.started || Date.now()).toISOString().slice(0, 10);
  if (!$("sheet-event").value && g.event) $("sheet-event").value = g.event;
  $("send").disabled = Boolean(g.sent);
  $("send-ok").textContent = g.sent
    ? t("Sent to the ranking as game {game}: the other players confirm it there.", { game: g.sent.game }) : "";
}

// ---------------------------------------------------------------- actions

$("draw").addEventListener("click", () => enter($("draw").dataset.move === "pass" ? "pass" : "draw"));
$("undo").addEventListener("click", () => {
  state.message = null;
  change((g) => {
    g.pips = null; g.sent = null;
    if (g.moves.length) g.moves.pop(); else g.opener = null;
  });
});
$("all-tiles").addEventListener("change", render);
$("zoom-in").addEventListener("click", () => viewport.zoom(1 / 1.3));
$("zoom-out").addEventListener("click", () => viewport.zoom(1.3));
$("fit").addEventListener("click", () => { viewport.auto = true; render(); });
$("pips-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const values = names().map((_n, i) => $(`pips${i}`).value.trim());
  const bad = values.findIndex((v) => !/^\d{1,5}$/.test(v));
  if (bad >= 0) {
    $("pips-error").textContent = t("{name}: enter the pips left as a whole number", { name: names()[bad] });
    return;
  }
  state.game.pips = values.map(Number);
  saveGame(state.game);
  sync();
});
$("send-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const g = state.game;
  g.date = $("sheet-date").value;
  g.event = $("sheet-event").value.trim();
  saveGame(g);
  $("send-error").textContent = "";
  if (!g.date || !g.event) { $("send-error").textContent = t("Give the date and the place or event."); return; }
  const token = (document.cookie.match(/(?:^|; )fido_csrf=([^;]*)/) || [])[1] || "";
  let answer;
  try {
    answer = await post("/api/assistant/sheet", { ...body(), date: g.date, event: g.event },
      { "X-CSRF-Token": decodeURIComponent(token) });
  } catch {
    $("send-error").textContent = t("No connection: the sheet stays here; send it when the connection is back.");
    return;
  }
  if (!answer.ok) {
    $("send-error").textContent = answer.status === 401
      ? t("Sign in to send the sheet (the game stays on this phone).") : errorText(answer);
    return;
  }
  g.sent = { game: answer.body.game };
  saveGame(g);
  render();
});
window.addEventListener("online", () => sync());
setInterval(() => { if (!state.online || !current()) sync(); }, 4000);
window.addEventListener("resize", () => { if (viewport.auto && state.answer) viewport.fit(bounds(placeTiles(state.answer))); });

if (!state.game) {
  $("app").replaceChildren(el("p", {}, t("No game on this phone yet."), " ",
    el("a", { href: "/assistant" }, t("Set one up"))));
} else {
  render();
  sync();
}
