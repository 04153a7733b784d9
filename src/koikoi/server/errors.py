"""The server's refusals: each domain error carries the HTTP status that says why.

Stores and sessions raise these; the app maps every one to its answer in one place
(an exception handler), and a table's WebSocket builds its refusal from the same
error, so a refusal reads the same over HTTP and the socket.
"""

from __future__ import annotations

from koikoi.round import IllegalActionError
from koikoi.rules import RulesError


class Refused(ValueError):
    """A request refused for a reason the player can act on: ``status`` is its HTTP
    status, ``retry_after`` (seconds) when waiting will help."""

    status = 400

    def __init__(
        self, message: str, *, status: int | None = None, retry_after: int | None = None
    ) -> None:
        super().__init__(message)
        if status is not None:
            self.status = status
        self.retry_after = retry_after

    @property
    def headers(self) -> dict[str, str] | None:
        return None if self.retry_after is None else {"Retry-After": str(self.retry_after)}


class AccountError(Refused):
    """A refused account request; ``status`` is the HTTP status that says why."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message, status=status, retry_after=retry_after)


class AddressThrottled(Refused):
    """An address that has caused as many of some event as it may for a while."""

    status = 429


class StaleActionError(Refused):
    """An action (or another change) chosen in an older state than the match's own."""

    status = 409


class GameOverError(Refused):
    """A move in a match that has ended."""

    status = 409


class BadActionError(Refused):
    """An action that is no action at all (not record form, an unknown card)."""


DOMAIN_ERRORS: tuple[type[Exception], ...] = (Refused, IllegalActionError, RulesError)
"""What a request may be refused with below the routes: the server's own refusals,
and the engine's for an illegal action (400) or rules it cannot play (422)."""


def answer_of(error: Exception) -> tuple[int, str, dict[str, str] | None]:
    """The HTTP status, sentence and headers that answer a domain error."""
    if isinstance(error, Refused):
        return error.status, str(error), error.headers
    if isinstance(error, RulesError):
        return 422, str(error), None
    return 400, str(error), None
