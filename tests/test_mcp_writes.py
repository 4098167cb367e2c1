"""The MCP tools that change the corpus are served only when asked for: `ingest` with
`pi mcp --allow-ingest DIR` (paths under those folders only), `set_document_metadata` and
`remove_document` with `--allow-writes`; an ingest stops when its client cancels the call
or goes away."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import anyio
import mcp.client.stdio
import pytest

from .helpers import run_cli
from .test_mcp import READ_TOOLS, TENQ, call, error, run_async, stdio_session

COPIES = 8


async def _tools(*flags: str) -> set[str]:
    async with stdio_session(*flags) as session:
        return {t.name for t in (await session.list_tools()).tools}


def test_write_tools_are_served_only_when_asked_for(corpus: Path, tmp_path: Path) -> None:
    async def test() -> None:
        async with stdio_session() as session:
            assert {t.name for t in (await session.list_tools()).tools} == READ_TOOLS
            for tool, arguments in (
                ("ingest", {"paths": [str(corpus)]}),
                ("set_document_metadata", {"name": TENQ, "year": 2023}),
                ("remove_document", {"name": TENQ}),
            ):
                assert await error(session, tool, arguments) == f"Unknown tool: {tool}"
            assert (await call(session, "get_document", name=TENQ))["name"] == TENQ
        assert await _tools("--allow-ingest", str(tmp_path)) == READ_TOOLS | {"ingest"}
        async with stdio_session("--allow-writes") as session:
            assert {t.name for t in (await session.list_tools()).tools} == READ_TOOLS | {
                "set_document_metadata",
                "remove_document",
            }
            corrected = await call(session, "set_document_metadata", name=TENQ, year=2023)
            assert corrected["fiscal_year"] == 2023
            assert corrected["sources"]["fiscal_year"] == {"source": "user", "confidence": 1.0}
            assert "unknown period" in await error(
                session, "set_document_metadata", {"name": TENQ, "period": "Q5"}
            )
            assert (await call(session, "remove_document", name=TENQ))["removed"] is True
            assert "no document named" in await error(session, "get_document", {"name": TENQ})

    run_async(test)


def test_ingest_reads_only_under_the_allowed_folders(tmp_path: Path) -> None:
    allowed, outside = tmp_path / "allowed", tmp_path / "outside"
    (allowed / "sub").mkdir(parents=True)
    outside.mkdir()
    note = "# {0}\n\n## Retail\n\nThe {0} desk watches inventory turns and store traffic.\n"
    (outside / "secret.md").write_text(note.format("secret"))
    (allowed / "desk.md").write_text(note.format("desk"))
    (allowed / "sub" / "inner.md").write_text(note.format("inner"))
    (allowed / "link_out.md").symlink_to(outside / "secret.md")
    (allowed / "sub" / "leak.md").symlink_to(outside / "secret.md")

    async def test() -> None:
        async with stdio_session("--allow-ingest", str(allowed)) as session:
            for given in (
                outside / "secret.md",  # a file outside
                allowed / ".." / "outside" / "secret.md",  # a way out with ..
                allowed / "link_out.md",  # a link inside that leads outside
                outside,
                Path("/"),
            ):
                refused = await error(session, "ingest", {"paths": [str(given)]})
                assert refused == (
                    f"Error executing tool ingest: {given}: outside the folders this server "
                    f"may ingest ({allowed.resolve()})"
                )
            # one refused path refuses the call: nothing is read
            await error(session, "ingest", {"paths": ["desk.md", str(outside)]})
            assert (await call(session, "browse_documents"))["total"] == 0

            done = await call(session, "ingest", paths=["desk.md", str(allowed / "sub")])
            assert sorted(f["name"] for f in done["files"]) == ["desk", "inner"]
            assert done["stored"] == 2
            assert done["not_followed"] == [str(allowed.resolve() / "sub" / "leak.md")]
            names = [d["name"] for d in (await call(session, "browse_documents"))["documents"]]
            assert names == ["desk", "inner"]

    run_async(test)


def _distinct_copies(pdf: Path, folder: Path) -> list[str]:
    """COPIES copies of `pdf`, each with other bytes after its end (so each is stored as a
    document of its own, not linked as a copy)."""
    folder.mkdir()
    data = pdf.read_bytes()
    names = [f"COPY{i}_8K" for i in range(COPIES)]
    for i, name in enumerate(names):
        (folder / f"{name}.pdf").write_bytes(data + f"\n% copy {i}\n".encode())
    return names


async def _stored(session: Any) -> list[dict[str, Any]]:
    listed = await call(session, "browse_documents", limit=500)
    documents: list[dict[str, Any]] = listed["documents"]
    for document in documents:  # whole: ready, with its pages, tree and chunks
        shown = await call(session, "get_document", name=document["name"])
        assert shown["status"] == "ready" and shown["nodes"] > 0 and shown["chunks"] > 0
        last = shown["page_count"]
        page = await call(session, "get_page_content", name=document["name"], page=last)
        assert page["pages"][0]["page"] == last
    return documents


def test_an_ingest_stops_when_its_call_is_cancelled(small_pdf: Path, tmp_path: Path) -> None:
    folder = tmp_path / "copies"
    names = _distinct_copies(small_pdf, folder)
    log_path = tmp_path / "server.log"

    async def test() -> None:
        with open(log_path, "w") as log:
            async with stdio_session("--allow-ingest", str(folder), errlog=log) as session:
                seen: list[tuple[float, float | None]] = []
                with anyio.CancelScope() as scope:

                    async def cancel(
                        progress: float, total: float | None, message: str | None
                    ) -> None:
                        seen.append((progress, total))
                        scope.cancel()

                    await session.call_tool(
                        "ingest", {"paths": [str(folder)]}, progress_callback=cancel
                    )
                assert seen[0] == (0, COPIES)
                # the server says why it stopped, in its log, after the file it was storing
                deadline = time.monotonic() + 60
                while "the ingest stopped after" not in log_path.read_text():
                    assert time.monotonic() < deadline, log_path.read_text()
                    await anyio.sleep(0.2)
                stored = await _stored(session)
                assert 1 <= len(stored) < COPIES
                line = next(x for x in log_path.read_text().splitlines() if "ingest stopped" in x)
                assert f"of {COPIES} files" in line and f"({len(stored)} stored" in line
                await anyio.sleep(2)
                assert len(await _stored(session)) == len(stored)  # stopped, not going on

                # asked again, it stores the rest
                again = await call(session, "ingest", paths=[str(folder)])
                assert again["stored"] == COPIES - len(stored)
                assert [d["name"] for d in await _stored(session)] == names

    run_async(test)


def test_an_ingest_stops_when_its_client_goes_away(
    small_pdf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "copies"
    _distinct_copies(small_pdf, folder)
    log_path = tmp_path / "server.log"
    # the client waits for the server to end by itself after its stdin closes (the SDK's
    # client would end it after 2 seconds)
    monkeypatch.setattr(mcp.client.stdio, "PROCESS_TERMINATION_TIMEOUT", 120.0)

    async def test() -> None:
        with open(log_path, "w") as log, anyio.CancelScope() as scope:
            async with stdio_session("--allow-ingest", str(folder), errlog=log) as session:

                async def leave(progress: float, total: float | None, message: str | None) -> None:
                    scope.cancel()  # the session closes: the server's stdin ends

                await session.call_tool("ingest", {"paths": [str(folder)]}, progress_callback=leave)
        assert scope.cancelled_caught
        assert "the ingest stopped after" in log_path.read_text()
        async with stdio_session() as fresh:
            assert 1 <= len(await _stored(fresh)) < COPIES

    run_async(test)


@pytest.mark.no_database
def test_an_allowed_folder_must_be_a_folder(tmp_path: Path) -> None:
    code, _, err = run_cli("mcp", "--allow-ingest", str(tmp_path / "nope"))
    assert code == 2 and "Invalid value for '--allow-ingest'" in err and "does not exist" in err
    (tmp_path / "file.md").write_text("# a file\n")
    code, _, err = run_cli("mcp", "--allow-ingest", str(tmp_path / "file.md"))
    assert code == 2 and "Invalid value for '--allow-ingest'" in err and "is a file" in err
