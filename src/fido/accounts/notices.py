"""Her inbox's news by mail: for each account that asked for them (on a confirmed
address, :mod:`fido.accounts.addresses`), the notifications that arrived since her last
news mail, in one mail in her language with a link to her inbox and one that turns the
news off (also as ``List-Unsubscribe``, RFC 8058's one click).

At most one news mail an account every :data:`GAP` (what arrives meanwhile waits for the
next), a notification is mailed once (``mailed_at``), one she has read before is not
mailed at all, and one from before she asked is never sent. The server's postman calls
:func:`mail_news` before it sends (:mod:`fido.server.postman`); on PostgreSQL two
processes never take the same notification (``SKIP LOCKED``).
"""

from __future__ import annotations

import datetime as dt
from itertools import groupby
from urllib.parse import urlsplit

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from fido import i18n
from fido.accounts.addresses import unsubscribe_token
from fido.accounts.mail import post
from fido.i18n import N_
from fido.store import Account, Notification

__all__ = ["BATCH", "GAP", "mail_news"]

GAP = dt.timedelta(minutes=15)  # at most one news mail an account in this while
BATCH = 500  # notifications looked at a time

# each kind's line in the mail (fido.accounts.notifications.KINDS)
_LINES = {
    "review": N_("a score sheet of a game you played waits for you to confirm or dispute it"),
    "disputed": N_("a score sheet was disputed"),
    "settled": N_("a dispute about your game was settled"),
    "claim": N_("the federation answered your request to be a ranking player"),
    "seat": N_("a seat at a table is reserved for you"),
    "organiser": N_("the federation answered your request to organise events"),
    "published": N_("a month's world ranking was published: check it"),
    "turn": N_("it is your turn at a table: {link}"),
}
_OTHER = N_("a new notification")


def mail_news(s: Session, site: str, secret: str, *, now: dt.datetime | None = None,
              gap: dt.timedelta = GAP) -> int:
    """Write the news mails that are due into the outbox; how many."""
    now = now or dt.datetime.now(dt.UTC)
    query = (
        select(Notification).join(Account, Notification.account_id == Account.id)
        .where(Notification.mailed_at.is_(None), Notification.read_at.is_(None),
               Account.notices_since.is_not(None), Account.email_confirmed_at.is_not(None),
               Account.email.is_not(None),
               Notification.created_at >= Account.notices_since,
               or_(Account.notices_mailed_at.is_(None),
                   Account.notices_mailed_at <= now - gap))
        .order_by(Notification.account_id, Notification.id).limit(BATCH))
    bind = s.get_bind()
    if bind.dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True, of=Notification)
    mailed = 0
    for account_id, notes in groupby(s.scalars(query), key=lambda n: n.account_id):
        account = s.get(Account, account_id)
        assert account is not None and account.email is not None
        news = list(notes)
        _write(s, account, news, site, secret)
        for note in news:
            note.mailed_at = now
        account.notices_mailed_at = now
        mailed += 1
    return mailed


def _write(s: Session, account: Account, news: list[Notification], site: str,
           secret: str) -> None:
    assert account.email is not None
    stop = f"{site}/unsubscribe?token={unsubscribe_token(account, secret)}"
    with i18n.use(account.language):
        _, ngettext = i18n.gettext, i18n.ngettext
        lines = "\n".join("- " + _(_LINES.get(n.kind, _OTHER)).format(
            link=f"{site}/tables/{n.table_id}") for n in news)
        subject = ngettext("fido: {n} new notification", "fido: {n} new notifications",
                           len(news)).format(n=len(news))
        body = _(
            "Hello {name},\n\n"
            "new in your inbox on {site}:\n\n"
            "{lines}\n\n"
            "Your inbox: {inbox}\n\n"
            "You get this mail because you asked for your inbox's news by mail. "
            "To get no more, open this link: {stop}\n").format(
                name=account.name, site=urlsplit(site).netloc, lines=lines,
                inbox=f"{site}/inbox", stop=stop)
    post(s, account.email, subject, body, headers={
        "List-Unsubscribe": f"<{stop}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"})
