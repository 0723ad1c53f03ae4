// The table drawn in SVG: where each placed tile lies, where each open slot is,
// and pan, zoom and fit.
//
// PROVISIONAL GEOMETRY. The server will send the layout computed in Python
// (fido.layout) with each view; until then placeTiles() computes a simple one
// here, in the same terms, so that swapping it is one function:
//   tiles:   [{ index, x, y, angle, first, second }]  centre in units (a tile
//            is 2 x 1), angle 0/90/180/270 = the direction from the `first`
//            half (touching its anchor) to the `second`, 0 east, clockwise
//   markers: [{ slot, x, y, angle, value, kind }]     the cell in front of an
//            open slot, `slot` named as in the notation ("3e")
// A view that carries `layout` ({ tiles, markers }) is drawn as it comes.

const SVG = "http://www.w3.org/2000/svg";
const PORTS = "nesw";
const DX = [0, 1, 0, -1]; // n e s w
const DY = [-1, 0, 1, 0];
const ANGLES = [270, 0, 90, 180]; // a tile growing towards n, e, s, w

/** The table's shape from the ruleset text, as fido.rules decides it. */
export function layoutOf(ruleset) {
  const words = (ruleset || "").split(/\s+/);
  if (words[0] === "fido") return words.includes("soenke_hansen") ? "inline" : "cross";
  return words[0] === "sebastopol" ? "spinner" : "line";
}

/** "9-4@3e" -> { tile: [9, 4], anchor: 3, port: 1 }; an opening has anchor -1. */
export function parsePlacement(text) {
  const [tile, where] = text.split("@");
  const [a, b] = tile.split("-").map(Number);
  if (!where) return { a, b, anchor: -1, port: -1 };
  return { a, b, anchor: Number(where.slice(0, -1)), port: PORTS.indexOf(where.slice(-1)) };
}

// ---------------------------------------------------------------- geometry
// Internally in half units, so every tile edge falls on one grid of cells.

const key = (x, y) => (x + 4096) * 8192 + (y + 4096);

function at(d, depth, perp) {
  const r = (d + 1) & 3;
  return [depth * DX[d] + perp * DX[r], depth * DY[d] + perp * DY[r]];
}

function cellsOf(fx, fy, d, a0, a1, b0, b1) {
  const [xa, ya] = at(d, a0, b0);
  const [xb, yb] = at(d, a1, b1);
  const out = [];
  for (let x = Math.min(xa, xb); x < Math.max(xa, xb); x++) {
    for (let y = Math.min(ya, yb); y < Math.max(ya, yb); y++) out.push(key(fx + x, fy + y));
  }
  return out;
}

/**
 * Where every placed tile and every open slot is drawn. Simple and greedy:
 * an arm runs straight and bends left or right where it would run into a
 * tile or out of the table's area; a double lies across its arm.
 */
