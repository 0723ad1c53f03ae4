"""Run a command with a throwaway PostgreSQL cluster: ``python tests/with_postgres.py CMD...``.

When PostgreSQL's server programs are installed (``initdb`` and ``pg_ctl`` on
PATH or under /usr/lib/postgresql/*/bin), this creates a cluster in a
temporary directory, starts it on a Unix socket there, creates a database,
runs CMD with ``FIDO_TEST_POSTGRES_URL`` pointing at it, then stops the
cluster and deletes the directory. PostgreSQL refuses to run as root, so as
root the cluster runs as the ``postgres`` user (or ``nobody``). Without the
programs CMD runs alone (the store tests then cover SQLite only) and a note
says so. `make test` runs pytest through this; `.ci/run` installs the Debian
package first.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PORT = 5432  # only names the socket file: the cluster listens on no TCP address


def server_bin() -> Path | None:
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(d, "initdb").exists() and Path(d, "pg_ctl").exists():
            return Path(d)
    return None


def as_user(user: str | None, *cmd: str) -> list[str]:
    return ["runuser", "-u", user, "--", *cmd] if user else list(cmd)


def main(cmd: list[str]) -> int:
    bindir = server_bin()
    if bindir is None:
        print("note: PostgreSQL is not installed; store tests run on SQLite only", flush=True)
        return subprocess.call(cmd)
    user = None
    if os.geteuid() == 0:
        names = {p.pw_name for p in pwd.getpwall()}
        user = "postgres" if "postgres" in names else "nobody"
    tmp = Path(tempfile.mkdtemp(prefix="fido-pg-"))
    data, log = tmp / "data", tmp / "server.log"
    if user:
        pw = pwd.getpwnam(user)
        os.chown(tmp, pw.pw_uid, pw.pw_gid)
    tmp.chmod(0o755)

    def run(*c: str) -> None:
        subprocess.run(as_user(user, *c), check=True, capture_output=True)

    started = False
    try:
        run(str(bindir / "initdb"), "-D", str(data), "-U", "fido", "-A", "trust", "-E", "UTF8",
            "--no-sync")
        run(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-o",
            f"-k {tmp} -c listen_addresses='' -p {PORT} -F", "start")
        started = True
        run(str(bindir / "createdb") if (bindir / "createdb").exists() else "createdb",
            "-h", str(tmp), "-p", str(PORT), "-U", "fido", "fido_test")
        url = f"postgresql+psycopg://fido@/fido_test?host={tmp}&port={PORT}"
        print(f"PostgreSQL ({bindir.parent.name}) for the store tests: {url}", flush=True)
        return subprocess.call(cmd, env={**os.environ, "FIDO_TEST_POSTGRES_URL": url})
    except subprocess.CalledProcessError as e:
        out = (e.stderr or b"").decode(errors="replace").strip()
        if log.exists():
            out += "\n" + log.read_text(errors="replace")[-2000:]
        print(f"error: cannot start a PostgreSQL cluster for the tests: {e.cmd[-1]}\n{out}",
              file=sys.stderr)
        return 1
    finally:
        if started:
            subprocess.run(
                as_user(user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"),
                check=False,
                capture_output=True,
            )
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
