"""One-line positions, like FEN in chess: a whole game state, or one seat's view of it.

A game's line holds everything needed to go on playing, and nothing of how
the game got there (the history is the record's business, :mod:`fido.record`)::

    fido set=6 | cross 6-6 6-3@0n | hands 5-5 4-2 / 3-3 2-1 / 4-4 | stock 4-1 3-0 | to 1 | ...

Sections, split by ``" | "``, in this order:

* the ruleset (:meth:`fido.engine.rules.Ruleset.text`) and the table
  (:meth:`fido.engine.table.Table.text`);
* ``hands`` then each seat's tiles ascending, seats split by ``/``; ``-`` for an
  empty hand; in a seat's view the other hands are counts, ``#7``;
* ``stock`` then the tiles in drawing order, or ``{...}`` around them when
  the game does not hold the order (explicit chance), or ``#5`` in a view;
  ``-`` when empty;
* ``to`` the seat to move, followed by ``drawing`` while her draw waits for its tile;
* ``scores``, ``passes`` (passes in a row), ``opener``;
* a view only: ``view`` and the viewer's seat (``-`` for a spectator).

>>> from fido import Game
>>> g = Game.new("fido set=6", players=3, seed=1)
>>> g.push(g.legal_moves()[0])
>>> line = game_text(g)
>>> line.split(" | ")[:2]
['fido set=6', 'cross 6-6']
>>> game_text(parse_game(line)) == line
True
>>> view_text(g.view(1)).split(" | ")[2]
'hands #6 / 1-1 3-2 3-3 5-2 6-0 6-3 6-5 / #7'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from fido.engine.dealing import find_opener
from fido.engine.game import Game
from fido.engine.knowledge import unseen_tiles
from fido.engine.moves import Placement
from fido.engine.results import Termination, score_hand
from fido.engine.rules import Ruleset
from fido.engine.table import Table
from fido.engine.tiles import Tile
from fido.engine.views import SeatView
from fido.errors import FidoError, NotationError, quote

__all__ = ["game_text", "parse_game", "parse_view", "view_text"]

MAX_LINE = 20_000  # a double-21 game with 9 players prints well under 10,000 characters


def _tiles(tiles: Iterable[Tile]) -> str:
    return " ".join(t.text() for t in tiles) or "-"


def _common(
    rules: Ruleset, table: Table, *, hands: str, stock: str, to: str, scores: Sequence[int]
) -> list[str]:
    return [rules.text(), table.text(), f"hands {hands}", f"stock {stock}", f"to {to}",
            f"scores {' '.join(map(str, scores))}"]


def game_text(game: Game) -> str:
    """The whole state of ``game`` as one line (hidden tiles included: not for players)."""
    hands = " / ".join(_tiles(game.hand(s)) for s in range(game.players))
    left = game.set.tiles_of(game.stock_mask)
    if game.explicit_chance:
        stock = "{" + " ".join(t.text() for t in left) + "}" if left else "-"
    else:
        stock = _tiles(game.stock[game.stock_pos :])
    chance = game.chance
    to = f"{chance.seat} drawing" if chance is not None else str(game.turn)
    return " | ".join(
        [*_common(game.rules, game.table, hands=hands, stock=stock, to=to, scores=game.scores),
         f"passes {game.passes}", f"opener {game.opener}"]
    )


def view_text(view: SeatView) -> str:
    """What ``view`` shows as one line: her hand, the others' counts, the stock's count."""
    hands = " / ".join(
        _tiles(view.hand) if s == view.seat else f"#{n}" for s, n in enumerate(view.hand_counts)
    )
    seat = "-" if view.seat is None else str(view.seat)
    return " | ".join(
        [*_common(view.rules, view.table, hands=hands, stock=f"#{view.stock_count}",
                  to=str(view.to_move), scores=view.scores),
         f"passes {view.passes}", f"opener {view.opener}", f"view {seat}"]
    )


# ---------------------------------------------------------------- parsing


def _sections(text: object) -> list[str]:
    if not isinstance(text, str):
        raise NotationError(f"a position is one line of text, not {quote(text)}")
    if len(text) > MAX_LINE:
        raise NotationError(f"a position line is at most {MAX_LINE} characters")
    if "\n" in text.strip() or not text.isprintable():
        raise NotationError("a position is one line of printable text")
    return [s.strip() for s in text.strip().split("|")]


def _keyword(section: str, word: str) -> str:
    head, _, rest = section.partition(" ")
    if head != word:
        raise NotationError(f"expected the {word!r} section, found {quote(section)}")
    return rest.strip()


def _int(text: str, what: str, low: int, high: int) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 6:
        raise NotationError(f"{what} must be a whole number, not {quote(text)}")
    n = int(text)
    if not low <= n <= high:
        raise NotationError(f"{what} must be {low} to {high}, not {n}")
    return n


def _tile_list(text: str) -> list[Tile]:
    return [] if text == "-" else [Tile.from_text(w) for w in text.split()]


def _head(text: object, n_sections: int) -> tuple[Ruleset, Table, list[str], str, list[str]]:
    parts = _sections(text)
    if len(parts) != n_sections:
        raise NotationError(f"a position has {n_sections} sections split by '|', not {len(parts)}")
    try:
        rules = Ruleset.from_text(parts[0])
    except FidoError as e:
        raise NotationError(f"ruleset: {e}") from None
    table = Table.from_text(parts[1])
    if table.layout is not rules.layout:
        raise NotationError(
            f"{rules.name} lays its table {rules.layout.value}, not {table.layout.value}"
        )
    hands = [h.strip() for h in _keyword(parts[2], "hands").split("/")]
    try:
        rules.check_players(len(hands))
    except FidoError as e:
        raise NotationError(str(e)) from None
    stock = _keyword(parts[3], "stock")
    return rules, table, hands, stock, parts[4:]


def _state(
    rest: list[str], players: int
) -> tuple[int, bool, list[int], int, int]:
    to_words = _keyword(rest[0], "to").split()
    if not to_words or len(to_words) > 2 or (len(to_words) == 2 and to_words[1] != "drawing"):
        raise NotationError(
            f"'to' takes a seat, then 'drawing' while a draw waits: {quote(rest[0])}"
        )
    to = _int(to_words[0], "the seat to move", 0, players - 1)
    scores_text = _keyword(rest[1], "scores").split()
    if len(scores_text) != players:
        raise NotationError(f"{players} scores, one per seat, not {len(scores_text)}")
    scores = [_int(s, "a score", 0, 999_999) for s in scores_text]
    passes = _int(_keyword(rest[2], "passes"), "passes", 0, players)
    opener = _int(_keyword(rest[3], "opener"), "the opener", 0, players - 1)
    return to, len(to_words) == 2, scores, passes, opener


def parse_game(text: str) -> Game:
    """The game of a line from :func:`game_text`; malformed or impossible lines raise
    :class:`~fido.errors.NotationError`."""
    rules, table, hand_texts, stock_text, rest = _head(text, 8)
    players = len(hand_texts)
    hands = [_tile_list(h) for h in hand_texts]
    explicit = stock_text.startswith("{")
    if explicit:
        if not stock_text.endswith("}"):
            raise NotationError("an unordered stock is written {tile tile ...}")
        stock_text = stock_text[1:-1].strip() or "-"
    stock = _tile_list(stock_text)
    to, drawing, scores, passes, opener = _state(rest, players)
    seen: set[Tile] = {p.tile for p in table.placements}
    for who, tiles in [*((f"seat {i}", h) for i, h in enumerate(hands)), ("the stock", stock)]:
        for t in tiles:
            if t not in rules.dominoes:
                raise NotationError(f"{t} in {who} is not in the double-{rules.max_pips} set")
            if t in seen:
                raise NotationError(f"{t} is twice in the position ({who})")
            seen.add(t)
    if len(seen) != rules.dominoes.count:
        raise NotationError(
            f"the position holds {len(seen)} of the {rules.dominoes.count} tiles of the set"
        )
    if drawing and not explicit:
        raise NotationError("a draw waits for its tile only when the stock has no order ({...})")
    if drawing and not stock:
        raise NotationError("a draw waits for its tile, but the stock is empty")
    try:
        return _build(
            rules, table=table, hands=hands, stock=stock, explicit=explicit, to=to,
            drawing=drawing, scores=scores, passes=passes, opener=opener,
        )
    except FidoError as e:
        raise NotationError(f"impossible position: {e}") from None


def _build(
    rules: Ruleset,
    *,
    table: Table,
    hands: list[list[Tile]],
    stock: list[Tile],
    explicit: bool,
    to: int,
    drawing: bool,
    scores: list[int],
    passes: int,
    opener: int,
) -> Game:
    masks = [rules.dominoes.mask_of(h) for h in hands]
    g = Game.from_masks(rules, masks, () if explicit else tuple(stock), tuple(stock), opened=True)
    g.table = table
    g.scores = scores
    g.turn = to
    g.passes = passes
    g.opener = opener
    if table.placements:
        g.opening_tile = table.placements[0].tile
    else:
        seat, tile = find_opener(rules, rules.dominoes, masks)
        if seat != opener:
            raise NotationError(f"seat {seat} opens this deal, not seat {opener}")
        g.opening_tile = tile
        if to != opener:
            raise NotationError(f"the opener, seat {opener}, moves first")
    if drawing:
        g.pending = to
    out = [s for s, h in enumerate(hands) if not h]
    if len(out) > 1:
        raise NotationError("only one hand can be empty")
    if out or passes >= len(hands):
        pips = [rules.dominoes.pips_of(m) for m in masks]
        ending = Termination.DOMINO if out else Termination.BLOCKED
        g.outcome = score_hand(rules, scores, pips, ending, out[0] if out else None)
    return g


def parse_view(text: str) -> SeatView:
    """The view of a line from :func:`view_text` (without history: a position, not a record)."""
    rules, table, hand_texts, stock_text, rest = _head(text, 9)
    players = len(hand_texts)
    to, drawing, scores, passes, opener = _state(rest[:4], players)
    if drawing:
        raise NotationError("a view's line does not show a waiting draw")
    seat_text = _keyword(rest[4], "view")
    seat = None if seat_text == "-" else _int(seat_text, "the viewer's seat", 0, players - 1)
    counts: list[int] = []
    hand: list[Tile] = []
    for s, h in enumerate(hand_texts):
        if s == seat:
            hand = _tile_list(h)
            counts.append(len(hand))
        elif h.startswith("#"):
            counts.append(_int(h[1:], f"seat {s}'s tile count", 0, rules.dominoes.count))
        else:
            raise NotationError(f"a view shows only the viewer's tiles; seat {s}: {quote(h)}")
    if not stock_text.startswith("#"):
        raise NotationError(f"a view shows the stock's count, #n, not {quote(stock_text)}")
    stock_count = _int(stock_text[1:], "the stock's count", 0, rules.dominoes.count)
    on_table = {p.tile for p in table.placements}
    if len(set(hand)) != len(hand) or on_table & set(hand):
        raise NotationError("the viewer's hand repeats a tile or one on the table")
    if sum(counts) + stock_count + len(on_table) != rules.dominoes.count:
        raise NotationError("hands, stock and table must make up the whole set")
    if any(t not in rules.dominoes for t in hand):
        raise NotationError(f"the hand holds a tile outside double-{rules.max_pips}")
    view = SeatView(
        rules=rules, players=players, seat=seat, hand=tuple(hand), table=table,
        hand_counts=tuple(counts), stock_count=stock_count, scores=tuple(scores),
        to_move=to, opener=opener, history=(), legal_moves=(), outcome=None, passes=passes,
    )
    if seat is None or seat != to:
        return view
    return _with_legal_moves(view)


def _with_legal_moves(view: SeatView) -> SeatView:
    """The viewer's legal moves: her hand against the table, any filling of the rest."""
    rules = view.rules
    if not view.table.placements:
        if view.seat != view.opener:
            raise NotationError(f"the opener, seat {view.opener}, moves first")
        try:  # the deal's rule, asked of her hand alone
            _, tile = find_opener(rules, rules.dominoes, [rules.dominoes.mask_of(view.hand)])
        except FidoError:
            raise NotationError("the opener holds no double") from None
        opening = view.hand if tile is None else (tile,)
        return replace(view, legal_moves=tuple(Placement(t) for t in opening))
    unseen = list(unseen_tiles(view))
    hands: list[list[Tile]] = []
    for s, n in enumerate(view.hand_counts):
        if s == view.seat:
            hands.append(list(view.hand))
        else:
            hands.append(unseen[:n])
            unseen = unseen[n:]
    try:
        world = Game.from_view(view, hands, unseen)
    except FidoError as e:
        raise NotationError(f"impossible view: {e}") from None
    return replace(view, legal_moves=tuple(world.legal_moves()))
