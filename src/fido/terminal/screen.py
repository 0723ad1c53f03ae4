"""What a seat sees, drawn as plain lines that fit the terminal (80x24 and up).

Everything here is a pure function of a :class:`~fido.engine.views.SeatView` (or a
spectator's view) and the terminal's size, so the screen can show nothing
the seat could not see at a real table, and the tests can read it without a
terminal.

The play screen, top to bottom: the header (ruleset, sum of the ends, stock,
whose turn), one line per seat (tiles, score, her partner, what the seat did
since her last turn), the table (the picture of :mod:`fido.terminal.picture`
when there is room, and always the list of open slots), her hand, the moves
and a message. Nothing is cut but the table: the moves are numbered best
first and shown a page at a time (``n`` and ``p`` turn the pages, ``/12``
keeps the moves of the tiles with a 12, ``/@3e`` the moves on slot 3e), so
every legal move can be reached at any size; a message (a hint, an illegal
move's reason, the help) is wrapped in full.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.table import Table as RichTable

from fido.engine.game import Turn
from fido.engine.moves import Draw, Move, Placement
from fido.engine.results import Outcome, Termination
from fido.engine.rules import Scoring
from fido.engine.sorting import is_joker, ratzek_rows
from fido.engine.table import SIDE, Table
from fido.engine.tiles import Tile
from fido.engine.views import SeatView
from fido.i18n import N_, _, ngettext
from fido.layout import Layouter
from fido.rich_text import safe
from fido.safe_text import whole_or_none
from fido.terminal.picture import SIDE_MARK, draw, fitting

__all__ = [
    "SIDE_MARK",
    "Frame",
    "Shown",
    "arm_lines",
    "filter_moves",
    "hand_lines",
    "header",
    "log_screen",
    "numbered_moves",
    "partner_of",
    "play_screen",
    "results_table",
    "seat_lines",
    "slot_lines",
    "table_screen",
    "turn_text",
    "wrap",
]

WIDTH = 80
MIN_PICTURE_ROWS = 5  # below this, the table is the list of open slots only


def _fit(line: str, width: int = WIDTH) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"


def wrap(text: str, width: int = WIDTH, indent: str = "  ") -> list[str]:
    """``text`` in lines of at most ``width``, broken at spaces, nothing left out."""
    out: list[str] = []
    while len(text) > width:
        cut = text.rfind(" ", len(indent) + 1, width + 1)
        if cut <= len(indent):
            cut = width
        out.append(text[:cut].rstrip())
        text = indent + text[cut:].lstrip()
    out.append(text)
    return out


# ----------------------------------------------------------------------- parts


def header(view: SeatView, names: Sequence[str] = (), width: int = WIDTH) -> str:
    """The ruleset, the divisor, the sum of the ends, the stock and whose turn, one line."""
    rules = view.rules
    parts = [rules.text()]
    if rules.scoring is Scoring.DIVISOR or rules.is_fido:
        parts.append(_("divisor {divisor}").format(divisor=rules.divisor))
    parts.append(_("sum of the ends {sum}").format(sum=view.table.ends_sum))
    parts.append(_("stock {count}").format(count=view.stock_count))
    if view.outcome is not None:
        parts.append(_("the hand is over"))
    elif view.seat is not None and view.to_move == view.seat:
        parts.append(_("your turn"))
    elif names:
        parts.append(_("{name} to play").format(name=names[view.to_move]))
    return _fit(" · ".join(parts), width)


def partner_of(view: SeatView, seat: int) -> int | None:
    """Her partner's seat in a team game, else None."""
    for team in view.rules.teams(view.players) or ():
        if seat in team:
            return next(s for s in team if s != seat)
    return None


def turn_text(turn: Turn, *, drawn: bool = True) -> str:
    """A turn as the log writes it: the move, the tile drawn (hers only), the points."""
    text = turn.move.text()
    if isinstance(turn.move, Draw) and drawn and turn.drawn is not None:
        text += f" ({turn.drawn.text()})"
    return text + (f" +{turn.points}" if turn.points else "")


def _since(view: SeatView) -> dict[int, list[Turn]]:
    """What each seat did since her last turn (or its last turn, if none since)."""
    history = view.history
    mine = [i for i, t in enumerate(history) if t.seat == view.seat]
    start = mine[-1] + 1 if mine else 0
    if view.seat is None:  # a spectator: each seat's last turn
        start = len(history)
    out: dict[int, list[Turn]] = {s: [] for s in range(view.players)}
    for t in history[start:]:
        out[t.seat].append(t)
    for s, turns in out.items():
        if not turns:
            last = [t for t in history if t.seat == s]
            out[s] = last[-1:]
    return out


