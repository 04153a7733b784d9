"""The browser's engine, seen from Python: where its modules and its Node.js programs
lie in the package, and the ``node`` that runs them.

The engine's modules (``web/engine``) run in the browser and under Node.js alike; the
programs in ``web/node`` (replay, the computer players, the coach, perft) run only under
Node.js, so the service worker never caches them (koikoi.server.offline).
"""

from __future__ import annotations

import shutil
from pathlib import Path

__all__ = ["ENGINE", "PROGRAMS", "NodeMissingError", "node_command"]

WEB = Path(__file__).resolve().parent / "web"
ENGINE = WEB / "engine"
"""The engine's modules: cards, rules, yaku, round, match, record, players, coach."""
PROGRAMS = WEB / "node"
"""The Node.js programs over the engine, one per command that has ``--engine js``."""


class NodeMissingError(ValueError):
    """No ``node`` program on PATH; the message says what needed it."""


def node_command(program: str, *args: str, needed_by: str) -> list[str]:
    """The command line that runs ``web/node/PROGRAM`` with ``args``.

    ``needed_by`` names what asked (an option, a player), so the error says why Node.js
    was wanted.
    """
    node = shutil.which("node")
    if node is None:
        raise NodeMissingError(
            f"{needed_by} runs the browser's engine under Node.js, and no 'node' program"
            " is on PATH (install Node.js 18 or later)"
        )
    return [node, str(PROGRAMS / program), *args]
