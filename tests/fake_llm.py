"""A fake OpenAI-compatible server on localhost: real HTTP, `/v1/chat/completions`, scripted
per test. `competent` plays a model that answers from the page text in the prompt; chaos
scripts return malformed JSON, cut-off replies, wrong ids, 429s, 500s or slow replies.

    python -m tests.fake_llm --port 8765     # a competent model for manual runs
"""

from __future__ import annotations

import argparse
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from pageindex_platform.index.text import item_label, normalize, part_label
from pageindex_platform.settings import get_settings
from pageindex_platform.tokens import count_tokens


@dataclass
class Response:
    content: str | None = None
    status: int = 200
    finish_reason: str = "stop"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    body: dict[str, Any] | None = None  # a raw body instead of a completion


Script = Callable[[dict[str, Any]], Response]


def task_of(request: dict[str, Any]) -> tuple[str, Any]:
    """The TASK name and INPUT payload of the last user message."""
    text = next(m["content"] for m in reversed(request["messages"]) if m["role"] == "user")
    if "TASK: " not in text:  # a corrective retry: the task is in the first user message
        text = next(m["content"] for m in request["messages"] if m["role"] == "user")
    name = text.split("\n", 1)[0].removeprefix("TASK: ").strip()
    payload = json.loads(text.split("INPUT:\n", 1)[1])
    return name, payload


_ENTRY = re.compile(r"^(.*?[A-Za-z].*?)\s+(\d{1,3})$")


def _title_on(title: str, text: str) -> bool:
    rows = text.splitlines()[:40]
    item, part = item_label(title), part_label(title)
    if item:
        return any(item_label(r) == item for r in rows)
    if part:
        return any(part_label(r) == part for r in rows)
    want = normalize(title)[:30]
    return bool(want) and any(normalize(r).startswith(want) for r in rows)


def competent_answer(name: str, payload: Any) -> dict[str, Any]:
    """What a careful model would answer, derived from the page text in the prompt."""
    if name == "detect_toc":
        pages = [
            p["page"]
            for p in payload
            if "contents" in p["text"].lower()[:400]
            or sum(1 for ln in p["text"].splitlines() if _ENTRY.match(ln.strip())) >= 8
        ]
        return {"toc_pages": pages[:3]}
    if name == "extract_toc":
        items = []
        for line in payload["toc"].splitlines():
            m = _ENTRY.match(line.strip())
            if m and len(m.group(1)) > 3:
                level = "1" if part_label(m.group(1)) else "1.1"
                items.append({"structure": level, "title": m.group(1), "page": int(m.group(2))})
        return {"items": items}
    if name == "locate_sections":
        results = []
        for entry in payload:
            pages = [int(p) for p, text in entry["candidates"].items()
                     if _title_on(entry["title"], text)]  # fmt: skip
            results.append({"index": entry["index"], "page": pages[0] if pages else None})
        return {"results": results}
    if name == "locate_titles":
        results = []
        for t in payload["titles"]:
            pages = [p["page"] for p in payload["pages"] if _title_on(t["title"], p["text"])]
            results.append({"index": t["index"], "page": pages[0] if pages else None})
        return {"results": results}
    if name == "generate_structure":
        sections = []
        for p in payload["pages"]:
            for row in p["text"].splitlines()[:15]:
                if item_label(row) or part_label(row):
                    level = "1" if part_label(row) else "1.1"
                    sections.append({"structure": level, "title": row[:80], "page": p["page"]})
        return {"sections": sections}
    if name == "summarize_nodes":
        return {"summaries": [
            {"node_id": n["node_id"],
             "summary": f"{n['title']}: " + " ".join(n["text"].split())[:120]}
            for n in payload
        ]}  # fmt: skip
    if name == "describe_document":
        return {"description": f"{payload['company']} {payload['doc_type']} for fiscal "
                f"{payload['fiscal_year']}, covering " + ", ".join(
                    s["title"] for s in payload["sections"][:3]) + "."}  # fmt: skip
    raise ValueError(f"unknown task {name}")


def competent(request: dict[str, Any]) -> Response:
    name, payload = task_of(request)
    return Response(json.dumps(competent_answer(name, payload)))


class FakeLLM:
    """The server; `script` decides each reply, `requests` records what arrived."""

    def __init__(self, script: Script = competent, port: int = 0) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                request = json.loads(self.rfile.read(length) or b"{}")
                with fake.lock:
                    fake.requests.append(request)
                    reply = fake.script(request)
                if reply.delay:
                    time.sleep(reply.delay)
                body = reply.body if reply.body is not None else _completion(request, reply)
                data = json.dumps(body).encode()
                try:
                    self.send_response(reply.status)
                    for key, value in reply.headers.items():
                        self.send_header(key, value)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    @property
    def calls(self) -> int:
        return len(self.requests)

    def __enter__(self) -> FakeLLM:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


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
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": reply.content},
            "finish_reason": reply.finish_reason,
        }],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": count_tokens(reply.content or ""),
            "total_tokens": prompt + count_tokens(reply.content or ""),
        },
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description="A competent fake OpenAI-compatible model.")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    with FakeLLM(port=args.port) as fake:
        print(f"serving a fake model at {fake.url}", flush=True)
        fake.thread.join()


if __name__ == "__main__":
    main()
