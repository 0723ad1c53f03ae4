"""A table's log in the database: read what came after a sequence number, and write new
events with the table's new state in one transaction, at the sequence number this process
knows (else :class:`~fido.server.tables.types.Behind`: another process wrote first).

With PostgreSQL the writer also sends ``NOTIFY fido_tables, '<id>:<seq>'``; every process
listens (:mod:`fido.server.hub`) and reads the new events by sequence number.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Connection, Table, bindparam, select, text
from sqlalchemy import insert as sa_insert
from sqlalchemy import update as sa_update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from fido.server.tables.types import Behind, Event, SeatInfo, seat_info
from fido.store import Account, EventRow, SeatRow, Store, TableRow

__all__ = ["NOTIFY_CHANNEL", "Loaded", "SeatsChange", "TableLog", "TableState"]

NOTIFY_CHANNEL = "fido_tables"
_TABLES: Table = TableRow.__table__  # type: ignore[assignment]
_EVENTS: Table = EventRow.__table__  # type: ignore[assignment]

# what a write does to the table's seat rows (a join, a leave), in its transaction
SeatsChange = Callable[[Session, TableRow], None]


@dataclass(frozen=True)
class TableState:
    """The columns of the table's row that the room keeps (the row as it was read)."""

    status: str
    players: int
    clock: int | None
    grace: int
    rated: bool
    private: bool
    invite: str
    ruleset: str
    deadline: float | None
    record: str | None
    deal: str | None
    seq: int
    match_id: str | None = None  # a hand of a match: the match, and which hand
    hand: int | None = None
    created_by: int | None = None
    opened_from: str | None = None  # the opener's address as a tag: the bots' fair order
    timeouts: int | None = None  # her clock may run out this often, then she is replaced
    forced: bool = False  # draws and passes played for her when they are her only move
    rates: bool = True  # its game moves the players' game ratings (fido.ratings)


@dataclass
class Loaded:
    """The table's row, its seats and the events after the sequence number asked for."""

    row: TableState
    seats: list[SeatInfo]
    events: list[Event]


_ACCOUNTS: Table = Account.__table__  # type: ignore[assignment]
_SEATS: Table = SeatRow.__table__  # type: ignore[assignment]
# the reads, built once: a statement's compiled form is cached, its building is not
_READ_ROW = select(*(_TABLES.c[f] for f in TableState.__dataclass_fields__)).where(
    _TABLES.c.id == bindparam("id"))
_READ_SEATS = (
    select(_SEATS.c.kind, _SEATS.c.account_id, _SEATS.c.bot, _SEATS.c.reserved_for,
           _ACCOUNTS.c.name)
    .outerjoin(_ACCOUNTS, _ACCOUNTS.c.id == _SEATS.c.account_id)
    .where(_SEATS.c.table_id == bindparam("id")).order_by(_SEATS.c.seat)
)
_READ_EVENTS = (
    select(_EVENTS.c.seq, _EVENTS.c.kind, _EVENTS.c.seat, _EVENTS.c.public, _EVENTS.c.private,
           _EVENTS.c.account_id, _EVENTS.c.msg_id, _EVENTS.c.at)
    .where(_EVENTS.c.table_id == bindparam("id"), _EVENTS.c.seq > bindparam("since"),
           _EVENTS.c.seq <= bindparam("upto"))
    .order_by(_EVENTS.c.seq)
)


