// The replay page: a finished game move by move (GET /api/tables/{id}/replay,
// the engine's replay of the stored record), forwards and backwards with
// buttons, keys (← → Home End) and a slider; every hand open, or as one seat
// saw it (her hand, the others' backs). The table is drawn by the same
// board.js as the live table, so a replay looks like the game did.

import { Analysis } from "./analysis.js";
import { Viewport, bounds, drawBoard, placeTiles } from "./board.js";
import { Effects, eventName, eventShort } from "./effects.js";
import { nt, num, t } from "./i18n.js";
import {
  describe, el, listOf, maxPipsOf, moveText, ordinal, pointsText, scored, seatLabel, tileFace,
  tilesText,
} from "./ui.js";

const $ = (id) => document.getElementById(id);
const config = JSON.parse($("replay-config").textContent);

const state = {
  data: null, // the replay: { ruleset, players, divisor, steps, outcome }
  step: 0, // 0 is the deal; step i is the game after move i
  follow: "all", // "all" (every hand open) or a seat number
  error: null,
};
window.fidoReplay = state; // for the browser tests and the curious

const board = $("board");
const viewport = new Viewport(board, [...document.querySelectorAll(".board-tools")]);
let fitWhole = false; // "fit" shows the whole table at every step, however small
const effects = new Effects($("board-box"), $("fx"), $("sound"));
state.effects = effects.log;

function seatName(i) {
  if (i === null || i === undefined) return "";
  const s = config.seats?.[i];
  return (s && s.name && seatLabel(s, i, config.names)) || state.data?.players?.[i]
    || t("Seat {n}", { n: i + 1 });
}

/** Whether the hand (and the draws) of `seat` show in the current mode. */
function open(seat) {
  return state.follow === "all" || state.follow === seat;
}

function last() {
  return state.data ? state.data.steps.length - 1 : 0;
}

// ---------------------------------------------------------------- loading

async function load() {
  let answer;
  try {
    answer = await fetch(`/api/tables/${encodeURIComponent(config.id)}/replay`,
      { headers: { Accept: "application/json" } });
  } catch {
    fail(t("The replay could not be loaded: is the server running? Reload the page to try again."));
    return;
  }
  let body = null;
  try { body = await answer.json(); } catch { /* not JSON */ }
  if (!answer.ok) {
    fail(body?.error?.message ? t("No replay: {reason}.", { reason: body.error.message })
      : t("No replay for this table."));
    return;
  }
  state.data = body;
  $("slider").max = String(last());
  buildLog();
  go(0, false);
  analysis.load();
}

function fail(text) {
  state.error = text;
  $("step-label").textContent = text;
  $("alert").textContent = text;
  $("alert").hidden = false;
}

// ---------------------------------------------------------------- moving

/** Show step `i` (clamped); `animate`: a knock or wipe of this very move plays. */
function go(i, animate = true) {
  if (!state.data) return;
  const to = Math.max(0, Math.min(last(), i));
  const forwardOne = to === state.step + 1;
  state.step = to;
  render(animate && forwardOne);
  const step = state.data.steps[to];
  if (animate && forwardOne && step.event) effects.play(step.event, { step: to, move: step.move });
}

/** Draw the current step; `moveIn`: its tile moves in (one step on, not a jump). */
function render(moveIn = false) {
  const step = state.data.steps[state.step];
  const n = last();
  $("slider").value = String(state.step);
  $("slider").setAttribute("aria-valuetext", `${moveLabel(state.step)}: ${stepText(state.step)}`);
  $("step-label").textContent = moveLabel(state.step);
  $("first").disabled = $("prev").disabled = state.step === 0;
  $("next").disabled = $("last").disabled = state.step === n;
  renderScore(step);
  renderBoard(step, moveIn);
  analysis.renderStep(state.step);
  renderResult(); // before the log: the result takes room from it
  renderHands(step);
  renderLog();
  $("announce").textContent = `${moveLabel(state.step)}. ${stepText(state.step)}. `
    + t("Sum {sum}.", { sum: num(step.sum) });
}

function moveLabel(i) {
  return i === 0 ? t("The deal (0 of {last})", { last: num(last()) })
    : t("Move {n} of {last}", { n: num(i), last: num(last()) });
}

/** The move of step `i` in words, as the followed seat may know it. */
function stepText(i) {
  const step = state.data.steps[i];
  if (i === 0) return t("The deal: {name} opens", { name: seatName(step.turn) });
  const entry = { ...step, drawn: open(step.seat) ? step.drawn : null };
  const what = describe(entry, seatName(step.seat));
  const sc = scored(entry);
  const fx = step.event ? `, ${eventName(step.event)}` : "";
  const end = i === last() && state.data.outcome ? `. ${winners()}` : "";
  return `${what}${sc ? `: ${sc}` : ""}${fx}${end}`;
}

