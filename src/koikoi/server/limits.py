"""What ``koikoi serve`` allows each connection: its own module, so the command line
reads the defaults without importing the server."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """What one server allows its connections (``koikoi serve``'s defaults)."""

    header_timeout: float = 10.0
    """Seconds a request's headers may take to arrive, from the connection's start or
    the end of its previous response."""
    keep_alive: int = 5
    """Seconds an idle connection is kept open after a response."""
    max_connections: int = 500
    """Connections open at once; each is an open file, and the usual limit is 1024."""
    max_header_bytes: int = 16 * 1024
    """Bytes of a request's target and headers together (the cookie is the biggest)."""

    @property
    def per_address(self) -> int:
        """Connections one client address may hold at once: a tenth of the server's
        (50 of the default 500), but no fewer than 8 (a browser opens six or so), so
        that no one address can take them all. A trusted proxy, which speaks for many
        people, is not held to it."""
        return min(self.max_connections, max(8, self.max_connections // 10))
