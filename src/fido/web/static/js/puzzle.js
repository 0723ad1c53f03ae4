// A puzzle (/puzzles): the position as its seat saw it; her move goes to the server,
// which judges it (POST /api/puzzles/{id}/answer), says why and moves her puzzle rating.
import { drawBoard, placeTiles } from "./board.js";
import { t } from "./i18n.js";
import { fitBoard, handRows } from "./position_view.js";

const config = JSON.parse(document.getElementById("puzzle-config").textContent);
const puzzle = config.puzzle;
const $ = (id) => document.getElementById(id);
const state = { picked: null, answered: false, sending: false };

function draw(targets = [], better = null) {
  const board = $("board");
  const geometry = placeTiles({ layout: puzzle.layout });
  drawBoard(board, geometry, { maxPips: puzzle.max_pips, last: geometry.tiles.length - 1,
    targets, onTarget: send, scale: 30, moveIn: false, better });
  fitBoard(board, geometry);
}

function renderHand() {
  $("hand").replaceChildren(...handRows(puzzle.rows, { max: puzzle.max_pips,
    playable: new Set(puzzle.moves.map((m) => m.tile)), picked: state.picked,
    locked: state.answered, onPick: pick }));
}

function pick(tile) {
  state.picked = tile;
  renderHand();
  draw(puzzle.moves.filter((m) => m.tile === tile)
    .map((m) => ({ slot: m.slot, points: 0, move: m.move, label: m.move, text: "?" })));
}

async function send(target) {
  if (state.sending || state.answered) return;
  state.sending = true;
  const verdict = $("verdict");
  try {
    const r = await fetch(`/api/puzzles/${puzzle.id}/answer`, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": config.csrf },
      body: JSON.stringify({ move: target.move }),
    });
    const body = await r.json();
    verdict.hidden = false;
    if (!r.ok) {
      verdict.className = "verdict wrong";
      verdict.textContent = body.message || t("That did not work: try again.");
      return;
    }
    state.answered = true;
    state.picked = null;
    verdict.className = "verdict " + (body.solved ? "right" : "wrong");
    const head = body.solved ? t("Right.") : t("Not this one: the best move is {move}.", { move: body.best[0] });
    const rating = body.rating === null ? ""
      : " " + (body.rated
        ? t("Your puzzle rating: {before} → {after}.", { before: body.rating_before, after: body.rating })
        : t("You had answered this puzzle before: your rating stays {rating}.", { rating: body.rating }));
    verdict.textContent = `${head} ${body.explanation}${rating}`;
    if (body.rated && $("my-rating")) $("my-rating").textContent = t("Yours: {rating}", { rating: body.rating });
    renderHand();
    draw([], body.better); // the answer's tile, green, where it would lie
  } catch {
    verdict.hidden = false;
    verdict.className = "verdict wrong";
    verdict.textContent = t("No connection: try again.");
  } finally {
    state.sending = false;
  }
}

draw();
renderHand();