/** "Game over: Anna won" (or Anna and Bea: the verb follows how many). */
function winners() {
  const first = state.data.outcome.seats.filter((r) => r.place === 1).map((r) => seatName(r.seat));
  return nt("Game over: {names} won", "Game over: {names} won", first.length, { names: listOf(first) });
}

function renderScore(step) {
  const divisors = state.data.divisors || [state.data.divisor];
  $("sum").textContent = num(step.sum);
  $("divisor-box").hidden = !divisors.length; // block and draw score nothing by the sum
  $("divisor-label").textContent = divisors.length > 1 ? t("Divisors") : t("Divisor");
  $("divisor").textContent = listOf(divisors.map((d) => num(d)));
  $("stock").textContent = num(step.stock);
  $("sum-note").textContent = step.sum_note || ""; // why the sum scores, as the server says
  $("last-move").textContent = stepText(state.step);
  $("last-move").classList.toggle("scored", Boolean(step.points));
}

const READABLE = 12; // pixels per unit (a tile is 2 long) at which its numbers read, as on the table

/**
 * Where the board looks on its own: the whole table when it reads at that size
 * (or after "fit"), else the move's tile at a readable size (a big table on a
 * phone). Panning or zooming by hand keeps the view where she put it.
 */
function autoView(geometry, step, better = null) {
  // the analysis's better tile lies where no tile is: the view holds it too
  const all = bounds(better ? { ...geometry, tiles: [...geometry.tiles, better] } : geometry);
  if (fitWhole || viewport.fitScale(all) >= READABLE) { viewport.fit(all, 44); return; }
  const index = step.move ? step.table.length - 1 : -1;
  const tile = geometry.tiles.find((x) => x.index === index) || geometry.tiles[geometry.tiles.length - 1];
  if (tile && better) viewport.centre((tile.x + better.x) / 2, (tile.y + better.y) / 2, READABLE * 1.3);
  else if (tile) viewport.centre(tile.x, tile.y, READABLE * 1.3);
  else viewport.fit(all, 44);
}

function renderBoard(step, moveIn) {
  const view = { ruleset: state.data.ruleset, table: step.table, open: step.open,
    layout: step.layout };
  const geometry = placeTiles(view);
  const better = analysis.betterTile(state.step);
  if (viewport.auto) autoView(geometry, step, better);
  const placed = step.move && step.move !== "draw" && step.move !== "pass";
  drawBoard(board, geometry, { maxPips: maxPipsOf(state.data.ruleset),
    last: placed ? step.table.length - 1 : -1, targets: [], onTarget: () => {},
    scale: viewport.scale(), moveIn, better });
  state.geometry = geometry;
}

function renderHands(step) {
  const max = maxPipsOf(state.data.ruleset);
  const over = state.step === last() && state.data.outcome;
  const drawn = state.step > 0 && step.move === "draw" ? step.drawn : null;
  const cards = step.hands.map((hand, i) => {
    const toMove = !over && step.turn === i;
    const shown = open(i);
    const label = [t("Seat {n}: {name}", { n: i + 1, name: seatName(i) }), tilesText(hand.length),
      t("score {score}", { score: num(step.scores[i]) }), toMove && t("to move"),
      state.follow === i && t("followed")].filter(Boolean).join(", ");
    let tiles;
    if (shown) {
      const rows = step.hand_rows[i].map((row) => el("span", { class: "group" + (row.joker ? " jokers" : ""),
        title: row.joker ? t("jokers (class {class})", { class: row.classes[0] })
          : t("class {classes}", { classes: row.classes.join(" | ") }) },
      row.tiles.map((tile) => {
        const face = tileFace(tile, max, { cls: [row.joker && "joker", tile.text === drawn && "new"]
          .filter(Boolean).join(" "),
        attrs: { "aria-label": row.joker ? t("{tile}, joker", { tile: tile.text }) : tile.text } });
        if (row.joker) face.append(el("span", { class: "star", "aria-hidden": "true" }, "★"));
        return face;
      })));
      tiles = el("div", { class: "open-hand" + (state.follow === i ? " big" : "") }, rows);
    } else {
      const backs = Math.min(hand.length, 24);
      tiles = el("div", { class: "backs",
        "aria-label": nt("{n} tile, hidden", "{n} tiles, hidden", hand.length) },
        Array.from({ length: backs }, () => el("span", { class: "back", "aria-hidden": "true" })),
        hand.length > backs ? el("span", { class: "more" }, `+${hand.length - backs}`) : null);
    }
    return el("li", {
      class: ["hand-card", toMove && "to-move", step.seat === i && state.step > 0 && "moved",
        state.follow === i && "followed"].filter(Boolean).join(" "),
      "aria-label": label, "data-seat": i },
    el("div", { class: "who" }, el("span", { class: "seatno" }, String(i + 1)),
      config.seats?.[i]?.account
        ? el("a", { href: `/players/${config.seats[i].account}` }, seatName(i))
        : el("span", {}, seatName(i)),
      toMove ? el("span", { class: "tag" }, t("to move")) : null,
      state.follow === i ? el("span", { class: "tag" }, t("followed")) : null),
    el("div", { class: "facts" },
      el("span", { class: "count" }, tilesText(hand.length)),
      el("span", { class: "score", "data-score": step.scores[i] }, pointsText(step.scores[i]))),
    tiles);
  });
  $("hands").replaceChildren(...cards);
}

