"""The OpenAI-compatible provider: OpenAI, gateways, Ollama, vLLM, llama.cpp server.

The only module that imports `openai` (and its HTTP client, httpx2). SDK errors are mapped to
ours here; retries (with exponential backoff, jitter and Retry-After) are bounded in attempts
and total waiting time, each request in total time (a server that sends its reply a byte at a
time cannot hold a command) and each reply in size. Structured output is requested as JSON
Schema, stepping down to `json_object` and then plain text when a server refuses it.
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import random
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

import httpx2
import openai

from ..errors import ConfigurationError, LLMRequestError, LLMUnavailableError
from ..settings import Mode, Settings, redact_text, url_secrets
from .cache import DatabaseCache
from .chat import Message, Reply, ResponseFormat, StructuredChat, schema_instructions

if TYPE_CHECKING:
    from ..db.engine import Database

_RETRYABLE = (
    openai.APITimeoutError,
    openai.APIConnectionError,
    openai.RateLimitError,
    openai.InternalServerError,
)


class ResponseTooLargeError(Exception):
    """A reply body over `llm_max_response_bytes` (read no further)."""


class _CappedBody(httpx2.AsyncByteStream):
    def __init__(self, stream: httpx2.AsyncByteStream, limit: int) -> None:
        self.stream = stream
        self.limit = limit

    async def __aiter__(self) -> AsyncIterator[bytes]:
        seen = 0
        async for chunk in self.stream:
            seen += len(chunk)
            if seen > self.limit:
                raise ResponseTooLargeError(f"reply larger than {self.limit:,} bytes")
            yield chunk

    async def aclose(self) -> None:
        await self.stream.aclose()


def _capped_client(limit: int) -> httpx2.AsyncClient:
    """The SDK's default HTTP client (its transports, environment proxies included), with
    reply bodies cut off — and refused — past `limit` bytes, before they are read."""

    async def cap(response: httpx2.Response) -> None:
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            await response.aclose()
            raise ResponseTooLargeError(f"reply of {int(declared):,} bytes (limit {limit:,})")
        assert isinstance(response.stream, httpx2.AsyncByteStream)
        response.stream = _CappedBody(response.stream, limit)

    client: httpx2.AsyncClient = openai.DefaultAsyncHttpxClient(event_hooks={"response": [cap]})
    return client


class _Redacting(logging.Filter):
    """Masks URL secrets in the records of the HTTP client and the SDK: httpx2 logs every
    request's URL (at info), the connection layer what it connects to (at debug)."""

    LOGGERS = (
        "httpx2",
        "httpcore2.connection",
        "httpcore2.http11",
        "httpcore2.http2",
        "httpcore2.proxy",
        "httpcore2.socks",
        "openai",
        "openai._base_client",
    )

    def __init__(self) -> None:
        super().__init__()
        self.secrets: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # a record whose arguments do not fit: let it be
            return True
        masked = redact_text(message, self.secrets)
        if masked != message:
            record.msg, record.args = masked, None
        return True

    def watch(self, secrets: tuple[str, ...]) -> None:
        self.secrets.update(secrets)
        for name in self.LOGGERS:
            logging.getLogger(name).addFilter(self)  # once: a filter is added only once


_LOG_FILTER = _Redacting()


def _endpoint(url: str | None) -> tuple[str | None, dict[str, str]]:
    """The base URL for the SDK and its query parameters: the SDK appends each request's path
    to the base URL's text, so `/v1?code=K` would become `/v1/?code=Kchat/completions`. The
    fragment is the client's own and is never sent."""
    if not url:
        return url, {}
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    return urlunsplit(parts._replace(query="", fragment="")), query


