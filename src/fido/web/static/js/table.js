// The table page: a client of the table's WebSocket (docs/server.md, the
// protocol). The server is the authority: this page shows the view it is
// sent and sends moves; every text from the server (names, chat) goes into
// the page as text, never as HTML.

import { KIND } from "./event_kinds.js";
import { Viewport, bounds, drawBoard, hue, placeTiles } from "./board.js";
import { Effects, eventName } from "./effects.js";
import { nt, num, t } from "./i18n.js";
import { TurnSignals } from "./signals.js";
import { TableSocket } from "./table_socket.js";
import {
  followNext, goToTable, matchNote, matchOverText, renderAgain, renderMatch, teamRows,
} from "./table_match.js";
import { applyMessage, dropPending, newState, startMove } from "./table_state.js";
import {
  describe as describeAs, el, listOf, maxPipsOf, moveText, ordinal, pointsText, personName, scored,
  namesKey, seatLabel, tilesText,
} from "./ui.js";

const config = JSON.parse(document.getElementById("table-config").textContent);
const $ = (id) => document.getElementById(id);

// what the server said (table_state.js), and what this page adds: her choices on it
const state = Object.assign(newState(config.seat), {
  selected: null, // the tile picked in the hand
  lastAnnounced: 0,
  hintAt: null, // the log's length when she asked for a hint: it holds until the next move
  drag: null, // a tile being dragged: { tile, id, x, y, ghost, moved }
});
const link = new TableSocket(config.id, state, {
  onMessage: receive, onStatus: setConnection,
  onDropped: () => { dropPending(state); render(false); },
});
// the socket's fields where they always were, for the browser tests and the curious
Object.defineProperties(state, {
  socket: { get: () => link.socket, enumerable: true },
  retry: { get: () => link.retry, enumerable: true },
  closedForGood: { get: () => link.closedForGood, enumerable: true },
});
window.fidoTable = state;

// ---------------------------------------------------------------- helpers

function seatName(i) {
  if (i === null || i === undefined) return "";
  if (i === state.seat) return t("You");
  const s = state.table?.seats?.[i];
  return s && s.name ? seatLabel(s, i, namesKey(state.table)) : t("Seat {n}", { n: i + 1 });
}

function isMine(i) {
  return i !== null && i !== undefined && i === state.seat;
}

function describe(entry) {
  return describeAs(entry, seatName(entry.seat), isMine(entry.seat));
}

/** A target's label: "Play 9-4 on 3e: scores 2" (a whole sentence for each case). */
function playLabel(tile, slot, points) {
  const p = { tile, slot, points: num(points) };
  if (slot) return points ? t("Play {tile} on {slot}: scores {points}", p) : t("Play {tile} on {slot}: scores nothing", p);
  return points ? t("Play {tile} to open the table: scores {points}", p)
    : t("Play {tile} to open the table: scores nothing", p);
}

function msgId() {
  msgId.n = (msgId.n || 0) + 1;
  return `w${Date.now().toString(36)}-${msgId.n}`;
}

/** Whether seats `a` and `b` play as partners: the teams come with the view (the rule
 * of which games have teams is the server's). */
function partners(a, b) {
  return a !== b && (state.view?.teams || []).some((team) => team.includes(a) && team.includes(b));
}

// ---------------------------------------------------------------- messages

/** Send on the table's socket; when it is down, say so (it reconnects by itself). */
function send(message) {
  if (link.send(message)) return true;
  showAlert(t("Not connected: wait a moment, the page reconnects by itself."));
  return false;
}

/** A message from the server: the state takes it (table_state.js), the page shows it. */
function receive(msg) {
  const out = applyMessage(state, msg, noteEvent);
  if (msg.type === "welcome") link.resendPending(); // before drawing: it may settle the move
  if (out.refused) {
    const r = out.refused;
    showAlert(r.lost ? t(
      "Your move {move} was not played: the connection dropped before it reached the table, and it cannot be played now ({reason}).",
      { move: r.move, reason: r.message })
      : r.message || t("refused"));
  }
  if (out.sync) send({ type: "sync", seq: state.seq });
  if (out.retry) resendLater(state.pending, out.retry);
  if (out.render) render(out.render === "fresh");
  // the Rostock knock and the Basel wipe, as they happen (not when catching up)
  for (const e of out.fresh) {
    if (e.kind !== KIND.MOVE) continue;
    const kind = e.table_event; // the knock or the wipe, as the server says
    if (kind) effects.play(kind, { seq: e.seq, move: e.move, points: e.points });
  }
}

/** An event in the notes or the chat (a move is in the log already). */
function noteEvent(e, catchingUp) {
  const said = matchNote(e, seatName, state.table); // a match's or a rematch's (table_match.js)
  if (said) note(said);
  followNext(e, catchingUp);
  if (e.kind === KIND.CHAT) {
    addChat(e);
  } else if (e.kind === KIND.JOIN) {
    note(t("{name} sat down at seat {n}", { name: personName(e.name), n: e.seat + 1 }));
  } else if (e.kind === KIND.LEAVE) {
    note(t("Seat {n} is free again", { n: e.seat + 1 }));
  } else if (e.kind === KIND.START) {
    note(t("The game starts"));
  } else if (e.kind === KIND.AWAY && !catchingUp) {
    note(isMine(e.seat) ? t("You are away") : t("{name} is away", { name: seatName(e.seat) }));
  } else if (e.kind === KIND.BACK && !catchingUp) {
    note(isMine(e.seat) ? t("You are back") : t("{name} is back", { name: seatName(e.seat) }));
  } else if (e.kind === KIND.END) {
    note(t("Game over"));
  } else if (e.kind === KIND.VACATION) { // a turn-based table: her clock waits for her
    const date = new Date(e.until * 1000).toLocaleString(document.documentElement.lang || undefined,
      { dateStyle: "medium", timeStyle: "short" });
    note(isMine(e.seat) ? t("You are on vacation: your clock starts again on {date}.", { date })
      : t("{name} is on vacation: her clock starts again on {date}.", { name: seatName(e.seat), date }));
  }
}

