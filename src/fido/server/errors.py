"""The API's one error shape: ``{"error": {"code": ..., "message": ...}}``."""

from __future__ import annotations

__all__ = ["ApiError"]


class ApiError(Exception):
    """A refusal the client can act on: its HTTP status, a stable code, a sentence.

    Raised by the accounts, sessions and CSRF layers; the app turns it into
    the JSON error body (never a traceback).
    """

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}
