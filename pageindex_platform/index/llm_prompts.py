"""What LLM-mode indexing says to the model and what it accepts back: the system message,
each task's message (`task`), the reply schemas, and the page excerpts the prompts quote."""

from __future__ import annotations

import json
from collections.abc import Sequence

from pydantic import BaseModel, Field

from ..llm import Message
from ..records import PageText, TreeNode

SUMMARY_BATCH = 25  # items per call: titles to verify or locate, nodes to summarize
EXCERPT_CHARS = 700
SYSTEM = (
    "You index long financial filings (10-K, 10-Q, 8-K, earnings releases). You answer "
    "with JSON only, using only ids and page numbers that appear in the input."
)


class TocPages(BaseModel):
    toc_pages: list[int] = Field(description="physical page numbers holding a table of contents")


class TocItem(BaseModel):
    structure: str = Field(description="hierarchy index such as '1', '1.2', '1.2.3'")
    title: str
    page: int | None = Field(default=None, description="page number printed in the TOC")


class TocItems(BaseModel):
    items: list[TocItem]


class Located(BaseModel):
    index: int
    page: int | None = Field(description="physical page where the section starts, or null")


class LocatedList(BaseModel):
    results: list[Located]


class Section(BaseModel):
    structure: str
    title: str
    page: int = Field(description="physical page where the section starts")


class Sections(BaseModel):
    sections: list[Section]


class NodeSummary(BaseModel):
    node_id: str
    summary: str


class Summaries(BaseModel):
    summaries: list[NodeSummary]


class Description(BaseModel):
    description: str


def task(name: str, instructions: str, payload: object) -> list[Message]:
    body = f"TASK: {name}\n{instructions}\nINPUT:\n{json.dumps(payload, ensure_ascii=False)}"
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": body}]


def snippet(pages: Sequence[PageText], page: int, chars: int = 500) -> str:
    return pages[page - 1].text[:chars] if 1 <= page <= len(pages) else ""


def level(structure: str) -> int:
    parts = [p for p in structure.strip().strip(".").split(".") if p]
    return max(1, min(len(parts), 6))


def node_excerpt(pages: Sequence[PageText], node: TreeNode) -> str:
    text = "\n".join(p.text for p in pages[node.start_page - 1 : node.end_page][:2])
    return text[:EXCERPT_CHARS]
