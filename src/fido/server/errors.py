"""The API's one error shape: ``{"error": {"code": ..., "message": ..., "field"?: ...}}``,
and the one table that turns a refusal's code into an HTTP status.

The library refuses with :class:`~fido.errors.Refused` and a code (a table room, the
accounts, the roles); it knows nothing of HTTP. The request layer answers a refusal with
:func:`status_of` its code; its own checks raise :class:`ApiError`, written with the
status first.
"""

from __future__ import annotations

from fido.errors import Refused

__all__ = ["STATUS", "ApiError", "headers_of", "status_of"]

# a refusal's code -> the HTTP status it is answered with (409 Conflict when not here)
STATUS: dict[str, int] = {
    "invalid": 422,  # an input that cannot be (a seat number, a scope, a player's name)
    "busy": 503,  # the store stayed busy: try again
    # who may not: a table's seats (fido.server.tables.seating), the roles and claims
    "invitation": 403, "unrated": 403, "guest": 403, "role": 403, "federation_registers": 403,
    # what is not there (fido.accounts.claims and roles)
    "unknown_player": 404, "unknown_claim": 404, "unknown_request": 404,
    # 409 (not listed): started, seated, full, taken, not_seated, not_finished,
    # match_playing, name_taken, name_reserved, player_taken, already_linked, already,
    # decided
}


class ApiError(Refused):
    """A :class:`~fido.errors.Refused` raised by the request layer's own checks, written
    as HTTP reads it: the status first. The app turns every ``Refused`` into the JSON
    error body (never a traceback)."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(code, message, field)
        self.status, self.headers = status, headers or {}


def status_of(refused: Refused) -> int:
    """The HTTP status that answers ``refused``: the request layer's own, else its code's."""
    if isinstance(refused, ApiError):
        return refused.status
    return STATUS.get(refused.code, 409)


def headers_of(refused: Refused) -> dict[str, str]:
    """The headers its answer carries (``Retry-After``: the request layer's own only)."""
    return refused.headers if isinstance(refused, ApiError) else {}
