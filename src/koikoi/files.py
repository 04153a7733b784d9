"""File names: which ones a file can have at all on this system."""

from __future__ import annotations

import os


def nameable(name: str | os.PathLike[str]) -> bool:
    """Whether a file could have this name: none holds a NUL, nor a character that the
    file system's encoding cannot write (a lone surrogate). Asking the system about such
    a name raises instead of answering, so it is refused before anything is looked up.

    >>> nameable("koikoi.sqlite3"), nameable("a\\0b"), nameable("\\ud800"), nameable("\\udcff")
    (True, False, False, True)
    """
    try:
        return b"\0" not in os.fsencode(name)
    except UnicodeEncodeError:
        return False
