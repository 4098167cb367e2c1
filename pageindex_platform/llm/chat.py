"""Chat models behind one small interface, with what makes them safe to build on:
tolerant JSON parsing, schema validation with one corrective retry, a response cache in
PostgreSQL and usage accounting. The OpenAI-compatible provider lives in `openai_compatible.py`
(the only module that imports `openai`).

    Transport.chat(messages, response_format)  ->  Reply       one HTTP request (provider)
    StructuredChat.ask(messages, schema, usage) ->  schema      cache, parse, validate, retry
    StructuredChat.ask_sync(...)                ->  schema      the same, from synchronous code

A StructuredChat owns one event loop (an `asyncio.Runner`) for its whole life: the provider's
HTTP connections are bound to the loop that opened them, so every call of a command — however
many documents or questions — runs on that one loop, and `close()` (or leaving the `with`
block) closes the connections and then the loop. Never `asyncio.run()` a chat's coroutine:
a new loop per call breaks kept-alive connections ("Event loop is closed").
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable, Container, Coroutine, Hashable, Sequence
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..errors import LLMOutputError, LLMUnavailableError
from ..settings import Settings, redact_text

Message = dict[str, str]
if TYPE_CHECKING:  # a question in local mode imports neither pydantic nor asyncio
    import asyncio

    from pydantic import BaseModel

T = TypeVar("T", bound="BaseModel")
R = TypeVar("R")
Check = Callable[[Any], None]  # raises ValueError when a reply is not usable


class ResponseFormat(StrEnum):
    """Structured-output support, best first; a provider steps down when refused."""

    JSON_SCHEMA = "json_schema"
    JSON_OBJECT = "json_object"
    TEXT = "text"


@dataclass(frozen=True)
class Reply:
    text: str
    finish_reason: str | None
    prompt_tokens: int
    completion_tokens: int


class Transport(Protocol):
    """One chat request. Raises LLMUnavailableError / LLMRequestError (see errors.py)."""

    model: str

    async def chat(
        self, messages: list[Message], *, schema: dict[str, Any] | None, name: str
    ) -> Reply: ...

    async def aclose(self) -> None:
        """Close the HTTP connections (on the loop that opened them)."""


@dataclass
class Usage:
    """LLM usage of one document or one question."""

    calls: int = 0
    cached: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    failures: int = 0
    by_step: dict[str, int] = field(default_factory=dict)

    def add(self, step: str, prompt: int, completion: int, price: tuple[float, float]) -> None:
        self.calls += 1
        self.prompt_tokens += prompt
        self.completion_tokens += completion
        self.cost_usd += (prompt * price[0] + completion * price[1]) / 1_000_000
        self.by_step[step] = self.by_step.get(step, 0) + 1

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["cost_usd"] = round(self.cost_usd, 6)
        return out


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def extract_json(text: str) -> Any:
    """The JSON value in a reply: bare, in a code fence, or followed/preceded by prose."""
    text = text.strip()
    candidates = [text, *(m.group(1).strip() for m in _FENCE.finditer(text))]
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except json.JSONDecodeError:
            pass
    decoder = json.JSONDecoder()
    for i, ch in enumerate(text):
        if ch in "{[":
            try:
                value, _ = decoder.raw_decode(text[i:])
                return value
            except json.JSONDecodeError:
                continue
    raise ValueError("no JSON value found in the reply")


class ResponseCache(Protocol):
    def get(self, key: str) -> tuple[str, int, int] | None: ...

    def put(self, key: str, model: str, text: str, prompt: int, completion: int) -> None: ...


def cache_key(model: str, messages: list[Message], schema: dict[str, Any] | None) -> str:
    blob = json.dumps({"model": model, "messages": messages, "schema": schema}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


class StructuredChat:
    """Ask for JSON matching a pydantic schema; never returns `{}` or an error string.

    Use it as a context manager (or call `close()`): it owns the event loop its provider's
    connections live on. After `UNAVAILABLE_LIMIT` requests in a row that the endpoint could
    not serve (network errors, timeouts, 429/5xx beyond the retries), calls fail at once for
    `PAUSE_SECONDS`, so that callers fall back to local steps instead of waiting out the
    retries again for every document or question; then one request tries the endpoint again
    (a success ends the pause, a failure starts another)."""

    UNAVAILABLE_LIMIT = 3
    PAUSE_SECONDS = 60.0

    def __init__(
        self,
        transport: Transport,
        *,
        cache: ResponseCache | None = None,
        settings: Settings,
    ) -> None:
        self.transport = transport
        self.cache = cache
        import asyncio

        self.price = settings.llm_prices.get(transport.model, (0.0, 0.0))
        self._limit = asyncio.Semaphore(max(1, settings.llm_concurrency))
        self._runner: asyncio.Runner | None = None
        self._unavailable = 0
        self._paused: tuple[float, str] | None = None  # (until, why)

    @property
    def model(self) -> str:
        return self.transport.model

    def run(self, coroutine: Coroutine[Any, Any, R]) -> R:
        """Run a coroutine that uses this chat on the chat's one event loop."""
        if self._runner is None:
            import asyncio

            self._runner = asyncio.Runner()
        return self._runner.run(coroutine)

    def ask_sync(
        self,
        messages: list[Message],
        schema: type[T],
        *,
        usage: Usage,
        step: str,
        check: Check | None = None,
    ) -> T:
        """`ask` from synchronous code."""
        return self.run(self.ask(messages, schema, usage=usage, step=step, check=check))

    def close(self) -> None:
        """Close the provider's connections, then the event loop."""
        if self._runner is None:
            return
        try:
            self._runner.run(self.transport.aclose())
        except Exception:
            pass
        finally:
            self._runner.close()
            self._runner = None

    def __enter__(self) -> StructuredChat:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    async def _chat(
        self, conversation: list[Message], json_schema: dict[str, Any], name: str
    ) -> Reply:
        if self._paused is not None:
            until, why = self._paused
            if time.monotonic() < until:
                raise LLMUnavailableError(why)
            self._paused = None  # one request tries again
            self._unavailable = self.UNAVAILABLE_LIMIT - 1
        try:
            async with self._limit:
                reply = await self.transport.chat(conversation, schema=json_schema, name=name)
        except LLMUnavailableError as exc:
            self._unavailable += 1
            if self._unavailable >= self.UNAVAILABLE_LIMIT:
                why = (
                    f"{self.model}: not called for {self.PAUSE_SECONDS:.0f}s after "
                    f"{self._unavailable} failed requests in a row ({exc})"
                )
                self._paused = (time.monotonic() + self.PAUSE_SECONDS, why)
            raise
        self._unavailable = 0
        return reply

    async def ask(
        self,
        messages: list[Message],
        schema: type[T],
        *,
        usage: Usage,
        step: str,
        check: Check | None = None,
    ) -> T:
        """The reply as `schema`. `check` (optional) raises ValueError for a reply that
        validates but cannot be used (an unsafe query, an unknown id): like a schema
        failure it gets one corrective retry, and such a reply is never cached."""
        json_schema = schema.model_json_schema()
        key = cache_key(self.model, messages, json_schema)
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                try:
                    value = schema.model_validate(extract_json(hit[0]))
                    if check is not None:
                        check(value)
                    usage.cached += 1
                    return value
                except ValueError:  # pydantic's ValidationError is one
                    pass  # a stale or unusable entry: ask again
        conversation = list(messages)
        problem = ""
        for attempt in range(2):  # the answer, then one corrective retry
            reply = await self._chat(conversation, json_schema, schema.__name__)
            usage.add(step, reply.prompt_tokens, reply.completion_tokens, self.price)
            try:
                if reply.finish_reason == "length":
                    raise ValueError("the reply was cut off (finish_reason=length)")
                if not reply.text.strip():
                    raise ValueError("the reply was empty")
                value = schema.model_validate(extract_json(reply.text))
                if check is not None:
                    check(value)
            except ValueError as exc:  # pydantic's ValidationError is one
                problem = str(exc).splitlines()[0][:300]
                if attempt == 0:
                    conversation = [
                        *messages,
                        {"role": "assistant", "content": reply.text[:2000]},
                        {
                            "role": "user",
                            "content": f"That reply was not usable: {problem}. "
                            "Answer again with only the JSON object, matching the schema, "
                            "and keep it short.",
                        },
                    ]
                continue
            if self.cache is not None:
                self.cache.put(
                    key, self.model, reply.text, reply.prompt_tokens, reply.completion_tokens
                )
            return value
        usage.failures += 1
        raise LLMOutputError(
            redact_text(f"{step}: no valid {schema.__name__} from {self.model} ({problem})")
        )


def some_known(
    named: Callable[[Any], Sequence[Hashable]], known: Container[Hashable], what: str, where: str
) -> Check:
    """A check for `ask`: a reply that names things (node ids, documents, pages) but none
    that is `known` is a reply to correct, not one to use or cache."""

    def check(reply: Any) -> None:
        names = list(named(reply))
        if names and not any(name in known for name in names):
            raise ValueError(f"none of the {what} {names[:5]} is {where}")

    return check


def schema_instructions(schema: dict[str, Any]) -> str:
    """The schema in words, for servers without JSON Schema structured output."""
    return "Reply with only a JSON object matching this JSON Schema:\n" + json.dumps(
        schema, separators=(",", ":")
    )
