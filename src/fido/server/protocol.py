"""The table protocol's messages from clients, and the reasons a message is refused.

Every client frame is one JSON object with a ``type``; anything else is
refused as ``malformed`` (docs/protocol.md). pydantic checks the shape;
the room checks the meaning (whose turn, which sequence number).
"""

from __future__ import annotations

import json
import re
from enum import StrEnum
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from fido.i18n import _, format_number
from fido.safe_text import printable
from fido.server.field_errors import field_error

__all__ = [
    "MAX_CHAT",
    "MAX_FRAME",
    "WS_MAX_SIZE",
    "ChatIn",
    "Incoming",
    "MoveIn",
    "PingIn",
    "Reason",
    "SyncIn",
    "encode",
    "frame_size",
    "message_id",
    "parse_incoming",
    "too_large",
]

MAX_FRAME = 4096  # bytes: a move or a chat line is far smaller
WS_MAX_SIZE = 64 * 1024  # bytes: the WebSocket server closes (1009) on a larger message
MAX_CHAT = 500  # characters of one chat line

_MESSAGE_ID = r"^[A-Za-z0-9_.:-]{1,64}$"
MessageId = Annotated[str, StringConstraints(pattern=_MESSAGE_ID)]
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


# the chat's quick phrases: each reader reads them in her own language (the page's
# PHRASES, static/js/table.js, names the same codes: tests/web/test_web_people.py)
Phrase = Literal["hello", "luck", "thanks", "well", "gg", "sorry", "bye"]


class ChatIn(_In):
    type: Literal["chat"]
    id: MessageId
    text: Annotated[str, StringConstraints(min_length=1, max_length=MAX_CHAT)]
    phrase: Phrase | None = None  # a quick phrase: its code (``text``: its English)


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


_TYPES = frozenset({"move", "chat", "sync", "ping"})  # the tags of Incoming


class MalformedMessage(ValueError):
    """A client frame the protocol does not know; the text says what is wrong."""


def frame_size(frame: str | bytes) -> int:
    """The frame's size in bytes (a text frame's UTF-8), counted only up to a bound: any
    text longer than MAX_FRAME characters is too large anyway."""
    if isinstance(frame, bytes) or len(frame) > MAX_FRAME:
        return len(frame)
    return len(frame.encode("utf-8", "surrogatepass"))


def parse_incoming(frame: str | bytes) -> Incoming:
    """A client frame as a message, or :class:`MalformedMessage` with a short reason."""
    if frame_size(frame) > MAX_FRAME:
        raise MalformedMessage(too_large())
    try:
        return _ADAPTER.validate_json(frame)
    except ValidationError as e:  # its first error, a sentence in the socket's language
        first: dict[str, Any] = dict(e.errors()[0])
        loc: tuple[int | str, ...] = tuple(first.get("loc", ()))
        if loc and loc[0] in _TYPES:  # the union's tag ("move"), not a field of the frame
            first["loc"] = loc[1:]
        raise MalformedMessage(printable(field_error(first, frame=True), 200)) from None


def too_large() -> str:
    """The refusal of a frame over :data:`MAX_FRAME` bytes."""
    return _("a frame holds at most {n} bytes").format(n=format_number(MAX_FRAME))


def message_id(frame: str | bytes) -> str | None:
    """The ``id`` of a frame refused before it was parsed as a message (malformed, too
    frequent), when it has a valid one: the sender then knows which message was refused."""
    try:
        data = json.loads(frame)
    except (ValueError, RecursionError):
        return None
    found = data.get("id") if isinstance(data, dict) else None
    return found if isinstance(found, str) and re.fullmatch(_MESSAGE_ID, found) else None


def encode(message: Any) -> str:
    """A frame's JSON text: compact, UTF-8 as it is (orjson: several times faster than
    :func:`json.dumps`, which every seat's frame of every move went through)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
