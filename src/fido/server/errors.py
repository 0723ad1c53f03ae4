"""The API's one error shape: ``{"error": {"code": ..., "message": ..., "field"?: ...}}``."""

from __future__ import annotations

from fido.errors import Refused

__all__ = ["ApiError"]


class ApiError(Refused):
    """A :class:`~fido.errors.Refused` raised by the server's own checks, written as HTTP
    reads it: the status first. The app turns every ``Refused`` into the JSON error body
    (never a traceback)."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(code, message, status, headers, field)