export function placeTiles(view) {
  if (view.layout) return fromServer(view.layout);
  const shape = layoutOf(view.ruleset);
  const count = view.tile_count || countTiles(view.ruleset);
  const half = Math.ceil(Math.sqrt(count * 10)); // the area's half width, in half units
  const taken = new Set();
  const fronts = new Map(); // cell -> how many open slots keep it free
  const faces = new Map(); // slot code -> { x, y, d, value, front }
  const tiles = [];
  const values = view.table.map(parsePlacement);

  const outside = (cells) => cells.some((c) => {
    const x = Math.floor(c / 8192) - 4096;
    const y = (c % 8192) - 4096;
    return Math.abs(x + 0.5) > half || Math.abs(y + 0.5) > half * 0.8;
  });
  const crowd = (fx, fy, d) => cellsOf(fx, fy, d, 0, 8, -2, 2)
    .filter((c) => taken.has(c)).length;
  const cost = (cells, exits) => {
    let p = 0;
    for (const c of cells) {
      if (taken.has(c)) p += 1000;
      else if (fronts.has(c)) p += 300;
    }
    if (outside(cells)) p += 200;
    for (const [fx, fy, d] of exits) {
      p += 6 * crowd(fx, fy, d);
      if (outside(cellsOf(fx, fy, d, 0, 2, -1, 1))) p += 60;
    }
    return p;
  };
  const open = (code, x, y, d, value) => {
    const front = cellsOf(x, y, d, 0, 2, -1, 1);
    for (const c of front) fronts.set(c, (fronts.get(c) || 0) + 1);
    faces.set(code, { x, y, d, value, front });
  };
  const close = (code) => {
    const face = faces.get(code);
    if (!face) return null;
    faces.delete(code);
    for (const c of face.front) {
      const n = fronts.get(c) - 1;
      if (n > 0) fronts.set(c, n); else fronts.delete(c);
    }
    return face;
  };
  const occupy = (cells) => cells.forEach((c) => taken.add(c));

  values.forEach((p, index) => {
    const double = p.a === p.b;
    const base = index * 4;
    if (p.anchor < 0) { // the opening tile
      const high = Math.max(p.a, p.b);
      const low = Math.min(p.a, p.b);
      const across = double && (shape === "line" || shape === "spinner");
      occupy(across ? cellsOf(0, -2, 2, 0, 4, -1, 1) : cellsOf(-2, 0, 1, 0, 4, -1, 1));
      tiles.push({ index, x: 0, y: 0, angle: across ? 90 : 0, first: high, second: low });
      if (across) {
        open(base + 1, 1, 0, 1, high);
        open(base + 3, -1, 0, 3, high);
        if (shape === "spinner") { open(base, 0, -2, 0, high); open(base + 2, 0, 2, 2, high); }
      } else {
        open(base + 1, 2, 0, 1, double ? high : low);
        open(base + 3, -2, 0, 3, high);
        if (double && shape === "cross") { open(base, 0, -1, 0, high); open(base + 2, 0, 1, 2, high); }
      }
      return;
    }
    const code = p.anchor * 4 + p.port;
    const face = close(code) || { x: 0, y: 0, d: p.port, value: p.a };
    const { x: fx, y: fy, d } = face;
    const value = face.value;
    const other = p.a === value ? p.b : p.a;
    if (double && shape !== "inline") {
      const ends = shape === "cross";
      let best = null;
      for (const o of [0, 1, -1]) {
        const cells = cellsOf(fx, fy, d, 0, 2, o - 2, o + 2);
        const exits = [[...plus([fx, fy], at(d, 2, o)), d]];
        if (ends) {
          exits.push([...plus([fx, fy], at(d, 1, o + 2)), (d + 1) & 3]);
          exits.push([...plus([fx, fy], at(d, 1, o - 2)), (d + 3) & 3]);
        }
        const c = cost(cells, exits) + (o ? 40 : 0);
        if (!best || c < best.c) best = { c, o, cells, exits };
      }
      occupy(best.cells);
      const [cx, cy] = plus([fx, fy], at(d, 1, best.o));
      tiles.push({ index, x: cx / 2, y: cy / 2, angle: ANGLES[(d + 1) & 3] % 180,
        first: value, second: value });
      const [side, right, left] = best.exits;
      open(base + p.port, side[0], side[1], side[2], value);
      if (ends) {
        open(base + ((p.port + 1) & 3), right[0], right[1], right[2], value);
        open(base + ((p.port + 3) & 3), left[0], left[1], left[2], value);
      }
      return;
    }
    // a tile in line: straight on, or bent to the right or the left, slid
    // half a unit along its face when nothing else fits
    const options = [];
    for (const o of [0, 1, -1]) {
      const slid = o ? 40 : 0;
      options.push(
        { cells: cellsOf(fx, fy, d, 0, 4, o - 1, o + 1), centre: at(d, 2, o), exit: at(d, 4, o), nd: d, extra: slid },
        { cells: cellsOf(fx, fy, d, 0, 2, o - 1, o + 3), centre: at(d, 1, o + 1), exit: at(d, 1, o + 3), nd: (d + 1) & 3, extra: 6 + slid },
        { cells: cellsOf(fx, fy, d, 0, 2, o - 3, o + 1), centre: at(d, 1, o - 1), exit: at(d, 1, o - 3), nd: (d + 3) & 3, extra: 6 + slid },
      );
    }
    let best = null;
    for (const opt of options) {
      const [ex, ey] = plus([fx, fy], opt.exit);
      const c = cost(opt.cells, [[ex, ey, opt.nd]]) + opt.extra;
      if (!best || c < best.c) best = { ...opt, c, ex, ey };
    }
    occupy(best.cells);
    const [cx, cy] = plus([fx, fy], best.centre);
    tiles.push({ index, x: cx / 2, y: cy / 2, angle: ANGLES[best.nd], first: value, second: other });
    open(base + p.port, best.ex, best.ey, best.nd, double ? value : other);
  });

  const kinds = new Map((view.open || []).map((o) => [o.slot, o.kind]));
  const markers = [];
  for (const [code, face] of faces) {
    const [mx, my] = plus([face.x, face.y], at(face.d, 1, 0));
    const slot = `${code >> 2}${PORTS[code & 3]}`;
    markers.push({ slot, x: mx / 2, y: my / 2, angle: ANGLES[face.d], value: face.value,
      kind: kinds.get(slot) || null });
  }
  return { tiles, markers };
}

