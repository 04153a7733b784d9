"""Where the tests find the worked examples: ``docs/examples/``, made by
``tools/make_examples.py`` (a test fails while they are stale). They are part of the
repository, so no test skips for want of them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"
MAKE_EXAMPLES = ROOT / "tools" / "make_examples.py"


def example(name: str) -> dict[str, Any]:
    """A record example by name: ``{"record": RECORD, "replay_output": OUTPUT}``."""
    data: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def replay_examples() -> list[Path]:
    """The records that replay (``deal-`` and ``match-`` files)."""
    return sorted([*EXAMPLES.glob("deal-*.json"), *EXAMPLES.glob("match-*.json")])


def refused_examples() -> list[Path]:
    """The records that ``koikoi replay`` refuses (``error-`` files)."""
    return sorted(EXAMPLES.glob("error-*.json"))


def batch_example(name: str) -> tuple[list[str], list[Any]]:
    """The lines of ``NAME.in.jsonl`` and the answers of ``NAME.out.jsonl``."""
    lines = (EXAMPLES / f"{name}.in.jsonl").read_text(encoding="utf-8").splitlines()
    answers = (EXAMPLES / f"{name}.out.jsonl").read_text(encoding="utf-8").splitlines()
    return lines, [json.loads(answer) for answer in answers]
