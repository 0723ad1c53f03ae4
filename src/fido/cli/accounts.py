"""``fido accounts``: the server accounts' roles, their links to ranking players, and a
link to choose a new password (``fido accounts reset``).

The first federation account is made here (``fido accounts grant NAME
federation``); organisers get a scope (``--scope club:Rostock``). An account
is linked to its ranking player by the federation (``fido accounts link``),
so that her score sheets and reviews are hers. Like :mod:`fido.cli.ranking`,
every command takes ``--db`` and refuses bad input with ``error: ...``.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text
from sqlalchemy import select

from fido.accounts.claims import link_player
from fido.accounts.resets import reset_token
from fido.accounts.roles import find_account, grant, revoke, roles_of
from fido.accounts.sessions import server_secret
from fido.cli.ranking import Db, refusing
from fido.rich_text import shown
from fido.store import Account, RoleRow, open_store

__all__ = ["accounts_app"]

accounts_app = typer.Typer(
    no_args_is_help=True, help="Server accounts: roles (organiser, federation), player links."
)
console = Console()

Name = Annotated[str, typer.Argument(help="the account's name (as she signs in)")]
Role = Annotated[str, typer.Argument(help="organiser or federation")]
Scope = Annotated[
    str | None, typer.Option(help="an organiser's scope: club:NAME or event:NAME")
]


def _held(role: str, scope: str) -> str:
    return f"{role} of {scope}" if scope else role


@accounts_app.command("grant")
def accounts_grant(name: Name, role: Role, scope: Scope = None, db: Db = None) -> None:
    """Give an account a role: federation, or organiser of a club or event."""
    with refusing(), open_store(db).session() as s:
        account = find_account(s, name)
        row, new = grant(s, account, role, scope)
        what = _held(row.role, row.scope)
        console.print(Text.assemble(shown(account.name or ""), f" is {what}"
                                    + ("" if new else " already")))


@accounts_app.command("revoke")
def accounts_revoke(name: Name, role: Role, scope: Scope = None, db: Db = None) -> None:
    """Take a role from an account."""
    with refusing(), open_store(db).session() as s:
        account = find_account(s, name)
        revoke(s, account, role, scope)
        console.print(Text.assemble(shown(account.name or ""), " is no longer ",
                                    role if not scope else f"{role} of {scope}"))


@accounts_app.command("link")
def accounts_link(
    name: Name,
    number: Annotated[int, typer.Argument(help="her player number in the world ranking")],
    db: Db = None,
) -> None:
    """Link an account to its ranking player (one account per player)."""
    with refusing(), open_store(db).session() as s:
        account = find_account(s, name)
        # its checks and refusals (fido.errors.Refused) are the service's, as on the web
        player = link_player(s, account, number)  # and answers her pending request, if any
        console.print(Text.assemble(shown(account.name or ""), f" is player {number} (",
                                    shown(player.name), ")"))


@accounts_app.command("reset")
def accounts_reset(
    name: Name,
    url: Annotated[str, typer.Option(
        help="the server's address as people open it, e.g. https://fido.example.org")],
    db: Db = None,
    secret: Annotated[str | None, typer.Option(
        envvar="FIDO_SECRET", help="the server's secret, if it is given (else the stored one)")
    ] = None,
) -> None:
    """A link that lets the account choose a new password (once, within an hour): for a
    person who lost hers on a server that sends no mail (or who gave no address). Give
    it to her yourself, after making sure it is she who asks."""
    if not url.startswith(("https://", "http://")):
        raise SystemExit("error: --url must be the server's address, https://...")
    with refusing():
        store = open_store(db)
        key = server_secret(store, secret)
        with store.session(write=False) as s:
            account = find_account(s, name)
            token = reset_token(account, key)
    console.print(f"{url.rstrip('/')}/reset?token={token}", soft_wrap=True)
    console.print(Text.assemble("The link works once, within an hour; ",
                                shown(account.name or ""),
                                "'s sessions end when she sets the password."),
                  style="dim")


@accounts_app.command("list")
def accounts_list(db: Db = None) -> None:
    """The accounts holding a role or linked to a player, with their roles."""
    with refusing(), open_store(db).session(write=False) as s:
        t = RichTable(title="Accounts")
        for col in ("account", "player", "roles"):
            t.add_column(col)
        with_roles = select(RoleRow.account_id)
        rows = s.scalars(select(Account).where(
            (Account.player_id.is_not(None)) | Account.id.in_(with_roles)
        ).order_by(Account.name_key))
        for a in rows:
            roles = ", ".join(_held(r.role, r.scope) for r in roles_of(s, a.id))
            player = f"{a.player.number} " if a.player else ""
            t.add_row(shown(a.name or f"guest {a.id}"),
                      Text.assemble(player, shown(a.player.name) if a.player else ""),
                      shown(roles or "player"))
    console.print(t)
