"""A fake OpenAI-compatible server on localhost that behaves like a real one: an ASGI app on
uvicorn, HTTP/1.1 keep-alive, `/v1/chat/completions` scripted per test. `competent` plays a
model that answers from the page text in the prompt (tests/fake_answers.py); chaos scripts
return malformed JSON, cut-off replies, wrong ids, 429s, 500s, slow first bytes, slow bodies,
random bytes, huge bodies or dropped connections.

    python -m tests.fake_llm --port 8765     # a competent model for manual runs
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
import uvicorn

from pageindex_platform.settings import get_settings
from pageindex_platform.tokens import count_tokens

from .fake_answers import competent_answer, task_of


@dataclass
class Response:
    """One scripted reply. By default a JSON chat completion with Content-Length over a
    kept-alive HTTP/1.1 connection, as real servers send it; the other fields make it
    misbehave the ways real endpoints and proxies do."""

    content: str | None = None
    status: int = 200
    finish_reason: str = "stop"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # before the first byte
    body: dict[str, Any] | None = None  # a raw JSON body instead of a completion
    raw: bytes | None = None  # these bytes as the body (e.g. random bytes under status 200)
    chunks: int = 1  # >1: the body in that many pieces, chunked transfer encoding
    drip: float = 0.0  # seconds between the pieces (slow bytes)
    pad: int = 0  # bytes of JSON whitespace sent before the body (a huge reply)
    reset: bool = False  # send the headers and part of the body, then drop the connection
    close: bool = False  # "Connection: close": the server closes after this reply


Script = Callable[[dict[str, Any]], Response]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class Hostile:
    """A model behind a bad gateway: in turn, malformed JSON, a cut-off reply, 429 with
    Retry-After, 500, no reply within the timeout, a dropped connection, random bytes under
    200, a huge body and, every third request, a competent reply (`seed` fixes the order)."""

    def __init__(self, *, timeout: float, seed: int = 0) -> None:
        self.timeout = timeout
        self.random = random.Random(seed)
        self.count = 0
        self.kinds: dict[str, int] = {}

    def __call__(self, request: dict[str, Any]) -> Response:
        self.count += 1
        if self.count % 3 == 0:
            kind, reply = "competent", competent(request)
        else:
            kind = self.random.choice(sorted(self._bad()))
            reply = self._bad()[kind]
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        return reply

    def _bad(self) -> dict[str, Response]:
        return {
            "malformed": Response('{"node_list": ["0001", '),
            "truncated": Response('{"answer": "Revenue was', finish_reason="length"),
            "rate_limited": Response("busy", status=429, headers={"Retry-After": "0.2"}),
            "server_error": Response("boom", status=500),
            "timeout": Response('{"sql": "SELECT 1"}', delay=self.timeout * 3),
            "reset": Response('{"documents": []}', chunks=4, reset=True),
            "noise": Response(raw=self.random.randbytes(2048)),
            "huge": Response('{"documents": []}', pad=50_000_000, chunks=8),
        }


def competent(request: dict[str, Any]) -> Response:
    name, payload = task_of(request)
    return Response(json.dumps(competent_answer(name, payload)))


class FakeLLM:
    """The server: an ASGI app served by uvicorn on a thread. HTTP/1.1 with keep-alive (idle
    connections closed after `keep_alive` seconds, as servers do), streamed (SSE) replies when a
    request asks for `stream`. `script` decides each reply, `requests` records what arrived,
    `targets` the path and query each was sent to and `ports` the client port of each, so
    tests can see connections being reused."""

    def __init__(self, script: Script = competent, port: int = 0, keep_alive: int = 5) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self.targets: list[str] = []
        self.ports: list[int] = []
        self.lock = threading.Lock()
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind(("127.0.0.1", port))
        config = uvicorn.Config(
            self._app,
            interface="asgi3",
            lifespan="off",
            ws="none",
            http="h11",
            log_level="critical",
            access_log=False,
            timeout_keep_alive=keep_alive,
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.socket.getsockname()[1]}/v1"

    @property
    def calls(self) -> int:
        return len(self.requests)

    def __enter__(self) -> FakeLLM:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the fake model server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.socket.close()

    async def _app(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        if scope["method"] == "GET" and scope["path"].endswith("/models"):
            await _send(
                send,
                200,
                {},
                json.dumps(
                    {
                        "object": "list",
                        "data": [{"id": "fake", "object": "model", "owned_by": "fake"}],
                    }
                ).encode(),
            )
            return
        gone = asyncio.Event()  # set when the client hangs up: a real server stops sending

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            gone.set()

        watcher = asyncio.create_task(watch())
        try:
            query = scope.get("query_string", b"").decode("latin-1")
            target = scope["path"] + (f"?{query}" if query else "")
            await self._reply(body, target, scope["client"][1], send, gone)
        finally:
            watcher.cancel()

    async def _reply(
        self, body: bytes, target: str, port: int, send: Send, gone: asyncio.Event
    ) -> None:
        request = json.loads(body or b"{}")
        with self.lock:
            self.requests.append(request)
            self.targets.append(target)
            self.ports.append(port)
            reply = self.script(request)
        if reply.delay:
            await asyncio.sleep(reply.delay)
        headers = dict(reply.headers)
        if reply.close:
            headers["connection"] = "close"
        if request.get("stream") and reply.status < 400 and reply.raw is None:
            await _send_events(send, request, reply, headers)
            return
        if reply.raw is not None:
            data = reply.raw
        else:
            data = json.dumps(
                reply.body if reply.body is not None else _completion(request, reply)
            ).encode()
        await _send(send, reply.status, headers, data, reply, gone)


async def _send(
    send: Send,
    status: int,
    headers: dict[str, str],
    data: bytes,
    reply: Response | None = None,
    gone: asyncio.Event | None = None,
) -> None:
    reply = reply or Response()
    pieces = _split(data, max(1, reply.chunks))
    total = reply.pad + len(data)
    out = [(b"content-type", b"application/json")]
    out += [(k.lower().encode(), v.encode()) for k, v in headers.items()]
    if reply.chunks == 1 and not reply.pad:  # chunked transfer encoding otherwise
        out.append((b"content-length", str(total).encode()))
    await send({"type": "http.response.start", "status": status, "headers": out})
    padding = reply.pad
    while padding > 0:  # whitespace before a JSON value is still valid JSON
        if gone is not None and gone.is_set():
            return
        step = min(padding, 1 << 20)
        await send({"type": "http.response.body", "body": b" " * step, "more_body": True})
        padding -= step
    for i, piece in enumerate(pieces):
        if reply.reset and i == len(pieces) // 2:
            raise ConnectionResetError("the fake drops the connection mid-reply")
        if i and reply.drip:
            await asyncio.sleep(reply.drip)
        more = i < len(pieces) - 1
        await send({"type": "http.response.body", "body": piece, "more_body": more})
    if reply.reset:  # a one-piece body: cut after the headers
        raise ConnectionResetError("the fake drops the connection after the headers")


def _split(data: bytes, n: int) -> list[bytes]:
    size = max(1, -(-len(data) // n))
    return [data[i : i + size] for i in range(0, len(data), size)] or [b""]


async def _send_events(
    send: Send, request: dict[str, Any], reply: Response, headers: dict[str, str]
) -> None:
    """A streamed completion: server-sent events of content deltas, then [DONE]."""
    out = [(b"content-type", b"text/event-stream")]
    out += [(k.lower().encode(), v.encode()) for k, v in headers.items()]
    await send({"type": "http.response.start", "status": reply.status, "headers": out})
    content = reply.content or ""
    base = {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": request.get("model", "fake"),
    }
    pieces = _split(content.encode(), max(1, reply.chunks, len(content) // 40))
    for i, piece in enumerate(pieces):
        if i and reply.drip:
            await asyncio.sleep(reply.drip)
        delta = {"role": "assistant", "content": piece.decode(errors="ignore")}
        event = {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
        await send(
            {
                "type": "http.response.body",
                "body": f"data: {json.dumps(event)}\n\n".encode(),
                "more_body": True,
            }
        )
    done = {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": reply.finish_reason}]}
    await send(
        {
            "type": "http.response.body",
            "more_body": False,
            "body": f"data: {json.dumps(done)}\n\ndata: [DONE]\n\n".encode(),
        }
    )


@contextmanager
def serving(
    monkeypatch: pytest.MonkeyPatch, script: Script, *, model: str = "fake-analyst", **env: str
) -> Iterator[FakeLLM]:
    """A fake server configured as the llm-mode endpoint (PI_LLM_*), settings reloaded."""
    with FakeLLM(script) as server:
        monkeypatch.setenv("PI_LLM_BASE_URL", server.url)
        monkeypatch.setenv("PI_LLM_MODEL", model)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        get_settings.cache_clear()
        yield server
    get_settings.cache_clear()


def _completion(request: dict[str, Any], reply: Response) -> dict[str, Any]:
    if reply.status >= 400:
        return {"error": {"message": reply.content or "error", "type": "server_error"}}
    prompt = sum(count_tokens(m.get("content", "")) for m in request.get("messages", []))
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "fake"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply.content},
                "finish_reason": reply.finish_reason,
            }
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": count_tokens(reply.content or ""),
            "total_tokens": prompt + count_tokens(reply.content or ""),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="A competent fake OpenAI-compatible model.")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    with FakeLLM(port=args.port) as fake:
        print(f"serving a fake model at {fake.url}", flush=True)
        fake.thread.join()


if __name__ == "__main__":
    main()
