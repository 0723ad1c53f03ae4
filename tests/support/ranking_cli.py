"""The ranking commands for the tests: a season's results as CSV and the command line
run in-process."""

from __future__ import annotations

from typer.testing import CliRunner

from fido.cli import app

runner = CliRunner()

SEASON = """game,date,event,set,divisor,player,points,pips
a,2026-10-03,Rostock round,12,,1,31,4
a,2026-10-03,Rostock round,12,,2,12,0
a,2026-10-03,Rostock round,12,,3,20,17
b,2026-10-10,Kiel,9,5,4,10,3
b,2026-10-10,Kiel,9,5,1,30,0
c,2026-10-17,Kiel,9,,2,18,0
c,2026-10-17,Kiel,9,,3,22,6
c,2026-10-17,Kiel,9,,4,9,12
"""


def fido(db: str, *args: str, input: str | None = None) -> tuple[int, str]:
    out = runner.invoke(app, [*args, "--db", db], input=input, env={"COLUMNS": "200"})
    return out.exit_code, out.output
