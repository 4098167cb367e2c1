"""LLM-mode summaries of a tree's nodes (many per call) and the document's description."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from pydantic import BaseModel

from ..errors import LLMError
from ..llm import Message
from ..records import PageText, PreparedDocument, TreeNode
from .llm_prompts import SUMMARY_BATCH, Description, Summaries, node_excerpt, task
from .tree import PREFACE, WHOLE_DOCUMENT

Ask = Callable[[str, list[Message], type[BaseModel]], Awaitable[object]]


async def summarize(
    ask: Ask, pages: Sequence[PageText], tree: list[TreeNode], warnings: list[str]
) -> None:
    """Write each node's summary, many nodes per call; a node the model leaves out keeps its
    extractive summary, and the shortfall is a warning."""
    nodes = [n for root in tree for n in root.walk()]
    by_id = {n.node_id: n for n in nodes}
    written = 0
    for start in range(0, len(nodes), SUMMARY_BATCH):
        batch = nodes[start : start + SUMMARY_BATCH]
        payload = [
            {
                "node_id": n.node_id,
                "title": n.title,
                "pages": [n.start_page, n.end_page],
                "text": node_excerpt(pages, n),
            }
            for n in batch
        ]
        try:
            reply = await ask(
                "summary",
                task(
                    "summarize_nodes",
                    "Write a one- or two-sentence summary of each "
                    "section from its text: what it covers, with key figures.",
                    payload,
                ),
                Summaries,
            )
        except LLMError as exc:
            warnings.append(f"llm: summaries of {len(batch)} nodes failed ({exc})")
            continue
        assert isinstance(reply, Summaries)
        wanted = {n.node_id for n in batch}
        for s in reply.summaries:
            if s.node_id in wanted and s.summary.strip():
                by_id[s.node_id].summary = " ".join(s.summary.split())[:600]
                written += 1
    if written < len(nodes) and not any("summaries" in w for w in warnings):
        warnings.append(f"llm: {len(nodes) - written} of {len(nodes)} summaries kept extractive")


async def describe(
    ask: Ask, doc: PreparedDocument, tree: list[TreeNode], warnings: list[str]
) -> str | None:
    """The document's description for choosing among filings (None when the model fails)."""
    meta = doc.metadata
    payload = {
        "name": doc.name,
        "company": meta.company,
        "doc_type": meta.doc_type,
        "fiscal_year": meta.fiscal_year,
        "fiscal_period": meta.fiscal_period,
        "sections": [
            {"title": n.title, "summary": n.summary[:200]}
            for n in tree
            if n.title not in (PREFACE, WHOLE_DOCUMENT)
        ][:20],
    }
    try:
        reply = await ask(
            "description",
            task(
                "describe_document",
                "Describe this document in one to three sentences "
                "for someone choosing which filing to search.",
                payload,
            ),
            Description,
        )
    except LLMError as exc:
        warnings.append(f"llm: description failed ({exc})")
        return None
    assert isinstance(reply, Description)
    return " ".join(reply.description.split())[:1000] or None
