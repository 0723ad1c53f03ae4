// The table drawn in SVG: where each placed tile lies, where each open slot is,
// and pan, zoom and fit.
//
// The geometry is the server's (fido.layout, sent with every view), in units:
//   tiles:   [{ index, x, y, angle, first, second }]  centre in units (a tile
//            is 2 x 1), angle 0/90/180/270 = the direction from the `first`
//            half (touching its anchor) to the `second`, 0 east, clockwise
//   markers: [{ slot, x, y, angle, value, kind }]     the cell in front of an
//            open slot, `slot` named as in the notation ("3e")

const SVG = "http://www.w3.org/2000/svg";
// a target's ring fits in the cell in front of its slot (a tile's half): it never hides a
// tile; its touch area (a transparent circle, at least 26 px across) may reach further
const CELL = 0.46;
const PORTS = "nesw";

/**
 * Where every placed tile and every open slot is drawn: the layout the server
 * computed in Python (fido.layout) and sent with the view (or the replay's
 * step). The browser computes no geometry of its own.
 */
export function placeTiles(view) {
  const layout = view.layout || { tiles: [], markers: [] };
  const name = (slot) => (typeof slot === "number" ? `${slot >> 2}${PORTS[slot & 3]}` : slot);
  return {
    tiles: layout.tiles || [],
    markers: (layout.markers || []).map((m) => ({ ...m, slot: name(m.slot) })),
  };
}

/** The box around tiles and markers, in units: [x0, y0, x1, y1]. */
export function bounds(geometry, only = null) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const grow = (x, y, r) => {
    x0 = Math.min(x0, x - r); y0 = Math.min(y0, y - r);
    x1 = Math.max(x1, x + r); y1 = Math.max(y1, y + r);
  };
  if (only) only.forEach((m) => grow(m.x, m.y, 1));
  else {
    geometry.tiles.forEach((t) => grow(t.x, t.y, 1));
    geometry.markers.forEach((m) => grow(m.x, m.y, 0.6));
  }
  if (x0 === Infinity) return [-4, -3, 4, 3];
  return [x0, y0, x1, y1];
}

// ---------------------------------------------------------------- drawing

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

/** A number's colour on the tiles: the same number always looks the same. */
export function hue(value, max) {
  return Math.round((value * 360) / (max + 1) + 200) % 360;
}

// The layers each board keeps between draws, and its tile groups by index: a draw
// changes only what the new geometry changed (docs/web.md, "The drawing").
const kept = new WeakMap(); // board -> { tiles, slots, targets, placed: Map(index -> tile) }

/**
 * Draw `geometry` into `board` (an <svg>): tiles, open slots, and `targets`
 * ([{ slot, points, move, label, text? }]) as buttons that call `onTarget(target)`;
 * a target shows `text` when given, else the points it scores. `better`: a tile drawn
 * where it is not (the analysis's better move, in the replay), over the others.
 *
 * The first draw builds the board; a later one keeps the tiles it drew, keyed by
 * their index: a new tile is added (it moves in, unless `moveIn` is false), a tile
 * the server's layout moved is moved, a tile no longer there is removed; only the
 * open slots, the targets and the last tile's mark are drawn anew. A tile on a
 * phone's slow CPU costs one group, not the whole table.
 */
export function drawBoard(board, geometry, { maxPips, last, targets, onTarget, scale = 40,
  moveIn = true, better = null }) {
  const big = Math.max(CELL, 13 / scale); // a target's touch area: at least 26 px across
  let layers = kept.get(board);
  const fresh = !layers || layers.tiles.parentNode !== board; // none yet, or cleared since
  if (fresh) layers = newLayers(board);
  updateTiles(layers, geometry.tiles, maxPips, last, moveIn && !fresh);
  const byslot = new Map(targets.map((t) => [t.slot, t]));
  layers.slots.replaceChildren(...slotMarks(geometry, byslot));
  layers.targets.replaceChildren(...targetButtons(geometry, byslot, big, onTarget));
  if (better) {
    const g = svg("g", { class: "better", "data-tile": `${better.first}-${better.second}` });
    g.style.transform = `translate(${better.x}px, ${better.y}px)`;
    g.append(tileFace(better, maxPips));
    layers.targets.append(g);
  }
}

