"""What the room's helpers read and call of a room (:class:`Live`): the modules that judge a
seat (:mod:`~fido.server.tables.seating`), write a move (:mod:`~fido.server.tables.moves`)
and follow a game's end (:mod:`~fido.server.tables.after`) are handed the room as this,
so none of them imports it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from fido.engine.game import Game
from fido.engine.rules import Ruleset
from fido.engine.tiles import Tile
from fido.server.tables.kinds import Payload
from fido.server.tables.types import Event, SeatInfo

if TYPE_CHECKING:
    from fido.server.botpool import BotPool
    from fido.server.settings import PlaySettings
    from fido.store import Store

__all__ = ["Context", "Live", "RoomContext", "Seats"]


@dataclass(frozen=True)
class RoomContext:
    """What a room uses of the server: the store, how it plays, the bots, whom to tell
    that its game is over (the hub lets it go: ``finished(room)``) and how a new table's
    room is loaded (``opened``)."""

    store: Store
    settings: PlaySettings
    bots: BotPool
    finished: Callable[[Any], None]
    opened: Callable[[str], Awaitable[object]] | None = None


class Context(Protocol):
    """What a room's helpers use of the server (:class:`RoomContext`)."""

    @property
    def store(self) -> Store: ...
    @property
    def settings(self) -> PlaySettings: ...
    @property
    def bots(self) -> BotPool: ...
    @property
    def opened(self) -> Callable[[str], Awaitable[object]] | None: ...


class Seats(Protocol):
    """What the feed tells of a table's connections."""

    def seats_here(self) -> set[int]: ...
    def broadcast(self, events: list[Event]) -> None: ...


class Live(Protocol):
    """A live table as its helpers see it (see the module's docstring)."""

    id: str
    seq: int
    status: str
    seats: list[SeatInfo]
    rules: Ruleset | None
    players: int
    clock: int | None
    forced: bool
    rates: bool
    rated: bool
    private: bool
    invite: str
    deal: str | None
    stock_order: list[Tile] | None
    match_id: str | None
    hand: int | None
    created_by: int | None
    lock: asyncio.Lock

    @property
    def context(self) -> Context: ...
    @property
    def feed(self) -> Seats: ...
    def new_event(self, seat: int | None, data: Payload, **more: Any) -> Event: ...
    def dealt(self) -> Game: ...
    async def append(self, make: Callable[[], Event | None],
                     tries: int = 2) -> Event | None: ...
    async def catch_up(self) -> None: ...
    def replaced(self) -> set[int]: ...
