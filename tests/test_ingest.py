"""`pi ingest` and `pi docs` on the sample filings, against the real database."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from pageindex_platform.db.tables import Chunk, Document, Node, Page
from pageindex_platform.index.tree import check_tree
from pageindex_platform.records import TreeNode

from .helpers import env_db, run_cli, run_json, session_scope


def _tree_nodes(items: list[dict[str, Any]]) -> list[TreeNode]:
    return [TreeNode.from_dict(i) for i in items]


def test_ingest_samples_stores_every_file_with_valid_trees(samples: Path) -> None:
    report = run_json("ingest", str(samples))
    names = sorted(p.stem for p in samples.iterdir())
    assert sorted(f["name"] for f in report["files"]) == names
    assert {f["status"] for f in report["files"]} == {"stored"}
    assert report["stored"] == len(names) and report["failed"] == 0
    for f in report["files"]:
        assert f["pages"] > 0 and f["nodes"] > 0 and f["chunks"] > 0 and f["error"] is None

    listed = run_json("docs", "list")
    assert [d["name"] for d in listed] == names
    assert set(listed[0]) == {
        "name",
        "company",
        "doc_type",
        "fiscal_year",
        "fiscal_period",
        "page_count",
        "nodes",
        "status",
        "copies",
        "rivals",
        "sources",
        "unsure",
    }
    assert all(d["copies"] == [] for d in listed)  # no two sample files share their content
    tenq = next(d for d in listed if d["name"] == "BESTBUY_2024Q2_10Q")
    assert tenq["doc_type"] == "10-Q" and "Best Buy" in tenq["company"]
    assert tenq["fiscal_year"] == 2024 and tenq["fiscal_period"] == "Q2"

    for name in names:
        tree = run_json("docs", "tree", name)
        assert tree["name"] == name
        assert check_tree(_tree_nodes(tree["nodes"]), tree["page_count"]) == []


def test_chunks_stay_on_one_page_and_belong_to_leaves(samples: Path) -> None:
    run_cli("ingest", str(samples / "BESTBUY_2024Q2_10Q.pdf"))
    with session_scope() as session:
        doc = session.scalar(select(Document).where(Document.name == "BESTBUY_2024Q2_10Q"))
        assert doc is not None
        pages = session.scalar(select(func.count()).where(Page.document_id == doc.id))
        assert pages == doc.page_count == 30
        nodes = {
            n.node_id: n for n in session.scalars(select(Node).where(Node.document_id == doc.id))
        }
        parents = {n.parent_node_id for n in nodes.values()}
        for chunk in session.scalars(select(Chunk).where(Chunk.document_id == doc.id)):
            node = nodes[chunk.node_id]
            assert node.node_id not in parents, "chunks belong to leaves"
            assert node.start_page <= chunk.page <= node.end_page
            page_text = session.scalar(
                select(Page.text).where(Page.document_id == doc.id, Page.page == chunk.page)
            )
            assert page_text is not None
            first_line = chunk.text.splitlines()[0]
            assert first_line[:50] in page_text


def test_tree_of_a_10q_follows_its_table_of_contents(samples: Path) -> None:
    run_cli("ingest", str(samples / "AMCOR_2023Q2_10Q.pdf"))
    code, out, _ = run_cli("docs", "tree", "AMCOR_2023Q2_10Q")
    assert code == 0
    assert "Item 2. Management’s Discussion and Analysis" in out
    tree = run_json("docs", "tree", "AMCOR_2023Q2_10Q")
    flat = {n["title"]: n for root in tree["nodes"] for n in _walk(root)}
    balance = flat["Condensed Consolidated Balance Sheets"]
    with session_scope() as session:
        text = session.scalar(
            select(Page.text)
            .join(Document)
            .where(Document.name == "AMCOR_2023Q2_10Q", Page.page == balance["start_page"])
        )
    assert text is not None and "Condensed Consolidated Balance Sheets" in text


def _walk(node: dict) -> list[dict]:  # type: ignore[type-arg]
    return [node, *(d for child in node["nodes"] for d in _walk(child))]


def test_reingest_skips_unchanged_replaces_changed_and_force_rebuilds(samples: Path) -> None:
    md = samples / "retail_sector_notes.md"
    first = run_json("ingest", str(samples))
    second = run_json("ingest", str(samples))
    assert {f["status"] for f in second["files"]} == {"skipped"}
    assert second["skipped"] == first["stored"]

    md.write_text(
        md.read_text()
        + "\n## Costco\n\nCostco's membership fee income grew with renewal rates near 90% in "
        "the United States and Canada; the fee increase announced for fiscal 2025 adds to it, "
        "and warehouse openings continue at about thirty a year across its markets.\n"
    )
    third = run_json("ingest", str(samples))
    statuses = {f["name"]: f["status"] for f in third["files"]}
    assert statuses.pop("retail_sector_notes") == "stored"
    assert set(statuses.values()) == {"skipped"}
    tree = run_json("docs", "tree", "retail_sector_notes")
    titles = [n["title"] for root in tree["nodes"] for n in _walk(root)]
    assert "Costco" in titles
    assert len(run_json("docs", "list")) == len(first["files"])  # replaced, not duplicated

    forced = run_json("ingest", str(md), "--force")
    assert forced["files"][0]["status"] == "stored"


def test_markdown_tree_ignores_headers_in_code_fences(samples: Path) -> None:
    run_cli("ingest", str(samples / "retail_sector_notes.md"))
    tree = run_json("docs", "tree", "retail_sector_notes")
    titles = [n["title"] for root in tree["nodes"] for n in _walk(root)]
    assert "Best Buy" in titles and "Amcor" in titles
    assert not any("inside a code fence" in t for t in titles)


def test_docs_show_and_rm(small_pdf: Path) -> None:
    run_cli("ingest", str(small_pdf))
    info = run_json("docs", "show", small_pdf.stem)
    assert info["doc_type"] == "8-K" and info["company"].startswith("Ulta Beauty")
    assert info["description"] and info["chunks"] > 0
    code, out, _ = run_cli("docs", "rm", small_pdf.stem)
    assert code == 0 and "removed" in out
    assert run_json("docs", "list") == []
    code, _, err = run_cli("docs", "show", small_pdf.stem)
    assert code == 1 and f"no document named '{small_pdf.stem}'" in err


def test_metadata_file_overrides_extracted_values(small_pdf: Path, tmp_path: Path) -> None:
    meta = tmp_path / "meta.jsonl"
    meta.write_text(f'{{"file": "{small_pdf.name}", "company": "Ulta", "fiscal_year": 2024}}\n')
    run_cli("ingest", str(small_pdf), "--metadata", str(meta))
    info = run_json("docs", "show", small_pdf.stem)
    assert info["company"] == "Ulta" and info["fiscal_year"] == 2024
    csv = tmp_path / "meta.csv"
    csv.write_text(f"name,doc_type\n{small_pdf.stem},other\n")
    run_cli("ingest", str(small_pdf), "--metadata", str(csv), "--force")
    assert run_json("docs", "show", small_pdf.stem)["doc_type"] == "other"


def test_same_name_twice_in_one_batch_fails_the_second(small_pdf: Path, tmp_path: Path) -> None:
    other = tmp_path / "copy"
    other.mkdir()
    shutil.copy(small_pdf, other / small_pdf.name)
    code, out, err = run_cli("ingest", str(small_pdf), str(other / small_pdf.name))
    assert code == 1
    assert "duplicate document name" in err
    assert "1 stored" in out


def test_progress_names_each_file_while_it_is_worked_on(samples: Path) -> None:
    from pageindex_platform.index.pipeline import ingest_paths
    from pageindex_platform.index.report import BatchStarted, FileBegun, FileDone, ProgressEvent

    events: list[tuple[str, str | None, str | None]] = []

    def progress(event: ProgressEvent) -> None:
        if isinstance(event, BatchStarted):
            events.append(("start", None, None))
        elif isinstance(event, (FileBegun, FileDone)):
            kind = "begin" if isinstance(event, FileBegun) else "file"
            events.append((kind, event.result.name, str(event.result.status)))

    folder = samples.parent / "two"
    folder.mkdir()
    for name in ("ULTABEAUTY_2023_8K_dated-2023-09-18.pdf", "retail_sector_notes.md"):
        shutil.copy(samples / name, folder / name)
    ingest_paths(db=env_db(), paths=[folder], progress=progress, parallel=False)
    names = ["ULTABEAUTY_2023_8K_dated-2023-09-18", "retail_sector_notes"]
    assert events[0] == ("start", None, None)
    for name in names:  # "begin" (working) comes before the file's "file" (stored)
        assert events.index(("begin", name, "working")) < events.index(("file", name, "stored"))
    events.clear()
    ingest_paths(
        db=env_db(), paths=[folder], progress=progress, parallel=False
    )  # unchanged: no work
    assert [e[0] for e in events] == ["start", "file", "file"]
