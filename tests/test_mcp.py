"""`pi mcp` driven as an agent drives it: a subprocess, spoken to by the official MCP SDK's
own client over stdio and streamable HTTP, on the real database."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TextIO

import anyio
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import TextContent

from .conftest import DEV_SET
from .helpers import PI, free_port, refused_without, run_cli, run_json

# these time servers and endpoints (or bind ports): run alone (scripts/test.sh)
pytestmark = pytest.mark.serial

READ_TOOLS = {
    "browse_documents",
    "get_document",
    "get_document_structure",
    "get_page_content",
    "search",
    "ask",
}
TOOLS = READ_TOOLS | {"ingest", "set_document_metadata", "remove_document"}
TENQ = "BESTBUY_2024Q2_10Q"
QUESTION = "Best Buy Q2 FY2024 comparable sales"


@asynccontextmanager
async def stdio_session(*flags: str, errlog: TextIO | None = None) -> AsyncIterator[ClientSession]:
    """A session with `pi mcp FLAGS`, spoken to over stdio by the SDK's own client; the
    server's stderr goes to `errlog` (nowhere when None)."""
    params = StdioServerParameters(command=PI, args=["mcp", *flags], env=dict(os.environ))
    with contextlib.ExitStack() as stack:
        log = errlog or stack.enter_context(open(os.devnull, "w"))
        async with (
            stdio_client(params, errlog=log) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


def run_async(test: Callable[[], Awaitable[None]]) -> None:
    anyio.run(test)


async def call(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content
    content: dict[str, Any] | None = result.structured_content
    assert content is not None
    return content


async def error(session: ClientSession, tool: str, arguments: dict[str, Any]) -> str:
    result = await session.call_tool(tool, arguments)
    assert result.is_error, (tool, result.structured_content)
    text = result.content[0].text  # type: ignore[union-attr]
    assert "\n" not in text.strip() or "validation error" in text
    return text


def test_stdio_tools_answer_as_the_cli_does(corpus: Path, tmp_path: Path) -> None:
    cli = run_json("ask", QUESTION)
    extra = tmp_path / "more"
    extra.mkdir()
    (extra / "desk_notes.md").write_text(
        "# Desk notes\n\n## Retail\n\nInventory discipline matters more than store count.\n"
    )
    from pageindex_platform import Corpus

    with Corpus.open() as api:  # the API's results, as the CLI's --json shows them
        expected = {
            "ask": api.ask(QUESTION).to_dict(),
            "search": api.search(QUESTION, limit=3).to_dict(),
            "browse_documents": api.documents(limit=2).to_dict(),
        }

    async def test() -> None:
        async with stdio_session("--allow-ingest", str(extra), "--allow-writes") as session:
            listed = (await session.list_tools()).tools
            assert {t.name for t in listed} == TOOLS
            for tool in listed:
                assert tool.input_schema["type"] == "object" and tool.output_schema is not None
                assert tool.annotations is not None
                writes = tool.name in ("ingest", "set_document_metadata", "remove_document")
                assert tool.annotations.read_only_hint is not writes
            remove = next(t for t in listed if t.name == "remove_document")
            assert remove.annotations is not None and remove.annotations.destructive_hint

            # the API's typed results, as structured content and as a text copy
            arguments: dict[str, dict[str, Any]] = {
                "ask": {"question": QUESTION},
                "search": {"question": QUESTION, "limit": 3},
                "browse_documents": {"limit": 2},
            }
            for tool_name, args in arguments.items():
                result = await session.call_tool(tool_name, args)
                assert not result.is_error and result.structured_content is not None
                text = result.content[0]
                assert isinstance(text, TextContent)
                assert json.loads(text.text) == result.structured_content
                served, wanted = dict(result.structured_content), dict(expected[tool_name])
                if tool_name == "ask":  # the time taken differs from run to run
                    assert set(served.pop("timings")) == set(wanted.pop("timings"))
                assert served == wanted, tool_name

            # the same answer and citations as `pi ask --json`
            answer = await call(session, "ask", question=QUESTION)
            assert answer["answer"] == cli["answer"]
            assert answer["citations"] == cli["citations"]
            assert "(6.3)%" in answer["answer"]

            first = await call(session, "browse_documents", limit=2)
            assert first["total"] == len(run_json("docs", "list")) and first["next_offset"] == 2
            rest = await call(session, "browse_documents", limit=50, offset=2)
            assert rest["next_offset"] is None
            names = [d["name"] for d in first["documents"] + rest["documents"]]
            assert names == sorted(names) and TENQ in names
            only = await call(session, "browse_documents", company="Best Buy", doc_type="10-q")
            assert [d["name"] for d in only["documents"]] == [TENQ]

            shown = await call(session, "get_document", name=TENQ)
            assert shown["company"] == "Best Buy Co., Inc." and shown["tree_source"]
            tree = await call(session, "get_document_structure", name=TENQ, depth=1)
            assert tree["nodes"] and all(n["nodes"] == [] for n in tree["nodes"])
            assert any(n["nodes"] for n in run_json("docs", "tree", TENQ)["nodes"])
            page = await call(session, "get_page_content", name=TENQ, page=17)
            assert page["pages"][0]["text"] == run_json("docs", "page", TENQ, "17")["text"]
            cut = await call(
                session, "get_page_content", name=TENQ, page=1, last_page=30, max_chars=3000
            )
            assert cut["truncated"] and sum(len(p["text"]) for p in cut["pages"]) == 3000
            assert "page" in cut["note"]

            found = await call(session, "search", question=QUESTION, limit=3)
            assert found["documents"][0]["name"] == TENQ and len(found["pages"]) == 3
            assert all(p["snippet"] for p in found["pages"])
            assert "answer" not in found

            reported: list[tuple[float, float | None, str | None]] = []

            async def on_progress(
                progress: float, total: float | None, message: str | None
            ) -> None:
                reported.append((progress, total, message))

            result = await session.call_tool(
                "ingest", {"paths": [str(extra)]}, progress_callback=on_progress
            )
            assert not result.is_error and result.structured_content is not None
            assert result.structured_content["stored"] == 1
            assert reported and reported[-1][0] == reported[-1][1] == 1
            assert "desk_notes" in (reported[-1][2] or "")

            removed = await call(session, "remove_document", name="desk_notes")
            assert removed["removed"] is True
            assert "desk_notes" not in [d["name"] for d in run_json("docs", "list")]

            # bad calls are tool errors with the one-line message; the server lives on
            assert "no document named 'NOPE'" in await error(
                session, "get_document", {"name": "NOPE"}
            )
            assert "has no page 999" in await error(
                session, "get_page_content", {"name": TENQ, "page": 999}
            )
            assert "empty" in await error(session, "ask", {"question": "  "})
            assert await error(session, "ask", {"question": "x" * 1_000_000}) == (
                "Error executing tool ask: the question is 1,000,000 characters long "
                "(at most 20,000)"
            )
            assert "the question contains a NUL character" in await error(
                session, "ask", {"question": "revenue\x00 2023"}
            )
            assert "an item of documents contains a NUL character" in await error(
                session, "ask", {"question": "revenue", "documents": [TENQ, "A\x00B"]}
            )
            assert "the name contains a NUL character" in await error(
                session, "get_document", {"name": "NOPE\x00"}
            )
            await error(session, "get_page_content", {"name": TENQ, "page": "seventeen"})
            await error(session, "browse_documents", {"limit": -1})
            await error(session, "ask", {"question": ["not", "text"]})
            assert "no stored filing matches" in await error(
                session, "ask", {"question": "revenue", "year": 1990}
            )
            assert (await call(session, "ask", question=QUESTION))["citations"] == cli["citations"]

    run_async(test)


def test_a_question_filtered_to_one_document_answers_from_it_alone(corpus: Path) -> None:
    """The same filters in the CLI, the API and MCP; an empty selection is one clear error."""
    question = "revenue"
    out = run_json("ask", "--doc", "AMCOR_2023Q4_EARNINGS", question)
    assert {c["document"] for c in out["citations"]} == {"AMCOR_2023Q4_EARNINGS"}
    assert "filter" in out["route_reason"]
    from pageindex_platform import Corpus

    with Corpus.open() as api:
        answer = api.ask(question, documents=["AMCOR_2023Q4_EARNINGS"])
    assert answer.to_dict()["citations"] == out["citations"]

    async def test() -> None:
        async with stdio_session() as session:
            served = await call(
                session, "ask", question=question, documents=["AMCOR_2023Q4_EARNINGS"]
            )
            assert served["citations"] == out["citations"]

    run_async(test)
    code, _, err = run_cli("ask", "--company", "Best Buy", "--type", "8-K", question)
    assert code == 2 and err.strip().splitlines()[-1] == (
        "Error: no stored filing matches the filters (company=Best Buy, type=8-K)"
    )
    code, _, err = run_cli("ask", "--period", "Q5", question)
    assert code == 2 and "unknown period 'Q5' (one of: FY, Q1, Q2, Q3, Q4)" in err


@pytest.mark.slow
def test_one_thousand_random_calls_never_end_the_server(corpus: Path) -> None:
    rng = random.Random(27)
    values: list[Any] = [
        None, "", " ", TENQ, "NOPE", "x" * 30_000, -1, 0, 1, 17, 10**12, 3.5, True,
        [], [TENQ], {"a": 1}, "Best Buy", "10-Q", "Q2", "FY", 2024, "\x00", "😀" * 50,
        "' OR 1=1 --", "../../etc/passwd", QUESTION,
    ]  # fmt: skip
    fields = [
        "name", "page", "last_page", "max_chars", "question", "documents", "company",
        "year", "doc_type", "period", "limit", "offset", "depth", "paths", "force", "other",
    ]  # fmt: skip
    tools = [*sorted(TOOLS), "no_such_tool"]  # served without --allow-*: reads only

    async def test() -> None:
        async with stdio_session() as session:
            errors = 0
            for _ in range(1000):
                tool = rng.choice(tools)
                arguments = {f: rng.choice(values) for f in rng.sample(fields, rng.randint(0, 4))}
                result = await session.call_tool(tool, arguments)
                assert isinstance(result.is_error, bool)
                if result.is_error:
                    errors += 1
                    assert result.content and result.content[0].type == "text"
                else:
                    assert isinstance(result.structured_content, dict)
            assert 0 < errors < 1000
            # still serving, and still right
            assert (await call(session, "ask", question=QUESTION))["citations"]

    run_async(test)


@asynccontextmanager
async def http_session(url: str, token: str | None) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    async with (
        create_mcp_http_client(headers=headers) as client,
        streamable_http_client(url, http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def _serve_http(env: dict[str, str], listen: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [PI, "mcp", "--http", listen],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _wait_for(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError("the server did not start")


def test_http_needs_the_token_and_serves_two_clients_at_once(corpus: Path) -> None:
    port = free_port()
    env = {**os.environ, "PI_MCP_TOKEN": "s3cret-token"}
    process = _serve_http(env, str(port))
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        _wait_for(port, process)
        refused = httpx2.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert refused.status_code == 401
        wrong = httpx2.post(url, json={}, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401

        async def test() -> None:
            answers: list[dict[str, Any]] = []

            async def one() -> None:
                async with http_session(url, "s3cret-token") as session:
                    assert {t.name for t in (await session.list_tools()).tools} == READ_TOOLS
                    answers.append(await call(session, "ask", question=QUESTION))
                    assert "no document named" in await error(
                        session, "get_document", {"name": "NOPE"}
                    )

            async with anyio.create_task_group() as group:
                group.start_soon(one)
                group.start_soon(one)
            assert len(answers) == 2 and answers[0]["citations"] == answers[1]["citations"]

        run_async(test)
    finally:
        process.terminate()
        process.wait(timeout=30)
        if process.stderr is not None:
            process.stderr.close()


@pytest.mark.no_database
def test_another_interface_without_a_token_is_refused() -> None:
    code, line = refused_without("PI_MCP_TOKEN", "mcp", "--http", f"0.0.0.0:{free_port()}")
    assert code != 0
    assert line == (
        "Error: serving on 0.0.0.0 (not loopback) needs a bearer token: set PI_MCP_TOKEN"
    )
    env = {k: v for k, v in os.environ.items() if k != "PI_MCP_TOKEN"}
    bad = subprocess.run(
        [PI, "mcp", "--http", "127.0.0.1:http"], env=env, capture_output=True, text=True
    )
    assert bad.returncode != 0 and "expected [HOST:]PORT" in bad.stderr


NIKE = DEV_SET / "pdfs" / "NIKE_2023_10K.pdf"


@pytest.mark.skipif(not NIKE.is_file(), reason="../shared/financebench-dev not present")
def test_nike_inventory_turnover_from_that_filing_alone(corpus: Path, tmp_path: Path) -> None:
    """`pi ask --doc NIKE_2023_10K "inventory turnover"`, the API and MCP: the metric with its
    working, every citation from that filing."""
    folder = tmp_path / "nike"
    folder.mkdir()
    shutil.copy(NIKE, folder / NIKE.name)
    assert run_cli("ingest", str(folder))[0] == 0
    question = "inventory turnover"
    out = run_json("ask", "--doc", "NIKE_2023_10K", question)
    assert out["answer"].startswith("3.43 — inventory turnover, FY2023")
    assert [i["name"] for i in out["working"]["inputs"]] == [
        "cost of sales",
        "inventory",
        "inventory",
    ]
    assert {c["document"] for c in out["citations"]} == {"NIKE_2023_10K"}
    from pageindex_platform import Corpus

    with Corpus.open() as api:
        assert api.ask(question, documents=["NIKE_2023_10K"]).to_dict()["answer"] == out["answer"]

    async def test() -> None:
        async with stdio_session() as session:
            served = await call(session, "ask", question=question, documents=["NIKE_2023_10K"])
            assert served["answer"] == out["answer"] and served["citations"] == out["citations"]

    run_async(test)
