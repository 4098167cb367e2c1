"""A real endpoint keeps connections alive and misbehaves in its own ways (closed connections,
slow or dripping bodies, resets, random bytes, huge replies, long Retry-After, refused
parameters, proxies): each is a typed error with retries or a fallback, never a crash."""

from __future__ import annotations

import email.utils
import json
import random
import time
from typing import Any

import pytest

from pageindex_platform.errors import LLMOutputError, LLMRequestError, LLMUnavailableError
from pageindex_platform.llm import StructuredChat, Usage

from ..fake_llm import FakeLLM, Response
from .client import MESSAGES, Answer, ask, make_chat, scripted

# A real endpoint keeps connections alive and misbehaves in its own ways; each of these is a
# typed error with retries or a fallback, never a crash.


@pytest.mark.no_database
def test_kept_alive_connections_are_reused_across_calls(
    fake: FakeLLM, chats: list[StructuredChat]
) -> None:
    """Calls of one command share one connection (a pool outliving its event loop failed the
    second call with 'Event loop is closed')."""
    chat = make_chat(fake, chats)
    answers = [ask(chat, [{"role": "user", "content": f"question {i}"}])[0] for i in range(4)]
    assert [a.value for a in answers] == [42] * 4
    assert fake.calls == 4 and len(set(fake.ports)) == 1


@pytest.mark.no_database
def test_connections_the_server_closes_are_replaced(chats: list[StructuredChat]) -> None:
    """`Connection: close` replies, and idle connections the server times out."""
    with FakeLLM(lambda request: Response('{"value": 5}', close=True)) as closing:
        chat = make_chat(closing, chats)
        assert [ask(chat, [{"role": "user", "content": str(i)}])[0].value for i in range(3)] == [
            5,
            5,
            5,
        ]
        assert len(set(closing.ports)) == 3
    with FakeLLM(lambda request: Response('{"value": 6}'), keep_alive=1) as idle:
        chat = make_chat(idle, chats)
        ask(chat)
        time.sleep(1.5)  # the server has closed the idle connection by now
        assert ask(chat, [{"role": "user", "content": "again"}])[0].value == 6


@pytest.mark.no_database
def test_chunked_slow_bodies_are_read_whole(fake: FakeLLM, chats: list[StructuredChat]) -> None:
    fake.script = lambda request: Response('{"value": 42}', chunks=6, drip=0.05, delay=0.2)
    answer, usage = ask(make_chat(fake, chats))
    assert answer.value == 42 and usage.calls == 1


@pytest.mark.no_database
def test_a_reply_dripping_past_the_time_limit_is_cut_off(
    fake: FakeLLM, chats: list[StructuredChat]
) -> None:
    """Bytes that keep coming slowly never let a single read time out; the request's total
    time is bounded all the same."""
    fake.script = lambda request: Response('{"value": 42}', chunks=12, drip=0.25)
    started = time.monotonic()
    with pytest.raises(LLMUnavailableError, match="time limit"):
        ask(make_chat(fake, chats, llm_timeout=0.6, llm_max_attempts=2))
    assert fake.calls == 2 and time.monotonic() - started < 5


@pytest.mark.no_database
def test_a_dropped_connection_is_retried(fake: FakeLLM, chats: list[StructuredChat]) -> None:
    fake.script = scripted(
        Response('{"value": 42}', chunks=4, reset=True), Response('{"value": 9}')
    )
    answer, _ = ask(make_chat(fake, chats))
    assert answer.value == 9 and fake.calls == 2


@pytest.mark.no_database
def test_random_bytes_under_status_200_are_a_typed_error(
    fake: FakeLLM, chats: list[StructuredChat]
) -> None:
    noise = bytes(random.Random(7).randrange(256) for _ in range(4096))
    fake.script = lambda request: Response(raw=noise)
    with pytest.raises(LLMUnavailableError, match="unreadable reply"):
        ask(make_chat(fake, chats))  # three attempts; the retry budget (10 s) holds their waits
    assert fake.calls == 3
    fake.script = scripted(Response(raw=noise), Response('{"value": 3}'))
    assert ask(make_chat(fake, chats))[0].value == 3


@pytest.mark.parametrize("chunks", [1, 8], ids=["content-length", "chunked"])
@pytest.mark.no_database
def test_a_huge_reply_is_refused_without_reading_it(
    fake: FakeLLM, chats: list[StructuredChat], chunks: int
) -> None:
    fake.script = lambda request: Response('{"value": 1}', pad=100_000_000, chunks=chunks)
    started = time.monotonic()
    with pytest.raises(LLMUnavailableError, match=r"larger than|limit 1,000,000"):
        ask(make_chat(fake, chats, llm_max_response_bytes=1_000_000))
    assert fake.calls == 1 and time.monotonic() - started < 5  # not retried, not read on


@pytest.mark.parametrize("header", ["3600", "HTTP-date"])
@pytest.mark.no_database
def test_retry_after_beyond_the_retry_budget_fails_at_once(
    fake: FakeLLM, chats: list[StructuredChat], header: str
) -> None:
    if header == "HTTP-date":
        header = email.utils.formatdate(time.time() + 3600, usegmt=True)
    fake.script = lambda request: Response("slow down", status=429, headers={"Retry-After": header})
    started = time.monotonic()
    with pytest.raises(LLMUnavailableError, match=r"asked to retry after 3[56]\d\ds"):
        ask(make_chat(fake, chats))
    assert fake.calls == 1 and time.monotonic() - started < 2