/** The three layers of a board, bottom to top: tiles, open slots, targets. */
function newLayers(board) {
  const layers = { tiles: svg("g", { class: "tiles" }), slots: svg("g", { class: "slots" }),
    targets: svg("g", { class: "targets" }), placed: new Map() };
  board.replaceChildren(layers.tiles, layers.slots, layers.targets);
  kept.set(board, layers);
  return layers;
}

/** Add, move and remove tile groups so the layer shows `tiles`; mark the last one. */
function updateTiles(layers, tiles, maxPips, last, moveIn) {
  const seen = new Set();
  for (const t of tiles) {
    seen.add(t.index);
    let tile = layers.placed.get(t.index);
    if (tile && tile.face !== faceOf(t, maxPips)) { // another tile at this index: a new game
      tile.g.remove();
      tile = null;
    }
    if (!tile) {
      tile = newTile(t, maxPips, moveIn);
      layers.tiles.append(tile.g);
      layers.placed.set(t.index, tile);
    } else if (tile.x !== t.x || tile.y !== t.y || tile.angle !== t.angle || tile.first !== t.first) {
      moveTile(tile, t, maxPips); // the server laid the table out again
    }
    tile.g.classList.toggle("last", t.index === last);
  }
  for (const [index, tile] of layers.placed) { // taken back, or another game
    if (seen.has(index)) continue;
    tile.g.remove();
    layers.placed.delete(index);
  }
}

/** Which tile it is: a group at this index for another tile is removed (another game). */
function faceOf(t, maxPips) {
  return `${Math.min(t.first, t.second)}:${Math.max(t.first, t.second)}:${maxPips}`;
}

/** A tile's group: placed by a transform (so a move is one attribute), its face inside. */
function newTile(t, maxPips, moveIn) {
  const g = svg("g", { class: "placed" + (moveIn ? " moving-in" : ""), "data-index": t.index });
  if (moveIn) g.addEventListener("animationend", () => g.classList.remove("moving-in"), { once: true });
  const tile = { g, face: faceOf(t, maxPips), x: null, y: null, angle: null, first: null };
  moveTile(tile, t, maxPips);
  return tile;
}

/** Put the tile where `t` says; its face is drawn again only when it turned. */
function moveTile(tile, t, maxPips) {
  tile.g.style.transform = `translate(${t.x}px, ${t.y}px)`; // px are the board's units in SVG
  if (tile.angle !== t.angle || tile.first !== t.first) tile.g.replaceChildren(tileFace(t, maxPips));
  Object.assign(tile, { x: t.x, y: t.y, angle: t.angle, first: t.first });
}

/** A tile's face around its centre (0, 0): the 2 x 1 stone, the bar, its two numbers. */
function tileFace(t, maxPips) {
  const across = t.angle % 180 !== 0;
  const face = svg("g", { class: "face" });
  face.append(svg("rect", across
    ? { x: -0.5, y: -1, width: 1, height: 2, rx: 0.14 }
    : { x: -1, y: -0.5, width: 2, height: 1, rx: 0.14 }));
  face.append(svg("line", across
    ? { x1: -0.36, y1: 0, x2: 0.36, y2: 0 }
    : { x1: 0, y1: -0.36, x2: 0, y2: 0.36 }));
  const rad = (t.angle * Math.PI) / 180;
  const ux = Math.round(Math.cos(rad)) * 0.5;
  const uy = Math.round(Math.sin(rad)) * 0.5;
  for (const [v, sx] of [[t.first, -1], [t.second, 1]]) {
    face.append(svg("text", { x: sx * ux, y: sx * uy,
      class: `n h${hue(v, maxPips)}${v > 9 ? " two" : ""}`, fill: `hsl(${hue(v, maxPips)} 70% 30%)` }, String(v)));
  }
  return face;
}

/** The open slots that are not targets now: a ring and the slot's name. */
function slotMarks(geometry, byslot) {
  return geometry.markers.filter((m) => !byslot.has(m.slot)).map((m) => {
    const g = svg("g", { class: "slot", "data-slot": m.slot });
    g.append(svg("circle", { cx: m.x, cy: m.y, r: 0.28 }));
    g.append(svg("text", { x: m.x, y: m.y, class: "slotname" }, m.slot));
    return g;
  });
}

