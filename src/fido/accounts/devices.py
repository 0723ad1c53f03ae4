"""Device cookies (OWASP's "Slow Down Online Guessing Attacks with Device Cookies"): a
browser where someone signed in to an account keeps a signed cookie that names the
accounts signed in there and the browser's own random id. Failed sign-ins from such a
browser are counted per browser; those from anywhere else per account and address, per
address, and per account everywhere, so that a stranger guessing a password slows
herself, never the owner on her own device.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from itsdangerous import BadSignature, URLSafeSerializer

__all__ = ["DEVICE", "DEVICE_SECONDS", "Device", "Devices"]

DEVICE = "fido_device"
DEVICE_SECONDS = 365 * 24 * 3600  # a device is known for a year after its last sign-in
NAMES = 8  # the accounts a device remembers (the most recent)


@dataclass(frozen=True)
class Device:
    """A browser: its random id, and the accounts (name keys) signed in on it."""

    id: str
    names: tuple[str, ...]

    def knows(self, name_key: str) -> bool:
        return name_key in self.names


class Devices:
    """Reads and writes the device cookie, signed with the server's secret."""

    def __init__(self, secret: str) -> None:
        self.serializer = URLSafeSerializer(secret, salt="fido.device")

    def read(self, cookie: str | None) -> Device | None:
        """The device the cookie names (None: no cookie, or one the server did not sign)."""
        if not cookie or len(cookie) > 4096:
            return None
        try:
            data = self.serializer.loads(cookie)
        except BadSignature:
            return None
        if (not isinstance(data, dict) or not isinstance(data.get("id"), str)
                or not isinstance(data.get("names"), list)
                or not all(isinstance(n, str) for n in data["names"])):
            return None
        return Device(data["id"], tuple(data["names"][-NAMES:]))

    def signed_in(self, device: Device | None, name_key: str) -> str:
        """The cookie after a sign-in to ``name_key`` on ``device`` (a new one: a new id)."""
        known = device or Device(secrets.token_urlsafe(16), ())
        names = [n for n in known.names if n != name_key] + [name_key]
        return str(self.serializer.dumps({"id": known.id, "names": names[-NAMES:]}))