/** The pending move sent again after `ms` (the table could not save it), if still pending. */
function resendLater(pending, ms) {
  setTimeout(() => {
    if (state.pending === pending) link.send(pending.message);
  }, ms);
}

// ---------------------------------------------------------------- actions

function play(move) {
  if (state.pending) return;
  const id = msgId();
  const message = { type: "move", id, seq: state.seq, move };
  // no connection now: the move waits, and the next socket sends it once its welcome
  // is in (link.resendPending), as it does for a move whose socket dropped
  const sent = link.send(message);
  startMove(state, id, move, message, sent ? link.socket : null);
  if (!sent) showAlert(t("No connection: your move {move} is sent as soon as it is back.", { move }));
  state.selected = null;
  render(false);
}

function pick(tile) {
  state.selected = state.selected === tile ? null : tile;
  viewport.auto = true; // the board follows to the tile's targets
  render(false);
  if (state.selected) {
    const stuck = boardSticks();
    if (stuck) showBoardAndTargets();
    const first = document.querySelector("#targets button");
    if (first) first.focus({ preventScroll: stuck });
  }
}

/** Whether the board stays at the top while the page scrolls (a phone, her hand below it). */
function boardSticks() {
  return getComputedStyle($("board-box")).position === "sticky";
}

/** A phone: the board at the top and, right under it, her turn line, Hint and the picked
 * tile's places (the hand may have scrolled them away; the bar scrolls away on a phone). */
function showBoardAndTargets() {
  const board = $("board-box").getBoundingClientRect();
  const me = $("me").getBoundingClientRect();
  const gap = parseFloat(getComputedStyle($("me").parentElement).rowGap) || 8;
  window.scrollTo({ top: Math.max(0, window.scrollY + me.top - board.height - gap), behavior: "instant" });
}

function targetsFor(tile) {
  const view = state.view;
  if (!view || !tile) return [];
  return view.legal.filter((m) => m.tile === tile).map((m) => {
    const slot = m.slot || "open";
    return { slot, move: m.move, points: m.points, label: playLabel(tile, m.slot, m.points) };
  });
}

// ---------------------------------------------------------------- rendering

const board = $("board");
const viewport = new Viewport(board, [...document.querySelectorAll(".board-tools")]);
const effects = new Effects($("board-box"), $("fx"), $("sound"));
state.effects = effects.log;
const signals = new TurnSignals($("notify"), effects);
state.signals = signals.log;
$("zoom-in").addEventListener("click", () => viewport.zoom(0.7));
$("zoom-out").addEventListener("click", () => viewport.zoom(1 / 0.7));
$("fit").addEventListener("click", () => {
  viewport.fit(bounds(state.geometry || { tiles: [], markers: [] }), 44);
  viewport.auto = false; // the whole table, until she picks a tile
});
window.addEventListener("resize", () => { if (viewport.auto) renderBoard(); });

/** The connection's state (table_socket.js names it: "connected"...) in words. */
function setConnection(code) {
  const words = {
    connecting: t("connecting"), connected: t("connected"), reconnecting: t("reconnecting"),
    "signed out": t("signed out"), "no such table": t("no such table"), refused: t("refused"),
  };
  const c = $("conn");
  c.textContent = words[code] || code;
  c.dataset.state = code;
}

function showAlert(text) {
  const a = $("alert");
  a.textContent = text;
  a.hidden = false;
  clearTimeout(showAlert.timer);
  showAlert.timer = setTimeout(() => { a.hidden = true; }, 6000);
}

function note(text) {
  $("log").append(el("li", { class: "note" }, text));
}

// the chat's quick phrases, by the code the server keeps (fido.server.protocol.Phrase):
// each reader reads them in her own language
export const PHRASES = {
  hello: () => t("Hello!"),
  luck: () => t("Good luck!"),
  thanks: () => t("Thanks!"),
  well: () => t("Well played!"),
  gg: () => t("Good game!"),
  sorry: () => t("Sorry!"),
  bye: () => t("I have to go, bye!"),
};

// the people whose chat she muted (their account numbers, kept in this browser)
const MUTED_KEY = "fido-muted";
function muted() {
  try { return new Set(JSON.parse(localStorage.getItem(MUTED_KEY) || "[]")); } catch { return new Set(); }
}
function setMuted(account, on) {
  const now = muted();
  if (on) now.add(account); else now.delete(account);
  try { localStorage.setItem(MUTED_KEY, JSON.stringify([...now])); } catch { /* private mode */ }
  renderChatLines();
}

