// The rule book's pictures: each <svg data-layout> drawn by the table's own board code.
import { bounds, drawBoard, placeTiles } from "./board.js";

for (const board of document.querySelectorAll("svg.rule-board[data-layout]")) {
  const geometry = placeTiles({ layout: JSON.parse(board.dataset.layout) }); // slots by name
  drawBoard(board, geometry, {
    maxPips: Number(board.dataset.max), last: Number(board.dataset.last),
    targets: [], onTarget: () => {}, scale: 28,
  });
  const [x0, y0, x1, y1] = bounds(geometry);
  const pad = 0.6;
  board.setAttribute("viewBox", `${x0 - pad} ${y0 - pad} ${x1 - x0 + 2 * pad} ${y1 - y0 + 2 * pad}`);
  board.style.width = `${Math.min(28 * (x1 - x0 + 2 * pad), 640)}px`;
}
