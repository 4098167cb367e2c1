"""`pi db`: status, upgrade, and the embedded server's lifecycle."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pageindex_platform import database
from pageindex_platform.migrate import head_revision
from pageindex_platform.settings import get_settings

from .helpers import run_cli, run_json


def test_status_and_upgrade_on_the_configured_database(small_pdf: Path) -> None:
    run_cli("ingest", str(small_pdf))
    status = run_json("db", "status")
    head = head_revision()
    assert head is not None and head >= "0003"
    assert status["running"] and status["revision"] == head and status["documents"] == 1
    code, out, _ = run_cli("db", "upgrade")
    assert code == 0 and f"schema at {head}" in out
    code, out, _ = run_cli("db", "stop")
    assert code == 0 and "not ours to stop" in out


def test_embedded_server_starts_on_demand_and_stops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PI_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PI_DATABASE_URL")
    get_settings.cache_clear()
    try:
        pgdata = tmp_path / "home" / "pgdata"
        assert run_json("db", "status")["running"] is False
        assert run_json("docs", "list") == []  # starts the server and migrates
        status = run_json("db", "status")
        assert status["embedded"] and status["running"] and status["revision"] == head_revision()
        assert status["data_dir"] == str(pgdata)
        database.get_engine().dispose()
        code, out, _ = run_cli("db", "stop")
        assert code == 0 and out.strip() == "stopped"
        assert run_json("db", "status")["running"] is False
    finally:
        database.stop_embedded(tmp_path / "home" / "pgdata")
        get_settings.cache_clear()
        assert os.environ["PI_HOME"] == str(tmp_path / "home")


def test_head_revision_agrees_with_alembic() -> None:
    from alembic.script import ScriptDirectory

    from pageindex_platform.migrate import alembic_config

    assert head_revision() == ScriptDirectory.from_config(alembic_config()).get_current_head()
