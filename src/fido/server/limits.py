"""What one person or one address may do, as ``fido serve`` is told (no web stack here:
the command line reads its defaults)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Limits"]


@dataclass(frozen=True)
class Limits:
    """What one person or one address may do in a ``window`` of seconds, so that nobody
    crowds out the others: failed sign-ins to one account from one address (or one known
    device, :mod:`fido.accounts.devices`), from one address, and to one account from
    anywhere but her known devices (a wider, slower bound: ``everywhere`` in
    ``everywhere_window``); new accounts (guests and sign-ups) and tables opened per
    address, and tables waiting for players per person at once (0: no limit)."""

    per_account: int = 5
    per_address: int = 20
    window: float = 15 * 60
    everywhere: int = 100
    everywhere_window: float = 24 * 3600
    accounts_per_address: int = 50  # a club behind one router signs up together
    tables_per_address: int = 100
    open_tables_per_account: int = 3  # waiting for players: the lobby is everyone's
    # tables with bots one person plays at once (open or running; the bots' workers are
    # everyone's), and of those with a strong level (search, champion): 0, no limit
    bot_tables_per_account: int = 3
    strong_bot_tables_per_account: int = 1
    # the same, opened from one address (its guests would multiply a person's bound; a
    # club behind one router shares these): the lobby's tables and the queue's
    bot_tables_per_address: int = 6
    strong_bot_tables_per_address: int = 2
    # password resets asked for in a window: from one address, and for one account (each
    # sends her a mail: nobody fills another's mailbox)
    resets_per_address: int = 10
    resets_per_account: int = 3