/** Report a chat line to the federation (its accounts read it in their inbox). */
async function reportLine(seq) {
  try {
    const answer = await fetch(`/api/tables/${encodeURIComponent(config.id)}/reports`, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json",
        "X-CSRF-Token": config.csrf },
      body: JSON.stringify({ seq }),
    });
    const body = await answer.json().catch(() => null);
    if (!answer.ok && answer.status !== 409) {
      showAlert((body && body.error && body.error.message) || t("refused"));
      return;
    }
    state.reported = state.reported || new Set();
    state.reported.add(seq);
    renderChatLines();
  } catch {
    showAlert(t("Not connected: wait a moment, the page reconnects by itself."));
  }
}

function addChat(e) {
  state.chat = state.chat || [];
  state.chat.push(e);
  renderChatLines();
}

/** The chat as she reads it: a phrase in her language, a muted person's lines left out
 * (one line says how many), each other person's line with "mute". */
function renderChatLines() {
  const list = $("chat-lines");
  const quiet = muted();
  const seats = (state.table && state.table.seats) || [];
  let hidden = 0;
  const lines = [];
  for (const e of state.chat || []) {
    const account = e.seat !== null && e.seat !== undefined ? seats[e.seat]?.account : null;
    if (account && quiet.has(account)) { hidden += 1; continue; }
    const mine = e.seat === state.seat && e.seat !== null && e.seat !== undefined;
    const text = e.phrase && PHRASES[e.phrase] ? PHRASES[e.phrase]() : e.text;
    const who = el("b", {}, mine ? t("You") : personName(e.name));
    const mute = account && !mine
      ? el("button", { type: "button", class: "link mute", title: t("Mute {name}", { name: personName(e.name) }),
        onclick: () => setMuted(account, true) }, t("mute")) : null;
    const report = account && !mine && !e.phrase && config.me
      ? (state.reported && state.reported.has(e.seq)
        ? el("span", { class: "reported" }, t("reported"))
        : el("button", { type: "button", class: "link report", title: t("Report this line to the federation"),
          onclick: () => reportLine(e.seq) }, t("report"))) : null;
    lines.push(el("li", { class: e.phrase ? "phrase" : null, "data-seq": e.seq }, who, ": ", text,
      mute ? " " : null, mute, report ? " " : null, report));
  }
  if (hidden) {
    lines.push(el("li", { class: "muted-note" }, nt("{n} line of a muted player hidden",
      "{n} lines of muted players hidden", hidden), " ",
    el("button", { type: "button", class: "link", onclick: () => {
      for (const a of quiet) setMuted(a, false);
    } }, t("unmute all"))));
  }
  list.replaceChildren(...lines);
  list.scrollTop = list.scrollHeight;
}

function render(fresh) {
  const view = state.view;
  const focusWasMine = document.activeElement === document.body
    || Boolean(document.activeElement && document.activeElement.closest("#me, #board"));
  const table = state.table;
  const started = Boolean(view);
  document.body.classList.toggle("started", started);
  $("seating").hidden = started || (table && table.status !== "open");
  $("waiting").hidden = started;
  if (!started) {
    const free = table ? table.seats.filter((s) => s.kind === "open" || s.kind === "reserved").length : 0;
    $("waiting").textContent = table && table.status === "abandoned"
      ? t("This table was closed before its game began.")
      : nt("Waiting for {n} more player.", "Waiting for {n} more players.", free);
  }
  if (view && state.selected && !view.hand.includes(state.selected)) state.selected = null;
  renderScore();
  renderSeats();
  renderLog(fresh);
  renderHand();
  renderBoard();
  renderResult();
  renderMatch(state, seatName, note);
  renderAgain(state, seatName, askAgain);
  announce();
  signals.update(myTurnNow() && !state.pending, $("turn-note").textContent);
  if (focusWasMine && !document.activeElement?.closest("#me, #board")) keepFocus();
}

/** After the hand is drawn anew, keyboard focus goes back into it (not to the page's top). */
function keepFocus() {
  const target = document.querySelector("#targets button")
    || document.querySelector("#hand .tile.playable")
    || [$("draw"), $("pass")].find((b) => !b.hidden)
    || document.querySelector("#hand .tile");
  if (target) target.focus({ preventScroll: true });
}

/** What the sum scores by, as the server says (`divisors`): one divisor, two (fives and
 * threes: "5 and 3"), or none (block, draw: the sum scores nothing, no divisor shown). */
function renderDivisors(view) {
  const divisors = view ? view.divisors || [view.divisor] : null;
  $("divisor-box").hidden = Boolean(divisors && !divisors.length);
  $("divisor-label").textContent = divisors && divisors.length > 1 ? t("Divisors") : t("Divisor");
  $("divisor").textContent = divisors ? listOf(divisors.map((d) => num(d))) : "–";
}

/** The sum for the screen reader: with what it scores by, when it scores at all. */
function sumSaid(view) {
  const divisors = view.divisors || [view.divisor];
  const p = { sum: num(view.sum), divisor: listOf(divisors.map((d) => num(d))) };
  if (!divisors.length) return t("Sum {sum}.", p);
  return divisors.length > 1 ? t("Sum {sum}, divisors {divisor}.", p) : t("Sum {sum}, divisor {divisor}.", p);
}

function renderScore() {
  const view = state.view;
  $("sum").textContent = view ? num(view.sum) : "–";
  renderDivisors(view);
  $("sum-note").textContent = (view && view.sum_note) || ""; // why the sum scores, as the server says
  $("stock").textContent = view ? num(view.stock) : "–";
  const last = state.log[state.log.length - 1];
  const fx = last && last.table_event;
  $("last-move").textContent = last
    ? `${describe(last)}${scored(last) ? `: ${scored(last)}` : ""}${fx ? `, ${eventName(fx)}` : ""}` : "";
  $("last-move").classList.toggle("scored", Boolean(last && last.points));
}

