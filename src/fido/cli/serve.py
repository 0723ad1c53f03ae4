"""``fido serve``: the server on uvicorn, on ./fido.db unless told otherwise."""

from __future__ import annotations

import asyncio
import copy
import enum
import gc
import ipaddress
import logging
import logging.config
import signal
import socket
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import Annotated, Any

import typer
import uvicorn
from sqlalchemy.engine import make_url

from fido.errors import FidoError
from fido.safe_text import printable
from fido.server.hub import PlaySettings
from fido.server.limits import Limits
from fido.server.settings import loopback
from fido.store import StoreError, database_url

# The cyclic collector's young passes as CPython's defaults; a full pass only after 1,000
# of them (default 10). A full pass scans every live object (the tables, the sockets):
# 150-270 ms at 1,000 players, a pause of every table of the process, every 9 s at the
# defaults. What a server leaves in cycles is little (closed HTTP connections, 5,000
# objects a minute at that load) and waits for the rarer full pass (docs/performance.md).
GC_THRESHOLDS = (700, 10, 1000)
# SIGTERM: at most DRAIN_SECONDS for the sockets (fido.server.sockets.Drain), then this
# long for the HTTP requests still answered, before uvicorn cancels them
GRACEFUL_SECONDS = 10

__all__ = ["GrantsChoice", "LogFormat", "serve_app"]


class GrantsChoice(enum.StrEnum):
    """``--grants``: :func:`fido.server.policy.grants_at_once`'s setting."""

    AUTO = "auto"
    ALWAYS = "always"
    NEVER = "never"


class LogFormat(enum.StrEnum):
    """``--log-format``: uvicorn's text lines, or JSON lines (fido.server.logs)."""

    TEXT = "text"
    JSON = "json"

serve_app = typer.Typer(add_completion=False, help="Run the multiplayer server (HTTP API).")


