// The table protocol's version 2 (docs/protocol.md): a view rebuilt from the last one
// and what changed. The same rules as fido.delta.patch, which the server's tests check
// against the whole views of version 1.

/** `old` with `delta` applied; `old` itself is left as it was. */
export function patch(old, delta) {
  const out = { ...old };
  for (const [key, value] of Object.entries(delta)) {
    if (key.endsWith("{}")) {
      const name = key.slice(0, -2);
      out[name] = patch(out[name], value);
    } else if (key.endsWith("<>")) {
      const name = key.slice(0, -2);
      const items = [...out[name]];
      // the indices are the old list's, ascending: from the last, each stays true
      for (const [at, cut, added] of [...value].reverse()) items.splice(at, cut, ...added);
      out[name] = items;
    } else if (key.endsWith("-")) {
      delete out[key.slice(0, -1)];
    } else {
      out[key] = value;
    }
  }
  return out;
}
