"""Files: which names a file can have at all on this system, and reading one that
may be anything (a device that never ends, a huge file) within bounds."""

from __future__ import annotations

import os
from pathlib import Path


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


MAX_FILE_BYTES = 10 * 1024 * 1024
"""The most a record or a rules file may hold: a whole match's record is a few
kilobytes, so this is far past any real one and well short of what would hurt."""


class FileTooLargeError(ValueError):
    pass


def read_text(path: Path, what: str) -> str:
    """A UTF-8 text file's content, read no further than MAX_FILE_BYTES: a longer one
    (or a device that never ends, such as /dev/zero) is refused by ``what`` and
    name, without reading it whole. OSError and UnicodeDecodeError are the caller's."""
    with path.open("rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise FileTooLargeError(
            f"{what} {str(path)!r} holds more than {MAX_FILE_BYTES // (1024 * 1024)} MB;"
            " it cannot be one"
        )
    # As a text file reads: universal newlines (the JS engine reads records alike).
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
