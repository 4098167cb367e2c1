"""The OpenAI-compatible provider: OpenAI, gateways, Ollama, vLLM, llama.cpp server.

The only module that imports `openai`. SDK errors are mapped to ours here; retries (with
exponential backoff, jitter and Retry-After) are bounded in attempts and total waiting time.
Structured output is requested as JSON Schema, stepping down to `json_object` and then plain
text when a server refuses it.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import openai

from .errors import ConfigurationError, LLMRequestError, LLMUnavailableError
from .llm import Message, Reply, ResponseFormat, schema_instructions
from .settings import Settings

_RETRYABLE = (openai.APITimeoutError, openai.APIConnectionError, openai.RateLimitError,
              openai.InternalServerError)  # fmt: skip


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
        self.client = openai.AsyncOpenAI(
            base_url=settings.llm_base_url,
            api_key=settings.llm_api_key or "not-needed",  # local servers ignore it
            timeout=settings.llm_timeout,
            max_retries=0,  # retries are ours, bounded in attempts and time
            http_client=http_client,
        )

    def _request(self, messages: list[Message], schema: dict[str, Any] | None, name: str
                 ) -> dict[str, Any]:  # fmt: skip
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": self.settings.llm_temperature,
        }
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

    async def chat(
        self, messages: list[Message], *, schema: dict[str, Any] | None, name: str
    ) -> Reply:
        started = time.monotonic()
        waited = 0.0
        attempt = 0
        while True:
            attempt += 1
            try:
                response = await self.client.chat.completions.create(
                    **self._request(messages, schema, name)
                )
            except openai.BadRequestError as exc:
                if schema is not None and self.format != ResponseFormat.TEXT:
                    # The server does not take this response_format: step down and resend.
                    self.format = (ResponseFormat.JSON_OBJECT
                                   if self.format == ResponseFormat.JSON_SCHEMA
                                   else ResponseFormat.TEXT)  # fmt: skip
                    attempt -= 1
                    continue
                raise LLMRequestError(f"{self.model}: request refused ({exc.message})") from exc
            except _RETRYABLE as exc:
                delay = _backoff(attempt, exc)
                budget = self.settings.llm_max_retry_seconds - waited
                if attempt >= self.settings.llm_max_attempts or delay > budget:
                    elapsed = time.monotonic() - started
                    raise LLMUnavailableError(
                        f"{self.model}: {type(exc).__name__} after {attempt} attempts "
                        f"in {elapsed:.0f}s ({exc})"
                    ) from exc
                await asyncio.sleep(delay)
                waited += delay
                continue
            except openai.APIStatusError as exc:
                raise LLMRequestError(
                    f"{self.model}: HTTP {exc.status_code} ({exc.message})"
                ) from exc
            except openai.OpenAIError as exc:
                raise LLMUnavailableError(f"{self.model}: {exc}") from exc
            if not response.choices:
                return Reply("", None, 0, 0)
            choice = response.choices[0]
            usage = response.usage
            return Reply(
                text=choice.message.content or "",
                finish_reason=choice.finish_reason,
                prompt_tokens=usage.prompt_tokens if usage else 0,
                completion_tokens=usage.completion_tokens if usage else 0,
            )


def _backoff(attempt: int, exc: Exception) -> float:
    """Exponential backoff with jitter; a server's Retry-After wins when it says more."""
    delay: float = min(30.0, 0.5 * 2 ** (attempt - 1)) * (0.5 + random.random())
    response = getattr(exc, "response", None)
    header = response.headers.get("retry-after") if response is not None else None
    if header and header.replace(".", "", 1).isdigit():
        delay = max(delay, float(header))
    return delay
