"""The API's one error shape: ``{"error": {"code": ..., "message": ..., "field"?: ...}}``,
and the one table that turns a refusal's code into an HTTP status.

The library refuses with :class:`~fido.errors.Refused` and a code (a table room, the
accounts, the roles); it knows nothing of HTTP. The request layer answers a refusal with
:func:`status_of` its code; its own checks raise :class:`ApiError`, written with the
status first.
"""

from __future__ import annotations

from fido.errors import Refused

__all__ = ["STATUS", "ApiError", "status_of"]

# a refusal's code -> the HTTP status it is answered with (409 Conflict when not here)
STATUS: dict[str, int] = {
    # a table's seats (fido.server.tables.seating) and its rematch (tables.after)
    "invitation": 403, "unrated": 403, "invalid": 422, "busy": 503,
    "started": 409, "seated": 409, "full": 409, "taken": 409, "not_seated": 409,
    "not_finished": 409, "match_playing": 409,
}


class ApiError(Refused):
    """A :class:`~fido.errors.Refused` raised by the request layer's own checks, written
    as HTTP reads it: the status first. The app turns every ``Refused`` into the JSON
    error body (never a traceback)."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(code, message, status, headers, field)


def status_of(refused: Refused) -> int:
    """The HTTP status that answers ``refused``: the request layer's own, else its code's."""
    if isinstance(refused, ApiError):
        return refused.status
    return STATUS.get(refused.code, refused.status)
