"""A real SMTP server for the mail tests (aiosmtpd, on a free port of this machine): every
mail the server sends arrives in its :class:`Inbox`, parsed as a mail program reads it."""

from __future__ import annotations

import email
import email.policy
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from fido.server.settings import MailSettings
from support.server_live import free_port

__all__ = ["Inbox", "link_in", "mail_server", "quick_mail"]


class Inbox:
    """The mails an SMTP server received, in order."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self._lock = threading.Condition()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        """aiosmtpd's handler: keep the mail (its bytes, as sent)."""
        mail = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(mail, EmailMessage)
        with self._lock:
            self.mails.append(mail)
            self._lock.notify_all()
        return "250 OK"

    def wait(self, count: int = 1, timeout: float = 15.0) -> list[EmailMessage]:
        """The first ``count`` mails, once they are here (AssertionError after ``timeout``)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while len(self.mails) < count:
                left = deadline - time.monotonic()
                assert left > 0, f"{len(self.mails)} mails arrived, not {count}"
                self._lock.wait(left)
            return self.mails[:count]


def link_in(mail: EmailMessage) -> str:
    """The one link in a mail's text."""
    body = mail.get_body(("plain",))
    assert body is not None
    links = re.findall(r"https?://\S+", body.get_content())
    assert len(links) == 1, links
    return str(links[0])


@contextmanager
def mail_server(port: int | None = None) -> Iterator[tuple[str, Inbox]]:
    """An SMTP server until the block ends: its URL (``smtp://127.0.0.1:PORT``, for
    ``fido serve --smtp``) and its inbox."""
    inbox = Inbox()
    port = port or free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}", inbox
    finally:
        controller.stop()


def quick_mail(smtp: str) -> MailSettings:
    """A test server's mail on ``smtp``: the outbox looked at often, a failure retried
    soon (``fido serve``'s 2 s and 30 s would only slow the tests)."""
    return MailSettings(smtp=smtp, sender="fido <fido@example.org>", poll=0.1, retry=0.3)
