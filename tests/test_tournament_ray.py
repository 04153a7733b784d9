"""``koikoi tournament --backend ray``: the same paired schedule as Ray tasks, the same results."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import require
from koikoi.cli import cli

KOIKOI_SCRIPT = Path(sys.executable).parent / "koikoi"
# Three pairs, the expert with few rollouts: a whole tournament in a second or two.
ARGS = ["--players", "easy,normal,expert", "--rollouts", "20", "--seed", "11", "--json"]


def tournament(*args: str, cwd: Path) -> dict[str, object]:
    """The real console script, so Ray starts its workers from a process of its own."""
    done = subprocess.run(
        [str(KOIKOI_SCRIPT), "tournament", *ARGS, *args],
        capture_output=True, text=True, timeout=300, check=False, cwd=cwd,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary: dict[str, object] = json.loads(done.stdout)
    return summary


def test_ray_prints_what_the_process_pool_prints(tmp_path: Path) -> None:
    require(
        importlib.util.find_spec("ray") is not None,
        "Ray is not installed (pip install -e '.[test]' or 'koikoi[ray]')",
    )
    # One local Ray start costs most of this test's ten seconds; single deals run the
    # same backend code, so matches alone cover it.
    count = "2"
    on_ray = tournament("--matches", count, "--backend", "ray", "--workers", "2",
                        "--out", "ray", cwd=tmp_path)  # fmt: skip
    in_processes = tournament("--matches", count, "--workers", "2", "--out", "pool", cwd=tmp_path)
    assert on_ray == in_processes
    pairs = on_ray["pairs"]
    assert isinstance(pairs, list)
    assert len(pairs) == 3
    # The records come back from the tasks and are written here, the same ones.
    ray_records = sorted(path.name for path in (tmp_path / "ray").iterdir())
    assert ray_records == sorted(path.name for path in (tmp_path / "pool").iterdir())
    assert len(ray_records) == 3 * int(count)
    for name in ray_records:
        assert (tmp_path / "ray" / name).read_text() == (tmp_path / "pool" / name).read_text()


def test_address_without_ray_is_a_clear_error() -> None:
    result = CliRunner().invoke(
        cli, ["tournament", "--pairs", "easy:normal", "--matches", "2", "--address", "h:1"]
    )
    assert result.exit_code == 1
    assert "--address joins a Ray cluster: give it with --backend ray" in result.output
    assert "Traceback" not in result.output


def test_ray_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what an environment without Ray sees
    result = CliRunner().invoke(
        cli, ["tournament", "--pairs", "easy:normal", "--matches", "2", "--backend", "ray"]
    )
    assert result.exit_code == 1
    assert "--backend ray needs Ray: pip install 'koikoi[ray]'" in result.output


def test_unknown_backend_is_a_usage_error() -> None:
    done = subprocess.run(
        [str(KOIKOI_SCRIPT), "tournament", "--pairs", "easy:normal", "--matches", "2",
         "--backend", "spark"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert "'spark' is not one of 'process', 'ray'" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_ray_address_where_nothing_answers_fails_within_seconds() -> None:
    """0.6.3 retried for over 90 s: the address is tried first (for seconds at most),
    and named."""
    result = CliRunner().invoke(
        cli,
        [
            "tournament",
            "--players",
            "random,greedy",
            "--matches",
            "2",
            "--backend",
            "ray",
            "--address",
            "127.0.0.1:1",
        ],
    )
    assert result.exit_code == 1
    assert "cannot reach the Ray cluster at '127.0.0.1:1'" in result.output