/** A ring's radius at marker `m`: the cell's, less where a tile of a crossing line lies
 *  nearer (a double's side next to another chain): a ring never hides a tile. */
function ringRadius(m, tiles) {
  let room = CELL;
  for (const t of tiles) {
    const across = t.angle % 180 !== 0;
    const dx = Math.max(Math.abs(m.x - t.x) - (across ? 0.5 : 1), 0);
    const dy = Math.max(Math.abs(m.y - t.y) - (across ? 1 : 0.5), 0);
    room = Math.min(room, Math.hypot(dx, dy) - 0.05); // less half the ring's line
  }
  return Math.max(room, 0.2).toFixed(3);
}

/** The targets as buttons (click, Enter, Space): where the picked tile can go. */
function targetButtons(geometry, byslot, big, onTarget) {
  const places = [...geometry.markers];
  if (!geometry.tiles.length) { // the opening tile goes in the middle of the empty table
    places.push({ slot: "open", x: 0, y: 0, angle: 0, value: null, kind: null });
  }
  return places.filter((m) => byslot.has(m.slot)).map((m) => {
    const target = byslot.get(m.slot);
    const g = svg("g", { class: "target" + (target.points ? " scores" : ""), role: "button",
      tabindex: 0, "aria-label": target.label, "data-slot": m.slot });
    g.append(svg("circle", { class: "hit", cx: m.x, cy: m.y, r: big }));
    g.append(svg("circle", { class: "ring", cx: m.x, cy: m.y, r: ringRadius(m, geometry.tiles) }));
    // the points it scores ("+6"); a place that scores nothing says nothing (a "0"
    // read like a tile's number)
    const said = target.text ?? (target.points ? `+${target.points}` : "");
    if (said) {
      g.append(svg("text", { x: m.x, y: m.y, "font-size": (said.length > 2 ? 0.4 : 0.5).toFixed(2) }, said));
    }
    g.addEventListener("click", () => onTarget(target));
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onTarget(target); }
    });
    return g;
  });
}

// ---------------------------------------------------------------- pan and zoom

/**
 * Pan (drag), zoom (wheel, pinch, buttons) and fit for an <svg>: keeps its
 * viewBox. `auto` stays true until the person moves the view herself.
 */
