"""The OpenAI-compatible provider against a fake server over real HTTP: structured output,
tolerant parsing, corrective retry, bounded retries, the response cache."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from pageindex_platform.errors import LLMOutputError, LLMUnavailableError
from pageindex_platform.llm import StructuredChat, extract_json

from ..fake_llm import FakeLLM, Response
from .client import ask, make_chat, scripted


@pytest.mark.no_database
def test_json_schema_structured_output_is_requested(
    fake: FakeLLM, chats: list[StructuredChat]
) -> None:
    answer, usage = ask(make_chat(fake, chats))
    assert answer.value == 42 and usage.calls == 1 and usage.prompt_tokens > 0
    sent = fake.requests[0]
    assert sent["model"] == "llama3.1:8b"
    assert sent["response_format"]["type"] == "json_schema"
    assert sent["response_format"]["json_schema"]["schema"]["required"] == ["value"]


@pytest.mark.no_database
def test_server_refusing_json_schema_gets_json_object_then_plain_text(
    fake: FakeLLM, chats: list[StructuredChat]
) -> None:
    def picky(request: dict[str, Any]) -> Response:
        kind = request.get("response_format", {}).get("type")
        if kind in ("json_schema", "json_object"):
            return Response(f"response_format {kind} is not supported", status=400)
        return Response('Sure! ```json\n{"value": 7}\n``` Hope that helps.')

    fake.script = picky
    chat = make_chat(fake, chats)
    answer, usage = ask(chat)
    assert answer.value == 7 and usage.calls == 1
    assert [r.get("response_format", {}).get("type") for r in fake.requests] == [
        "json_schema",
        "json_object",
        None,
    ]
    assert "JSON Schema" in fake.requests[-1]["messages"][0]["content"]
    ask(chat)  # the provider remembers: no more refused requests
    assert len(fake.requests) == 4


@pytest.mark.no_database
def test_malformed_json_gets_one_corrective_retry(
    fake: FakeLLM, chats: list[StructuredChat]
) -> None:
    fake.script = scripted(Response('{"value": 42'), Response('{"value": 42}'))
    answer, usage = ask(make_chat(fake, chats))
    assert answer.value == 42 and usage.calls == 2
    retry = fake.requests[1]["messages"]
    assert retry[-1]["role"] == "user" and "not usable" in retry[-1]["content"]


@pytest.mark.parametrize(
    "reply",
    [
        Response('{"value": 4', finish_reason="length"),
        Response(""),
        Response('{"value": "forty-two"}'),
        Response("I cannot help with that."),
    ],
    ids=["truncated", "empty", "wrong-type", "prose"],
)
@pytest.mark.no_database
def test_unusable_replies_raise_a_typed_error_after_two_calls(
    fake: FakeLLM, chats: list[StructuredChat], reply: Response
) -> None:
    fake.script = lambda request: reply
    with pytest.raises(LLMOutputError, match="no valid Answer"):
        ask(make_chat(fake, chats))
    assert fake.calls == 2


@pytest.mark.no_database
def test_429_with_retry_after_is_honoured(fake: FakeLLM, chats: list[StructuredChat]) -> None:
    fake.script = scripted(
        Response("slow down", status=429, headers={"Retry-After": "1"}), Response('{"value": 1}')
    )
    started = time.monotonic()
    answer, _ = ask(make_chat(fake, chats))
    assert answer.value == 1 and fake.calls == 2
    assert time.monotonic() - started >= 1.0


@pytest.mark.no_database
def test_server_errors_are_retried_a_bounded_number_of_times(
    fake: FakeLLM, chats: list[StructuredChat]
) -> None:
    fake.script = lambda request: Response("boom", status=500)
    with pytest.raises(LLMUnavailableError, match="after 3 attempt"):
        ask(make_chat(fake, chats))
    assert fake.calls == 3


@pytest.mark.no_database
def test_a_reply_slower_than_the_timeout_is_bounded(
    fake: FakeLLM, chats: list[StructuredChat]
) -> None:
    fake.script = lambda request: Response('{"value": 1}', delay=1.5)
    started = time.monotonic()
    with pytest.raises(LLMUnavailableError, match="time limit"):
        ask(make_chat(fake, chats, llm_timeout=0.3, llm_max_attempts=2))
    assert fake.calls == 2 and time.monotonic() - started < 6


def test_the_response_cache_makes_repeats_free(fake: FakeLLM, chats: list[StructuredChat]) -> None:
    chat = make_chat(fake, chats, cache=True)
    first, usage1 = ask(chat)
    second, usage2 = ask(chat)
    assert first == second and fake.calls == 1
    assert (usage1.calls, usage1.cached) == (1, 0) and (usage2.calls, usage2.cached) == (0, 1)
    other = [{"role": "user", "content": "And seven times six?"}]
    ask(chat, other)
    assert fake.calls == 2


@pytest.mark.no_database
def test_extract_json_tolerates_fences_and_prose() -> None:
    assert extract_json('```json\n{"a": 1}\n```') == {"a": 1}
    assert extract_json('Here you go: {"a": [1, 2]} -- done') == {"a": [1, 2]}
    with pytest.raises(ValueError):
        extract_json("no json here")
    assert json.loads(json.dumps(extract_json('[{"x": null}]'))) == [{"x": None}]