function buildLog() {
  const list = $("moves");
  const items = state.data.steps.map((step, i) => el("li", { "data-step": i,
    class: step.points ? "scored" : "" },
  el("button", { type: "button", class: "step", tabindex: -1, onclick: () => go(i) },
    i === 0 ? el("span", { class: "who" }, t("the deal"))
      : [el("span", { class: "seatno", "aria-hidden": "true" }, String(step.seat + 1)), " ",
        el("span", { class: "who" }, seatName(step.seat)), " ", el("span", { class: "mv" }, "")],
    step.move && step.move !== "draw" && step.move !== "pass"
      ? el("span", { class: "sum" }, " " + t("sum {sum}", { sum: num(step.sum) })) : null,
    step.points ? el("span", { class: "pts" }, ` +${num(step.points)}`) : null,
    step.event ? el("span", { class: `ev ev-${step.event}` }, ` ${eventShort(step.event)}`) : null)));
  list.replaceChildren(...items);
}

function renderLog() {
  const list = $("moves");
  for (const li of list.children) {
    const i = Number(li.dataset.step);
    const step = state.data.steps[i];
    const current = i === state.step;
    li.classList.toggle("current", current);
    li.classList.toggle("future", i > state.step);
    const button = li.firstElementChild;
    button.tabIndex = current ? 0 : -1;
    if (current) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
    const mv = button.querySelector(".mv");
    if (mv) { // a draw shows its tile only to whom may see it
      mv.textContent = moveText(step.move, step.drawn && open(step.seat) ? step.drawn : null);
    }
  }
  const box = $("log-box");
  const li = list.children[state.step];
  if (li) { // keep the current move in view inside the list, without scrolling the page
    const top = li.offsetTop - box.offsetTop;
    if (top < box.scrollTop + 30) box.scrollTop = Math.max(0, top - 30);
    else if (top + li.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = top + li.offsetHeight - box.clientHeight + 8;
    }
  }
}

function renderResult() {
  const outcome = state.data.outcome;
  const atEnd = state.step === last() && outcome;
  $("result").hidden = !atEnd;
  if (!atEnd) return;
  const rows = [...outcome.seats].sort((a, b) => a.place - b.place || a.seat - b.seat);
  $("result-rows").replaceChildren(...rows.map((r) => el("tr", {
    class: state.follow === r.seat ? "mine" : "", "data-seat": r.seat, "data-final": r.final },
  el("td", {}, ordinal(r.place)), el("th", { scope: "row" }, seatName(r.seat)),
  el("td", {}, num(r.points)), el("td", {}, num(r.bonus)), el("td", {}, num(r.pips)),
  el("td", { class: "final" }, num(r.final)))));
}

// ---------------------------------------------------------------- controls

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(state.step - 1));
$("next").addEventListener("click", () => go(state.step + 1));
$("last").addEventListener("click", () => go(last()));
$("slider").addEventListener("input", () => go(Number($("slider").value)));
$("follow").addEventListener("change", () => {
  const v = $("follow").value;
  state.follow = v === "all" ? "all" : Number(v);
  if (state.data) render();
});
$("zoom-in").addEventListener("click", () => viewport.zoom(0.7));
$("zoom-out").addEventListener("click", () => viewport.zoom(1 / 0.7));
$("fit").addEventListener("click", () => {
  viewport.auto = true; // back to the whole table, step after step
  fitWhole = true;
  if (state.data) render();
});
window.addEventListener("resize", () => { if (viewport.auto && state.data) render(); });

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || !state.data) return;
  const target = e.target;
  // the slider moves by itself with the arrows (its input event steps); fields keep their keys
  if (target.closest && target.closest("input[type=range], input[type=text], select, textarea")) return;
  const to = { ArrowLeft: state.step - 1, ArrowRight: state.step + 1, Home: 0, End: last() }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  go(to);
});

const analysis = new Analysis({
  tableId: config.id, mySeat: config.my_seat ?? null, csrf: config.csrf, seatName,
  go: (i) => go(i),
  onChange: () => {
    if (!state.data) return;
    analysis.markLog($("moves"));
    analysis.renderStep(state.step);
    renderBoard(state.data.steps[state.step], false); // a better move on the table
  },
});
state.analysis = analysis; // for the browser tests

const follow = $("follow").value;
state.follow = follow === "all" ? "all" : Number(follow); // a reload keeps the choice
load();
