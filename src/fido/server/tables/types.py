"""The plain types of a live table: its seats, the events of its log, a refusal, and one
connection's outbox."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fido.server.protocol import Reason, encode
from fido.server.tables.kinds import Kind, Payload, payload_of
from fido.store import Account, EventRow

__all__ = [
    "OUTBOX",
    "Behind",
    "Conn",
    "Event",
    "Refusal",
    "SeatInfo",
    "display_name",
    "seat_info",
]

OUTBOX = 256  # messages queued for one connection before it is judged too slow


def display_name(account: Account | None) -> str:
    if account is None:
        return "?"
    return _shown(account.id, account.name)


def _shown(account_id: int, name: str | None) -> str:
    return name if name is not None else f"guest {account_id}"


@dataclass
class SeatInfo:
    kind: str  # open, reserved, person, bot
    account_id: int | None = None
    name: str = ""
    bot: str | None = None
    reserved_for: str | None = None  # a name_key

    def public(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "bot": self.bot,
                "account": self.account_id}


@dataclass
class Event:
    """One entry of a table's log, as kept in memory and written to ``table_events``:
    its kind (:class:`~fido.server.tables.kinds.Kind`) and its payload's fields
    (``public``; :attr:`data` reads them typed)."""

    seq: int
    kind: Kind
    seat: int | None
    public: dict[str, Any]
    private: dict[str, Any] | None = None
    account_id: int | None = None
    msg_id: str | None = None
    at: float = field(default_factory=time.time)

    def __post_init__(self) -> None:
        self.kind = Kind(self.kind)  # an unknown kind in the log is an error here

    @classmethod
    def of(cls, seq: int, seat: int | None, data: Payload, *,
           private: dict[str, Any] | None = None, account_id: int | None = None,
           msg_id: str | None = None) -> Event:
        """The event that says ``data`` (its kind is the payload's)."""
        return cls(seq, data.kind, seat, data.public(), private, account_id, msg_id)

    @property
    def data(self) -> Payload:
        """The typed payload (:func:`~fido.server.tables.kinds.payload_of`)."""
        return payload_of(self.kind, self.public)

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """What connection of ``seat`` sees (``private`` only by its own seat)."""
        out = {"seq": self.seq, "kind": self.kind, "seat": self.seat, "at": round(self.at, 3),
               **self.public}
        if self.private is not None and seat is not None and seat == self.seat:
            out.update(self.private)
        return out

    def values(self, table_id: str) -> dict[str, Any]:
        """The columns of its ``table_events`` row."""
        return {
            "table_id": table_id, "seq": self.seq, "kind": self.kind, "seat": self.seat,
            "account_id": self.account_id, "msg_id": self.msg_id,
            "public": encode(self.public),
            "private": encode(self.private) if self.private is not None else None,
            "at": self.at,
        }

    def row(self, table_id: str) -> EventRow:
        return EventRow(**self.values(table_id))

    @classmethod
    def from_columns(cls, c: Mapping[Any, Any]) -> Event:
        """The event from its ``table_events`` row's columns (:meth:`values` in reverse)."""
        return cls(c["seq"], c["kind"], c["seat"], json.loads(c["public"]),
                   json.loads(c["private"]) if c["private"] else None, c["account_id"],
                   c["msg_id"], c["at"])


@dataclass(frozen=True)
class Refusal:
    code: Reason
    message: str

    def message_for(self, msg_id: str | None) -> dict[str, Any]:
        return {"type": "refused", "id": msg_id, "code": self.code.value, "message": self.message}


class Behind(Exception):
    """The table's row has a later sequence number than this process knows."""


class Conn:
    """One WebSocket: its account, the seat it acts for (None: a spectator; kept by the
    table's feed, always its person's: :mod:`fido.server.tables.feed`), its outbox.

    Sending never waits: messages go to a bounded queue that the socket's
    writer task drains; a client too slow to keep up is disconnected (it
    reconnects with its last sequence number and catches up).
    """

    def __init__(self, account_id: int | None, seat: int | None, name: str = "",
                 protocol: int = 1) -> None:
        self.account_id, self.seat, self.name = account_id, seat, name
        self.protocol = protocol  # 1: every update carries the whole view; 2: what changed
        # version 2: the view it was last sent, its shared part and its seat's own
        self.public: dict[str, Any] | None = None
        self.mine: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None  # version 2: the table it was last sent
        self.seq = -1  # the last event it was sent (a welcome's or an update's)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(OUTBOX + 1)
        self.closed = False
        self.slow = False  # closed because its outbox overflowed
        self.signed_out = False  # closed because its session ended
        self.muted: frozenset[int] = frozenset()  # accounts whose chat it is not sent
        self.restarting = False  # closed because the process stops (sockets.Drain)

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, frame: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= OUTBOX:
            self.slow = True
            self.close()
            return
        self.queue.put_nowait(frame)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)


def seat_info(kind: str, account_id: int | None, bot: str | None, reserved_for: str | None,
              name: str | None) -> SeatInfo:
    """A seat as the room keeps it, from its row and its account's name: a person's name
    as the table shows it (:func:`display_name`), a bot's level."""
    shown = ""
    if kind == "person":
        shown = "?" if account_id is None else _shown(account_id, name)
    elif kind == "bot":
        shown = f"bot ({bot})"
    return SeatInfo(kind, account_id, shown, bot, reserved_for)
