// Hand sorting as the FIDO texts teach it, the same as fido.sorting (Python):
// a tile's difference class is its difference (a double: its number) reduced
// by the divisor d into 1..d; classes k and d-k share a row (Daniela Ratzek's
// order), class d (the jokers: they keep the sum's remainder) comes last.
// tests/test_web.py checks this port against fido.sorting.ratzek_rows.

/** A tile from its notation "9-4": { high, low, text }. */
export function parseTile(text) {
  const [a, b] = text.split("-").map(Number);
  const high = Math.max(a, b);
  const low = Math.min(a, b);
  return { high, low, text: `${high}-${low}` };
}

/** The tile's class, 1..d. */
export function differenceClass(tile, d) {
  const k = (tile.high === tile.low ? tile.high : tile.high - tile.low) % d;
  return k || d;
}

// fido.tiles orders tiles by id: by the high half, then the low half
const byId = (x, y) => x.high - y.high || x.low - y.low;

/**
 * The hand in Ratzek rows: [{ classes: [k, d-k] or [d], joker, tiles: [{ left,
 * right, text }] }]. Class k runs upwards with the higher number on the right,
 * class d-k downwards with the higher number on the left; jokers last.
 */
export function ratzekRows(hand, d) {
  const byClass = new Map();
  for (const text of hand) {
    const t = parseTile(text);
    const k = differenceClass(t, d);
    if (!byClass.has(k)) byClass.set(k, []);
    byClass.get(k).push(t);
  }
  const rows = [];
  for (let k = 1; k <= Math.floor(d / 2); k++) {
    const up = [...(byClass.get(k) || [])].sort(byId);
    const down = d - k !== k ? [...(byClass.get(d - k) || [])].sort(byId).reverse() : [];
    if (up.length || down.length) {
      rows.push({
        classes: d - k !== k ? [k, d - k] : [k],
        joker: false,
        tiles: [
          ...up.map((t) => ({ left: t.low, right: t.high, text: t.text, cls: k })),
          ...down.map((t) => ({ left: t.high, right: t.low, text: t.text, cls: d - k })),
        ],
      });
    }
  }
  const jokers = [...(byClass.get(d) || [])].sort(byId);
  if (jokers.length) {
    rows.push({
      classes: [d],
      joker: true,
      tiles: jokers.map((t) => ({ left: t.high, right: t.low, text: t.text, cls: d })),
    });
  }
  return rows;
}
