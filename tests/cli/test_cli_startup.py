"""`fido play`, `replay` and `rules` start without the database and ranking stack.

Each check runs in a fresh interpreter (this one has imported everything) and
asserts on the modules loaded, not on time: SQLAlchemy, Alembic, numpy and
fido's store and ranking cost about half a second to import, which the
game commands must not pay.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import fido
from fido.cli.accounts import accounts_app
from fido.cli.backup import backup_app, restore_app
from fido.cli.doctor import doctor_app
from fido.cli.legal import legal_app
from fido.cli.ranking import players_app, ranking_app, results_app
from fido.cli.serve import serve_app

HEAVY = ("sqlalchemy", "alembic", "numpy", "matplotlib", "fido.store", "fido.ranking",
         "fido.cli.ranking", "fastapi", "starlette", "uvicorn", "argon2", "itsdangerous",
         "fido.server")
SRC = str(Path(fido.__file__).parent.parent)  # this fido, not another one installed

PROBE = """
import json, sys
from fido.cli import app
try:
    app(sys.argv[1:])
except SystemExit as e:
    code = e.code
else:
    code = 0
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def _modules(*args: str) -> tuple[int, set[str], str]:
    """Run ``fido args`` in a fresh interpreter: (exit code, modules loaded, output)."""
    env = {**os.environ, "PYTHONPATH": SRC, "COLUMNS": "120"}
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True, text=True, timeout=120, check=False, env=env,
    )
    *text, last = out.stdout.strip().splitlines()
    data = json.loads(last)
    return data["code"], set(data["modules"]), "\n".join(text) + out.stderr


def _imported(*names: str) -> set[str]:
    """The modules loaded by importing ``names`` in a fresh interpreter."""
    code = f"import json, sys, {', '.join(names)}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True,
        env={**os.environ, "PYTHONPATH": SRC},
    )
    return set(json.loads(out.stdout))


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.startswith(HEAVY))


def test_importing_the_cli_loads_no_database_nor_ranking() -> None:
    modules = _imported("fido.cli")
    assert "fido.cli" in modules and "typer" in modules
    assert _heavy(modules) == []


def test_fido_rules_loads_no_database_nor_ranking() -> None:
    code, modules, out = _modules("rules")
    assert code == 0 and "sebastopol" in out
    assert _heavy(modules) == []


def test_fido_replay_loads_no_database_nor_ranking(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    code, _, out = _modules("demo", "--seed", "4", "--save", str(rec))
    assert code == 0, out
    code, modules, out = _modules("replay", str(rec))
    assert code == 0 and "verified" in out, out
    assert _heavy(modules) == []


def test_fido_play_loads_no_database_nor_ranking() -> None:
    # `fido play` imports the terminal session when it starts; the session is
    # interactive, so its imports are checked, not a game
    code, modules, _ = _modules("play", "--help")
    assert code == 0
    assert _heavy(modules | _imported("fido.cli", "fido.terminal.session")) == []


def test_help_lists_the_federation_commands_without_loading_them() -> None:
    code, modules, out = _modules("--help")
    assert code == 0
    for name in ("players", "results", "ranking", "serve", "replay", "play", "rules"):
        assert f" {name} " in out
    assert "Register and list players." in out
    assert _heavy(modules) == []


def test_a_federation_command_loads_its_stack_when_run() -> None:
    code, modules, out = _modules("ranking", "--help")
    assert code == 0 and "compute" in out and "Publish" not in out
    assert "fido.cli.ranking" in modules and "sqlalchemy" in modules


def test_fido_serve_loads_the_server_stack_only_when_run() -> None:
    code, modules, out = _modules("serve", "--help")
    assert code == 0 and "--port" in out
    assert "fastapi" not in modules  # the app itself is built when the server starts
    assert "uvicorn" in modules and "fido.cli.serve" in modules


def test_the_lazy_registry_repeats_the_sub_apps_help() -> None:
    from fido.cli.main import _FEDERATION  # noqa: PLC0415 (the registry, not the app)

    apps = {
        "players": players_app, "results": results_app, "ranking": ranking_app,
        "serve": serve_app, "accounts": accounts_app, "doctor": doctor_app,
        "backup": backup_app, "restore": restore_app, "legal": legal_app,
    }
    assert set(_FEDERATION) == set(apps)
    for name, lazy in _FEDERATION.items():
        assert lazy.load() is apps[name]
        assert lazy.help == apps[name].info.help


def test_a_typo_suggests_the_lazy_commands_too() -> None:
    code, modules, out = _modules("player")
    assert code == 2 and "Did you mean 'players'" in out
    assert _heavy(modules) == []