def seat_lines(
    view: SeatView, names: Sequence[str], width: int = WIDTH, columns: int = 1
) -> list[str]:
    """Every seat: whose turn (▶), tiles, score, her partner, and its moves since her turn."""
    since = _since(view)
    partner = partner_of(view, view.seat) if view.seat is not None else None
    cells = []
    for s, name in enumerate(names):
        turn = "▶" if view.outcome is None and view.to_move == s else " "
        named_you = name.lower() in ("you", _("You").lower())  # the default name: no "(you)"
        who = _("{name} (you)").format(name=name) if s == view.seat and not named_you else name
        if s == partner:
            who = _("{name} (partner)").format(name=who)
        moves = ", ".join(turn_text(t, drawn=s == view.seat) for t in since[s]) or "—"
        n, pts = view.hand_counts[s], view.scores[s]
        if columns == 1:
            count = ngettext("{count} tile, {points} pts", "{count} tiles, {points} pts", n)
            cells.append(f"{turn}{who}: {count.format(count=n, points=pts)} · {moves}")
        else:  # two seats a line: the shortest labels
            count = _("{count}t {points}p").format(count=n, points=pts)
            cells.append(f"{turn}{who} {count} {moves}")
    if columns == 1:
        return [_fit(c, width) for c in cells]
    cw = width // columns
    if any(len(c) >= cw for c in cells):  # cut, a seat's move would be hidden: one a line
        return seat_lines(view, names, width)
    rows = []
    for i in range(0, len(cells), columns):
        rows.append("".join(f"{_fit(c, cw - 1):<{cw}}" for c in cells[i : i + columns]).rstrip())
    return rows


def _tile_text(tile: Tile, d: int | None) -> str:
    return f"{tile.text()}{'*' if d is not None and is_joker(tile, d) else ''}"


def hand_lines(view: SeatView, width: int = WIDTH) -> list[str]:
    """Her hand in full: by difference class in Ratzek order (FIDO), jokers marked ``*``."""
    rules = view.rules
    hand = list(view.hand)
    if rules.scoring is Scoring.DIVISOR or rules.is_fido:
        d = rules.divisor
        parts = []
        for row in ratzek_rows(hand, d):
            tiles = " ".join(_tile_text(t, d) for t in row.tiles())
            parts.append(f"[{'|'.join(map(str, row.classes))}] {tiles}")
        text = "  ".join(parts)
    else:
        text = " ".join(t.text() for t in sorted(hand, key=lambda t: -t.pips))
    label = _("Hand ({count}, {pips} pips):").format(
        count=len(hand), pips=sum(t.pips for t in hand)
    )
    return wrap(f"{label} {text}", width)


def slot_lines(table: Table, width: int = WIDTH) -> list[str]:
    """The open slots as the notation names them, with the number to match."""
    if not table.placements:
        return [_("Table: empty, the first tile opens it")]
    playable = {code for code, _v in table.playable()}
    cells = []
    for code, (value, kind, _w) in table.open.items():
        cell = f"{table.slot_name(code)}:{value}{SIDE_MARK if kind == SIDE else ''}"
        cells.append(cell if code in playable else f"({cell})")
    label = _("Open ({count}):").format(count=len(cells))
    return wrap(f"{label} " + "  ".join(cells), width)


def arm_lines(table: Table, limit: int = 8, width: int = WIDTH) -> list[str]:
    """One line per open slot: name, end or side, value, and the tiles leading to it."""
    placements = table.placements
    if not placements:
        return ["  " + _("(empty: the first tile opens the table)")]
    playable = {code for code, _v in table.playable()}
    items = list(table.open.items())
    side, end = _("side"), _("end")
    pad = max(len(side), len(end))
    lines = []
    for code, (value, kind, _w) in items[:limit]:
        chain = []
        a = code >> 2
        while a >= 0:
            p = placements[a]
            chain.append(p.tile.text())
            a = p.anchor
        chain.reverse()
        if len(chain) > 5:
            chain = [chain[0], f"…(+{len(chain) - 3})", *chain[-2:]]
        where = f"{side if kind == SIDE else end:<{pad}}"
        mark = " " if code in playable else "·"  # not open to play this turn
        lines.append(
            _fit(
                f" {mark}{table.slot_name(code):>4} {where} {value:>2} ◄ {' ─ '.join(chain)}",
                width,
            )
        )
    if len(items) > limit:
        rest = " ".join(f"{table.slot_name(c)}:{v}" for c, (v, _k, _w) in items[limit:])
        lines.append(_fit("   " + _("also {slots}").format(slots=rest), width))
    return lines


