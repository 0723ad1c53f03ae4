// Small helpers shared by the table page and the replay page, so both build
// the page the same way: every text goes in as text, never as HTML.

import { hue } from "./board.js";
import { lang, nt, num, t } from "./i18n.js";

const ordinals = new Intl.PluralRules(lang, { type: "ordinal" });
const lists = new Intl.ListFormat(lang, { type: "conjunction" });

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

/** A place in words: "1st", "2nd" (German "1.", "2."), by the language's ordinal rules. */
export function ordinal(n) {
  const form = ordinals.select(n);
  const params = { n: num(n) };
  if (form === "one") return t("{n}st", params);
  if (form === "two") return t("{n}nd", params);
  if (form === "few") return t("{n}rd", params);
  return t("{n}th", params);
}

/** Names as a list in words: "Anna and Bea", "Anna, Bea, and Cleo" (the language's way). */
export function listOf(names) {
  return lists.format(names);
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

/**
 * A move in words: "Anna played 9-4 on 3e"; `mine`: her own move, "You played 9-4 on 3e"
 * (a sentence of its own: the verb follows the person in German).
 */
export function describe(entry, who, mine = false) {
  const p = { name: who, tile: entry.drawn };
  if (entry.move === "draw") {
    if (entry.drawn) return mine ? t("You drew {tile}", p) : t("{name} drew {tile}", p);
    return mine ? t("You drew") : t("{name} drew", p);
  }
  if (entry.move === "pass") return mine ? t("You passed") : t("{name} passed", p);
  const { tile, slot } = split(entry.move);
  Object.assign(p, { tile, slot });
  if (slot) return mine ? t("You played {tile} on {slot}", p) : t("{name} played {tile} on {slot}", p);
  return mine ? t("You opened with {tile}", p) : t("{name} opened with {tile}", p);
}

/** What a placement left: "sum 25: scores 5" (nothing for a draw or a pass). */
export function scored(entry) {
  if (entry.move === "draw" || entry.move === "pass") return "";
  const sum = num(entry.sum);
  return entry.points
    ? nt("sum {sum}: scores {n}", "sum {sum}: scores {n}", entry.points, { sum }) : t("sum {sum}", { sum });
}

/** A move as the move lists show it: the notation, a draw or a pass in words. */
export function moveText(move, drawn = null) {
  if (move === "draw") return drawn ? t("draw {tile}", { tile: drawn }) : t("draw");
  if (move === "pass") return t("pass");
  return move;
}

/** A seat card's facts: "12 tiles", "30 pts" (the plural is the language's). */
export function tilesText(n) {
  return nt("{n} tile", "{n} tiles", n);
}

export function pointsText(n) {
  return nt("{n} pt", "{n} pts", n);
}

/**
 * A tile's face, not a control: two halves, each number its colour as on the
 * table. `tile` is its notation ("9-4") or a Ratzek row's { text, left, right }.
 */
export function tileFace(tile, max, { cls = "", attrs = {} } = {}) {
  const face = typeof tile === "string"
    ? { text: tile, left: tile.split("-")[0], right: tile.split("-")[1] } : tile;
  const half = (v) => {
    const h = el("span", { class: "half" }, String(v));
    h.style.color = `hsl(${hue(Number(v), max)} 70% 30%)`;
    return h;
  };
  return el("span", { class: `tile face ${cls}`.trim(), "data-tile": face.text, ...attrs },
    half(face.left), half(face.right));
}

// a bot's level as people read it (the level's code comes from the server)
const LEVELS = { random: t("random"), greedy: t("greedy"), expert: t("expert"), search: t("search"),
  champion: t("champion") };
// ...and before a bot's name, as a title: "Expert Ada"
const TITLES = { random: t("Random"), greedy: t("Greedy"), expert: t("Expert"), search: t("Search"),
  champion: t("Champion") };
// the bots' names: more than a table has seats (9), so no table repeats one
const BOT_NAMES = ["Ada", "Bruno", "Clara", "Dario", "Emil", "Frida", "Greta", "Hugo", "Ida",
  "Jonas", "Kira", "Luca"];

/** A bot's name at seat `index` of table `tableId`: seats in a row take names in a row, from
 *  a place the table's id picks, so three bots at one table are three names (`tableId`: a
 *  match's id for its hands, see namesKey; fido.bots.names.first_name is the same). */
export function botName(index, tableId = "") {
  let start = 0;
  for (const c of String(tableId)) start = (start * 31 + c.charCodeAt(0)) % BOT_NAMES.length;
  return BOT_NAMES[(start + index) % BOT_NAMES.length];
}

/** Whose id picks a table's bots' names: its match's, so they keep them hand to hand. */
export function namesKey(table) {
  return (table && table.match && table.match.id) || (table && table.id) || "";
}

/** A person's name as the page shows it: a guest, whom the server names "guest 12" (no
 *  account may take such a name), in the page's language. */
export function personName(name) {
  const guest = /^guest (\d+)$/.exec(name || "");
  return guest ? t("guest {id}", { id: guest[1] }) : name;
}

/** A seat's name as the page shows it: a bot by its level in the page's language (with
 *  `index`, its seat: by its level and a name, "Expert Ada", see botName), a person by her
 *  name (the server's "bot (expert)" is for programs and logs). */
export function seatLabel(seat, index = null, tableId = "") {
  if (seat && seat.kind === "bot") {
    if (index !== null && index !== undefined) {
      return t("{level} {name}", { level: TITLES[seat.bot] || seat.bot, name: botName(index, tableId) });
    }
    return t("bot ({level})", { level: LEVELS[seat.bot] || seat.bot });
  }
  return seat ? personName(seat.name) : "";
}