class TableLog:
    """The log of one table, on one store."""

    def __init__(self, store: Store, table_id: str) -> None:
        self.store, self.table_id = store, table_id

    def read(self, since: int) -> Loaded:
        """The row, the seats and the events after ``since`` (LookupError: no such table),
        in one reading transaction of three statements made once (SQLAlchemy Core: the
        ORM's loading cost a millisecond, at every move another process made)."""
        with self.store.engine.connect() as conn, conn.begin():
            found = conn.execute(_READ_ROW, {"id": self.table_id}).one_or_none()
            if found is None:
                raise LookupError(self.table_id)
            row = TableState(**found._mapping)
            row = replace(row, rated=bool(row.rated), private=bool(row.private),
                          rates=bool(row.rates))
            seats = [seat_info(*r) for r in conn.execute(_READ_SEATS, {"id": self.table_id})]
            # only the events the row has counted: each statement of a PostgreSQL
            # transaction sees the latest commits, and a later event with this row
            # would leave the row's state (status, deadline, record) behind the events
            events = [Event.from_columns(r._mapping) for r in conn.execute(
                _READ_EVENTS, {"id": self.table_id, "since": since, "upto": row.seq})]
            return Loaded(row, seats, events)

    def write(self, known: int, events: list[Event], update: dict[str, Any],
              seats: SeatsChange | None = None) -> None:
        """Append ``events`` and set ``update`` on the row, if its sequence number is still
        ``known`` (else :class:`Behind`), in one transaction."""
        if seats is None:
            self._write_fast(known, events, update)
            return
        with self.store.session() as s:
            row = s.execute(
                select(TableRow).where(TableRow.id == self.table_id).with_for_update()
            ).scalar_one()
            if row.seq != known:
                raise Behind
            for e in events:
                s.add(e.row(self.table_id))
            for key, value in update.items():
                setattr(row, key, value)
            row.seq = events[-1].seq
            seats(s, row)
            if s.get_bind().dialect.name == "postgresql":
                s.execute(text("SELECT pg_notify(:channel, :id)"),
                          {"channel": NOTIFY_CHANNEL, "id": f"{self.table_id}:{row.seq}"})

    def _write_fast(self, known: int, events: list[Event], update: dict[str, Any]) -> None:
        """:meth:`write` without the ORM (every move, chat line and presence goes here).

        One UPDATE that matches only at the sequence number this process knows
        (it locks the row, as the SELECT ... FOR UPDATE does) and one INSERT of
        the events, on the driver's connection: the ORM's SELECT and unit of work
        cost twice the CPU, and a session's setup more than the statements. A
        move's usual write (its sequence numbers and clock) goes to the driver's
        cursor as SQL text made once (:func:`_sql`): SQLAlchemy's compiling of the
        same statements cost 0.2 ms a move; the rarer writes (a game's end, its
        record and time) go through SQLAlchemy Core, which converts their types.
        """
        values = update | {"seq": events[-1].seq}
        with self.store.connection() as conn:
            if values.keys() <= _PLAIN:
                self._write_driver(conn, known, events, values)
                return
            done = conn.execute(
                sa_update(_TABLES).where(_TABLES.c.id == self.table_id, _TABLES.c.seq == known)
                .values(values)
            )
            if done.rowcount != 1:
                raise Behind
            conn.execute(sa_insert(_EVENTS), [e.values(self.table_id) for e in events])
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_notify(:channel, :id)"),
                             {"channel": NOTIFY_CHANNEL,
                              "id": f"{self.table_id}:{values['seq']}"})

    def write_now(self, known: int, events: list[Event], update: dict[str, Any]) -> bool:
        """:meth:`write` of a move's usual columns on the caller's thread, when the store
        can write without waiting (:meth:`fido.store.Store.write_now`: SQLite, nobody
        writing); False when it cannot (then nothing was written: use :meth:`write`)."""
        values = update | {"seq": events[-1].seq}
        if not values.keys() <= _PLAIN:
            return False
        with self.store.write_now() as cursor:
            if cursor is None:
                return False
            try:
                self._statements(cursor, "qmark", known, events, values)
            except sqlite3.Error as e:  # as SQLAlchemy raises it: the room says "try again"
                raise DBAPIError.instance("table write", None, e, sqlite3.Error) from e
        return True

    def _write_driver(self, conn: Connection, known: int, events: list[Event],
                      values: dict[str, Any]) -> None:
        driver = conn.connection.dbapi_connection
        assert driver is not None
        cursor = driver.cursor()
        try:
            self._statements(cursor, conn.dialect.paramstyle, known, events, values)
        except conn.dialect.loaded_dbapi.Error as e:
            # as SQLAlchemy would raise it (the room refuses with "try again"), and a
            # connection the server lost is not handed out again
            if conn.dialect.is_disconnect(e, driver, cursor):
                conn.invalidate(e)
            raise DBAPIError.instance("table write", None, e, conn.dialect.loaded_dbapi.Error
                                      ) from e
        finally:
            cursor.close()

    def _statements(self, cursor: Any, paramstyle: str, known: int, events: list[Event],
                    values: dict[str, Any]) -> None:
        """The row's new sequence numbers (only at ``known``: else :class:`Behind`), the
        events' rows and, for PostgreSQL, the notification."""
        names = tuple(sorted(values))
        sql = _sql(paramstyle, names)
        cursor.execute(sql.update, [values[n] for n in names] + [self.table_id, known])
        if cursor.rowcount != 1:
            raise Behind
        rows = [e.values(self.table_id) for e in events]
        cursor.executemany(sql.insert, [tuple(r[c] for c in _EVENT_COLUMNS) for r in rows])
        if sql.notify:
            cursor.execute(sql.notify, (NOTIFY_CHANNEL, f"{self.table_id}:{values['seq']}"))


# plain numbers: no type to convert (the seat to move too: every move writes it)
_PLAIN = frozenset({"seq", "move_seq", "deadline", "turn"})
_EVENT_COLUMNS = ("table_id", "seq", "kind", "seat", "account_id", "msg_id", "public",
                  "private", "at")


@dataclass(frozen=True)
class _Sql:
    update: str
    insert: str
    notify: str | None


@functools.cache
def _sql(paramstyle: str, names: tuple[str, ...]) -> _Sql:
    """The move's statements in the driver's own placeholders (sqlite3: ``?``;
    psycopg: ``%s``), made once for each set of columns."""
    mark = {"qmark": "?", "format": "%s", "pyformat": "%s"}[paramstyle]
    sets = ", ".join(f"{n} = {mark}" for n in names)
    marks = ", ".join([mark] * len(_EVENT_COLUMNS))
    return _Sql(
        update=f"UPDATE {_TABLES.name} SET {sets} WHERE id = {mark} AND seq = {mark}",
        insert=f"INSERT INTO {_EVENTS.name} ({', '.join(_EVENT_COLUMNS)}) VALUES ({marks})",
        notify=f"SELECT pg_notify({mark}, {mark})" if mark == "%s" else None,
    )

