"""The server's settings: read from the environment in one place, bad values named."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from koikoi.cli import cli
from koikoi.server.settings import Settings, SettingsError
from koikoi.server.throttle import SIGN_UPS_PER_HOUR


def test_every_setting_comes_from_its_variable() -> None:
    found = Settings.from_environment(
        {
            "KOIKOI_DATABASE_URL": "postgresql://db.example/koikoi",
            "KOIKOI_SECRET_KEY": "s3cret",
            "KOIKOI_REDIS_URL": "redis://127.0.0.1:6379/0",
            "KOIKOI_THINKING_PROCESSES": "3",
            "KOIKOI_SECURE_COOKIES": "1",
            "KOIKOI_FORWARDED_ALLOW_IPS": "10.0.0.1",
        }
    )
    assert found == Settings(
        database_url="postgresql://db.example/koikoi",
        secret_key="s3cret",
        redis_url="redis://127.0.0.1:6379/0",
        thinking_processes=3,
        secure_cookies=True,
        forwarded_allow_ips="10.0.0.1",
        sign_ups_per_hour=SIGN_UPS_PER_HOUR,
    )
    # Unset and empty variables are the defaults.
    assert Settings.from_environment({"KOIKOI_REDIS_URL": ""}) == Settings()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("KOIKOI_THINKING_PROCESSES", "0"),
        ("KOIKOI_THINKING_PROCESSES", "many"),
        ("KOIKOI_SECURE_COOKIES", "yes"),
    ],
)
def test_a_bad_value_is_refused_by_name(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name) as raised:
        Settings.from_environment({name: value})
    assert repr(value) in str(raised.value)


def test_the_command_line_names_a_bad_variable_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    database = tmp_path / "koikoi.sqlite3"
    monkeypatch.setenv("KOIKOI_THINKING_PROCESSES", "-2")
    result = CliRunner().invoke(cli, ["db", "upgrade", "--database", f"sqlite:///{database}"])
    assert result.exit_code == 1
    assert "KOIKOI_THINKING_PROCESSES" in result.output
    assert "'-2'" in result.output
    assert not database.exists()


def test_an_option_of_the_command_line_wins_over_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("KOIKOI_DATABASE_URL", f"sqlite:///{tmp_path / 'from-env.sqlite3'}")
    given = tmp_path / "given.sqlite3"
    result = CliRunner().invoke(cli, ["db", "upgrade", "--database", f"sqlite:///{given}"])
    assert result.exit_code == 0, result.output
    assert given.exists()
    assert not (tmp_path / "from-env.sqlite3").exists()
    result = CliRunner().invoke(cli, ["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "from-env.sqlite3").exists()