export class Viewport {
  constructor(board, covers = []) {
    this.board = board;
    this.covers = covers; // what lies over the board: fit() keeps the table clear of it
    this.box = [-4, -3, 8, 6]; // x, y, width, height
    this.auto = true;
    this.pointers = new Map();
    board.addEventListener("wheel", (e) => {
      e.preventDefault();
      this.zoom(Math.exp(e.deltaY * 0.0015), this.toBoard(e.clientX, e.clientY));
    }, { passive: false });
    board.addEventListener("pointerdown", (e) => {
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, moved: false });
    });
    board.addEventListener("pointermove", (e) => this.move(e));
    const up = (e) => {
      const p = this.pointers.get(e.pointerId);
      this.pointers.delete(e.pointerId);
      if (p && p.moved) { // a drag, not a click: the click on a target must not fire
        const stop = (ev) => { ev.stopPropagation(); ev.preventDefault(); };
        board.addEventListener("click", stop, { capture: true, once: true });
        setTimeout(() => board.removeEventListener("click", stop, { capture: true }), 0);
      }
    };
    board.addEventListener("pointerup", up);
    board.addEventListener("pointercancel", up);
  }

  move(e) {
    const p = this.pointers.get(e.pointerId);
    if (!p) return;
    const dx = e.clientX - p.x;
    const dy = e.clientY - p.y;
    if (!p.moved && Math.hypot(dx, dy) < 6) return;
    if (!p.moved) { p.moved = true; this.board.setPointerCapture?.(e.pointerId); }
    const scale = this.scale();
    if (this.pointers.size === 2) { // pinch: zoom by the change of the distance
      const [a, b] = [...this.pointers.values()];
      const before = Math.hypot(a.x - b.x, a.y - b.y);
      p.x = e.clientX; p.y = e.clientY;
      const after = Math.hypot(a.x - b.x, a.y - b.y);
      if (before > 0 && after > 0) {
        this.zoom(before / after, this.toBoard((a.x + b.x) / 2, (a.y + b.y) / 2));
      }
      return;
    }
    p.x = e.clientX; p.y = e.clientY;
    this.box[0] -= dx / scale;
    this.box[1] -= dy / scale;
    this.auto = false;
    this.apply();
  }

  scale() {
    const r = this.board.getBoundingClientRect();
    return Math.min(r.width / this.box[2], r.height / this.box[3]) || 1;
  }

  toBoard(cx, cy) {
    const r = this.board.getBoundingClientRect();
    const s = this.scale();
    const ox = (r.width - this.box[2] * s) / 2;
    const oy = (r.height - this.box[3] * s) / 2;
    return [this.box[0] + (cx - r.left - ox) / s, this.box[1] + (cy - r.top - oy) / s];
  }

  zoom(factor, centre = null) {
    const [cx, cy] = centre || [this.box[0] + this.box[2] / 2, this.box[1] + this.box[3] / 2];
    const w = Math.min(400, Math.max(3, this.box[2] * factor));
    const f = w / this.box[2];
    this.box = [cx - (cx - this.box[0]) * f, cy - (cy - this.box[1]) * f, w, this.box[3] * f];
    this.auto = false;
    this.apply();
  }

  /**
   * Show [x0, y0, x1, y1] whole, with a margin, no closer than `maxScale` px per unit,
   * and clear of the buttons laid over the board (`covers`: elements in a corner, such
   * as the zoom buttons): beside them or below them, whichever shows it bigger. A
   * whole double-18 table on a phone is small; none of it may lie under "fit".
   */
  fit([x0, y0, x1, y1], maxScale = 60) {
    const r = this.board.getBoundingClientRect();
    const w = x1 - x0 + 1.5;
    const h = y1 - y0 + 1.5;
    if (!r.width || !r.height) {
      this.box = [(x0 + x1) / 2 - w / 2, (y0 + y1) / 2 - h / 2, w, h];
      this.apply();
      return;
    }
    const pad = 8; // px around it
    const place = (left, top, right, bottom) => { // the area it may use, in px
      const s = Math.min((right - left - 2 * pad) / w, (bottom - top - 2 * pad) / h, maxScale);
      return { s, px: (left + right) / 2, py: (top + bottom) / 2 };
    };
    let best = place(0, 0, r.width, r.height);
    for (const el of this.covers) {
      const c = el.getBoundingClientRect();
      if (!c.width || !c.height) continue;
      const [cl, ct, cr, cb] = [c.left - r.left, c.top - r.top, c.right - r.left, c.bottom - r.top];
      const cw = w * best.s / 2, ch = h * best.s / 2;
      const hidden = best.px + cw > cl && best.px - cw < cr && best.py + ch > ct && best.py - ch < cb;
      if (!hidden) continue;
      const free = [ // the board less the band the buttons stand in
        cb < r.height / 2 ? place(0, cb, r.width, r.height) : place(0, 0, r.width, ct),
        cr > r.width / 2 ? place(0, 0, cl, r.height) : place(cr, 0, r.width, r.height),
      ];
      best = free[0].s >= free[1].s ? free[0] : free[1];
    }
    const vw = r.width / best.s, vh = r.height / best.s;
    this.box = [(x0 + x1) / 2 - best.px / best.s, (y0 + y1) / 2 - best.py / best.s, vw, vh];
    this.apply();
  }

  /** Centre (x, y) at `scale` pixels per unit. */
  centre(x, y, scale) {
    const r = this.board.getBoundingClientRect();
    const w = (r.width || 400) / scale;
    const h = (r.height || 300) / scale;
    this.box = [x - w / 2, y - h / 2, w, h];
    this.apply();
  }

  /** Pixels per unit if [x0, y0, x1, y1] were fitted. */
  fitScale([x0, y0, x1, y1]) {
    const r = this.board.getBoundingClientRect();
    return Math.min(r.width / (x1 - x0 + 2), r.height / (y1 - y0 + 2));
  }

  apply() {
    this.board.setAttribute("viewBox", this.box.map((v) => v.toFixed(3)).join(" "));
  }
}
