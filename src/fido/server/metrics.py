"""What one server process counts and measures, for Prometheus: ``GET /metrics``.

Each app has its own :class:`Metrics` (a ``CollectorRegistry`` of its own, not
prometheus-client's global one): several apps in one process (the tests) never mix
their numbers, and each ``fido serve`` process answers for itself. Scrape every
process's port as its own target: Prometheus's ``instance`` label (host:port) tells
them apart, so no ``process`` label is added (docs/deploy.md, "Metrics").

Who may read it is decided by :func:`fido.server.policy.may_read_metrics`: from the
machine itself, or with the configured token; anyone else gets the 404 of an address
that does not exist.

The cost on a move is one ``perf_counter`` and one histogram ``observe`` (about a
microsecond); the tables by state and the analysis queue are counted when a scrape
asks, from what the process holds.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from fastapi import APIRouter, Request, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import fido
from fido.server import policy

if TYPE_CHECKING:
    from prometheus_client.metrics_core import Metric

    from fido.server.hub import Hub

__all__ = ["TABLE_STATES", "HttpAnswers", "Metrics", "metrics_routes"]

# the states a table's room is in (TableRow.status): each one shown, 0 when none
TABLE_STATES = ("open", "running", "finished", "abandoned")
# a move's handling: a write on SQLite takes ~0.1-1 ms, on PostgreSQL a few ms
MOVE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
BOT_BUCKETS = (0.0001, 0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
WRITE_BUCKETS = (0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1.0, 5.0)


class Metrics:
    """The process's counters, gauges and histograms, in a registry of its own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.moves = Counter(
            "fido_moves", "Moves received over the table sockets, by outcome "
            "(accepted, refused, duplicate: a resent move answered again)",
            ["outcome"], registry=r)
        self.move_seconds = Histogram(
            "fido_move_seconds", "A move's handling: from its frame read to its answer "
            "(ack or refusal) and the table's update queued, in seconds",
            buckets=MOVE_BUCKETS, registry=r)
        self.sockets = Gauge("fido_open_sockets", "Table WebSockets open in this process",
                             registry=r)
        self.bot_seconds = Histogram(
            "fido_bot_decision_seconds", "A bot's decision, in seconds, by bot level",
            ["bot"], buckets=BOT_BUCKETS, registry=r)
        self.write_seconds = Histogram(
            "fido_db_write_seconds", "Writing transactions of the store, from their start "
            "(the wait for this process's turn included) to their commit, in seconds",
            buckets=WRITE_BUCKETS, registry=r)
        self.signin_refusals = Counter(
            "fido_signin_refusals", "Sign-ins refused, by reason (wrong_password, "
            "rate_limited)", ["reason"], registry=r)
        # each outcome's child looked up once (labels() takes a lock and builds a key)
        self._moves = {o: self.moves.labels(o) for o in ("accepted", "refused", "duplicate")}
        for reason in ("wrong_password", "rate_limited"):
            self.signin_refusals.labels(reason)
        # the HTTP answers by their status's class: a rise of 5xx is the first alert
        self.responses = Counter(
            "fido_http_responses", "HTTP answers of this process by status class",
            ["status"], registry=r)
        self._responses = {c: self.responses.labels(c) for c in ("2xx", "3xx", "4xx", "5xx")}
        # the last monthly close that ran to its end (published, or nothing was due)
        self.monthly_close = Gauge(
            "fido_monthly_close_last_success_timestamp_seconds",
            "Unix time of this process's last monthly close that ran without an error "
            "(0: none yet)", registry=r)
        # what runs: the version (fido_build_info) and the process itself (process_*: CPU,
        # memory, open files, start time; python_info)
        Info("fido_build", "The fido version this process runs", registry=r).info(
            {"version": fido.__version__})
        ProcessCollector(registry=r)
        PlatformCollector(registry=r)
        self._held = _Held()
        r.register(self._held)

    def watch(self, hub: Hub) -> None:
        """Count ``hub``'s tables and analyses at each scrape, and time its bots."""
        self._held.hub = hub
        hub.bots.decided = self.bot_decided

    def moved(self, outcome: str, started: float) -> None:
        """A move handled (``started``: ``time.perf_counter()`` when its frame was read)."""
        self.move_seconds.observe(time.perf_counter() - started)
        counter = self._moves.get(outcome)
        (counter or self.moves.labels(outcome)).inc()

    def bot_decided(self, spec: str, seconds: float) -> None:
        self.bot_seconds.labels(spec.split(":", 1)[0][:20]).observe(seconds)

    def written(self, seconds: float) -> None:
        self.write_seconds.observe(seconds)

    def answered(self, status: int) -> None:
        """An HTTP answer of ``status`` sent."""
        key = f"{min(max(status // 100, 1), 5)}xx"
        (self._responses.get(key) or self.responses.labels(key)).inc()

    def closed_month(self) -> None:
        """The monthly close ran to its end (now)."""
        self.monthly_close.set(time.time())

    def text(self) -> bytes:
        return generate_latest(self.registry)


class _Held(Collector):
    """What the process holds, counted when scraped: its tables by state, its analyses."""

    def __init__(self) -> None:
        self.hub: Hub | None = None

    def describe(self) -> Iterator[Metric]:
        return iter(self._families({}, (0, 0)))

    def collect(self) -> Iterator[Metric]:
        hub = self.hub
        if hub is None:
            return iter(self._families({}, (0, 0)))
        states: dict[str, int] = {}
        for room in list(hub.rooms.values()):
            states[room.status] = states.get(room.status, 0) + 1
        return iter(self._families(states, hub.analyses.counts()))

    @staticmethod
    def _families(states: dict[str, int], analyses: tuple[int, int]) -> list[Metric]:
        tables = GaugeMetricFamily("fido_tables", "Tables this process holds in memory, "
                                   "by state", labels=["state"])
        for state in dict.fromkeys((*TABLE_STATES, *states)):
            tables.add_metric([state], states.get(state, 0))
        jobs = GaugeMetricFamily("fido_analysis_jobs", "Analyses of this process, waiting "
                                 "for its worker or running in it", labels=["state"])
        jobs.add_metric(["waiting"], analyses[0])
        jobs.add_metric(["running"], analyses[1])
        return [tables, jobs]


def metrics_routes(token: str | None) -> APIRouter:
    """``GET /metrics``: the text format, for whom :func:`policy.may_read_metrics` lets."""
    router = APIRouter()

    @router.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        if not policy.may_read_metrics(request.scope, request.headers, token):
            raise HTTPException(404, "Not Found")  # the answer of an address that is not
        found: Metrics = request.app.state.metrics
        return Response(found.text(), media_type=CONTENT_TYPE_LATEST)

    return router


class HttpAnswers:
    """ASGI middleware: each HTTP answer's status counted (:meth:`Metrics.answered`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        metrics: Metrics = scope["app"].state.metrics

        async def counted(message: Message) -> None:
            if message["type"] == "http.response.start":
                metrics.answered(int(message["status"]))
            await send(message)

        await self.app(scope, receive, counted)

