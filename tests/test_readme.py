"""The README's examples for agents and programs, run as a user would run them."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from pageindex_platform.db import stop_embedded

from .conftest import REPO, SAMPLES

SECTION = "## Agents and programs"


def _block(language: str) -> str:
    text = (REPO / "README.md").read_text()
    section = text[text.index(SECTION) :]
    section = section[: section.index("\n## ", 1)]
    found = re.search(rf"```{language}\n(.*?)```", section, re.DOTALL)
    assert found, f"no {language} example in the README's section {SECTION!r}"
    return found.group(1)


def test_the_python_example_runs(tmp_path: Path) -> None:
    shutil.copytree(SAMPLES, tmp_path / "examples" / "filings")
    here = Path.cwd()
    out = io.StringIO()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(_block("python"), "README.md", "exec"), {"__name__": "__readme__"})
    finally:
        os.chdir(here)
        stop_embedded(tmp_path / "corpus-home" / "pgdata")
    printed = out.getvalue()
    assert "(6.2)% BESTBUY_2024Q2_10Q 16" in printed  # the company's, not the segment's
    assert "('BESTBUY_2024Q2_10Q', " in printed
    assert "16.1%" in printed  # Ulta's operating margin of the fiscal year the release closes
    assert "BESTBUY_2024Q2_10Q 2024" in printed
    # the corpus had settings of its own: the environment's are untouched
    from pageindex_platform.settings import get_settings

    assert get_settings().home == Path(os.environ["PI_HOME"])
    assert (tmp_path / "corpus-home" / "pgdata").is_dir()  # its own embedded database


def test_the_python_example_runs_as_a_plain_script(tmp_path: Path) -> None:
    """Written to a file and run by the interpreter, with no `if __name__ == "__main__":`
    guard: the ingest's parse workers never import the caller's script."""
    shutil.copytree(SAMPLES, tmp_path / "examples" / "filings")
    script = tmp_path / "example.py"
    script.write_text(_block("python"))
    assert "__main__" not in script.read_text()
    try:
        done = subprocess.run(
            [sys.executable, str(script)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        stop_embedded(tmp_path / "corpus-home" / "pgdata")  # the script leaves it running
    assert done.returncode == 0, done.stderr
    assert "(6.2)% BESTBUY_2024Q2_10Q 16" in done.stdout and "16.1%" in done.stdout
    assert "BESTBUY_2024Q2_10Q 2024" in done.stdout


def test_the_mcp_client_configuration_starts_the_server(corpus: Path) -> None:
    config = json.loads(_block("json"))["mcpServers"]["pageindex"]
    assert config["command"] == "pi" and config["args"] == ["mcp"]
    assert set(config["env"]) == {"PI_HOME"}
    command = str(Path(sys.executable).with_name(config["command"]))
    params = StdioServerParameters(command=command, args=config["args"], env=dict(os.environ))

    async def run() -> None:
        with open(os.devnull, "w") as quiet:
            async with (
                stdio_client(params, errlog=quiet) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                tools = {t.name for t in (await session.list_tools()).tools}
                assert {"ask", "browse_documents", "get_page_content"} <= tools

    anyio.run(run)


@pytest.mark.no_database
def test_the_public_names_are_pinned() -> None:
    import pageindex_platform

    assert pageindex_platform.__all__ == [
        "Answer",
        "Citation",
        "Corpus",
        "CorpusClosedError",
        "DatabaseError",
        "DocumentList",
        "DocumentNotFoundError",
        "DocumentScore",
        "EmptySelectionError",
        "EvidenceLine",
        "Filters",
        "IngestReport",
        "IngestSummary",
        "InputError",
        "Listed",
        "MetricWorking",
        "NodeRef",
        "Page",
        "PageIndexError",
        "PageNotFoundError",
        "PageRange",
        "QuestionError",
        "Removed",
        "SearchHit",
        "SearchResult",
        "Section",
        "Shown",
        "StatedFigure",
        "Tree",
        "WorkingInput",
        "__version__",
    ]
    for name in pageindex_platform.__all__:
        assert getattr(pageindex_platform, name) is not None
    assert issubclass(pageindex_platform.EmptySelectionError, pageindex_platform.PageIndexError)