@pytest.mark.no_database
def test_llama_cpp_style_refusal_of_json_schema_steps_down(
    fake: FakeLLM, chats: list[StructuredChat]
) -> None:
    """llama.cpp's Python server refuses `json_schema` with HTTP 500 and a validation message."""

    def llama_cpp(request: dict[str, Any]) -> Response:
        if request.get("response_format", {}).get("type") == "json_schema":
            return Response(
                "1 validation error: ('body', 'response_format', 'type') Input "
                "should be 'text' or 'json_object'",
                status=500,
            )
        return Response('{"value": 11}')

    fake.script = llama_cpp
    answer, usage = ask(make_chat(fake, chats))
    assert answer.value == 11 and usage.calls == 1
    assert [r["response_format"]["type"] for r in fake.requests] == ["json_schema", "json_object"]


def test_a_reply_the_caller_rejects_is_corrected_and_never_cached(
    fake: FakeLLM, chats: list[StructuredChat]
) -> None:
    def no_42(answer: Answer) -> None:
        if answer.value == 42:
            raise ValueError("42 is not allowed here")

    chat = make_chat(fake, chats, cache=True)
    for _ in range(2):  # the second time the same question goes to the model again
        with pytest.raises(LLMOutputError, match="42 is not allowed"):
            chat.ask_sync(MESSAGES, Answer, usage=Usage(), step="test", check=no_42)
    assert fake.calls == 4
    assert "not usable: 42 is not allowed" in fake.requests[1]["messages"][-1]["content"]
    fake.script = scripted(Response('{"value": 42}'), Response('{"value": 7}'))
    value = chat.ask_sync(MESSAGES, Answer, usage=Usage(), step="test", check=no_42)
    assert value.value == 7


@pytest.mark.no_database
def test_an_endpoint_that_keeps_failing_is_paused_then_tried_again(
    fake: FakeLLM, chats: list[StructuredChat], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.script = lambda request: Response("down", status=503)
    chat = make_chat(fake, chats, llm_max_attempts=1)
    monkeypatch.setattr(StructuredChat, "PAUSE_SECONDS", 0.5)
    for _ in range(5):
        with pytest.raises(LLMUnavailableError):
            ask(chat)
    assert fake.calls == StructuredChat.UNAVAILABLE_LIMIT  # the rest failed at once
    time.sleep(0.6)
    fake.script = lambda request: Response('{"value": 5}')
    assert ask(chat)[0].value == 5 and fake.calls == StructuredChat.UNAVAILABLE_LIMIT + 1


@pytest.mark.no_database
def test_the_fake_streams_when_asked(fake: FakeLLM) -> None:
    """Like a real server, the fake streams server-sent events to a client that asks."""
    import httpx2

    body = {"model": "m", "messages": MESSAGES, "stream": True}
    with httpx2.Client() as client:
        reply = client.post(f"{fake.url}/chat/completions", json=body)
    events = [ln.removeprefix("data: ") for ln in reply.text.splitlines() if ln.startswith("data")]
    assert reply.headers["content-type"] == "text/event-stream" and events[-1] == "[DONE]"
    text = "".join(json.loads(e)["choices"][0]["delta"].get("content", "") for e in events[:-1])
    assert text == '{"value": 42}'


@pytest.mark.no_database
def test_replies_are_capped_in_length_with_the_parameter_the_server_takes(
    fake: FakeLLM, chats: list[StructuredChat]
) -> None:
    """Small local models in JSON mode can emit whitespace until the context is full; a
    reasoning model at OpenAI refuses `max_tokens` and takes `max_completion_tokens`."""

    def reasoning_model(request: dict[str, Any]) -> Response:
        if "max_tokens" in request:
            return Response(
                "Unsupported parameter: 'max_tokens' is not supported with this "
                "model. Use 'max_completion_tokens' instead.",
                status=400,
            )
        return Response('{"value": 8}')

    fake.script = reasoning_model
    chat = make_chat(fake, chats, llm_max_tokens=512)
    assert ask(chat)[0].value == 8 and ask(chat)[0].value == 8
    sent = [(r.get("max_tokens"), r.get("max_completion_tokens")) for r in fake.requests]
    assert sent == [(512, None), (None, 512), (None, 512)]
    assert fake.requests[1]["response_format"]["type"] == "json_schema"  # format kept


@pytest.mark.no_database
def test_a_prompt_over_the_context_window_is_refused_without_stepping_down(
    fake: FakeLLM, chats: list[StructuredChat]
) -> None:
    fake.script = lambda request: Response(
        "Requested tokens (9000) exceed context window of 8192", status=400
    )
    with pytest.raises(LLMRequestError, match="context window"):
        ask(make_chat(fake, chats))
    assert fake.calls == 1


@pytest.mark.no_database
def test_an_http_proxy_from_the_environment_is_used(
    fake: FakeLLM, chats: list[StructuredChat], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user behind HTTP_PROXY reaches the model through it (the fake answers as the proxy;
    the model's host does not exist)."""
    proxy = fake.url.removesuffix("/v1")
    for name in ("HTTP_PROXY", "http_proxy"):
        monkeypatch.setenv(name, proxy)
    for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    chat = make_chat(fake, chats, llm_base_url="http://model.invalid/v1", llm_max_attempts=1)
    assert ask(chat)[0].value == 42 and fake.calls == 1