// the seats' game ratings (docs/ratings.md), asked again when the seats change and at the
// game's end (its last move wrote the new ones): each seat's, and what the game moved
let ratingsKey = null;
function loadRatings() {
  const table = state.table;
  const key = table.seats.map((s) => s.account || s.bot || "").join(",")
    + (state.view && state.view.outcome ? ":end" : "");
  if (key === ratingsKey) return;
  ratingsKey = key;
  fetch(`/api/tables/${encodeURIComponent(table.id)}/ratings`, { headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : null))
    .then((body) => {
      if (!body || ratingsKey !== key) return;
      const before = state.ratings;
      state.ratings = new Map(body.seats.map((x) => [x.seat, x]));
      if (key.endsWith(":end") && before) {
        for (const [seat, r] of state.ratings) {
          const was = before.get(seat);
          if (was && !r.bot) r.change = r.rating - was.rating;
        }
      }
      renderSeats();
    })
    .catch(() => { ratingsKey = null; }); // offline: asked again at the next change
}

function ratingTag(i) {
  const r = state.ratings && state.ratings.get(i);
  if (!r) return null;
  const text = `${r.rating}${r.provisional ? "?" : ""}`; // a rating reads whole: 1512, not 1,512
  const change = r.change ? ` (${r.change > 0 ? "+" : "−"}${Math.abs(r.change)})` : "";
  return el("span", { class: "rating" + (r.change > 0 ? " up" : r.change < 0 ? " down" : ""),
    title: r.bot ? t("game rating (a bot's: fixed)") : t("game rating") }, text + change);
}

function renderSeats() {
  const box = $("seats");
  const table = state.table;
  const view = state.view;
  if (!table) return;
  loadRatings();
  box.replaceChildren();
  table.seats.forEach((s, i) => {
    const toMove = view && !view.outcome && view.turn === i;
    const partner = state.seat !== null && state.seat !== undefined && partners(state.seat, i);
    const name = s.kind === "open" ? t("open seat") : s.kind === "reserved" ? t("reserved")
      : seatLabel(s, i, namesKey(table));
    const link = s.account ? el("a", { href: `/players/${s.account}` }, name) : el("span", {}, name);
    const over = Boolean(view && view.outcome);
    const declined = over && table.again && (table.again.no || []).includes(i);
    const presence = s.kind === "bot" ? t("bot") : s.replaced ? t("replaced by the stand-in")
      : declined ? t("declined the rematch")
        : s.kind === "person" ? (s.away ? (over ? t("left") : t("away")) : t("here")) : "";
    const mine = i === state.seat;
    const said = [
      mine ? t("Seat {n}: {name} (you)", { n: i + 1, name }) : t("Seat {n}: {name}", { n: i + 1, name }),
      view && tilesText(view.hand_counts[i]), view && t("score {score}", { score: num(view.scores[i]) }),
      presence, toMove && t("to move"),
    ];
    const card = el("li", {
      class: ["seat", toMove && "to-move", mine && "mine", s.away && "away"]
        .filter(Boolean).join(" "),
      "aria-label": said.filter(Boolean).join(", "),
    },
    el("div", { class: "who" }, el("span", { class: "seatno" }, `${i + 1}`), link,
      mine ? el("span", { class: "tag" }, t("you")) : null,
      partner ? el("span", { class: "tag" }, t("partner")) : null, ratingTag(i)),
    el("div", { class: "facts" },
      view ? el("span", { class: "count" }, tilesText(view.hand_counts[i])) : null,
      view ? el("span", { class: "score" }, pointsText(view.scores[i])) : null,
      presence ? el("span", { class: `presence ${s.away ? "off" : "on"}` }, presence) : null,
      toMove ? seatClock(s, table) : null));
    box.append(card);
  });
  tickClocks();
}

/** The seat to move's countdown: her clock, or, while she is away, the time until the
 * stand-in plays for her (the table's `stand_in_at`, as the server says). */
function seatClock(s, table) {
  const away = s.kind === "person" && s.away && !table.turn_based && table.stand_in_at;
  const at = away ? table.stand_in_at : table.deadline;
  if (!at) return null;
  return el("span", { class: away ? "clock stand-in" : "clock", "data-deadline": at,
    "data-stand-in": away ? "1" : null }, "");
}

function tickClocks() {
  for (const c of document.querySelectorAll(".clock[data-deadline]")) {
    const left = Math.max(0, Math.round(Number(c.dataset.deadline) - Date.now() / 1000));
    const time = clockText(left);
    c.textContent = c.dataset.standIn ? t("stand-in in {time}", { time }) : time;
    c.classList.toggle("low", left <= 10);
  }
}
setInterval(tickClocks, 1000);

/** A table's time per move as the lobby says it: "12 hours", "3 days", "30 s". */
function clockLabel(seconds) {
  if (seconds % 86400 === 0) return nt("{n} day", "{n} days", seconds / 86400);
  if (seconds % 3600 === 0) return nt("{n} hour", "{n} hours", seconds / 3600);
  return t("{seconds} s", { seconds });
}

