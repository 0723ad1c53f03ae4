"""The table protocol's deltas, version 2 (docs/protocol.md): what changed between two
views, and the view rebuilt from the last one and what changed (a client's and the server's).

The server builds every update's ``delta`` with :func:`diff` from the seat's last view
and its new one, both the engine's one view function's (:func:`fido.server.wire.view_json`
of ``game.view(seat)``), so an update can say nothing a view would not. A client keeps
the view of its welcome and applies each delta with :func:`patch`; the result is the
seat's view exactly as version 1 sends it whole. This module imports nothing of fido:
an outside program may copy it as it is.

A delta is a JSON object; for each key of the view that changed, one entry:

* ``"key": value``: the new value, whole;
* ``"key{}": {...}``: a delta of the object under ``key``;
* ``"key<>": [[a, k, [item, ...]], ...]``: the list under ``key`` with, for each
  splice, its ``k`` items from index ``a`` replaced by the items given (the indices are
  the old list's, in ascending order: apply them from the last);
* ``"key-": 1``: the key is gone.

>>> old = {"turn": 1, "table": ["9-9", "9-1@0e", "9-2@0w"], "seat": 0,
...        "hand": ["9-3", "8-2", "7-7", "6-1", "5-0"]}
>>> new = {"turn": 2, "table": ["9-9", "9-1@0e", "9-2@0w", "9-3@0n"], "seat": 0,
...        "hand": ["8-2", "7-7", "6-1", "5-0"]}
>>> d = diff(old, new)
>>> d
{'turn': 2, 'table<>': [[3, 0, ['9-3@0n']]], 'hand<>': [[0, 1, []]]}
>>> patch(old, d) == new
True
"""

from __future__ import annotations

import difflib
from typing import Any

__all__ = ["diff", "patch"]

JSON = Any


def diff(old: dict[str, JSON], new: dict[str, JSON]) -> dict[str, JSON]:
    """What changed from ``old`` to ``new`` (two JSON objects), as :func:`patch` reads it."""
    out: dict[str, JSON] = {}
    for key, value in new.items():
        if key not in old:
            out[key] = value
            continue
        before = old[key]
        if before is value:  # the same object (a part kept from the last view): unchanged
            continue
        if isinstance(before, dict) and isinstance(value, dict):
            inner = diff(before, value)
            if inner:
                out[key + "{}"] = inner
        elif isinstance(before, list) and isinstance(value, list):
            out.update(_list_diff(key, before, value))
        elif before != value:
            out[key] = value
    for key in old:
        if key not in new:
            out[key + "-"] = 1
    return out


def _list_diff(key: str, old: list[JSON], new: list[JSON]) -> dict[str, JSON]:
    """How a list changed, as stretches of the old list replaced (a slot closed here,
    another opened there, a tile added at the end), or the whole list when that is no
    longer; nothing when it did not change."""
    head = 0
    most = min(len(old), len(new))
    while head < most and (old[head] is new[head] or old[head] == new[head]):
        head += 1
    if head == len(old) == len(new):
        return {}
    tail = 0
    while tail < most - head and (old[-1 - tail] is new[-1 - tail]
                                  or old[-1 - tail] == new[-1 - tail]):
        tail += 1
    middle_old, middle_new = old[head:len(old) - tail], new[head:len(new) - tail]
    splices: list[tuple[int, int, list[JSON]]]
    if not middle_old or not middle_new:
        splices = [(head, len(middle_old), middle_new)]
    else:
        # items compared by their repr: the same repr is the same JSON value (the reverse
        # may fail for two objects with their keys in another order: a longer delta)
        texts_old = [repr(x) for x in middle_old]
        texts_new = [repr(x) for x in middle_new]
        if len(set(texts_new)) == len(texts_new):
            splices = [(head + at, cut, items)
                       for at, cut, items in _distinct(texts_old, texts_new, middle_new)]
        else:
            matcher = difflib.SequenceMatcher(None, texts_old, texts_new, autojunk=False)
            splices = [(head + i1, i2 - i1, middle_new[j1:j2])
                       for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal"]
    if sum(len(items) + 1 for _at, _cut, items in splices) >= len(new):
        return {key: new}
    return {key + "<>": [list(s) for s in splices]}


def _distinct(old: list[str], new: list[str], items: list[JSON]
              ) -> list[tuple[int, int, list[JSON]]]:
    """The splices from ``old`` to ``new`` when no item of ``new`` is there twice (open
    slots, their markers): one pass, each old item kept if it is still there after the
    last one kept, else cut; what comes between two kept items is inserted."""
    where = {text: j for j, text in enumerate(new)}
    splices: list[tuple[int, int, list[JSON]]] = []
    i = j = 0
    while i < len(old):
        k = where.get(old[i])
        if k is None or k < j:  # gone (or moved back: cut here, inserted where it is)
            start = i
            while i < len(old) and ((k := where.get(old[i])) is None or k < j):
                i += 1
            splices.append((start, i - start, []))
            continue
        if k > j:
            _add(splices, i, items[j:k])
        i, j = i + 1, k + 1
    if j < len(new):
        _add(splices, len(old), items[j:])
    return splices


def _add(splices: list[tuple[int, int, list[JSON]]], at: int, added: list[JSON]) -> None:
    """Insert ``added`` before old index ``at``, joined to a cut that ends there."""
    if splices and splices[-1][0] + splices[-1][1] == at and not splices[-1][2]:
        start, cut, _none = splices.pop()
        splices.append((start, cut, added))
    else:
        splices.append((at, 0, added))


def patch(old: dict[str, JSON], delta: dict[str, JSON]) -> dict[str, JSON]:
    """``old`` with ``delta`` applied (a new object: ``old`` is left as it was)."""
    out = dict(old)
    for key, value in delta.items():
        if key.endswith("{}"):
            name = key[:-2]
            out[name] = patch(out[name], value)
        elif key.endswith("<>"):
            name = key[:-2]
            items = list(out[name])
            for at, cut, added in reversed(value):  # from the end: each index is the old one
                items[at:at + cut] = added
            out[name] = items
        elif key.endswith("-"):
            out.pop(key[:-1], None)
        else:
            out[key] = value
    return out