class OpenAICompatible:
    def __init__(self, settings: Settings, *, http_client: Any = None) -> None:
        if not settings.llm_model:
            raise ConfigurationError(
                "no language model configured: set PI_LLM_MODEL (and PI_LLM_BASE_URL for a "
                "non-OpenAI endpoint, PI_LLM_API_KEY if it needs one), or use --mode local"
            )
        self.model = settings.llm_model
        self.settings = settings
        self.format = ResponseFormat.JSON_SCHEMA
        # How the reply's length is capped: most servers take max_tokens, OpenAI's reasoning
        # models only max_completion_tokens; None once a server refuses both.
        self.length_param: str | None = "max_tokens"
        self.secrets = url_secrets(settings.llm_base_url) + (
            (settings.llm_api_key,) if settings.llm_api_key else ()
        )
        _LOG_FILTER.watch(self.secrets)
        if http_client is None:
            http_client = _capped_client(settings.llm_max_response_bytes)
        base_url, query = _endpoint(settings.llm_base_url)
        self.client = openai.AsyncOpenAI(
            base_url=base_url,
            default_query=query or None,
            api_key=settings.llm_api_key or "not-needed",  # local servers ignore it
            timeout=settings.llm_timeout,
            max_retries=0,  # retries are ours, bounded in attempts and time
            http_client=http_client,
        )

    async def aclose(self) -> None:
        await self.client.close()

    def _request(
        self, messages: list[Message], schema: dict[str, Any] | None, name: str
    ) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": self.settings.llm_temperature,
        }
        if self.length_param:
            kwargs[self.length_param] = self.settings.llm_max_tokens
        if schema is None:
            return kwargs
        if self.format == ResponseFormat.JSON_SCHEMA:
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": name[:64], "schema": schema, "strict": False},
            }
        elif self.format == ResponseFormat.JSON_OBJECT:
            kwargs["response_format"] = {"type": "json_object"}
        if self.format != ResponseFormat.JSON_SCHEMA:
            hint = {"role": "system", "content": schema_instructions(schema)}
            kwargs["messages"] = [hint, *messages]
        return kwargs

    async def _once(
        self, messages: list[Message], schema: dict[str, Any] | None, name: str
    ) -> Reply:
        """One request, its reply read whole within the request's time limit."""
        response = await asyncio.wait_for(
            self.client.chat.completions.create(**self._request(messages, schema, name)),
            timeout=self.settings.llm_timeout,
        )
        if not response.choices:
            return Reply("", None, 0, 0)
        choice = response.choices[0]
        usage = response.usage
        content = choice.message.content
        return Reply(
            text=content if isinstance(content, str) else "",
            finish_reason=choice.finish_reason,
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
        )

    async def chat(
        self, messages: list[Message], *, schema: dict[str, Any] | None, name: str
    ) -> Reply:
        started = time.monotonic()
        waited = 0.0
        attempt = 0
        while True:
            attempt += 1
            try:
                return await self._once(messages, schema, name)
            except ResponseTooLargeError as exc:
                raise LLMUnavailableError(self._say(str(exc))) from exc
            except openai.APIConnectionError as exc:  # timeouts included
                if isinstance(exc.__cause__, ResponseTooLargeError):
                    raise LLMUnavailableError(self._say(str(exc.__cause__))) from exc
                problem: Exception = exc
            except openai.APIStatusError as exc:
                if self._refuses_length_param(exc):
                    attempt -= 1
                    continue
                if (
                    schema is not None
                    and self.format != ResponseFormat.TEXT
                    and _refuses_format(exc)
                ):
                    # The server does not take this response_format: step down and resend.
                    self.format = (
                        ResponseFormat.JSON_OBJECT
                        if self.format == ResponseFormat.JSON_SCHEMA
                        else ResponseFormat.TEXT
                    )
                    attempt -= 1
                    continue
                if not isinstance(exc, _RETRYABLE):  # 4xx: a bad key, an unknown model...
                    raise LLMRequestError(
                        self._say(f"request refused: HTTP {exc.status_code} ({exc.message})")
                    ) from exc
                problem = exc
            except TimeoutError as exc:  # the request's total time limit
                problem = exc
            except openai.OpenAIError as exc:
                raise LLMUnavailableError(self._say(str(exc))) from exc
            except Exception as exc:  # a reply the SDK could not read: bytes that are no JSON
                problem = exc
            delay, asked = _backoff(attempt, problem)
            budget = self.settings.llm_max_retry_seconds - waited
            if attempt >= self.settings.llm_max_attempts or delay > budget:
                elapsed = time.monotonic() - started
                why = f"{_describe(problem)} after {attempt} attempt(s) in {elapsed:.0f}s"
                if asked is not None and delay > budget:
                    why += (
                        f"; the server asked to retry after {asked:.0f}s, more than the "
                        f"{max(budget, 0):.0f}s of retry time left"
                    )
                raise LLMUnavailableError(self._say(why)) from problem
            await asyncio.sleep(delay)
            waited += delay

    def _refuses_length_param(self, exc: openai.APIStatusError) -> bool:
        """A 400 about the reply-length parameter: switch to the other one (or none)."""
        if not isinstance(exc, openai.BadRequestError) or self.length_param is None:
            return False
        if self.length_param not in str(exc.message):
            return False
        self.length_param = "max_completion_tokens" if self.length_param == "max_tokens" else None
        return True

    def _say(self, problem: str) -> str:
        """An error message naming the model, never the endpoint's credentials (not even as
        a server echoes them back)."""
        return redact_text(f"{self.model}: {problem}", self.secrets)