/** Time left on a clock: minutes and seconds, or at a turn-based table hours or days. */
function clockText(left) {
  const days = Math.floor(left / 86400), hours = Math.floor((left % 86400) / 3600);
  if (days) return t("{days} d {hours} h", { days, hours });
  if (hours) return t("{hours} h {minutes} min", { hours, minutes: Math.floor((left % 3600) / 60) });
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** A move the table made for a person, marked in the log, as the server says: she was
 * away past the grace (`by: "away"`), her clock ran out (`"clock"`), it ran out too often
 * and the stand-in plays her seat (`"replaced"`), or drawing or passing was her only
 * move (`"forced"`). */
function byText(m) {
  const name = seatName(m.seat);
  const mine = isMine(m.seat);
  switch (m.by) {
    case "clock":
      return mine ? t("played for you by the clock") : t("played for {name} by the clock", { name });
    case "away":
      return mine ? t("played for you by the stand-in") : t("played for {name} by the stand-in", { name });
    case "replaced":
      return mine ? t("played for you by the stand-in: your clock ran out too often")
        : t("played for {name} by the stand-in: her clock ran out too often", { name });
    case "forced":
      return mine ? t("played for you: your only move") : t("played for {name}: her only move", { name });
    default:
      return "";
  }
}

function byWhom(m) {
  const text = byText(m);
  return text ? el("span", { class: `by by-${m.by}` }, ` · ${text}`) : null;
}

function renderLog(fresh) {
  const list = $("moves");
  if (fresh) list.replaceChildren();
  for (let i = list.children.length; i < state.log.length; i++) {
    const m = state.log[i];
    list.append(el("li", { class: m.points ? "scored" : "" },
      el("span", { class: "who" }, seatName(m.seat)), " ",
      el("span", { class: "mv" }, moveText(m.move, m.drawn)),
      m.move !== "draw" && m.move !== "pass"
        ? el("span", { class: "sum" }, " " + t("sum {sum}", { sum: num(m.sum) })) : null,
      m.points ? el("span", { class: "pts" }, ` +${num(m.points)}`) : null,
      byWhom(m)));
  }
  list.parentElement.scrollTop = list.parentElement.scrollHeight;
}

function renderHand() {
  const view = state.view;
  const hand = $("hand");
  hand.replaceChildren();
  const mine = view && state.seat !== null && state.seat !== undefined;
  $("me").hidden = !mine;
  if (!mine) return;
  const myTurn = !view.outcome && view.turn === state.seat;
  const playable = new Set(view.legal.filter((m) => m.tile).map((m) => m.tile));
  const points = new Map();
  for (const m of view.legal) {
    if (m.tile) points.set(m.tile, Math.max(points.get(m.tile) || 0, m.points));
  }
  const hinted = new Set(hintShown() ? scoringMoves().map((m) => m.tile) : []);
  for (const row of view.hand_rows) { // Ratzek's rows, as the server sorts them
    const label = row.joker ? t("jokers ({class})", { class: row.classes[0] })
      : t("class {classes}", { classes: row.classes.join(" | ") });
    const tiles = row.tiles.map((tile) => {
      const can = myTurn && playable.has(tile.text) && !state.pending;
      const best = points.get(tile.text);
      const said = [tile.text, row.joker && t("joker"), t("class {class}", { class: tile.cls }),
        can ? t("playable") : t("cannot be played now"),
        can && best && t("can score {points}", { points: num(best) })];
      return el("button", {
        type: "button",
        class: ["tile", row.joker && "joker", can && "playable", state.selected === tile.text && "selected",
          can && best ? "scores" : "", can && hinted.has(tile.text) && "hinted"].filter(Boolean).join(" "),
        "data-tile": tile.text,
        "aria-pressed": state.selected === tile.text ? "true" : "false",
        "aria-disabled": can ? null : "true",
        "aria-label": said.filter(Boolean).join(", "),
        onclick: () => { if (can && !state.justDragged) pick(tile.text); },
        onpointerdown: can ? (e) => startDrag(e, tile.text) : null,
      },
      el("span", { class: "half" }, String(tile.left)),
      el("span", { class: "half" }, String(tile.right)),
      row.joker ? el("span", { class: "star", "aria-hidden": "true" }, "★") : null);
    });
    hand.append(el("div", { class: "row", role: "group", "aria-label": label },
      el("span", { class: "rowlabel", "aria-hidden": "true" }, row.joker ? `★ ${row.classes[0]}` : row.classes.join("|")),
      tiles));
  }
  for (const b of hand.querySelectorAll(".tile .half")) { // each number its colour, as on the table
    b.style.color = `hsl(${hue(Number(b.textContent), maxPips())} 70% 30%)`;
  }
  // draw and pass, when they are the legal moves
  const moves = new Set(view.legal.map((m) => m.move));
  $("draw").hidden = !(myTurn && moves.has("draw"));
  $("pass").hidden = !(myTurn && moves.has("pass"));
  $("draw").disabled = $("pass").disabled = $("draw-on").disabled = Boolean(state.pending);
  // "draw until a tile fits": where a draw keeps her turn (the classic draw games; at
  // FIDO's tables she draws one and sits out), one click draws on while drawing is all
  // she can do, and stops when a tile fits, the stock is empty or the turn is not hers
  const onlyDraw = myTurn && moves.size === 1 && moves.has("draw");
  const drawsOn = onlyDraw && !String(state.table?.ruleset || "").startsWith("fido");
  $("draw-on").hidden = !drawsOn || state.drawingOn;
  if (!drawsOn) state.drawingOn = false;
  else if (state.drawingOn && !state.pending) setTimeout(() => {
    if (state.drawingOn && !state.pending) play("draw");
  }, 150);
  $("hint").hidden = Boolean(view.outcome);
  const mineDone = view.outcome && view.outcome.seats.find((r) => r.seat === state.seat);
  // a team game: her team's place and total, not hers (two "1st" seats there)
  const ourTeam = mineDone && view.outcome.teams
    && view.outcome.teams.find((x) => x.seats.includes(state.seat));
  const match = state.table && state.table.match;
  $("turn-note").textContent = view.outcome && match && match.over && mineDone
    ? matchOverText(match, seatName, state.seat)  // the match's result, not the last hand's
    : ourTeam ? t("The game is over: your team is {place} with {final}.",
      { place: ordinal(ourTeam.place), final: num(ourTeam.final) })
    : mineDone ? t("The game is over: you are {place} with {final}.",
      { place: ordinal(mineDone.place), final: num(mineDone.final) })
    : state.pending ? t("Sending your move…")
    : myTurn ? (playable.size ? t("Your turn: pick a tile, then where it goes.")
      : moves.has("draw") ? t("Your turn: no tile fits, draw one.") : t("Your turn: you must pass."))
    : t("{name} to move.", { name: seatName(view.turn) });
  $("turn-note").classList.toggle("my-turn", myTurn);
  // the clock of the seat to move beside her hand too (on a phone the seats are below it)
  const table = state.table;
  const clock = !view.outcome && table && table.seats[view.turn]
    ? seatClock(table.seats[view.turn], table) : null;
  const [before, after] = clock && !clock.dataset.standIn
    ? t("{time} left", { time: "\u0000" }).split("\u0000") : ["", ""];
  $("turn-clock").replaceChildren(...(clock ? [
    table.turn_based ? t("Turn-based, {clock} a move:", { clock: clockLabel(table.clock) }) + " " : "",
    before, clock, after] : []));
  $("turn-clock").hidden = !clock;
  tickClocks();
  renderHint();
  renderTargets();
}

/** Where the picked tile can go: a list of buttons beside the board's targets. */
function renderTargets() {
  const targets = targetsFor(state.selected);
  $("targets-box").hidden = !targets.length;
  $("sel-tile").textContent = state.selected || "";
  $("targets").replaceChildren(...targets.map((target) => el("li", {},
    el("button", { type: "button", class: target.points ? "scores" : "", "data-move": target.move,
      "aria-label": target.label, onclick: () => play(target.move),
      onfocus: () => showTarget(target.slot), onmouseenter: () => showTarget(target.slot) },
    el("b", {}, target.slot === "open" ? t("open the table") : target.slot),
    target.points ? el("span", { class: "pts" }, ` +${num(target.points)}`)
      : el("span", { class: "pts none" }, ` ±${num(0)}`)))));
}

function maxPips() {
  return maxPipsOf(state.view?.ruleset);
}

// ---------------------------------------------------------------- hints

/** Her moves that score now, best first (a placement's points from the view's legal list). */
function scoringMoves() {
  const view = state.view;
  if (!view) return [];
  return view.legal.filter((m) => m.tile && m.points > 0)
    .sort((a, b) => b.points - a.points || a.move.localeCompare(b.move));
}

function myTurnNow() {
  const view = state.view;
  return Boolean(view && !view.outcome && state.seat !== null && view.turn === state.seat);
}

/** A hint holds from her asking until the next move. */
function hintShown() {
  return state.hintAt !== null && state.hintAt === state.log.length && myTurnNow();
}

function askHint() {
  const view = state.view;
  if (!view || view.outcome || state.seat === null || state.seat === undefined) return;
  state.hintAt = state.log.length;
  const had = document.activeElement?.dataset?.tile; // the tile she was on, drawn anew
  renderHand();
  renderBoard();
  const first = document.querySelector("#hint-list button");
  if (first) first.focus();
  else if (had && document.querySelector(`#hand .tile[data-tile="${had}"]`)) {
    document.querySelector(`#hand .tile[data-tile="${had}"]`).focus({ preventScroll: true });
  } else if (!document.activeElement || document.activeElement === document.body) keepFocus();
  $("announce").textContent = $("hint-box").textContent;
}

function renderHint() {
  const box = $("hint-box");
  const asked = state.hintAt !== null && state.hintAt === state.log.length;
  box.hidden = !asked;
  if (!asked) return;
  const moves = scoringMoves();
  const list = $("hint-list");
  if (!myTurnNow()) {
    $("hint-text").textContent = t("A hint shows on your turn: the moves that score then.");
    list.replaceChildren();
    return;
  }
  $("hint-text").textContent = moves.length
    ? nt("One move scores now, best first:", "{n} moves score now, best first:", moves.length)
    : t("No move scores now.");
  list.replaceChildren(...moves.map((m, i) => {
    const p = { tile: m.tile, slot: m.slot, points: num(m.points) };
    return el("li", {},
      el("button", { type: "button", class: i === 0 ? "best" : "", "data-move": m.move,
        "aria-label": m.slot ? t("Hint: {tile} on {slot} scores {points}", p)
          : t("Hint: {tile} to open the table scores {points}", p),
        onclick: () => {
          pick(m.tile);
          document.querySelector(`#targets button[data-move="${m.move}"]`)?.focus();
        } },
      el("b", {}, m.tile), " ", m.slot ? t("on {slot}", p) : t("opens"), " ",
      el("span", { class: "pts" }, `+${num(m.points)}`)));
  }));
}

/** The board shows the scoring moves while a hint is up and no tile is picked (the best per place). */
function hintTargets() {
  return scoringMoves().reverse().map((m) => ({ slot: m.slot || "open", move: m.move, points: m.points,
    label: playLabel(m.tile, m.slot, m.points) }));
}

// ---------------------------------------------------------------- dragging a tile
// A tile is dragged from the hand with pointer events (a mouse, a pen or a
// finger): past a few pixels it is picked (its targets show, the board stays
// where it is), a copy follows the pointer, and let go on a target (on the
// board or in the list) or on an open place it plays there.

function startDrag(e, tile) {
  if (e.pointerType === "mouse" && e.button !== 0) return;
  if (state.pending) return;
  state.drag = { tile, id: e.pointerId, x: e.clientX, y: e.clientY, moved: false, ghost: null,
    auto: viewport.auto, over: null };
}

function dragMove(e) {
  const d = state.drag;
  if (!d || e.pointerId !== d.id) return;
  if (!d.moved) {
    if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 8) return;
    d.moved = true;
    viewport.auto = false; // the board stays where she aims
    state.selected = d.tile;
    for (const b of document.querySelectorAll("#hand .tile")) {
      b.classList.toggle("selected", b.dataset.tile === d.tile);
      b.setAttribute("aria-pressed", b.dataset.tile === d.tile ? "true" : "false");
    }
    renderTargets();
    renderBoard();
    const source = document.querySelector(`#hand .tile[data-tile="${d.tile}"]`);
    d.ghost = source ? source.cloneNode(true) : el("span", { class: "tile" }, d.tile);
    d.ghost.classList.add("drag-ghost");
    d.ghost.removeAttribute("id");
    d.ghost.setAttribute("aria-hidden", "true");
    document.body.append(d.ghost);
    document.body.classList.add("dragging");
  }
  e.preventDefault();
  d.ghost.style.left = `${e.clientX}px`;
  d.ghost.style.top = `${e.clientY}px`;
  const over = dropTarget(d.tile, e.clientX, e.clientY);
  if (over !== d.over) {
    d.over?.el.classList.remove("drop-over");
    over?.el.classList.add("drop-over");
    d.over = over;
  }
}

