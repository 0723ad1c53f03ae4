"""The kinds of a table's log, one typed payload each (lila's ``Event``: one kind, one
data type).

An event's kind is a :class:`Kind`; what it says besides its seat and time is one small
frozen dataclass of :data:`PAYLOADS`, written to the log and sent to a client as its
``public`` fields (:meth:`Payload.public`) and read back from them
(:func:`payload_of`). The names are the protocol's (docs/protocol.md, "Events"), and the
page scripts read them from one module, ``static/js/event_kinds.js``, which a test holds
equal to :class:`Kind`.

A move's drawn tile is no part of its payload: it is the event's ``private`` part, sent
only to the drawer's own connections (:meth:`fido.server.tables.types.Event.for_seat`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar

__all__ = [
    "PAYLOADS",
    "Again",
    "Away",
    "Back",
    "Chat",
    "Decline",
    "End",
    "Join",
    "Kind",
    "Leave",
    "Moved",
    "Next",
    "Payload",
    "Start",
    "Vacation",
    "payload_of",
]


class Kind(StrEnum):
    """What an event of a table's log says happened."""

    JOIN = "join"  # a person took a seat before the start
    LEAVE = "leave"  # she left it before the start
    START = "start"  # the table is full, the tiles are dealt
    MOVE = "move"  # a seat moved (a person, a bot, the stand-in)
    END = "end"  # the game is over: its outcome
    CHAT = "chat"  # a line of the table's chat
    AWAY = "away"  # a seated person's last connection closed
    BACK = "back"  # one of hers is open again
    AGAIN = "again"  # she asked to play again (a rematch)
    DECLINE = "decline"  # she declined to play again
    NEXT = "next"  # everyone goes on to another table (the match's next hand, a rematch)
    VACATION = "vacation"  # her clock ran out on vacation: it starts again at its end


@dataclass(frozen=True)
class Payload:
    """The fields of one kind of event (a subclass per kind)."""

    kind: ClassVar[Kind]

    def public(self) -> dict[str, Any]:
        """The fields as the log keeps them and every connection is sent them."""
        return asdict(self)


@dataclass(frozen=True)
class Join(Payload):
    kind = Kind.JOIN
    name: str


@dataclass(frozen=True)
class Leave(Payload):
    kind = Kind.LEAVE


@dataclass(frozen=True)
class Start(Payload):
    kind = Kind.START
    names: list[str]


@dataclass(frozen=True)
class Moved(Payload):
    """A move as everyone sees it: by whom (``player``, ``bot``, ``clock``: her time ran
    out, ``away``: her grace did), what it scored, and the Rostock knock or Basel wipe it
    makes (:func:`fido.server.wire.table_event`)."""

    kind = Kind.MOVE
    seat: int | None
    move: str
    points: int
    sum: int
    table_event: str | None
    by: str


@dataclass(frozen=True)
class End(Payload):
    kind = Kind.END
    outcome: dict[str, Any]


@dataclass(frozen=True)
class Chat(Payload):
    kind = Kind.CHAT
    name: str
    text: str
    phrase: str | None = None  # a quick phrase's code: each reader reads it in her language


@dataclass(frozen=True)
class Away(Payload):
    kind = Kind.AWAY


@dataclass(frozen=True)
class Back(Payload):
    kind = Kind.BACK


@dataclass(frozen=True)
class Again(Payload):
    kind = Kind.AGAIN
    bots: bool


@dataclass(frozen=True)
class Decline(Payload):
    """She said no to playing again: the rematch is made without her."""

    kind = Kind.DECLINE


@dataclass(frozen=True)
class Next(Payload):
    kind = Kind.NEXT
    table: str


@dataclass(frozen=True)
class Vacation(Payload):
    """Her clock ran out while she is on vacation (turn-based tables): it starts again,
    whole, at ``until`` (Unix seconds), and the row's deadline says when it ends."""

    kind = Kind.VACATION
    until: float


PAYLOADS: dict[Kind, type[Payload]] = {
    cls.kind: cls for cls in (Join, Leave, Start, Moved, End, Chat, Away, Back, Again,
                              Decline, Next, Vacation)
}


_FIELDS = {kind: frozenset(f.name for f in fields(cls)) for kind, cls in PAYLOADS.items()}


def payload_of(kind: Kind, public: dict[str, Any]) -> Payload:
    """The typed payload of an event read from the log (fields it does not know are
    left out: an older log may carry more)."""
    names = _FIELDS[kind]
    return PAYLOADS[kind](**{k: v for k, v in public.items() if k in names})