def _refuses_format(exc: openai.APIStatusError) -> bool:
    """A refusal of the response_format: a 400 (or 422, or as llama.cpp's Python server does, a
    500: "Input should be 'text' or 'json_object'") whose message names it. Other 400s — a
    prompt over the context window, say — are not fixed by another format."""
    if exc.status_code not in (400, 422, 500):
        return False
    message = str(exc.message).lower()
    return any(word in message for word in ("response_format", "json", "schema", "format"))


def _describe(exc: Exception) -> str:
    if isinstance(exc, TimeoutError | openai.APITimeoutError):
        return "no complete reply within the time limit (PI_LLM_TIMEOUT)"
    if isinstance(exc, openai.APIStatusError):
        return f"HTTP {exc.status_code} ({type(exc).__name__})"
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__
        return f"connection failed ({type(cause).__name__ if cause else 'no reply'})"
    if isinstance(exc, openai.OpenAIError):
        return f"{type(exc).__name__} ({exc})"
    return f"unreadable reply ({type(exc).__name__})"


def _retry_after(exc: Exception) -> float | None:
    """Seconds a server asked us to wait: `retry-after-ms`, or `Retry-After` in seconds or as
    an HTTP date."""
    response = getattr(exc, "response", None)
    if response is None:
        return None
    headers = response.headers
    try:
        if headers.get("retry-after-ms"):
            return max(0.0, float(headers["retry-after-ms"]) / 1000)
        value = headers.get("retry-after")
        if not value:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            when = email.utils.parsedate_to_datetime(value)
            return max(0.0, when.timestamp() - time.time())
    except (ValueError, TypeError, OverflowError):
        return None


def _backoff(attempt: int, exc: Exception) -> tuple[float, float | None]:
    """(delay, what the server asked for): exponential backoff with jitter; a server's
    Retry-After wins when it says more."""
    delay: float = min(30.0, 0.5 * 2 ** (attempt - 1)) * (0.5 + random.random())
    asked = _retry_after(exc)
    if asked is not None:
        delay = max(delay, asked)
    return delay, asked


def open_chat(settings: Settings, db: Database | None = None) -> StructuredChat:
    """The settings' model (needs PI_LLM_MODEL), its replies cached in `db` when given."""
    cache = DatabaseCache(db) if db is not None else None
    return StructuredChat(OpenAICompatible(settings), cache=cache, settings=settings)


@contextmanager
def chat_for(
    mode: Mode | None, settings: Settings, db: Database | None = None
) -> Iterator[StructuredChat | None]:
    """The chat model for llm mode (`mode`, else llm when PI_LLM_MODEL is set), None for
    local mode; closed (its event loop and HTTP connections) when the block ends."""
    if (mode or settings.default_mode) != Mode.LLM:
        yield None
        return
    with open_chat(settings, db) as chat:
        yield chat
