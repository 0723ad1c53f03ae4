"""The server's tables: the plain types (:mod:`~fido.server.tables.types`), the log in the
database (:mod:`~fido.server.tables.log`), the end of a game
(:mod:`~fido.server.tables.ending`), the timer's rule (:mod:`~fido.server.tables.timers`)
and the live room that decides (:mod:`~fido.server.tables.room`)."""

from fido.server.tables.room import Room, RoomContext
from fido.server.tables.types import Conn, Event, Refusal, SeatInfo, display_name, seat_info

__all__ = ["Conn", "Event", "Refusal", "Room", "RoomContext", "SeatInfo", "display_name",
           "seat_info"]