/** What lies under the pointer to drop `tile` on: { el, move } or null. */
function dropTarget(tile, x, y) {
  const hit = document.elementFromPoint(x, y);
  if (!hit || !state.view) return null;
  const button = hit.closest("#targets [data-move]");
  if (button) return { el: button, move: button.dataset.move };
  const place = hit.closest("#board [data-slot]");
  if (!place) return null;
  const slot = place.dataset.slot;
  const m = state.view.legal.find((x) => x.tile === tile && (x.slot || "open") === slot);
  return m ? { el: place, move: m.move } : null;
}

function dragEnd(e, dropped) {
  const d = state.drag;
  if (!d || e.pointerId !== d.id) return;
  state.drag = null;
  if (!d.moved) return; // a click: pick() does the rest
  d.ghost?.remove();
  document.body.classList.remove("dragging");
  d.over?.el.classList.remove("drop-over");
  state.justDragged = true;
  setTimeout(() => { state.justDragged = false; }, 0);
  const target = dropped ? dropTarget(d.tile, e.clientX, e.clientY) : null;
  if (target) {
    viewport.auto = d.auto;
    play(target.move);
  } else { // dropped elsewhere: the tile stays picked, its targets shown
    render(false);
  }
}

document.addEventListener("pointermove", dragMove, { passive: false });
document.addEventListener("pointerup", (e) => dragEnd(e, true));
document.addEventListener("pointercancel", (e) => dragEnd(e, false));

