// The table page's state: what the server has said (docs/protocol.md, version 2)
// and the move she sent. No DOM here: table.js draws this state, table_socket.js
// carries the messages; this module only applies them.

import { KIND } from "./event_kinds.js";
import { patch } from "./delta.js";

/** A fresh state: nothing seen yet (a reconnect asks for what came after `seq`). */
export function newState(seat) {
  return {
    seq: 0, // the last event seen: a reconnect asks for what came after it
    seat,
    table: null,
    view: null,
    log: [], // moves: { seat, move, points, sum, drawn, by, table_event }
    welcomed: 0, // the moves that came with the last welcome: no knock for them
    pending: null, // a move sent, not yet acknowledged: { id, move, message, socket, seq, resent }
  };
}

/** Whether an update skips events: the page must ask for them (a `sync`) before using it. */
export function isGap(state, msg) {
  if (msg.type !== "update") return false;
  const first = msg.events.length ? msg.events[0].seq : msg.seq + 1;
  return first > state.seq + 1;
}

/**
 * Apply one message of the server to `state`. `onEvent(event, catchingUp)` is called
 * for every new event, in order, before the view and table change (the page notes
 * them). Returns what the page does next:
 *   { render: null | "fresh" | "changed", fresh: [new events], sync: bool,
 *     refused: null | { message, lost, move }, retry: ms before the pending move is sent
 *     again (0: not) }
 */
export function applyMessage(state, msg, onEvent) {
  const out = { render: null, fresh: [], sync: false, refused: null, retry: 0 };
  if (msg.type === "welcome") applyWelcome(state, msg, onEvent, out);
  else if (msg.type === "update") applyUpdate(state, msg, onEvent, out);
  else if (msg.type === "ack") applyAck(state, msg, out);
  else if (msg.type === "refused") applyRefused(state, msg, out);
  return out;
}

/** A welcome is a new base: the seat, the table, the view, and the events or the history. */
function applyWelcome(state, msg, onEvent, out) {
  state.seat = msg.seat;
  state.table = msg.table;
  if (msg.events) applyEvents(state, msg.events, true, onEvent);
  else if (msg.history) state.log = msg.history.map((h) => ({ ...h }));
  state.seq = msg.seq;
  state.view = msg.view;
  state.welcomed = state.log.length;
  out.render = "fresh";
}

/** An update: its new events, then the table and the view patched (or whole). */
function applyUpdate(state, msg, onEvent, out) {
  if (isGap(state, msg)) { // missed something: ask for it (its welcome is a new base)
    out.sync = true;
    return;
  }
  const fresh = msg.events.filter((e) => e.seq > state.seq);
  applyEvents(state, fresh, false, onEvent);
  state.seq = Math.max(state.seq, msg.seq);
  if (msg.table) state.table = msg.table;
  else if (msg.table_delta) state.table = patch(state.table, msg.table_delta);
  if (msg.delta) state.view = patch(state.view, msg.delta);
  else if ("view" in msg) state.view = msg.view;
  // a move is done when the update that holds it has come (its ack names its seq)
  if (state.pending && state.pending.seq && msg.seq >= state.pending.seq) state.pending = null;
  out.fresh = fresh;
  out.render = "changed";
}

/** An ack names the event of her move: the move is done when that update is in. */
function applyAck(state, msg, out) {
  if (!state.pending || state.pending.id !== msg.id) return;
  if (msg.seq <= state.seq) { // a resent move's: the welcome already held it, no update follows
    state.pending = null;
    out.render = "changed";
  } else state.pending.seq = msg.seq;
}

/** Times a move the database did not take is sent again, after 0.5, 1, 2, 4, 8 s. */
export const RETRIES = 5;

/**
 * A refusal ends the pending move; a resent one the table never had is "lost". A move
 * refused as `unavailable` (the database did not take the write: nothing happened, as a
 * database that restarts) stays pending and is sent again, the same message (same id:
 * never played twice), after `out.retry` ms, a few times.
 */
function applyRefused(state, msg, out) {
  const p = state.pending;
  if (p && p.id === msg.id && msg.code === "unavailable" && (p.retries || 0) < RETRIES) {
    p.retries = (p.retries || 0) + 1;
    out.retry = 500 * 2 ** (p.retries - 1);
    return;
  }
  state.pending = null;
  // a resent move that the table never had: the page says why it is not on the table,
  // not only the server's reason (she did nothing since she played it)
  const lost = Boolean(p && p.resent && p.id === msg.id && !msg.duplicate);
  out.refused = { message: msg.message, lost, move: p ? p.move : null };
  out.sync = msg.code === "stale";
  out.render = "changed";
}

/** The moves go into the log; every event is handed to `onEvent` (notes, chat). */
function applyEvents(state, events, catchingUp, onEvent) {
  for (const e of events) {
    if (e.kind === KIND.MOVE) {
      state.log.push({ seat: e.seat, move: e.move, points: e.points, sum: e.sum,
        drawn: e.drawn, by: e.by, table_event: e.table_event });
    }
    onEvent(e, catchingUp);
  }
}

/** Her move, sent as `message` on `socket`: pending until its update comes. */
export function startMove(state, id, move, message, socket) {
  state.pending = { id, move, message, socket };
}

/** The pending move given up (no socket will carry it again): whether there was one. */
export function dropPending(state) {
  const had = Boolean(state.pending);
  state.pending = null;
  return had;
}