# ----------------------------------------------------------------------- moves


def numbered_moves(view: SeatView) -> list[tuple[int, Move]]:
    """The legal moves numbered from 1, the best-scoring first (then in the engine's order)."""
    ranked = sorted(view.legal_moves, key=lambda m: -view.points_for(m))
    return list(enumerate(ranked, start=1))


def filter_moves(
    numbered: Sequence[tuple[int, Move]], query: str, table: Table
) -> list[tuple[int, Move]]:
    """The moves ``query`` keeps: ``@3e`` a slot, ``12-5`` a tile, ``12`` a number, else text."""
    q = query.strip().lower()
    if not q:
        return list(numbered)

    def keep(move: Move) -> bool:
        if not isinstance(move, Placement):
            return q in move.text()
        if q.startswith("@"):
            return move.anchor >= 0 and table.slot_name(move.anchor * 4 + move.port) == q[1:]
        if (pips := whole_or_none(q)) is not None:  # not q.isdigit(): "²" is a digit
            return pips in (move.tile.high, move.tile.low)
        if "-" in q and "@" not in q:
            return move.tile.text() == q or move.tile.text() == "-".join(reversed(q.split("-")))
        return q in move.text()

    return [(n, m) for n, m in numbered if keep(m)]


def _cell(view: SeatView, n: int, move: Move, digits: int) -> str:
    pts = view.points_for(move)
    return f"{n:>{digits}} {move.text()}{f' +{pts}' if pts else ''}"


@dataclass(frozen=True)
class Frame:
    """What the screen shows besides the view: the size, the page of moves, a filter, a note."""

    width: int = WIDTH
    height: int = 24
    page: int = 0
    query: str = ""
    message: str = ""


@dataclass(frozen=True)
class Shown:
    """A drawn screen: its lines, and the moves' pages (so the keys know where they are)."""

    lines: list[str]
    pages: int = 1
    page: int = 0
    moves: list[tuple[int, Move]] = field(default_factory=list)  # those on this page


