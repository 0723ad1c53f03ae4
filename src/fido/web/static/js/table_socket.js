// The table's WebSocket (docs/protocol.md, version 2): connecting with the last
// sequence number seen, reconnecting with a backoff (at once after a server's restart,
// 1012), the close codes that end it, the ping, and the move that was on its way when
// a socket closed. What the messages mean is table_state.js's; what the page shows is
// table.js's.

import { isGap } from "./table_state.js";

// ms: a ping keeps proxies from closing an idle socket, and its pong says the connection
// lives: a socket that has heard nothing for DEAD_AFTER is dead (the network went away
// without closing it, which a browser may not notice for minutes) and is replaced
const PING_EVERY = 10000;
const DEAD_AFTER = 25000;
const RESTART = 1012; // "Service Restart": the server stops; connect again now (elsewhere)

export class TableSocket {
  /**
   * `state`: table_state.js's (its `seq` and `pending` are read and kept here);
   * `onMessage(msg)`: every message but a gapped update (this asks for the gap);
   * `onStatus(code)`: the connection's state ("connected"...; the page says it in words); `onDropped()`: a pending
   * move given up because no socket will come again.
   */
  constructor(tableId, state, { onMessage, onStatus, onDropped }) {
    this.tableId = tableId;
    this.state = state;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onDropped = onDropped;
    this.socket = null;
    this.retry = 0;
    this.closedForGood = false;
    this.heard = Date.now(); // the last frame from the server (a pong at least)
    setInterval(() => this.ping(), PING_EVERY);
  }

  /** Open a socket that asks for what came after the last event seen. */
  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // version 2: each update says what changed (docs/protocol.md); the view is patched
    const socket = new WebSocket(
      `${scheme}://${location.host}/ws/tables/${this.tableId}?seq=${this.state.seq}&v=2`);
    this.socket = socket;
    this.onStatus("connecting");
    socket.addEventListener("open", () => {
      this.retry = 0;
      this.heard = Date.now();
      this.onStatus("connected");
    });
    socket.addEventListener("message", (e) => this.receive(e.data));
    socket.addEventListener("close", (e) => this.closed(socket, e.code));
  }

  /** A frame in: a gap is asked for here (its welcome is a new base), the rest goes on. */
  receive(data) {
    this.heard = Date.now();
    let msg;
    try { msg = JSON.parse(data); } catch { return; }
    if (isGap(this.state, msg)) {
      this.sync();
      return;
    }
    this.onMessage(msg);
  }

  /**
   * A socket closed: the codes that end it (signed out, refused, no table); a restart
   * of the server (1012): again at once, after a short jitter (not all of a process's
   * sockets at the same instant), saying nothing of a lost connection; else retry with
   * a backoff.
   */
  closed(socket, code) {
    if (this.socket !== socket) return;
    this.socket = null;
    // a pending move stays pending: it may or may not have reached the table, and the
    // next socket sends it again (resendPending)
    if (code === 4401) { // signed out (in this tab or another): the page as she is now
      this.closedForGood = true;
      this.onStatus("signed out");
      location.reload();
      return;
    }
    if (code === 4404 || code === 4403) {
      this.closedForGood = true;
      if (this.state.pending) this.onDropped(); // no next socket to send it on
      this.onStatus(code === 4404 ? "no such table" : "refused");
      return;
    }
    if (code === RESTART) {
      this.retry = 0;
      this.onStatus("connecting");
      setTimeout(() => this.connect(), 50 + Math.random() * 250);
      return;
    }
    this.onStatus("reconnecting");
    const wait = Math.min(5000, 300 * 2 ** this.retry++);
    setTimeout(() => this.connect(), wait);
  }

  /** Whether a message can go out now. */
  get open() {
    return Boolean(this.socket && this.socket.readyState === WebSocket.OPEN);
  }

  /** Send `message` if the socket is open; false if not (the page says so). */
  send(message) {
    if (!this.open) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Ask for what came after the last event seen (a gap, a stale move). */
  sync() {
    return this.send({ type: "sync", seq: this.state.seq });
  }

  ping() {
    if (!this.open) return;
    if (Date.now() - this.heard > DEAD_AFTER) { // no pong: the connection is gone
      const dead = this.socket;
      this.closed(dead, 4000); // "reconnecting", and a new socket soon
      try { dead.close(); } catch { /* it is gone anyway */ }
      return;
    }
    this.socket.send(JSON.stringify({ type: "ping" }));
  }

  /**
   * A move sent on a socket that closed before its answer came may or may not have
   * reached the table: the next socket sends the very same message again, once its
   * welcome is in. The server answers an id it has seen with its first outcome (an ack
   * or the refusal, marked duplicate) and never plays a move twice (docs/protocol.md).
   */
  resendPending() {
    const state = this.state;
    const p = state.pending;
    if (!p || p.socket === this.socket) return; // none, or a sync's welcome on the same socket
    if (p.seq && state.seq >= p.seq) { // acknowledged before the drop, and the catch-up holds it
      state.pending = null;
      return;
    }
    p.socket = this.socket;
    p.resent = true;
    this.socket.send(JSON.stringify(p.message));
  }
}
