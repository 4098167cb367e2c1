"""The llm steps of a question (`pipeline.steps_for` with a chat model): Query-to-SQL, the
model's choice among descriptions and tree nodes, and an answer written from the pages; each
falls back to the local step (`modes.Steps`) when the model fails, with a warning."""

from __future__ import annotations

from collections.abc import Sequence

from ..db import queries
from ..db.queries import PageInfo, TreeInfo
from ..errors import LLMError, PageIndexError
from ..llm import StructuredChat
from ..settings import Mode
from .constraints import Constraints
from .description import pick_by_description
from .filters import MetadataMatch
from .llm_answer import llm_answer
from .llm_tree_search import search_tree_llm
from .modes import Steps, Written, extracted
from .query import Query
from .results import Citation
from .semantic import ChunkSearch, DocumentHit, by_description
from .statements import Statement
from .trace import Trace
from .tree_search import NodeHit, PageHit, pages_in_nodes


class LlmSteps(Steps):
    """A chat model: Query-to-SQL, the model's choice among descriptions and tree nodes, and
    an answer written from the pages; each falls back to the local step."""

    mode = Mode.LLM

    def __init__(self, chat: StructuredChat) -> None:
        self.chat = chat

    def metadata_match(
        self, search: ChunkSearch, constraints: Constraints, trace: Trace
    ) -> MetadataMatch:
        sql, ids, why = self._query_to_sql(search, trace)
        if ids:
            return MetadataMatch(ids, why, sql)
        local = super().metadata_match(search, constraints, trace)
        return MetadataMatch(local.ids, f"{why}; local entity linking: {local.applied}")

    def _query_to_sql(self, search: ChunkSearch, trace: Trace) -> tuple[str | None, list[int], str]:
        """(sql, document ids, reason); ids are [] when it failed or selected nothing."""
        # llm mode only: keeps pglast and SQLAlchemy out of local start-up
        from sqlalchemy import Engine
        from sqlalchemy.exc import SQLAlchemyError

        from .query_sql import query_to_sql
        from .sql_guard import READER_ROLE

        sql: str | None = None
        try:
            engine = search.session.get_bind()
            assert isinstance(engine, Engine)
            sql, selected = query_to_sql(
                engine=engine, chat=self.chat, question=search.query.text, usage=trace.usage
            )
        except (PageIndexError, SQLAlchemyError) as exc:
            problem = str(getattr(exc, "orig", None) or exc).splitlines()[0][:200]
            why = f"Query-to-SQL failed ({type(exc).__name__}: {problem})"
            trace.warn(f"llm {why}; local entity linking instead")
            return sql, [], why
        if not selected.as_reader:
            trace.warn(
                f"Query-to-SQL ran as the database user, not the read-only role {READER_ROLE} "
                "(this user may not create roles; see README): the query was still validated "
                "and run in a read-only transaction"
            )
        ids = [d.id for d in queries.documents(search.session, names=selected.names)]
        if not ids:
            return sql, [], "Query-to-SQL selected no document"
        return sql, ids, f"Query-to-SQL selected {len(ids)} document(s)"

    def by_description(self, search: ChunkSearch, trace: Trace) -> tuple[list[DocumentHit], str]:
        try:
            names, _ = pick_by_description(
                session=search.session,
                chat=self.chat,
                question=search.query.text,
                usage=trace.usage,
            )
            if names:
                documents = [DocumentHit(n, 1.0 / (i + 1)) for i, n in enumerate(names)]
                return documents, "the model chose from document descriptions"
            why = "the model chose no document"
        except LLMError as exc:
            why = f"description choice failed ({exc})"
            trace.warn(f"llm {why}; embedding similarity to descriptions instead")
        documents = by_description(search.session, search.vector)
        return documents, f"{why}; embedding similarity to descriptions"

    def choose_nodes(
        self,
        search: ChunkSearch,
        tree: TreeInfo,
        statements: dict[Statement, int],
        found: tuple[list[NodeHit], list[PageHit]],
        trace: Trace,
    ) -> tuple[list[NodeHit], list[PageHit]]:
        """The model's choice of nodes (validated ids), or the local ranking when it fails;
        their pages in the nodes' order."""
        local, pages = found
        query, document = search.query, tree.document
        where = "\n".join(f"The {kind} is on page {page}." for kind, page in statements.items())
        knowledge = "\n".join(x for x in (query.notes, where, query.hint or "") if x) or None
        try:
            chosen, problems = search_tree_llm(
                chat=self.chat,
                question=query.question,
                tree=tree,
                usage=trace.usage,
                knowledge=knowledge,
            )
        except LLMError as exc:
            trace.warn(f"{document}: llm tree search failed ({exc}); local search instead")
            return local, pages_in_nodes(local, pages)
        trace.warn(*problems)
        info = {n.node_id: n for n in tree.nodes}
        picked = [
            NodeHit(
                document, i, info[i].title, info[i].start_page, info[i].end_page, 1.0 / (rank + 1)
            )
            for rank, i in enumerate(chosen)
        ]
        if not picked:
            trace.warn(f"{document}: llm tree search chose no node; local search instead")
        nodes = picked or local
        return nodes, pages_in_nodes(nodes, pages)

    def write_answer(
        self,
        query: Query,
        citations: list[Citation],
        stated: str,
        pages: Sequence[PageInfo],
        trace: Trace,
    ) -> Written:
        answer = ""
        if pages:
            try:
                answer, cited, dropped = llm_answer(
                    chat=self.chat,
                    question=query.question,
                    pages=pages,
                    usage=trace.usage,
                    figures=stated,
                )
                trace.warn(*dropped)
                by_key = {(c.document, c.page): c for c in citations}
                first = [by_key[k] for k in cited]
                citations = first + [c for c in citations if (c.document, c.page) not in cited]
            except LLMError as exc:
                trace.warn(f"llm answer failed ({exc}); extracted text instead")
                answer = ""
        if answer:  # the stated figures and their citations follow the model's answer
            text = f"{answer}\n\n{stated}" if stated else answer
            return Written(text, citations, extracted(query, pages))
        return super().write_answer(query, citations, stated, pages, trace)