/** A layout the server sent, its slots named as in the notation (codes are n = anchor*4+port). */
function fromServer(layout) {
  const name = (slot) => (typeof slot === "number" ? `${slot >> 2}${PORTS[slot & 3]}` : slot);
  return {
    tiles: layout.tiles || [],
    markers: (layout.markers || []).map((m) => ({ ...m, slot: name(m.slot) })),
  };
}

function plus([x, y], [dx, dy]) {
  return [x + dx, y + dy];
}

function countTiles(ruleset) {
  const m = /set=(\d+)/.exec(ruleset || "");
  const n = m ? Number(m[1]) : (ruleset || "").startsWith("fido") ? 12 : 6;
  return ((n + 1) * (n + 2)) / 2;
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

/**
 * Draw `geometry` into `board` (an <svg>): tiles, open slots, and `targets`
 * ([{ slot, points, move, label }]) as buttons that call `onTarget(target)`.
 */
export function drawBoard(board, geometry, { maxPips, last, targets, onTarget, scale = 40 }) {
  const big = Math.max(0.62, 13 / scale); // a target stays at least 26 px across
  board.replaceChildren();
  const layer = svg("g", { class: "tiles" });
  for (const t of geometry.tiles) {
    const across = t.angle % 180 !== 0;
    const g = svg("g", { class: "placed" + (t.index === last ? " last" : ""),
      "data-index": t.index });
    g.append(svg("rect", across
      ? { x: t.x - 0.5, y: t.y - 1, width: 1, height: 2, rx: 0.14 }
      : { x: t.x - 1, y: t.y - 0.5, width: 2, height: 1, rx: 0.14 }));
    g.append(svg("line", across
      ? { x1: t.x - 0.36, y1: t.y, x2: t.x + 0.36, y2: t.y }
      : { x1: t.x, y1: t.y - 0.36, x2: t.x, y2: t.y + 0.36 }));
    const rad = (t.angle * Math.PI) / 180;
    const ux = Math.round(Math.cos(rad)) * 0.5;
    const uy = Math.round(Math.sin(rad)) * 0.5;
    for (const [v, sx] of [[t.first, -1], [t.second, 1]]) {
      g.append(svg("text", { x: t.x + sx * ux, y: t.y + sx * uy,
        class: `n h${hue(v, maxPips)}`, fill: `hsl(${hue(v, maxPips)} 70% 30%)` }, String(v)));
    }
    layer.append(g);
  }
  board.append(layer);
  const marks = svg("g", { class: "slots" });
  const byslot = new Map(targets.map((t) => [t.slot, t]));
  for (const m of geometry.markers) {
    const target = byslot.get(m.slot);
    if (target) continue;
    const g = svg("g", { class: "slot", "data-slot": m.slot });
    g.append(svg("circle", { cx: m.x, cy: m.y, r: 0.28 }));
    g.append(svg("text", { x: m.x, y: m.y, class: "slotname" }, m.slot));
    marks.append(g);
  }
  board.append(marks);
  const hot = svg("g", { class: "targets" });
  const places = [...geometry.markers];
  if (!geometry.tiles.length) { // the opening tile goes in the middle of the empty table
    places.push({ slot: "open", x: 0, y: 0, angle: 0, value: null, kind: null });
  }
  for (const m of places) {
    const target = byslot.get(m.slot);
    if (!target) continue;
    const g = svg("g", { class: "target" + (target.points ? " scores" : ""), role: "button",
      tabindex: 0, "aria-label": target.label, "data-slot": m.slot });
    g.append(svg("circle", { cx: m.x, cy: m.y, r: big }));
    g.append(svg("text", { x: m.x, y: m.y, "font-size": (big * 0.8).toFixed(3) },
      target.points ? `+${target.points}` : "0"));
    g.addEventListener("click", () => onTarget(target));
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onTarget(target); }
    });
    hot.append(g);
  }
  board.append(hot);
}

// ---------------------------------------------------------------- pan and zoom

/**
 * Pan (drag), zoom (wheel, pinch, buttons) and fit for an <svg>: keeps its
 * viewBox. `auto` stays true until the person moves the view herself.
 */
export class Viewport {
  constructor(board) {
    this.board = board;
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

  /** Show [x0, y0, x1, y1] whole, with a margin, no closer than `maxScale` px per unit. */
  fit([x0, y0, x1, y1], maxScale = 60) {
    const r = this.board.getBoundingClientRect();
    let w = x1 - x0 + 3;
    let h = y1 - y0 + 3;
    if (r.width && r.height) {
      const s = Math.min(r.width / w, r.height / h, maxScale);
      w = r.width / s; h = r.height / s;
    }
    this.box = [(x0 + x1) / 2 - w / 2, (y0 + y1) / 2 - h / 2, w, h];
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
