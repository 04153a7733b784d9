"""bench/load.py at a tiny size: real server processes on PostgreSQL and Redis, three
tables of two people and two people against the computer, on one process and on two
(every move crossing them): its JSON has every figure, and nothing went wrong."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
import redis

from conftest import POSTGRESQL, require

BENCH = Path(__file__).resolve().parents[1] / "bench" / "load.py"
REDIS = os.environ.get("KOIKOI_TEST_REDIS", "redis://127.0.0.1:6379/0")
# The bench makes a database of its own from the server's maintenance database.
parts = urlsplit(POSTGRESQL)
MAINTENANCE = urlunsplit((parts.scheme, parts.netloc, "/postgres", "", ""))


@pytest.fixture(scope="module")
def reachable() -> None:
    try:
        psycopg.connect(MAINTENANCE, connect_timeout=3).close()
    except psycopg.Error as error:
        require(False, f"PostgreSQL is not reachable at {MAINTENANCE}: {error}")
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        require(False, f"Redis is not reachable at {REDIS}: {error}")


@pytest.mark.usefixtures("reachable")
@pytest.mark.parametrize(("processes", "over"), [(1, "ws"), (2, "ws"), (2, "http")])
def test_a_tiny_load_run_reports_every_figure_and_no_errors(processes: int, over: str) -> None:
    command = [
        sys.executable,
        str(BENCH),
        "--processes",
        str(processes),
        "--over",
        over,
        "--tables",
        "3",
        "--seconds",
        "4",
        "--think",
        "0.05",
        "--easy",
        "2",
        "--postgresql",
        MAINTENANCE,
        "--redis",
        REDIS,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["processes"] == processes
    assert report["over"] == over
    assert report["tables"] == report["tables_seated"] == 3
    assert report["players"] == 6
    assert report["think_s"] == 0.05
    assert report["errors"] == 0, report["error_samples"]
    assert report["lost_moves"] == 0
    assert report["server_log_errors"]["count"] == 0, report["server_log_errors"]
    assert report["moves"] > 0
    assert report["moves_per_second"] > 0
    assert 3.5 < report["seconds"] <= 4.5
    for key in ("move_latency_ms", "answer_ms"):
        figures = report[key]
        assert set(figures) == {"p50", "p99", "max"}
        assert 0 < figures["p50"] <= figures["p99"] <= figures["max"]
    assert report["easy_moves"] > 0
    assert 0 < report["easy_move_ms"]["p50"] <= report["easy_move_ms"]["p99"]
    assert len(report["server_cpu"]["cpu_s"]) == processes
    assert all(seconds > 0 for seconds in report["server_cpu"]["cpu_s"])