const READABLE = 12; // pixels per unit (a tile is 2 units long) at which its numbers read
const TARGETS_READ = 20; // ... and at which a target's ring (a tile's half) and its points read

/**
 * Where the board looks on its own: the whole table when it reads at that size;
 * otherwise (a big table, a small screen) the action at a readable size: the
 * picked tile's targets (the best one when they are far apart), else the last
 * tile. At the game's end, the whole final table however small. "fit" shows
 * everything; panning or zooming by hand stops this.
 */
function autoView(geometry, targets) {
  const all = bounds(geometry);
  if (state.view?.outcome) { viewport.fit(all, 44); return; } // the final table, whole
  const wanted = geometry.markers.filter((m) => targets.some((x) => x.slot === m.slot));
  if (viewport.fitScale(all) >= (wanted.length ? TARGETS_READ : READABLE)) {
    viewport.fit(all, 44);
    return;
  }
  if (wanted.length) {
    const box = bounds(geometry, wanted);
    if (viewport.fitScale(box) >= TARGETS_READ) { viewport.fit(box, 28); return; }
    // far apart: all of them, if the tiles still read (their points are in the list too)
    if (viewport.fitScale(box) >= READABLE) { viewport.fit(box, 28); return; }
    const best = [...targets].sort((a, b) => b.points - a.points)[0];
    const m = wanted.find((w) => w.slot === best.slot) || wanted[0];
    viewport.centre(m.x, m.y, TARGETS_READ * 1.1);
    return;
  }
  const last = geometry.tiles[geometry.tiles.length - 1];
  if (last) viewport.centre(last.x, last.y, READABLE * 1.3);
  else viewport.fit(all, 44);
}

