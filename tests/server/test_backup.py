"""``fido backup`` and ``fido restore`` (issue 26), through the command line as cron runs it.

The big test backs up a live server's database while a person is playing (her moves
and the bots' are being written), restores the file into a fresh database and starts
a server on it: the published months verify bit for bit, the finished games' records
replay, and the running table resumes at least at the last move she had been
acknowledged before the backup began, with exactly the events the original held up
to there. The refusals leave the target as it was; with PostgreSQL
(``tests/with_postgres.py``) the portable export goes from SQLite to PostgreSQL and
back without a difference.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import MetaData, create_engine, inspect, select, text

from fido.record import GameRecord
from fido.store import backup as backups
from fido.store import open_store
from support.postgres import POSTGRES, empty_postgres
from support.ranking_league import MONTHS, small_league
from support.server_client import Person, first_legal, play_to_end
from support.server_live import live_server


def fido(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``fido ARGS`` in its own process, as an administrator (or cron) runs it."""
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "fido.cli", *args], capture_output=True,
                          text=True, timeout=timeout, env=env, check=False)


def rows_of(url: str, *, skip: tuple[str, ...] = ()) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows in key order (times in UTC, as the store keeps them)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            meta = MetaData()
            meta.reflect(bind=conn)
            out = {}
            for name, table in sorted(meta.tables.items()):
                if name == "alembic_version" or name in skip:
                    continue
                keys = list(table.primary_key.columns) or list(table.columns)
                out[name] = [tuple(_utc(v) for v in row)
                             for row in conn.execute(select(table).order_by(*keys))]
            return out
    finally:
        engine.dispose()


def _utc(value: Any) -> Any:
    import datetime as dt  # noqa: PLC0415

    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC) if value.tzinfo else value.replace(tzinfo=dt.UTC)
    return value


def events_of(url: str, table_id: str) -> list[tuple[Any, ...]]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(
                "SELECT seq, kind, public, private FROM table_events WHERE table_id = :t "
                "ORDER BY seq"), {"t": table_id})]
    finally:
        engine.dispose()


def check_months(original: str, restored: str) -> None:
    """Every published month: the same snapshot rows (digest, params, times) and entries,
    and ``fido ranking verify`` recomputes it bit for bit from the restored results."""
    a, b = rows_of(original), rows_of(restored)
    assert a["ranking_snapshots"] and a["ranking_snapshots"] == b["ranking_snapshots"]
    assert a["ranking_entries"] == b["ranking_entries"]
    for month in MONTHS:
        done = fido("ranking", "verify", "--month", month, "--db", restored)
        assert done.returncode == 0, done.stderr