def _where(url: str) -> str:
    """The database named for the console, without a password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "the database"


@serve_app.command()
def serve(
    db: Annotated[
        str | None, typer.Option(help="database URL (default: $FIDO_DB or sqlite:///fido.db)")
    ] = None,
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8000,
    bot_delay: Annotated[
        float, typer.Option(min=0.0, max=60.0, help="seconds a bot waits before it moves")
    ] = PlaySettings.bot_delay,
    bot_processes: Annotated[
        int | None,
        typer.Option(min=0, max=64, help="bot worker processes (default: one per core; "
                     "0: threads)"),
    ] = None,
    *,
    close_every: Annotated[
        float,
        typer.Option(min=0.0, max=86400.0, envvar="FIDO_CLOSE_EVERY",
                     help="seconds between looks for an ended month to publish (0: never; "
                     "`fido ranking close` from cron instead)"),
    ] = 600.0,  # MonthlySettings.every (not imported here: it loads the ranking)
    accounts_per_address: Annotated[
        int,
        typer.Option(min=0, max=1_000_000, help="new accounts and guests one address may "
                     "make in 15 minutes (0: no limit; a bench on loopback)"),
    ] = Limits.accounts_per_address,
    tables_per_address: Annotated[
        int,
        typer.Option(min=0, max=1_000_000, help="tables one address may open in 15 minutes "
                     "(0: no limit)"),
    ] = Limits.tables_per_address,
    bot_tables_per_address: Annotated[
        int,
        typer.Option(min=0, max=1_000_000, help="tables with bots opened from one address "
                     "and played at once (0: no limit; a bench on loopback)"),
    ] = Limits.bot_tables_per_address,
    strong_bot_tables_per_address: Annotated[
        int,
        typer.Option(min=0, max=1_000_000, help="of those, tables with strong bots (search, "
                     "champion; 0: no limit)"),
    ] = Limits.strong_bot_tables_per_address,
    close_delay: Annotated[
        float,
        typer.Option(envvar="FIDO_CLOSE_DELAY", min=0.0, max=31 * 24.0,
                     help="hours after a month's end before its ranking is published "
                     "(time to enter late paper sheets)"),
    ] = 0.0,
    proxy_headers: Annotated[
        bool,
        typer.Option("--proxy-headers/--no-proxy-headers",
                     help="take the client's address and scheme (https) from X-Forwarded-For "
                     "and X-Forwarded-Proto when they come from --forwarded-allow-ips "
                     "(a reverse proxy terminating TLS: docs/deploy.md)"),
    ] = True,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(envvar="FIDO_FORWARDED_ALLOW_IPS",
                     help="the proxies trusted with X-Forwarded-*: addresses or networks, "
                     "comma-separated, or * for any (default: 127.0.0.1, or uvicorn's "
                     "$FORWARDED_ALLOW_IPS)"),
    ] = None,
    log_format: Annotated[
        LogFormat,
        typer.Option(case_sensitive=False,
                     help="text: uvicorn's lines; json: one JSON object a line on stderr "
                     "(time, level, logger, message, request_id; docs/deploy.md)"),
    ] = LogFormat.TEXT,
    metrics_token: Annotated[
        str | None,
        typer.Option(envvar="FIDO_METRICS_TOKEN", show_default=False,
                     help="a token (16 characters or more) that opens /metrics to "
                     "`Authorization: Bearer TOKEN` from elsewhere than loopback "
                     "(prefer $FIDO_METRICS_TOKEN: a command line is seen by every user)"),
    ] = None,
    smtp: Annotated[
        str | None,
        typer.Option(envvar="FIDO_SMTP", show_default=False,
                     help="the SMTP server the mail goes to (password resets): "
                     "smtp://HOST[:PORT], smtp+starttls://USER:PASSWORD@HOST[:587] or "
                     "smtps://...; none: the server sends no mail (prefer $FIDO_SMTP: "
                     "a password on a command line is seen by every user)"),
    ] = None,
    mail_from: Annotated[
        str,
        typer.Option(envvar="FIDO_MAIL_FROM",
                     help="the From of the server's mail, e.g. 'fido <fido@example.org>'"),
    ] = "fido <fido@localhost>",
    public_url: Annotated[
        str | None,
        typer.Option(envvar="FIDO_PUBLIC_URL", show_default=False,
                     help="the address people open the server at, e.g. "
                     "https://dominoes.example.org: every link in a mail starts with it "
                     "(needed with --smtp unless --host is loopback, where it is "
                     "http://HOST:PORT)"),
    ] = None,
    grants: Annotated[
        GrantsChoice,
        typer.Option(case_sensitive=False, envvar="FIDO_GRANTS",
                     help="with no federation account yet, are organiser roles and player "
                     "links granted at once? auto: only to people on this machine "
                     "(--host on loopback, not through a proxy); always: to everyone (a "
                     "club's laptop on its own network); never: they wait for a "
                     "federation account"),
    ] = GrantsChoice.AUTO,
) -> None:
    """Serve the fido HTTP API, the lobby and the tables' WebSocket (docs/server.md)."""
    from fido.server.monthly import MonthlySettings  # noqa: PLC0415
    from fido.server.postman import smtp_parts  # noqa: PLC0415
    from fido.server.protocol import WS_MAX_SIZE  # noqa: PLC0415
    from fido.server.settings import MailSettings  # noqa: PLC0415
    from fido.web.app import create_app  # noqa: PLC0415

    trusted = _trusted(forwarded_allow_ips)
    json_lines = log_format is LogFormat.JSON
    # the process's logging from its first line (the database's migration, the start's
    # lines): JSON lines are JSON from the first (`journalctl ... | jq .`)
    logging.config.dictConfig(_log_config(json_lines=json_lines))
    if metrics_token is not None and len(metrics_token.strip()) < 16:
        typer.echo("error: --metrics-token: at least 16 characters "
                   "(`openssl rand -hex 32`)", err=True)
        raise typer.Exit(code=2)
    shown = f"[{host}]" if ":" in host else host
    site = _site(public_url, smtp, f"http://{shown}:{port}", public=not loopback(host))
    if smtp is not None:
        try:
            smtp_parts(smtp)
        except FidoError as e:
            typer.echo(f"error: --smtp: {printable(e)}", err=True)
            raise typer.Exit(code=2) from None
    url = database_url(db)
    play = PlaySettings(bot_delay=bot_delay, bot_processes=bot_processes)
    monthly = MonthlySettings(every=close_every, delay=close_delay * 3600)
    try:
        limits = Limits(accounts_per_address=accounts_per_address,
                        tables_per_address=tables_per_address,
                        bot_tables_per_address=bot_tables_per_address,
                        strong_bot_tables_per_address=strong_bot_tables_per_address)
        app = create_app(url, play=play, monthly=monthly, limits=limits,
                         metrics_token=metrics_token and metrics_token.strip(),
                         mail=MailSettings(smtp=smtp or None, sender=mail_from, site=site),
                         grants=grants.value, public=not loopback(host))
    except StoreError as e:
        typer.echo(f"error: {printable(e)}", err=True)
        raise typer.Exit(code=1) from None
    # what the process holds from its start (modules, the app, the schema) is never
    # garbage: out of the collector's way, each full collection scans what came since
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    say = logging.getLogger("fido.server").info if json_lines else typer.echo
    say(f"fido server at http://{shown}:{port}/ (database {printable(_where(url))})")
    _first_day(app, f"http://{shown}:{port}/", db, say)
    # a table message is at most MAX_FRAME bytes: no need to buffer uvicorn's 16 MiB default
    config = uvicorn.Config(app, host=host, port=port, log_level="info",
                            proxy_headers=proxy_headers, forwarded_allow_ips=trusted,
                            ws_max_size=WS_MAX_SIZE,
                            log_config=_log_config(json_lines=json_lines),
                            access_log=log_format is LogFormat.TEXT,  # JSON: fido.access's
                            timeout_graceful_shutdown=GRACEFUL_SECONDS)
    _Server(config, app.state.server.drain).run()


