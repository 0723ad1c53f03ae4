"""Finals across table sizes: a final at a smaller table scaled to the event's table size.

A FIDO player's final is points - pips (docs/rules.md, section 3), and both
grow with the tiles she holds: she scores on her own moves, one tile each,
and her pips are what is left of her hand. The hand is
``floor(tiles / (players + 1))`` (section 1), so at a table of 4 in an event
of fives each holds 18 tiles of a double-12 set instead of 15 and finals run
about 18/15 higher. A final at a table of ``n`` therefore counts as

    final · hand(table_size) / hand(n)

the hand sizes the rules deal (``Ruleset.hand_size``). Measured with the
expert bot on double-12 (docs/events.md): a mean final of 88.0 at tables of
4 becomes 73.3, against 73.3 at tables of 5. Finals at the event's own size
are unchanged, so an event without smaller tables sums plain finals.

>>> normalised_final(36, 4, rules="fido set=12", table_size=5)
Fraction(30, 1)
>>> normalised_final(36, 5, rules="fido set=12", table_size=5)
Fraction(36, 1)
"""

from __future__ import annotations

from fractions import Fraction

from fido.engine.rules import Ruleset
from fido.errors import FidoError, quote
from fido.events.errors import EventError
from fido.i18n import _

__all__ = ["as_rules", "normalised_final"]


def as_rules(rules: Ruleset | str) -> Ruleset:
    """A FIDO ruleset from itself or its text (``"fido set=12"``), or a clear error."""
    if isinstance(rules, str):
        try:
            rules = Ruleset.from_text(rules)
        except FidoError as e:
            raise EventError(_("not a ruleset: {reason}").format(reason=e)) from None
    if not isinstance(rules, Ruleset) or not rules.is_fido:
        raise EventError(_("a championship plays FIDO, not {rules}").format(
            rules=quote(str(rules))))
    return rules


def normalised_final(
    final: int, players: int, *, rules: Ruleset | str, table_size: int
) -> Fraction:
    """``final`` at a table of ``players``, in the finals of tables of ``table_size``."""
    rs = as_rules(rules)
    if final.__class__ is not int:
        raise EventError(_("a final is a whole number, not {value}").format(value=quote(final)))
    for n in (players, table_size):
        if n.__class__ is not int or not rs.is_official(n):
            lo, hi = rs.official_players
            raise EventError(_("a championship table seats {lo} to {hi} players, not {value}")
                             .format(lo=lo, hi=hi, value=quote(n)))
    if players > table_size:
        raise EventError(_("a table of {n} is above the event's table size {size}")
                         .format(n=players, size=table_size))
    try:
        return Fraction(final * rs.hand_size(table_size), rs.hand_size(players))
    except FidoError as e:
        raise EventError(str(e)) from None