def test_backup_mid_game_restores_months_records_and_running_tables(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'live.db'}"
    store = open_store(db)
    small_league(store)
    store.close()
    file = tmp_path / "backup.tar.gz"
    with live_server(db) as base:
        anna = Person.guest(base)
        # a finished game
        done_id = anna.open_table("fido set=6", 3, [
            {"kind": "me"}, {"kind": "bot", "level": "greedy"},
            {"kind": "bot", "level": "random"}])["id"]
        first = anna.connect(done_id)
        play_to_end([first])
        first.close()
        # a running one, long (double-12, four seats); she plays on while the backup runs
        run_id = anna.open_table("fido set=12", 4, [
            {"kind": "me"}, *[{"kind": "bot", "level": "greedy"}] * 3])["id"]
        sock = anna.connect(run_id, seq=0)  # every event from the first
        acks: list[tuple[float, int]] = []  # (when, seq) of every ack she received
        stop = threading.Event()
        failed: list[BaseException] = []

        def play() -> None:
            try:
                # at most 10 moves of hers: the game must still run after the backup
                while not stop.is_set() and sock.end_seq is None and len(acks) < 10:
                    sock.drain(0.02)
                    if sock.my_turn():
                        view = sock.view or {}
                        moves = [m["move"] for m in view["legal"]]
                        reply = sock.move("draw" if "draw" in moves and len(acks) % 3 else
                                          first_legal(view))
                        assert reply["type"] == "ack", reply
                        acks.append((time.monotonic(), reply["seq"]))
                        time.sleep(0.2)
            except BaseException as e:
                failed.append(e)

        player = threading.Thread(target=play, daemon=True)
        player.start()
        deadline = time.monotonic() + 30
        while len(acks) < 3:
            assert time.monotonic() < deadline and not failed, failed
            time.sleep(0.05)
        started = time.monotonic()
        before = acks[-1][1]  # her last ack before the backup began
        made = fido("backup", str(file), "--db", db)
        ended = time.monotonic()
        stop.set()
        player.join(timeout=20)
        assert not failed, failed
        assert made.returncode == 0, made.stderr
        assert "backup written" in made.stdout
        during = [seq for when, seq in acks if started <= when <= ended]
        assert during, "moves were written while the backup ran"
        assert sock.end_seq is None, "the game still runs (the test's premise)"
        # every event the backup can hold reached her socket before it closes (a bot's
        # move committed during the backup may still be on its way)
        sock.until_seq(len(events_of(db, run_id)))
        sock.close()
        assert anna.table(run_id)["status"] == "running"
        cookies = dict(anna.http.cookies.items())
    assert file.stat().st_mode & 0o077 == 0, "only its owner may read a backup"

    restored = f"sqlite:///{tmp_path / 'restored.db'}"
    done = fido("restore", str(file), "--db", restored)
    assert done.returncode == 0, done.stderr
    check_months(db, restored)

    # the running table holds a prefix of the original's events, at least up to her ack
    original_events, kept = events_of(db, run_id), events_of(restored, run_id)
    held = len(kept)
    assert before <= held <= len(original_events)
    assert kept == original_events[:held]
    with live_server(restored) as base:
        # her session was restored with the rest: her cookie signs her in (GETs only)
        http = httpx.Client(base_url=base, timeout=20,
                            cookies={"fido_session": cookies["fido_session"]})
        again = Person(base, http, anna.account)
        # the finished game's record replays to its end
        r = http.get(f"/api/tables/{done_id}/record")
        assert r.status_code == 200, r.text
        assert GameRecord.from_json(r.text).replay().outcome is not None
        # the running table resumes where the backup left it (a bot whose turn it was
        # moves at once: seq held + 1), she sees the same game up to there, and plays on
        back = again.connect(run_id, seq=0)
        assert back.seat == 0 and back.seq is not None and back.seq >= held
        seen = [e for e in sock.events() if e["seq"] <= held]
        assert [e["seq"] for e in seen] == list(range(1, held + 1))
        assert [e for e in back.events() if e["seq"] <= held] == seen
        play_to_end([back])
        r = http.get(f"/api/tables/{run_id}/record")
        assert r.status_code == 200, r.text
        assert GameRecord.from_json(r.text).replay().outcome is not None
        back.close()
    # every stored game record replays (the ranking's and the tables')
    engine = create_engine(restored)
    with engine.connect() as conn:
        for (record,) in conn.execute(text("SELECT record FROM games WHERE record IS NOT NULL")):
            assert GameRecord.from_json(record).replay().outcome is not None
    engine.dispose()


# ---------------------------------------------------------------- refusals


