// Small helpers shared by the table page and the replay page, so both build
// the page the same way: every text goes in as text, never as HTML.

import { hue } from "./board.js";

/** An element with attributes and children; strings become text nodes. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function ordinal(n) {
  return n === 1 ? "1st" : n === 2 ? "2nd" : n === 3 ? "3rd" : `${n}th`;
}

/** The highest number of the set the ruleset plays with (colours the numbers). */
export function maxPipsOf(ruleset) {
  const m = /set=(\d+)/.exec(ruleset || "");
  return m ? Number(m[1]) : 6;
}

/** "9-4@3e" -> { tile: "9-4", slot: "3e" }; an opening has slot null. */
export function split(move) {
  const [tile, slot] = move.split("@");
  return { tile, slot: slot || null };
}

/** A move in words: "Anna played 9-4 on 3e". */
export function describe(entry, who) {
  if (entry.move === "draw") return `${who} drew${entry.drawn ? ` ${entry.drawn}` : ""}`;
  if (entry.move === "pass") return `${who} passed`;
  const { tile, slot } = split(entry.move);
  return slot ? `${who} played ${tile} on ${slot}` : `${who} opened with ${tile}`;
}

/** What a placement left: "sum 25: scores 5" (nothing for a draw or a pass). */
export function scored(entry) {
  if (entry.move === "draw" || entry.move === "pass") return "";
  return entry.points ? `sum ${entry.sum}: scores ${entry.points}` : `sum ${entry.sum}`;
}

/**
 * A tile's face, not a control: two halves, each number its colour as on the
 * table. `tile` is its notation ("9-4") or a Ratzek row's { text, left, right }.
 */
export function tileFace(tile, max, { cls = "", attrs = {} } = {}) {
  const t = typeof tile === "string" ? { text: tile, left: tile.split("-")[0], right: tile.split("-")[1] } : tile;
  const half = (v) => {
    const h = el("span", { class: "half" }, String(v));
    h.style.color = `hsl(${hue(Number(v), max)} 70% 30%)`;
    return h;
  };
  return el("span", { class: `tile face ${cls}`.trim(), "data-tile": t.text, ...attrs },
    half(t.left), half(t.right));
}
