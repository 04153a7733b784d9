"""The worked examples of docs/examples/ are what tools/make_examples.py makes today.

The examples are records played by the engine and the answers of the real commands, so
any change to how a game plays or what a command prints shows up here first: rerun
``python tools/make_examples.py`` and read the difference.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from worked_examples import EXAMPLES, MAKE_EXAMPLES


def make_examples(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(MAKE_EXAMPLES), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_worked_examples_are_up_to_date() -> None:
    done = make_examples("--check")
    assert done.returncode == 0, done.stderr


def test_a_stale_example_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "examples"
    shutil.copytree(EXAMPLES, folder)
    changed = folder / "deal-classic-stop.json"
    changed.write_text(changed.read_text(encoding="utf-8").replace('"stop"', '"koikoi"'))
    (folder / "score-batch.out.jsonl").unlink()
    (folder / "mine.json").write_text("{}\n", encoding="utf-8")
    done = make_examples("--check", "--dir", str(folder))
    assert done.returncode == 1
    named = [line.split()[1] for line in done.stderr.splitlines() if str(folder) in line]
    assert [Path(name).name for name in named] == [
        "deal-classic-stop.json",
        "mine.json",
        "score-batch.out.jsonl",
    ]
    # Written again, the folder is exactly the examples.
    assert make_examples("--dir", str(folder)).returncode == 0
    assert make_examples("--check", "--dir", str(folder)).returncode == 0
    assert sorted(path.name for path in folder.iterdir()) == sorted(
        path.name for path in EXAMPLES.iterdir()
    )