@pytest.fixture(scope="module")
def league_backup(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    tmp = tmp_path_factory.mktemp("league")
    db = f"sqlite:///{tmp / 'league.db'}"
    store = open_store(db)
    small_league(store)
    store.close()
    file = tmp / "league.tar.gz"
    made = fido("backup", str(file), "--db", db)
    assert made.returncode == 0, made.stderr
    return db, file


def repack(src: Path, dest: Path, change: Any) -> None:
    """``src`` with its manifest changed by ``change(dict)``; the parts as they were."""
    with tarfile.open(src, "r:gz") as tar:
        members = [(m, tar.extractfile(m).read()) for m in tar]  # type: ignore[union-attr]
    with tarfile.open(dest, "w:gz") as out:
        for member, data in members:
            if member.name == "manifest.json":
                manifest = json.loads(data)
                change(manifest)
                data = json.dumps(manifest).encode()
                member.size = len(data)
            out.addfile(member, io.BytesIO(data))


def refused(file: Path, target: str) -> str:
    done = fido("restore", str(file), "--db", target)
    assert done.returncode == 1, (done.stdout, done.stderr)
    message = done.stderr.strip()
    assert message.startswith("error: ") and "\n" not in message, message
    assert "Traceback" not in done.stderr
    return message


def test_restore_refuses_damaged_truncated_newer_and_non_empty(
    league_backup: tuple[str, Path], tmp_path: Path
) -> None:
    db, file = league_backup
    data = file.read_bytes()
    fresh = tmp_path / "fresh.db"
    target = f"sqlite:///{fresh}"

    flipped = tmp_path / "flipped.tar.gz"
    middle = len(data) // 2
    flipped.write_bytes(data[:middle] + bytes([data[middle] ^ 0x40]) + data[middle + 1:])
    assert "damaged" in refused(flipped, target)
    assert not fresh.exists(), "a refused restore creates no database"

    truncated = tmp_path / "truncated.tar.gz"
    truncated.write_bytes(data[: len(data) * 2 // 3])
    assert "damaged" in refused(truncated, target)
    assert not fresh.exists()

    other = tmp_path / "notes.txt"
    other.write_text("not a backup\n")
    assert "not a fido backup" in refused(other, target)

    newer = tmp_path / "newer.tar.gz"
    repack(file, newer, lambda m: m.update(revision="9999_from_the_future"))
    message = refused(newer, target)
    assert "9999_from_the_future" in message and "newer fido" in message
    assert not fresh.exists()

    # a part that no longer matches its checksum (the archive itself is sound)
    altered = tmp_path / "altered.tar.gz"
    with tarfile.open(file, "r:gz") as tar:
        parts = [(m, tar.extractfile(m).read()) for m in tar]  # type: ignore[union-attr]
    with tarfile.open(altered, "w:gz") as out:
        for member, part in parts:
            if member.name == "database.sqlite":
                part = part[:-1] + bytes([part[-1] ^ 1])
            out.addfile(member, io.BytesIO(part))
    assert "checksum" in refused(altered, target)

    # the checks pass but the rows do not match the manifest: found while restoring,
    # the transaction rolls back and the new file goes again
    lying = tmp_path / "lying.tar.gz"
    repack(file, lying, lambda m: m["tables"].update(players=m["tables"]["players"] + 1))
    assert "damaged" in refused(lying, target)
    assert not fresh.exists()

    # an empty database with fido's schema (fido serve ran once) stays as it was
    empty = f"sqlite:///{tmp_path / 'empty.db'}"
    open_store(empty).close()
    schema = rows_of(empty)
    assert "damaged" in refused(lying, empty)
    assert rows_of(empty) == schema

    # a database with rows is never a target
    before = rows_of(db)
    assert "not empty" in refused(file, db)
    assert rows_of(db) == before

    # and the file itself restores (the refusals were the file's, not the code's)
    done = fido("restore", str(file), "--db", empty)
    assert done.returncode == 0, done.stderr
    assert rows_of(empty) == before


def _crafted(file: Path, dest: Path, name: str, data: bytes, *, declared: int | None = None
             ) -> None:
    """``file`` with its part ``name`` (added, or replaced) holding ``data``, which its
    manifest names with ``data``'s checksum and ``declared`` bytes (default: its size)."""

    def change(m: dict[str, Any]) -> None:
        m["parts"][name] = {"bytes": len(data) if declared is None else declared,
                            "sha256": hashlib.sha256(data).hexdigest()}

    repack(file, dest, change)
    with tarfile.open(dest, "r:gz") as tar:
        members = [(m, tar.extractfile(m).read()) for m in tar]  # type: ignore[union-attr]
    with tarfile.open(dest, "w:gz") as out:
        for member, part in members:
            if member.name != name:
                out.addfile(member, io.BytesIO(part))
        info = tarfile.TarInfo(name)
        info.size = len(data)
        out.addfile(info, io.BytesIO(data))


def test_restore_and_its_check_write_nothing_outside_their_folder(
    league_backup: tuple[str, Path], tmp_path: Path
) -> None:
    """A part named by the file itself (``../``, an absolute path, a name no backup
    holds) is refused before anything is written, by ``fido restore`` and by
    ``fido restore --check``, the documented way to vet a file sent from outside."""
    _db, file = league_backup
    target = f"sqlite:///{tmp_path / 'fresh.db'}"
    outside = tmp_path / "outside"
    outside.mkdir()
    escapes = {
        "up": "../" * 12 + str(outside / "up.txt").lstrip("/"),
        "absolute": str(outside / "absolute.txt"),
        "unknown": "notes/readme.txt",
    }
    for label, name in escapes.items():
        crafted = tmp_path / f"{label}.tar.gz"
        _crafted(file, crafted, name, b"ssh-ed25519 AAAA attacker\n")
        for args in (("restore", str(crafted), "--db", target),
                     ("restore", "--check", str(crafted))):
            done = fido(*args)
            assert done.returncode == 1, (label, args, done.stdout, done.stderr)
            assert done.stderr.startswith("error: ") and "Traceback" not in done.stderr
            assert "not a fido backup" in done.stderr, done.stderr
        assert list(outside.iterdir()) == [], label
        assert not (tmp_path / "fresh.db").exists()


def test_a_part_larger_than_its_manifest_says_is_refused_before_it_is_read(
    league_backup: tuple[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its size is compared before a byte is unpacked, and no more than the manifest
    declares is ever read."""
    _db, file = league_backup
    crafted = tmp_path / "zeros.tar.gz"
    _crafted(file, crafted, "database.sqlite", b"\0" * (8 << 20), declared=10)
    written: list[int] = []
    write = backups._Hashing.write

    def counted(self: Any, data: bytes) -> None:
        written.append(len(data))
        write(self, data)

    monkeypatch.setattr(backups._Hashing, "write", counted)
    with pytest.raises(backups.BackupError, match="holds 8388608 bytes, its manifest says 10"):
        backups.inspect_file(crafted)
    assert written == []  # not a byte of it unpacked


def test_a_manifests_table_names_are_identifiers(
    league_backup: tuple[str, Path], tmp_path: Path
) -> None:
    _db, file = league_backup
    bad = tmp_path / "bad-table.tar.gz"
    repack(file, bad, lambda m: m["tables"].update({'players" WHERE 1=1; --': 1}))
    assert "not a fido backup" in refused(bad, f"sqlite:///{tmp_path / 'fresh.db'}")


def test_a_restored_sqlite_file_is_as_private_as_the_backup(
    league_backup: tuple[str, Path], tmp_path: Path
) -> None:
    _db, file = league_backup
    fresh = tmp_path / "restored.db"
    done = fido("restore", str(file), "--db", f"sqlite:///{fresh}")
    assert done.returncode == 0, done.stderr
    assert fresh.stat().st_mode & 0o777 == 0o600
    assert file.stat().st_mode & 0o777 == 0o600


def test_a_backup_tells_prometheus_it_ran_and_a_failed_one_does_not(
    league_backup: tuple[str, Path], tmp_path: Path
) -> None:
    """``--metrics-file``: node_exporter's textfile collector reads the last success (a
    cron job has no port to scrape); a failure leaves the last success as it was, so the
    alert on its age fires."""
    db, _file = league_backup
    prom, file = tmp_path / "fido_backup.prom", tmp_path / "nightly.tar.gz"
    before = time.time()
    done = fido("backup", str(file), "--db", db, "--metrics-file", str(prom))
    assert done.returncode == 0, done.stderr
    values = dict(line.split() for line in prom.read_text().splitlines()
                  if not line.startswith("#"))
    assert before - 1 <= float(values["fido_backup_last_success_timestamp_seconds"]) \
        <= time.time() + 1
    assert float(values["fido_backup_size_bytes"]) == file.stat().st_size
    written = prom.read_text()
    failed = fido("backup", str(tmp_path / "other.tar.gz"), "--db",
                  f"sqlite:///{tmp_path / 'gone.db'}", "--metrics-file", str(prom))
    assert failed.returncode == 1 and "no SQLite database" in failed.stderr
    assert prom.read_text() == written


# ---------------------------------------------------------------- PostgreSQL


@pytest.mark.skipif(not POSTGRES, reason="needs tests/with_postgres.py")
def test_portable_round_trip_sqlite_postgresql_sqlite(
    league_backup: tuple[str, Path], tmp_path: Path
) -> None:
    """SQLite -> PostgreSQL -> SQLite: the same rows, times and floats; the months
    verify on PostgreSQL; new rows on the restored PostgreSQL get new keys."""
    assert POSTGRES
    db, file = league_backup
    empty_postgres(POSTGRES)
    done = fido("restore", str(file), "--db", POSTGRES)
    assert done.returncode == 0, done.stderr
    check_months(db, POSTGRES)
    pg_file = tmp_path / "pg.tar.gz"
    made = fido("backup", str(pg_file), "--db", POSTGRES)
    assert made.returncode == 0, made.stderr
    with tarfile.open(pg_file, "r:gz") as tar:
        names = tar.getnames()
    assert names[0] == "manifest.json" and "tables/ranking_entries.jsonl" in names
    back = f"sqlite:///{tmp_path / 'back.db'}"
    done = fido("restore", str(pg_file), "--db", back)
    assert done.returncode == 0, done.stderr
    assert rows_of(back) == rows_of(db)
    check_months(db, back)
    # the sequences go on after the restored keys: a new player gets the next number
    added = fido("players", "add", "Neu Spielerin", "--db", POSTGRES)
    assert added.returncode == 0, added.stderr
    # a PostgreSQL target with rows is refused too
    assert "not empty" in refused(file, POSTGRES)
    empty_postgres(POSTGRES)


def _with_bad_value(file: Path, out: Path) -> None:
    """``file`` again with one ranking entry's FLADUB a word, the checksums made to match
    (a file that passes every check but holds a value the database refuses)."""
    with tarfile.open(file, "r:gz") as tar:
        parts = {m.name: tar.extractfile(m).read() for m in tar if m.isfile()}  # type: ignore[union-attr]
    name = "tables/ranking_entries.jsonl"
    lines = parts[name].split(b"\n")
    columns = json.loads(lines[0])
    row = json.loads(lines[1])
    row[columns.index("fladub")] = "not a number"
    lines[1] = json.dumps(row).encode()
    parts[name] = b"\n".join(lines)
    manifest = json.loads(parts["manifest.json"])
    manifest["parts"][name] = {"bytes": len(parts[name]),
                               "sha256": hashlib.sha256(parts[name]).hexdigest()}
    parts["manifest.json"] = json.dumps(manifest).encode()
    with tarfile.open(out, "w:gz") as tar:
        for part in ["manifest.json", *(p for p in parts if p != "manifest.json")]:
            info = tarfile.TarInfo(part)
            info.size = len(parts[part])
            tar.addfile(info, io.BytesIO(parts[part]))


@pytest.mark.skipif(not POSTGRES, reason="needs tests/with_postgres.py")
def test_a_value_postgresql_refuses_is_an_error_line_and_restores_nothing(
    league_backup: tuple[str, Path], tmp_path: Path
) -> None:
    """PostgreSQL's restore copies rows with COPY, past SQLAlchemy: a value the database
    refuses is still one ``error:`` line, and the target stays empty."""
    assert POSTGRES
    _db, file = league_backup
    empty_postgres(POSTGRES)
    assert fido("restore", str(file), "--db", POSTGRES).returncode == 0
    pg_file, bad = tmp_path / "pg.tar.gz", tmp_path / "bad.tar.gz"
    assert fido("backup", str(pg_file), "--db", POSTGRES).returncode == 0
    empty_postgres(POSTGRES)
    _with_bad_value(pg_file, bad)
    message = refused(bad, POSTGRES)
    assert "ranking_entries" in message and "nothing was restored" in message, message
    engine = create_engine(POSTGRES)
    try:
        with engine.connect() as conn:
            assert not inspect(conn).get_table_names()  # not even the schema was left
    finally:
        engine.dispose()