def _site(given: str | None, smtp: str | None, here: str, *, public: bool) -> str | None:
    """The public address a mail's links start with: ``--public-url``, else this
    machine's own address on loopback; a server on the network that sends mail must be
    told it (exit 2)."""
    from fido.server.settings import public_url  # noqa: PLC0415

    if given:
        try:
            return public_url(given)
        except FidoError as e:
            typer.echo(f"error: --public-url: {printable(e)}", err=True)
            raise typer.Exit(code=2) from None
    if smtp and public:
        typer.echo("error: --smtp on an address other than loopback needs --public-url "
                   "(or $FIDO_PUBLIC_URL): the address the links in mail start with, "
                   "e.g. https://dominoes.example.org", err=True)
        raise typer.Exit(code=2)
    return here


class _Server(uvicorn.Server):
    """uvicorn's server, stopped cleanly on SIGTERM (or a first Ctrl+C): it stops
    listening, lets the moves being written be written, closes every table socket with
    1012 (``drain``: the clients connect again, to another process or to this one
    restarted: docs/deploy.md), and only then does uvicorn's own shutdown (the HTTP
    requests in flight finish, the lifespan's end stops the bots and clocks); the
    process then exits with 0 (a stop, not a crash). A second signal while it drains is
    uvicorn's own: it ends the wait."""

    def __init__(self, config: uvicorn.Config, drain: Callable[[], Awaitable[int]]) -> None:
        super().__init__(config)
        self.drain = drain
        self.loop: asyncio.AbstractEventLoop | None = None
        self.draining = False

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        self.loop = asyncio.get_running_loop()
        await super().serve(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if (self.loop is None or self.draining or self.should_exit
                or sig not in (signal.SIGTERM, signal.SIGINT)):
            super().handle_exit(sig, frame)
            return
        self.draining = True
        # a signal handler interrupts the loop's thread anywhere: the drain is its callback
        self.loop.call_soon_threadsafe(self._start_drain)

    def _start_drain(self) -> None:
        task = asyncio.ensure_future(self._drain())
        task.add_done_callback(lambda _t: None)  # held by the loop until it ends

    async def _drain(self) -> None:
        log = logging.getLogger("fido.server")
        try:
            for server in self.servers:  # no new connection: a proxy tries the next process
                server.close()
            closed = await self.drain()
            log.info("stopping: %d table sockets closed with 1012 (service restart)", closed)
        except Exception:
            log.exception("stopping: the table sockets could not all be closed")
        finally:
            self.should_exit = True


def _trusted(value: str | None) -> str | None:
    """``--forwarded-allow-ips`` checked before anything starts: each entry an address or a
    network (``10.0.0.0/8``), or ``*``; a mistyped one is an ``error:`` line, not a proxy
    silently distrusted (every player would get the proxy's address and no ``Secure``)."""
    if value is None:
        return None
    entries = [e.strip() for e in value.split(",")]
    for entry in entries:
        if entry == "*":
            continue
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            typer.echo(f"error: --forwarded-allow-ips: {printable(entry)!r} is not an "
                       "address, a network or *", err=True)
            raise typer.Exit(code=2) from None
    return ",".join(entries)


def _first_day(app: Any, address: str, db: str | None,
               say: Callable[[str], None] = typer.echo) -> None:
    """On a server without a federation account, how to make the first one."""
    from sqlalchemy import select  # noqa: PLC0415

    from fido.accounts.roles import FEDERATION  # noqa: PLC0415
    from fido.server.policy import grants_at_once as policy_grants  # noqa: PLC0415
    from fido.store import RoleRow  # noqa: PLC0415

    with app.state.server.store.session(write=False) as s:
        if s.scalar(select(RoleRow.id).where(RoleRow.role == FEDERATION).limit(1)):
            return
    where = f" --db '{printable(_where(db))}'" if db else ""
    srv = app.state.server
    if policy_grants(srv.grants, srv.public, {}):
        how = ("requests to organise and player links are granted at once to people on "
               "this machine; through a proxy or from elsewhere they wait for it"
               if srv.grants == "auto" else
               "requests to organise and player links are granted at once (--grants always)")
    else:
        how = "requests to organise and player links wait for it"
    say(f"No federation account yet ({how}).\n"
        f"To make the first one: sign up at {address}, then run\n"
        f"    fido accounts grant NAME federation{where}\n"
        "and check the setup with `fido doctor`.")


def _log_config(*, json_lines: bool = False) -> dict[str, Any]:
    """uvicorn's logging, with fido's own messages (the monthly close's) beside its own;
    every line with its request's id (fido.server.logs), uvicorn's access lines without
    their query. ``json_lines``: one JSON object a line on stderr, and fido's access
    lines (with their duration) instead of uvicorn's."""
    config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    config["loggers"]["fido"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    config["filters"] = {
        "request_id": {"()": "fido.server.logs.RequestIdFilter"},
        "queryless": {"()": "fido.server.logs.QuerylessAccess"},
    }
    config["handlers"]["default"]["filters"] = ["request_id"]
    config["handlers"]["access"]["filters"] = ["request_id", "queryless"]
    if json_lines:
        config["formatters"]["json"] = {"()": "fido.server.logs.JsonFormatter"}
        config["handlers"]["default"]["formatter"] = "json"
        config["handlers"]["access"]["formatter"] = "json"
        config["handlers"]["access"]["stream"] = "ext://sys.stderr"
    else:
        config["loggers"]["fido.access"] = {"level": "WARNING"}  # uvicorn's lines instead
    return config
