"""The MCP tools' output schemas are made from the API's result types: every field of a result
is a property of its tool's schema (a field added later appears unasked), the recursive tree
included; and the door reaches the library only through the API."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import anyio
import pytest
from jsonschema import Draft202012Validator

from pageindex_platform.api import (
    Answer,
    Corpus,
    DocumentList,
    IngestSummary,
    PageRange,
    Removed,
    SearchResult,
    Shown,
    Tree,
)
from pageindex_platform.mcp_server import build_server

from .conftest import REPO
from .test_mcp import TENQ, call, run_async, stdio_session

RESULTS: dict[str, type[Any]] = {
    "browse_documents": DocumentList,
    "get_document": Shown,
    "get_document_structure": Tree,
    "get_page_content": PageRange,
    "search": SearchResult,
    "ask": Answer,
    "ingest": IngestSummary,
    "set_document_metadata": Shown,
    "remove_document": Removed,
}


def _fields(kind: type[Any]) -> set[str]:
    return {f.name for f in dataclasses.fields(kind)}


@pytest.mark.no_database
def test_each_output_schema_is_its_result_type(tmp_path: Path) -> None:
    with Corpus.open() as corpus:
        server = build_server(corpus, ingest_folders=[tmp_path], allow_writes=True)
        tools = {t.name: t for t in anyio.run(server.list_tools)}
    assert set(tools) == set(RESULTS)
    for name, kind in RESULTS.items():
        schema = tools[name].output_schema
        assert schema is not None and schema["type"] == "object", name
        Draft202012Validator.check_schema(schema)
        assert set(schema["properties"]) == _fields(kind), name
        assert set(schema["required"]) <= _fields(kind)
    asked = tools["ask"].output_schema or {}
    assert len(asked["properties"]) >= 3
    wanted = {"question", "answer", "citations", "figures", "working", "evidence"}
    assert wanted | {"warnings", "route"} <= set(asked["properties"])
    figure = asked["$defs"]["StatedFigure"]["properties"]
    assert {"value", "shown", "period", "page", "document"} <= set(figure)


@pytest.mark.no_database
def test_the_tree_schema_is_recursive_and_checks_every_level(tmp_path: Path) -> None:
    with Corpus.open() as corpus:
        tools = {t.name: t for t in anyio.run(build_server(corpus).list_tools)}
    schema = tools["get_document_structure"].output_schema or {}
    section = schema["$defs"]["Section"]
    assert section["properties"]["nodes"]["items"] == {"$ref": "#/$defs/Section"}
    validator = Draft202012Validator(schema)
    leaf = {"node_id": "0002", "title": "Item 7", "start_page": 3, "end_page": 4, "summary": ""}
    node = {**leaf, "node_id": "0001", "nodes": [{**leaf, "nodes": []}]}
    assert validator.is_valid({"name": "X", "page_count": 9, "nodes": [node]})
    broken = {**node, "nodes": [{**leaf, "start_page": "three", "nodes": []}]}
    assert not validator.is_valid({"name": "X", "page_count": 9, "nodes": [broken]})


def test_the_tree_served_matches_its_schema_and_the_api(corpus: Path) -> None:
    with Corpus.open() as api:
        expected = api.tree(TENQ).to_dict()

    def depth(nodes: list[dict[str, Any]]) -> int:
        return 1 + max((depth(n["nodes"]) for n in nodes), default=0) if nodes else 0

    async def test() -> None:
        async with stdio_session() as session:
            listed = {t.name: t for t in (await session.list_tools()).tools}
            tree = await call(session, "get_document_structure", name=TENQ)  # client-checked
            Draft202012Validator(listed["get_document_structure"].output_schema or {}).validate(
                tree
            )
            assert tree == expected and depth(tree["nodes"]) >= 2

    run_async(test)


ALLOWED = {"api", "errors", "settings", "logs", "serving", "mcp_server", ""}


@pytest.mark.no_database
def test_the_door_imports_only_the_api() -> None:
    """The MCP door reaches the library through `pageindex_platform.api` (and errors,
    settings, logs, serving), never search/, index/, db/ or the catalog directly."""
    package = REPO / "pageindex_platform"
    modules = sorted((package / "mcp_server").glob("*.py"))
    assert modules
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                # level 1 is the door's own package; level 2 is pageindex_platform
                top = (node.module or "").split(".")[0]
                inside = "mcp_server" if node.level == 1 else top
                assert inside in ALLOWED, f"{path.name} imports {'.' * node.level}{node.module}"
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and not node.level
                else []
            )
            for name in names:
                if name.startswith("pageindex_platform"):
                    part = name.split(".")[1] if "." in name else ""
                    assert part in ALLOWED, f"{path.name} imports {name}"
