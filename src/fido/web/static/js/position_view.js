// One position to solve, as the lesson (/learn) and the puzzles (/puzzles) show it: the
// table drawn whole in its box, and her hand in Daniela Ratzek's rows (from the server:
// fido.server.wire.hand_rows_json) as buttons to pick a tile.
import { bounds } from "./board.js";
import { t } from "./i18n.js";
import { el, tileFace } from "./ui.js";

/** Fit the whole table, open slots included, into the board's box. */
export function fitBoard(board, geometry, pad = 0.8) {
  const [x0, y0, x1, y1] = bounds(geometry);
  board.setAttribute("viewBox", `${x0 - pad} ${y0 - pad} ${x1 - x0 + 2 * pad} ${y1 - y0 + 2 * pad}`);
}

/**
 * Her hand's rows as buttons: a tile that can go somewhere (`playable`, a Set of "a-b")
 * calls `onPick(tile)`; `picked` is shown picked, `gone` (a tile laid) is left out, and
 * with `locked` no tile can be picked.
 */
export function handRows(rows, { max, playable, picked = null, gone = null, locked = false, onPick }) {
  return rows.map((row) => el("div", { class: "hand-row" + (row.joker ? " joker" : "") },
    el("span", { class: "row-label" }, row.joker ? t("jokers") : row.classes.join(" | ")),
    ...row.tiles.filter((tile) => tile.text !== gone).map((tile) => {
      const button = el("button", { type: "button", class: "hand-tile" + (picked === tile.text ? " picked" : ""),
        "data-tile": tile.text, "aria-pressed": String(picked === tile.text), "aria-label": tile.text },
      tileFace(tile, max));
      if (!playable.has(tile.text) || locked) button.disabled = true;
      button.addEventListener("click", () => onPick(tile.text));
      return button;
    })));
}
