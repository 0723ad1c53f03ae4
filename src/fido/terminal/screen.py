"""What a seat sees, drawn as plain lines that fit an 80x24 terminal.

Everything here is a pure function of a :class:`~fido.views.SeatView` (or a
spectator's view), so the screen can show nothing the seat could not see at
a real table, and the tests can read it without a terminal.

The table is drawn one line per open slot: the slot's name as the move
notation writes it (``3e``: the direction e of the 4th tile placed), whether
it is an end or a double's free side, the number showing, and the tiles from
the opening out to it (long arms folded). A spinner's four arms and every
crosswise double's sides are slots like any other, so each is on screen.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table as RichTable

from fido.moves import Move
from fido.results import Outcome
from fido.rich_text import safe
from fido.rules import Scoring
from fido.sorting import is_joker, ratzek_rows
from fido.table import SIDE, Table
from fido.views import SeatView

__all__ = ["KEYS", "arm_lines", "hand_lines", "move_keys", "results_table", "seat_lines"]

WIDTH = 80
KEYS = "123456789abcdefgijklmnoprstuvwxyz"  # no h (hint) and no q (quit)


def _fit(line: str, width: int = WIDTH) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"


def arm_lines(table: Table, limit: int = 8) -> list[str]:
    """One line per open slot: name, end or side, value, and the tiles leading to it."""
    placements = table.placements
    if not placements:
        return ["  (empty: the first tile opens the table)"]
    playable = {code for code, _v in table.playable()}
    items = list(table.open.items())
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
        where = "side" if kind == SIDE else "end "
        mark = " " if code in playable else "·"  # not open to play this turn
        lines.append(
            _fit(f" {mark}{table.slot_name(code):>4} {where} {value:>2} ◄ {' ─ '.join(chain)}")
        )
    if len(items) > limit:
        rest = " ".join(f"{table.slot_name(c)}:{v}" for c, (v, _k, _w) in items[limit:])
        lines.append(_fit(f"   also {rest}"))
    return lines


def hand_lines(view: SeatView) -> list[str]:
    """Her hand: by difference class in Ratzek order (FIDO), jokers marked ``*``."""
    rules = view.rules
    hand = list(view.hand)
    if rules.scoring is Scoring.DIVISOR or rules.is_fido:
        d = rules.divisor
        rows = ratzek_rows(hand, d)
        parts = []
        for row in rows:
            tiles = " ".join(f"{t.text()}{'*' if is_joker(t, d) else ''}" for t in row.tiles())
            parts.append(f"[{'|'.join(map(str, row.classes))}] {tiles}")
        text = "  ".join(parts)
    else:
        text = " ".join(t.text() for t in sorted(hand, key=lambda t: -t.pips))
    return _wrap(f"Hand ({len(hand)}, {sum(t.pips for t in hand)} pips): {text}", 5)


def seat_lines(view: SeatView, names: Sequence[str]) -> list[str]:
    """Everyone's tile count and score, the stock: the public part of the table."""
    cells = []
    for s, name in enumerate(names):
        turn = "▶" if view.outcome is None and view.to_move == s else " "
        cells.append(f"{turn}{name} {view.hand_counts[s]}t {view.scores[s]}p")
    return _wrap(" | ".join(cells), 2)


def move_keys(view: SeatView) -> list[tuple[str, Move]]:
    """The legal moves, each with its short key (``1``..``9``, then letters)."""
    return list(zip(KEYS, view.legal_moves, strict=False))


def move_lines(view: SeatView) -> list[str]:
    cells = []
    for key, move in move_keys(view):
        pts = view.points_for(move)
        cells.append(f"{key}:{move.text()}{f' +{pts}' if pts else ''}")
    return _wrap("Moves " + "  ".join(cells), 3)


def header(view: SeatView) -> str:
    rules = view.rules
    score = (
        f"divisor {rules.divisor} · " if rules.scoring is Scoring.DIVISOR or rules.is_fido else ""
    )
    return _fit(
        f"{rules.text()} · {score}sum of the ends {view.table.ends_sum} · stock {view.stock_count}"
    )


def _wrap(text: str, lines: int) -> list[str]:
    out: list[str] = []
    while text and len(out) < lines:
        if len(text) <= WIDTH:
            out.append(text)
            break
        cut = text.rfind(" ", 0, WIDTH)
        cut = cut if cut > 0 else WIDTH
        out.append(text[:cut])
        text = "  " + text[cut:].lstrip()
    else:
        if text and out:
            out[-1] = _fit(out[-1][: WIDTH - 1] + "…")
    return out


def screen(
    view: SeatView, names: Sequence[str], log: Sequence[str], message: str = ""
) -> list[str]:
    """The whole screen for her turn, at most 23 lines (the prompt is the 24th)."""
    top = [header(view), *seat_lines(view, names), "Table:", *arm_lines(view.table)]
    bottom = hand_lines(view)
    if view.outcome is None and view.is_my_turn:
        bottom += move_lines(view)
    if message:
        bottom.append(_fit(message))
    room = max(0, min(3, 23 - len(top) - len(bottom)))  # the log gives way to a big hand
    recent = [f"  {entry}" for entry in log[-room:]] if room else []  # not log[len - room:]
    return [*top, *recent, *bottom][:23]


def results_table(outcome: Outcome, players: Sequence[str]) -> RichTable:
    """The result of a hand: place, points, bonus, pips left, final (teams too).

    Names are escaped and cut here, since they come from people and records.
    """
    t = RichTable(title=f"Result ({outcome.termination.value})")
    for col in ("place", "player", "points", "bonus", "pips left", "final"):
        t.add_column(col, justify="left" if col == "player" else "right")
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
                f"team {team.place}",
                names,
                str(team.points),
                str(team.bonus),
                str(team.pips),
                str(team.final),
                style="bold",
            )
    return t
