"""The postman: sends the outbox's mail (:class:`fido.store.OutboxMail`) to the SMTP
server of :class:`~fido.server.settings.MailSettings`, and tries again later what it
could not send.

A mail is written to the outbox in the transaction that asks for it (committed, then
sent: a mail server that is down delays mail and loses none). The postman takes a few
due mails at a time, lends them to itself for :data:`LEASE` (another process's postman
leaves them), sends each outside any transaction, and marks it sent, or counts the
failure and waits longer each time (:func:`backoff`) before the next try. Before each
look it writes the inbox news that are due (:func:`fido.accounts.notices.mail_news`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import smtplib
import ssl
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import unquote, urlsplit

from sqlalchemy import delete, select

from fido.accounts.mail import post
from fido.accounts.notices import mail_news
from fido.errors import ConfigurationError
from fido.server.settings import MailSettings
from fido.store import OutboxMail, Store

__all__ = ["GIVE_UP", "KEEP_SENT", "LEASE", "Postman", "backoff", "post", "smtp_parts"]

log = logging.getLogger("fido.server.mail")

LEASE = dt.timedelta(minutes=5)  # a mail taken to be sent waits this long for its postman
# a sent mail is kept a day (what was sent, for the administrator), then deleted: its text
# is personal data, and a reset link in it is the key to an account for its hour; a mail
# not sent in three days is given up (its link is long dead), with a line in the log
KEEP_SENT = dt.timedelta(days=1)
GIVE_UP = dt.timedelta(days=3)
BATCH = 20  # mails taken at a time
TIMEOUT = 20.0  # seconds the SMTP server has to answer


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def backoff(attempts: int, first: float = 30.0) -> dt.timedelta:
    """How long a mail waits after its ``attempts``-th failed try: ``first`` seconds,
    doubling, at most an hour.

    >>> [backoff(n).total_seconds() for n in (1, 2, 3, 9)]
    [30.0, 60.0, 120.0, 3600.0]
    """
    return dt.timedelta(seconds=min(first * 2 ** max(attempts - 1, 0), 3600))


def smtp_parts(url: str) -> tuple[str, str, int, str | None, str | None]:
    """An SMTP URL's (scheme, host, port, user, password); a URL fido cannot use is a
    :class:`ConfigurationError` saying which are."""
    parts = urlsplit(url)
    defaults = {"smtp": 25, "smtp+starttls": 587, "smtps": 465}
    if parts.scheme not in defaults or not parts.hostname:
        raise ConfigurationError(
            f"the SMTP server's URL must be smtp://HOST[:PORT], smtp+starttls://... or "
            f"smtps://..., not {url!r}")
    try:
        port = parts.port or defaults[parts.scheme]
    except ValueError:
        raise ConfigurationError(f"the SMTP server's port is not a number: {url!r}") from None
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else None
    return parts.scheme, parts.hostname, port, user, password


class Postman:
    """Sends what the outbox holds, on :attr:`settings`' SMTP server."""

    def __init__(self, store: Store, settings: MailSettings, secret: str) -> None:
        if settings.smtp is None or settings.site is None:
            raise ConfigurationError("no SMTP server or no public address: the postman has "
                                     "nowhere to send, or no link to give")
        self.store, self.settings, self.secret = store, settings, secret
        smtp_parts(settings.smtp)  # a bad URL is refused when the server starts

    async def run(self) -> None:
        """Look at the outbox every :attr:`MailSettings.poll` seconds, until cancelled."""
        while True:
            try:
                await asyncio.to_thread(self.send_due)
            except Exception:  # the database may be down: the next look tries again
                log.exception("the postman could not look at the outbox")
            await asyncio.sleep(self.settings.poll)

    def send_due(self) -> int:
        """Send the mails that are due; how many the SMTP server took."""
        self._sweep()
        self._news()
        taken = self._take()
        sent = 0
        for mail_id, message in taken:
            try:
                self._send(message)
            except (OSError, smtplib.SMTPException) as e:
                self._failed(mail_id, f"{type(e).__name__}: {e}")
                continue
            self._sent(mail_id)
            sent += 1
        return sent

    def _sweep(self) -> None:
        """Forget the mails sent a while ago, and give up those never sent."""
        now = _now()
        with self.store.session() as s:
            s.execute(delete(OutboxMail).where(OutboxMail.sent_at < now - KEEP_SENT))
            given_up: int = s.execute(delete(OutboxMail).where(  # a CursorResult: rows gone
                OutboxMail.sent_at.is_(None), OutboxMail.created_at < now - GIVE_UP)
            ).rowcount  # type: ignore[attr-defined]
            if given_up:
                log.error("%s mails given up: not sent in %s days", given_up, GIVE_UP.days)

    def _news(self) -> None:
        """The inbox news due, into the outbox (sent with the rest just after)."""
        assert self.settings.site is not None
        with self.store.session() as s:
            mailed = mail_news(s, self.settings.site, self.secret)
        if mailed:
            log.info("%s news mails written", mailed)

    def _take(self) -> list[tuple[int, EmailMessage]]:
        """The due mails, lent to this postman for :data:`LEASE`."""
        now = _now()
        with self.store.session() as s:
            query = (select(OutboxMail).where(OutboxMail.sent_at.is_(None),
                                              OutboxMail.next_try_at <= now)
                     .order_by(OutboxMail.next_try_at, OutboxMail.id).limit(BATCH))
            if self.store.engine.dialect.name == "postgresql":
                query = query.with_for_update(skip_locked=True)
            out = []
            for mail in s.scalars(query):
                mail.next_try_at = now + LEASE
                out.append((mail.id, self._message(mail)))
            return out

    def _message(self, mail: OutboxMail) -> EmailMessage:
        message = EmailMessage()
        message["From"] = self.settings.sender
        message["To"] = mail.recipient
        message["Subject"] = mail.subject
        message["Date"] = formatdate(localtime=False)
        message["Message-ID"] = make_msgid(domain="fido")
        for name, value in json.loads(mail.headers or "{}").items():
            message[name] = value
        message.set_content(mail.body)
        return message

    def _send(self, message: EmailMessage) -> None:
        assert self.settings.smtp is not None
        scheme, host, port, user, password = smtp_parts(self.settings.smtp)
        context = ssl.create_default_context()
        smtp: smtplib.SMTP = (smtplib.SMTP_SSL(host, port, timeout=TIMEOUT, context=context)
                              if scheme == "smtps" else smtplib.SMTP(host, port, timeout=TIMEOUT))
        with smtp:
            if scheme == "smtp+starttls":
                smtp.starttls(context=context)
            if user is not None:
                smtp.login(user, password or "")
            smtp.send_message(message)

    def _sent(self, mail_id: int) -> None:
        with self.store.session() as s:
            mail = s.get(OutboxMail, mail_id)
            if mail is not None:
                mail.sent_at, mail.last_error = _now(), None
        log.info("mail %s sent", mail_id)

    def _failed(self, mail_id: int, why: str) -> None:
        with self.store.session() as s:
            mail = s.get(OutboxMail, mail_id)
            if mail is not None:
                mail.attempts += 1
                mail.last_error = why[:500]
                mail.next_try_at = _now() + backoff(mail.attempts, self.settings.retry)
        log.warning("mail %s not sent (%s): tried again later", mail_id, why)
