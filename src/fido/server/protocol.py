"""The table protocol's messages from clients, and the reasons a message is refused.

Every client frame is one JSON object with a ``type``; anything else is
refused as ``malformed`` (docs/protocol.md). pydantic checks the shape;
the room checks the meaning (whose turn, which sequence number).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from fido.safe_text import printable

__all__ = [
    "MAX_CHAT",
    "MAX_FRAME",
    "ChatIn",
    "Incoming",
    "MoveIn",
    "PingIn",
    "Reason",
    "SyncIn",
    "parse_incoming",
]

MAX_FRAME = 4096  # bytes: a move or a chat line is far smaller
MAX_CHAT = 500  # characters of one chat line

MessageId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")]
Seq = Annotated[int, Field(ge=0, le=2**31 - 1)]


class Reason(StrEnum):
    """Why a message changed nothing: the ``code`` of a ``refused`` message."""

    MALFORMED = "malformed"  # not JSON, unknown type, missing or bad fields
    TOO_LARGE = "too_large"  # a frame over MAX_FRAME bytes
    RATE_LIMITED = "rate_limited"  # out of credit: slow down
    NOT_SEATED = "not_seated"  # a spectator (or a stranger) cannot act
    NOT_STARTED = "not_started"  # the table waits for players
    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    STALE = "stale"  # a game event happened after the sequence number she saw
    BAD_SEQ = "bad_seq"  # a sequence number the table has not reached
    ILLEGAL = "illegal"  # not a legal move (the message says why)
    BAD_TEXT = "bad_text"  # a chat line with control characters, or empty
    UNAVAILABLE = "unavailable"  # the database refused the write: nothing happened


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class MoveIn(_In):
    """A move of the sender's seat: notation (``9-4@3e``, ``draw``, ``pass``)."""

    type: Literal["move"]
    id: MessageId
    seq: Seq  # the last sequence number the sender had seen
    move: Annotated[str, StringConstraints(min_length=1, max_length=40)]


class ChatIn(_In):
    type: Literal["chat"]
    id: MessageId
    text: Annotated[str, StringConstraints(min_length=1, max_length=MAX_CHAT)]


class SyncIn(_In):
    """Send me what happened after ``seq`` (a client that saw a gap)."""

    type: Literal["sync"]
    seq: Seq


class PingIn(_In):
    type: Literal["ping"]


Incoming = MoveIn | ChatIn | SyncIn | PingIn
_ADAPTER: TypeAdapter[Incoming] = TypeAdapter(
    Annotated[Incoming, Field(discriminator="type")]
)


class MalformedMessage(ValueError):
    """A client frame the protocol does not know; the text says what is wrong."""


def parse_incoming(frame: str | bytes) -> Incoming:
    """A client frame as a message, or :class:`MalformedMessage` with a short reason."""
    if len(frame) > MAX_FRAME:
        raise MalformedMessage(f"a frame holds at most {MAX_FRAME} bytes")
    try:
        return _ADAPTER.validate_json(frame)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()) if not str(p).startswith("function"))
        msg = first.get("msg", "invalid")
        raise MalformedMessage(printable(f"{where or 'message'}: {msg}", 200)) from None
