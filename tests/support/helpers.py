"""Test helpers: exact deals built from a few wanted tiles."""

from __future__ import annotations

from collections.abc import Sequence

from fido import Game, Ruleset, Tile, ruleset


def T(text: str) -> Tile:
    return Tile.from_text(text)


def tiles(text: str) -> list[Tile]:
    return [Tile.from_text(w) for w in text.split()]


def deal(
    rules: Ruleset | str,
    players: int,
    wanted: dict[int, Sequence[Tile]],
    stock_first: Sequence[Tile] = (),
) -> Game:
    """A deal where seat s holds ``wanted[s]`` and the stock starts with ``stock_first``.

    The other tiles fill the hands in ascending order, lowest tiles first, so
    the wanted tiles decide who holds the high doubles.
    """
    rs = Ruleset.from_text(rules) if isinstance(rules, str) else rules
    size = rs.hand_size(players)
    used = {t for ts in wanted.values() for t in ts} | set(stock_first)
    rest = [t for t in rs.dominoes.tiles if t not in used]
    hands: list[list[Tile]] = []
    for s in range(players):
        h = list(wanted.get(s, []))
        while len(h) < size:
            h.append(rest.pop(0))
        hands.append(h)
    return Game.from_deal(rs, hands, [*stock_first, *rest])


__all__ = ["T", "deal", "ruleset", "tiles"]
