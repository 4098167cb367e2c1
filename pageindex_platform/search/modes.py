"""The steps of a question that local and llm mode take differently, one signature each, chosen
once from the mode (`pipeline.steps_for`): selecting documents by metadata or by their descriptions,
choosing a document's nodes, and writing the answer. The local steps are here; the llm ones
(`llm_steps.py`) fall back to them when the model fails, with a warning in the trace."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..db.queries import PageInfo, TreeInfo
from ..settings import Mode
from .constraints import Constraints
from .extract import extract_lines, extractive_answer
from .filters import MetadataMatch, filter_documents
from .query import Query
from .results import Citation, EvidenceLine
from .semantic import ChunkSearch, DocumentHit, by_description
from .statements import Statement
from .trace import Trace
from .tree_search import NodeHit, PageHit


@dataclass(frozen=True)
class Written:
    """An answer's text, its citations in the order the answer uses them, and the lines of
    the cited pages it stands on."""

    text: str
    citations: list[Citation]
    lines: list[EvidenceLine]


def extracted(query: Query, pages: Sequence[PageInfo]) -> list[EvidenceLine]:
    """The lines of the cited pages that best match the question, as printed there."""
    return [
        EvidenceLine(e.document, e.page, e.line, "extract")
        for e in extract_lines(query.text, pages)
    ]


class Steps:
    """The local steps (no language model): entity linking, embedding similarity to the
    descriptions, the local tree search and the extracted lines. `LlmSteps` puts the model
    in front of each."""

    mode = Mode.LOCAL

    def metadata_match(
        self, search: ChunkSearch, constraints: Constraints, trace: Trace
    ) -> MetadataMatch:
        """The documents the question's metadata selects."""
        return filter_documents(session=search.session, constraints=constraints)

    def by_description(self, search: ChunkSearch, trace: Trace) -> tuple[list[DocumentHit], str]:
        """Documents chosen by their descriptions, best first, and how they were chosen."""
        return by_description(search.session, search.vector), "question vs document descriptions"

    def choose_nodes(
        self,
        search: ChunkSearch,
        tree: TreeInfo,
        statements: dict[Statement, int],
        found: tuple[list[NodeHit], list[PageHit]],
        trace: Trace,
    ) -> tuple[list[NodeHit], list[PageHit]]:
        """A document's nodes and pages for the question, from the local tree search's."""
        return found

    def write_answer(
        self,
        query: Query,
        citations: list[Citation],
        stated: str,
        pages: Sequence[PageInfo],
        trace: Trace,
    ) -> Written:
        """The answer from the cited pages' text (the first ones) and the stated figure."""
        lines = extracted(query, pages)
        text = extractive_answer(lines)
        return Written(f"{stated}\n\n{text}" if stated else text, citations, lines)