def _move_block(
    view: SeatView, frame: Frame, rows: int
) -> tuple[list[str], int, int, list[tuple[int, Move]]]:
    """The moves' header and ``rows`` lines of cells at most: (lines, pages, page, shown)."""
    width = frame.width
    numbered = numbered_moves(view)
    kept = filter_moves(numbered, frame.query, view.table)
    digits = len(str(len(numbered)))
    cells = [_cell(view, n, m, digits) for n, m in kept]
    cw = max((len(c) for c in cells), default=1) + 2
    per_line = max(1, width // cw)
    per_page = per_line * max(1, rows)
    pages = max(1, math.ceil(len(cells) / per_page))
    page = min(max(frame.page, 0), pages - 1)
    start = page * per_page
    shown = kept[start : start + per_page]
    lines = []
    for i in range(start, min(start + per_page, len(cells)), per_line):
        lines.append("".join(f"{_fit(c, cw):<{cw}}" for c in cells[i : i + per_line]).rstrip())
    what = _("Moves, best first ({count})").format(count=len(numbered))
    if frame.query:
        what = _("Moves with {query} ({kept} of {count}; / clears)").format(
            query=frame.query.strip(), kept=len(kept), count=len(numbered)
        )
    if pages > 1:
        what += " · " + _("page {page}/{pages}: n next, p back").format(
            page=page + 1, pages=pages
        )
    elif not frame.query and len(numbered) > 1:
        what += " · " + _("/12 or /@3e filters")
    if not kept:
        lines = ["  " + _("(no legal move matches the filter)")]
    return [_fit(what, width), *lines], pages, page, shown


# ---------------------------------------------------------------------- screens


def _picture_lines(lay: Layouter, width: int, rows: int) -> list[str]:
    """The table in ``rows`` lines: fitted whole if it can be, else around the last tile."""
    pic = fitting(lay, width, rows, mark_last=True)
    if pic.zoom and pic.width <= width and pic.height <= rows:
        return list(pic.lines)
    pic = draw(lay, 1, mark_last=True)  # the overview is for the table view (t)
    last = lay.placed[-1]
    return pic.window(width, rows, pic.at(last.x, last.y))


def play_screen(
    view: SeatView,
    names: Sequence[str],
    frame: Frame = Frame(),
    lay: Layouter | None = None,
    *,
    with_moves: bool = True,
) -> Shown:
    """The whole screen for her (``frame.height - 1`` lines: the prompt is the last)."""
    width, room = max(frame.width, 20), max(frame.height - 1, 8)
    top = [header(view, names, width)]
    seats = seat_lines(view, names, width)
    hand = hand_lines(view, width) if view.seat is not None else []
    note = wrap(frame.message, width) if frame.message else []
    playing = with_moves and view.outcome is None and view.is_my_turn
    fixed = len(top) + len(seats) + len(hand) + len(note) + (1 if playing else 0)
    if fixed + 2 > room and len(seats) > 2:  # a crowded table: two seats a line
        seats = seat_lines(view, names, width, columns=2)
        fixed = len(top) + len(seats) + len(hand) + len(note) + (1 if playing else 0)
    left = max(room - fixed, 2)
    moves: list[str] = []
    pages, page = 1, 0
    shown: list[tuple[int, Move]] = []
    if playing:
        need = _move_block(view, frame, 999)[0][1:]
        rows = max(1, min(len(need), left - 1))
        moves, pages, page, shown = _move_block(view, frame, rows)
        left -= len(moves) - 1
    slots = slot_lines(view.table, width)
    table: list[str] = []
    if left >= len(slots) + MIN_PICTURE_ROWS and view.table.placements:
        lay = lay if lay is not None else Layouter.from_table(view.table, view.rules.max_pips)
        table = _picture_lines(lay, width, left - len(slots))
    keep = max(left - len(table), 1)
    if len(slots) > keep:
        tail = " … " + _("t: the whole table")
        slots = slots[:keep]
        slots[-1] = slots[-1][: width - len(tail)] + tail
    lines = [*top, *seats, *table, *slots, *hand, *moves, *note]
    return Shown(lines[:room], pages, page, shown)


def table_screen(
    lay: Layouter, width: int, height: int, zoom: int, centre: tuple[float, float] | None
) -> tuple[list[str], tuple[float, float]]:
    """The table alone, at ``zoom``, around ``centre`` (layout units; None: the middle)."""
    pic = draw(lay, zoom, mark_last=True)
    room = max(height - 3, 3)
    if centre is None:
        box = lay.box(with_markers=True)
        centre = ((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)
    lines = pic.window(width, room, pic.at(*centre))
    legend = _(
        "zoom {zoom} of 0-2 · picture {width}x{height} · dashed boxes: open slots, "
        "their number to match ({mark}: a double's free side) and name"
    ).format(zoom=zoom, width=pic.width, height=pic.height, mark=SIDE_MARK)
    if zoom:
        legend += " · " + _("heavy box: the tile laid last")
    return [*lines, *wrap(legend, width)[:2]], centre


def log_screen(log: Sequence[str], width: int, height: int, page: int) -> tuple[list[str], int]:
    """The whole log, a page at a time (the last page first shown): (lines, pages)."""
    room = max(height - 2, 1)
    pages = max(1, math.ceil(len(log) / room))
    page = min(max(page, 0), pages - 1)
    part = log[page * room : (page + 1) * room]
    head = _("The log: moves {first}-{last} of {count}").format(
        first=page * room + 1, last=page * room + len(part), count=len(log)
    )
    return [_fit(head, width), *(_fit(f"{line}", width) for line in part)], pages


# the result's title by how the hand ended, and its columns: translated where shown
_RESULT = {Termination.DOMINO: N_("Result (domino)"), Termination.BLOCKED: N_("Result (blocked)")}
_COLUMNS = (N_("place"), N_("player"), N_("points"), N_("bonus"), N_("pips left"), N_("final"))


def results_table(outcome: Outcome, players: Sequence[str]) -> RichTable:
    """The result of a hand: place, points, bonus, pips left, final (teams too).

    Names are escaped and cut here, since they come from people and records.
    """
    t = RichTable(title=_(_RESULT[outcome.termination]))
    for col in _COLUMNS:
        t.add_column(_(col), justify="left" if col == "player" else "right")
    for r in sorted(outcome.seats, key=lambda r: (r.place, r.seat)):
        t.add_row(
            str(r.place),
            safe(players[r.seat], 40),  # a name is data: "[/x]" is not markup here
            str(r.points),
            str(r.bonus),
            str(r.pips),
            str(r.final),
        )
    if outcome.teams:
        for team in outcome.teams:
            names = " + ".join(safe(players[s], 40) for s in team.seats)
            t.add_row(
                _("team {place}").format(place=team.place),
                names,
                str(team.points),
                str(team.bonus),
                str(team.pips),
                str(team.final),
                style="bold",
            )
    return t
