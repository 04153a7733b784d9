"""The browser engine's own unit tests, run by pytest.

``tests/js/*.test.mjs`` test ``src/koikoi/web/engine/`` with Node.js's built-in test
runner (``node --test tests/js/``: node:test and node:assert, no npm packages). Here each
file is one pytest test, so ``python -m pytest`` runs them too and a failure shows Node's
own report. A second pair of tests shows that they bite: a copy of the engine with one
rule broken (``KOIKOI_JS_ENGINE``, which ``tests/js/helpers.mjs`` imports the engine
from) must fail the tests of that rule. Without Node.js the tests skip, and fail under
``CI=true``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from koikoi.jsengine import ENGINE

ROOT = Path(__file__).resolve().parents[1]
JS_TESTS = ROOT / "tests" / "js"
TEST_FILES = sorted(JS_TESTS.glob("*.test.mjs"))
TIMEOUT = 600
"""Seconds one file may take; each takes a few on a busy two-core machine."""


def run_node_tests(
    node: str, *files: Path, engine: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``node --test`` on ``files`` with the TAP reporter, against ``engine`` (the real
    one when None: a KOIKOI_JS_ENGINE of the caller's environment is not passed on)."""
    env = {key: value for key, value in os.environ.items() if key != "KOIKOI_JS_ENGINE"}
    if engine is not None:
        env["KOIKOI_JS_ENGINE"] = str(engine)
    return subprocess.run(
        [node, "--test", "--test-reporter=tap", *map(str, files)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def report(done: subprocess.CompletedProcess[str]) -> str:
    """Node's output, or where it is long, each failure (its TAP line and the details
    after it) and the summary."""
    text = done.stdout + done.stderr
    if len(text) <= 20_000:
        return text
    lines = text.splitlines()
    failures = [
        "\n".join(lines[index : index + 40])
        for index, line in enumerate(lines)
        if re.match(r"\s*not ok ", line) and "# TODO" not in line
    ]
    return "\n...\n".join([*failures[:10], "\n".join(lines[-10:])])


def summary(tap: str) -> dict[str, int]:
    """The counts of the TAP summary: tests, pass, fail, todo..."""
    return {key: int(value) for key, value in re.findall(r"^# (\w+) (\d+)$", tap, re.M)}


def failed_tests(tap: str) -> set[str]:
    """The names of the tests that failed (todo tests not counted)."""
    return {
        match.group(1)
        for match in re.finditer(r"^\s*not ok \d+ - (.*)$", tap, re.M)
        if "# TODO" not in match.group(1)
    }


def test_there_are_test_files() -> None:
    names = {path.name for path in TEST_FILES}
    for area in ("rules", "yaku", "round", "match", "record"):
        assert f"{area}.test.mjs" in names


@pytest.mark.parametrize("path", TEST_FILES, ids=lambda path: path.name)
def test_node_unit_tests_pass(node: str, path: Path) -> None:
    done = run_node_tests(node, path)
    assert done.returncode == 0, f"node --test {path.relative_to(ROOT)} failed:\n{report(done)}"
    counts = summary(done.stdout)
    assert counts.get("fail") == 0, report(done)
    assert counts.get("pass", 0) > 0, f"no test ran:\n{report(done)}"


# -- the tests notice a broken rule ------------------------------------------------------

BREAKS = [
    pytest.param(
        "yaku.js",
        r"this\.ribbonExtra\s*\?\s*ribbons\s*-\s*3\s*:\s*0",
        "this.ribbonExtra ? ribbons - 2 : 0",
        "yaku.test.mjs",
        {
            "akatan, aotan and kusatan: 19 cases",
            "traditional scores as the §4 table says: 14 piles",
        },
        id="ribbon-set-extra-from-two",
    ),
    pytest.param(
        "round.js",
        r"sumValues\(yaku\)\s*>\s*sumValues\(baseline\)",
        "sumValues(yaku) >= sumValues(baseline)",
        "round.test.mjs",
        {"no new capture, no new decision"},
        id="equal-total-reopens-the-decision",
    ),
]


@pytest.mark.parametrize(("module", "pattern", "replacement", "test_file", "expected"), BREAKS)
def test_a_broken_rule_fails_its_tests(
    node: str,
    tmp_path: Path,
    module: str,
    pattern: str,
    replacement: str,
    test_file: str,
    expected: set[str],
) -> None:
    engine = tmp_path / "engine"
    shutil.copytree(ENGINE, engine)
    source = engine / module
    text, count = re.subn(pattern, replacement, source.read_text(encoding="utf-8"))
    assert count == 1, f"{module} no longer has exactly one {pattern!r}: update this break"
    source.write_text(text, encoding="utf-8")
    done = run_node_tests(node, JS_TESTS / test_file, engine=engine)
    assert done.returncode != 0, f"the tests passed against the broken engine:\n{report(done)}"
    failed = failed_tests(done.stdout)
    assert expected <= failed, f"expected {sorted(expected)} among the failures {sorted(failed)}"
    # The same file passes against the engine as it stands (the break is what failed).
    assert run_node_tests(node, JS_TESTS / test_file).returncode == 0
