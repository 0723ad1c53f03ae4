"""What a table answered each message id: a resent move or chat line gets the same
answer (lichess: the client resends what was not acknowledged)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from fido.server.tables.types import Refusal

__all__ = ["REMEMBERED", "Answers"]

REMEMBERED = 2000  # refused message ids remembered per table (a resend gets the same answer)

Key = tuple[int | None, str]  # (account, message id)


class Answers:
    """The accepted message ids (every one, from the log) and the last refused ones."""

    def __init__(self) -> None:
        self.accepted: dict[Key, int] = {}  # -> the event's sequence number
        self.refused: OrderedDict[Key, Refusal] = OrderedDict()

    def accept(self, key: Key, seq: int) -> None:
        self.accepted[key] = seq

    def refuse(self, key: Key, refusal: Refusal) -> None:
        self.refused[key] = refusal
        while len(self.refused) > REMEMBERED:
            self.refused.popitem(last=False)

    def remembered(self, key: Key, msg_id: str) -> dict[str, Any] | None:
        """The first answer again, marked a duplicate; None for a new message."""
        if key in self.accepted:
            return {"type": "ack", "id": msg_id, "seq": self.accepted[key], "duplicate": True}
        refusal = self.refused.get(key)
        if refusal is not None:
            return refusal.message_for(msg_id) | {"duplicate": True}
        return None
