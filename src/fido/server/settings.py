"""How the server plays, as ``fido serve`` is told: the bots' pace, the stand-in, the
grace periods and the worker processes (no web stack here: the command line reads
its defaults)."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

from fido.errors import ConfigurationError

__all__ = ["LOOPBACK_NAMES", "MailSettings", "PlaySettings", "loopback", "public_url"]


@dataclass(frozen=True)
class PlaySettings:
    """How the server plays: bot pace, the stand-in bot, grace periods, worker processes."""

    bot_delay: float = 1.0  # seconds a bot waits before moving, so people can follow
    stand_in: str = "expert"  # plays for a person out of time or away too long
    restart_grace: float = 60.0  # every clock gets this much after a server restart
    default_grace: int = 60  # seconds a seat may be away before the stand-in plays
    bot_processes: int | None = None  # None: one per core; 0: threads (tests)
    analysis_samples: int | None = None  # worlds per decision of an analysis (None: its own)
    analysis_processes: int = 1  # the analyses' own worker; 0: a thread (tests)
    analyses_per_account: int = 3  # waiting or running at once (a 4th request: 429)
    analyses_per_address: int = 6  # asked for from one address, waiting or running
    next_hand_delay: float = 4.0  # seconds the result of a match's hand shows before the next


@dataclass(frozen=True)
class MailSettings:
    """Where the server's mail goes (``fido serve --smtp``, ``$FIDO_SMTP``): an SMTP
    server's URL, ``smtp://[USER:PASSWORD@]HOST[:PORT]`` (plain, port 25),
    ``smtp+starttls://`` (port 587) or ``smtps://`` (TLS, port 465); None: no mail (a
    lost password is then reset through the administrator, ``fido accounts reset``)."""

    smtp: str | None = None
    sender: str = "fido <fido@localhost>"  # the From of every mail (``--mail-from``)
    poll: float = 2.0  # seconds between the postman's looks at the outbox
    retry: float = 30.0  # seconds after a first failed try; doubled each time, at most 1 h
    # the address people open the server at (``--public-url``, :func:`public_url`): every
    # link in a mail starts with it, never with a request's Host, which a stranger
    # chooses (a reset link pointing at her own site would hand her the token)
    site: str | None = None


LOOPBACK_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost")


def loopback(host: str) -> bool:
    """``host`` (an address fido serve listens on, a proxy's) is this machine alone:
    127.0.0.1, ::1, localhost (``fido serve --grants``, ``fido doctor``)."""
    name = host.strip().strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False



def public_url(text: str) -> str:
    """The server's public address as a mail's links start with it: ``http(s)://HOST[:PORT]``
    with an optional path, no query; without the trailing ``/``. A
    :class:`ConfigurationError` says what is wrong."""
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigurationError(
            f"the public address is a URL like https://dominoes.example.org, not {text!r}")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise ConfigurationError(
            f"the public address has no query, fragment nor password: {text!r}")
    try:
        parts.port  # noqa: B018 (a port that is no number raises)
    except ValueError:
        raise ConfigurationError(f"the public address's port is not a number: {text!r}") from None
    return f"{parts.scheme}://{parts.netloc}{parts.path}".rstrip("/")
