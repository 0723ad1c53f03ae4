"""The server's tables. The room decides (:mod:`~fido.server.tables.room`, boardgame.io's
``Master``); it is handed its log in the database (:mod:`~fido.server.tables.log`) and its
feed, which owns the connections, their frames and the seat each acts for
(:mod:`~fido.server.tables.feed`). Beside it: the kinds of the log's events, one payload
each (:mod:`~fido.server.tables.kinds`), the plain types (:mod:`~fido.server.tables.types`),
who may take or leave a seat (:mod:`~fido.server.tables.seating`), what a move writes
(:mod:`~fido.server.tables.moves`) and the end of a game
(:mod:`~fido.server.tables.ending`), the timer (:mod:`~fido.server.tables.timers`), a
refused move's sentences (:mod:`~fido.server.tables.refusals`), the answers to resent
messages (:mod:`~fido.server.tables.answers`), and what comes after a game: a match's next
hand, playing again (:mod:`~fido.server.tables.after`, :mod:`~fido.server.tables.matches`).
Nothing here knows HTTP: a refusal is :class:`fido.errors.Refused` with a code."""

from fido.server.tables.room import Room
from fido.server.tables.state import RoomContext
from fido.server.tables.types import Conn, Event, Refusal, SeatInfo, display_name, seat_info

__all__ = ["Conn", "Event", "Refusal", "Room", "RoomContext", "SeatInfo", "display_name",
           "seat_info"]
