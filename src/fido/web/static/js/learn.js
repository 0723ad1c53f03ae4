// The first lesson (/learn): each step's table, her hand in rows, and every move she
// may make already judged by the server (fido.lessons): this script only shows them.
import { drawBoard, placeTiles } from "./board.js";
import { t } from "./i18n.js";
import { fitBoard, handRows } from "./position_view.js";

const config = JSON.parse(document.getElementById("lesson-config").textContent);
const steps = config.steps;
const $ = (id) => document.getElementById(id);
const state = { step: 0, picked: null, solved: false, laid: null };

function drawTable(layout, targets = []) {
  const step = steps[state.step];
  const board = $("board");
  const geometry = placeTiles({ layout });
  drawBoard(board, geometry, {
    maxPips: step.max, last: geometry.tiles.length - 1, targets, onTarget: tryMove, scale: 30,
    moveIn: false,
  });
  fitBoard(board, geometry);
}

function targetsFor(tile) {
  const step = steps[state.step];
  return step.tries.filter((x) => x.tile === tile)
    .map((x) => ({ slot: x.slot, points: 0, move: x.move, label: x.move, text: "?", judged: x }));
}

function renderHand() {
  const step = steps[state.step];
  $("hand").replaceChildren(...handRows(step.rows, { max: step.max,
    playable: new Set(step.tries.map((x) => x.tile)), picked: state.picked, gone: state.laid,
    locked: state.solved, onPick: pick }));
}

function pick(tile) {
  state.picked = tile;
  renderHand();
  drawTable(steps[state.step].layout, targetsFor(tile));
}

function tryMove(target) {
  const judged = target.judged;
  const verdict = $("verdict");
  verdict.hidden = false;
  verdict.className = "verdict " + (judged.right ? "right" : "wrong");
  verdict.textContent = (judged.right ? t("Right.") : t("Not this one.")) + " " + judged.said;
  if (judged.right) {
    state.solved = true;
    state.picked = null;
    state.laid = judged.tile; // on the table now, out of her hand
    $("sum").textContent = String(judged.sum);
    drawTable(judged.after);
    renderHand();
    $("next").hidden = false;
    $("next").focus();
  }
}

function show(i) {
  Object.assign(state, { step: i, picked: null, solved: false, laid: null });
  const step = steps[i];
  $("done").hidden = true;
  $("step").hidden = false;
  $("step-count").textContent = t("Step {n} of {total}", { n: i + 1, total: steps.length });
  $("step-title").textContent = step.title;
  $("step-text").textContent = step.text;
  $("sum").textContent = String(step.sum);
  $("divisor").textContent = String(step.divisor);
  $("verdict").hidden = true;
  $("next").hidden = true;
  $("back").disabled = i === 0;
  drawTable(step.layout);
  renderHand();
  history.replaceState(null, "", `#step-${i + 1}`);
}

function finish() {
  $("step").hidden = true;
  $("done").hidden = false;
  $("step-count").textContent = "";
  history.replaceState(null, "", "#done");
  $("first-game").focus();
}

$("next").addEventListener("click", () => (state.step + 1 < steps.length ? show(state.step + 1) : finish()));
$("back").addEventListener("click", () => show(Math.max(state.step - 1, 0)));
$("again").addEventListener("click", () => show(0));
const asked = /^#step-(\d+)$/.exec(location.hash);
show(asked ? Math.min(Math.max(Number(asked[1]) - 1, 0), steps.length - 1) : 0);