function renderBoard() {
  const view = state.view;
  if (!view) { board.replaceChildren(); return; }
  const geometry = placeTiles(view);
  const targets = state.selected ? targetsFor(state.selected) : hintShown() ? hintTargets() : [];
  if (viewport.auto) autoView(geometry, targets);
  drawBoard(board, geometry, { maxPips: maxPips(), last: view.table.length - 1, targets,
    onTarget: (target) => play(target.move), scale: viewport.scale() });
  state.geometry = geometry;
}

/** A target button shows its place on the board while it has the focus or the pointer. */
function showTarget(slot) {
  const m = state.geometry && state.geometry.markers.find((x) => x.slot === slot);
  if (!m) return;
  const [x, y, w, h] = viewport.box;
  if (m.x > x + 1 && m.x < x + w - 1 && m.y > y + 1 && m.y < y + h - 1) return; // in view
  viewport.centre(m.x, m.y, Math.max(viewport.scale(), READABLE));
}

function renderResult() {
  const view = state.view;
  const box = $("result");
  const outcome = view && view.outcome;
  box.hidden = !outcome;
  if (!outcome) return;
  $("team-result").hidden = !outcome.teams;
  if (outcome.teams) { // a team game: each team's total and place, its players below
    const teams = teamRows(outcome, seatName, state.seat);
    $("result-rows").replaceChildren(...teams.rows);
    $("team-result").textContent = teams.said;
    $("record-link").hidden = !(state.table && state.table.finished);
    return;
  }
  const rows = [...outcome.seats].sort((a, b) => a.place - b.place || a.seat - b.seat);
  $("result-rows").replaceChildren(...rows.map((r) => el("tr", {
    class: r.seat === state.seat ? "mine" : "", "data-seat": r.seat, "data-final": r.final },
    el("td", {}, num(r.place)), el("th", { scope: "row" }, seatName(r.seat)),
    el("td", {}, num(r.points)), el("td", {}, num(r.bonus)), el("td", {}, num(r.pips)),
    el("td", { class: "final" }, num(r.final)))));
  $("record-link").hidden = !(state.table && state.table.finished);
}

function announce() {
  const view = state.view;
  if (!view) return;
  if (state.log.length === state.lastAnnounced && !view.outcome) return;
  state.lastAnnounced = state.log.length;
  const last = state.log[state.log.length - 1];
  const parts = [];
  if (last) parts.push(`${describe(last)}.`);
  if (last && byText(last)) parts.push(`${byText(last)}.`);
  const fx = last && last.table_event;
  if (fx) parts.push(`${eventName(fx)}.`);
  parts.push(sumSaid(view));
  if (view.outcome) parts.push(t("The game is over."));
  else if (view.turn === state.seat) parts.push(t("Your turn."));
  $("announce").textContent = parts.join(" ");
}

// ---------------------------------------------------------------- play again

/** Her yes to playing again (`bots`: the creator's wish for bots in the empty seats),
 * or her no (`yes` false: the others play again without her). */
async function askAgain(bots, yes = true) {
  state.askingAgain = true;
  render(false);
  try {
    const answer = await fetch(`/api/tables/${encodeURIComponent(config.id)}/again`, {
      method: yes ? "POST" : "DELETE", credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json",
        "X-CSRF-Token": config.csrf },
      body: yes ? JSON.stringify({ bots }) : undefined,
    });
    const body = await answer.json().catch(() => null);
    if (!answer.ok) showAlert((body && body.error && body.error.message) || t("refused"));
    else if (body && body.next) goToTable(body.next);
  } catch (e) {
    showAlert(t("Not connected: wait a moment, the page reconnects by itself."));
  } finally {
    state.askingAgain = false;
    render(false);
  }
}

// ---------------------------------------------------------------- controls

$("draw").addEventListener("click", () => play("draw"));
$("draw-on").addEventListener("click", () => {
  state.drawingOn = true;
  play("draw");
});
$("pass").addEventListener("click", () => play("pass"));
$("hint").addEventListener("click", askHint);
document.addEventListener("keydown", (e) => {
  const typing = e.target.closest && e.target.closest("input, textarea, select, [contenteditable]");
  if ((e.key === "h" || e.key === "H") && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
    e.preventDefault();
    askHint();
    return;
  }
  if (e.key === "Escape" && state.selected) {
    const tile = state.selected;
    state.selected = null;
    render(false);
    document.querySelector(`.tile[data-tile="${tile}"]`)?.focus();
  }
});
$("chat-form")?.addEventListener("submit", (e) => {
  e.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (text && send({ type: "chat", id: msgId(), text })) input.value = "";
});

// the quick phrases: one click sends one (its English as its text, its code for the others)
for (const button of document.querySelectorAll("#chat-phrases button[data-phrase]")) {
  button.addEventListener("click", () => {
    const code = button.dataset.phrase;
    send({ type: "chat", id: msgId(), text: PHRASES[code] ? button.dataset.english : code, phrase: code });
  });
}
$("hand").addEventListener("keydown", (e) => {
  // arrow keys move between tiles; Tab leaves the hand
  if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(e.key)) return;
  const tiles = [...document.querySelectorAll("#hand .tile")];
  const i = tiles.indexOf(document.activeElement);
  if (i < 0) return;
  e.preventDefault();
  const step = e.key === "ArrowLeft" || e.key === "ArrowUp" ? -1 : 1;
  tiles[(i + step + tiles.length) % tiles.length].focus();
});

link.connect();
