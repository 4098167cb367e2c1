"""Settings as a user sets them: PI_* variables in any case, values given in code over them,
each converted to its type and checked, a bad one named in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from pageindex_platform.errors import ConfigurationError
from pageindex_platform.settings import EmbedderName, Settings, load_settings

pytestmark = pytest.mark.no_database


def test_variables_are_read_in_any_case_and_converted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("pi_chunk_tokens", "300")
    monkeypatch.setenv("PI_EMBEDDER", "minilm")
    monkeypatch.setenv("PI_LLM_TIMEOUT", "2.5")
    monkeypatch.setenv("PI_WEB_ALLOWED_HOSTS", "corpus.example, proxy:8443,")
    monkeypatch.setenv("PI_LLM_PRICES", '{"local-model": [0, 1.5]}')
    settings = load_settings()
    assert settings.chunk_tokens == 300 and settings.llm_timeout == 2.5
    assert settings.embedder is EmbedderName.MINILM
    assert settings.web_allowed_hosts == ["corpus.example", "proxy:8443"]
    assert settings.llm_prices == {"local-model": (0.0, 1.5)}


def test_numbers_written_as_text_or_with_a_zero_fraction_are_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PI_CHUNK_TOKENS", "300.0")
    monkeypatch.setenv("PI_LLM_PRICES", '{"m": ["1", 2.5]}')
    settings = load_settings()
    assert settings.chunk_tokens == 300 and settings.llm_prices == {"m": (1.0, 2.5)}


def test_defaults_apply_where_nothing_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PI_EMBEDDER")
    settings = load_settings()
    assert settings.embedder is EmbedderName.FAST and settings.cpu_slots is None
    assert settings.llm_prices["gpt-4o-mini"] == (0.15, 0.6)
    assert settings.model_cache.name == "models"


def test_the_openai_key_is_read_when_the_products_own_is_unset(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PI_LLM_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-openai-variable")
    assert load_settings().llm_api_key == "sk-from-openai-variable"
    monkeypatch.setenv("PI_LLM_API_KEY", "sk-from-product-variable")
    assert load_settings().llm_api_key == "sk-from-product-variable"


def test_values_given_in_code_win_and_are_checked_the_same_way(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PI_CHUNK_TOKENS", "300")
    settings = load_settings(home=str(tmp_path), chunk_tokens=120, database_url=None)
    assert settings.home == tmp_path and settings.chunk_tokens == 120
    with pytest.raises(ConfigurationError, match=r"PI_CPU_SLOTS=0: must be at least 1"):
        load_settings(cpu_slots=0)
    with pytest.raises(TypeError, match="unknown settings: chunk_size"):
        Settings(chunk_size=3)


def test_a_changed_copy_is_checked_and_leaves_the_original(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = load_settings()
    changed = settings.replaced(db_shared_buffers_mb=512)
    assert changed.db_shared_buffers_mb == 512 and settings.db_shared_buffers_mb is None
    assert changed.home == settings.home
    with pytest.raises(ConfigurationError, match="PI_FILE_SECONDS"):
        settings.replaced(file_seconds=0)


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("PI_LLM_TIMEOUT", "soon", "not a number"),
        ("PI_CHUNK_TOKENS", "2.5", "not a whole number"),
        ("PI_EMBEDDER", "nope", "must be one of minilm, static, fast, hash"),
        ("PI_LLM_PRICES", "{not json", "not valid JSON"),
        ("PI_LLM_PRICES", '{"m": [1]}', "the price of 'm' must be [prompt, completion]"),
        ("PI_DB_SHARED_BUFFERS_MB", "0", "must be at least 1"),
        ("PI_FILE_SECONDS", "-1", "must be above 0"),
        ("PI_FILE_SECONDS", "nan", "not a number"),
        ("PI_LLM_TIMEOUT", "NaN", "not a number"),
    ],
)
def test_a_bad_value_is_one_error_naming_its_variable(
    variable: str, value: str, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigurationError) as raised:
        load_settings()
    message = str(raised.value)
    assert message.startswith(f"bad setting: {variable}=") and said in message
    assert "\n" not in message


def test_settings_shown_hide_the_database_password(tmp_path: Path) -> None:
    settings = load_settings(
        home=tmp_path, database_url="postgresql://ana:hunter22@db:5432/filings"
    )
    assert "hunter22" not in repr(settings) and "db:5432" in repr(settings)
