"""The ask flow: question → constraints → route → ranked documents → nodes per document →
pages → answer with citations, logged in `query_log`. Local mode (no language model)."""

from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from ..db.tables import QueryLog
from ..embeddings import Embedder, SentenceTransformerEmbedder, embedder_named, get_embedder
from ..errors import EmptyCorpusError, LLMError, QuestionError
from ..llm import StructuredChat, Usage
from ..settings import Mode, get_settings
from .answer import extract_lines, extractive_answer
from .constraints import Constraints, entity_groups, parse_constraints
from .figures import stated_figure
from .llm_answer import llm_answer
from .llm_tree_search import search_tree_llm
from .router import (
    Route,
    column_by_name,
    documents_by_name,
    of_dates,
    select_documents,
    years_of,
)
from .semantic import DocumentHit, approximate_stored, chunk_hits, keywords
from .statements import Statement, knowledge_facts, statement_pages, statements_for
from .subjects import section_phrases
from .tree_search import NodeHit, NodeInfo, PageHit, leaf_of, pages_in_nodes, search_tree

MULTI_DOCUMENT_RATIO = 0.6  # documents scoring at least this share of the best are searched too
MAX_QUESTION_CHARS = 2000
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _clean(value: str, what: str) -> str:
    """`value` with control characters and runs of spaces made single spaces; a QuestionError
    naming `what` when it is not valid UTF-8 (bytes the shell could not decode)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise QuestionError(f"{what} is not valid UTF-8 text") from None
    return " ".join(_CONTROL.sub(" ", value).split())


def checked_question(question: str) -> str:
    """The question cleaned (`_clean`); a QuestionError when nothing in it can be searched."""
    question = _clean(question, "the question")
    if not question:
        raise QuestionError("the question is empty")
    if len(question) > MAX_QUESTION_CHARS:
        raise QuestionError(
            f"the question is too long ({len(question):,} characters; "
            f"at most {MAX_QUESTION_CHARS:,})"
        )
    if not keywords(question):
        raise QuestionError(
            f"nothing to search for in {question[:80]!r}: only punctuation or "
            "common words (name a company, a figure, a period...)"
        )
    return question


def _require_documents(session: Session) -> None:
    if session.execute(text("SELECT 1 FROM documents WHERE status = 'ready' LIMIT 1")).first():
        return
    settings = get_settings()
    where = "the database at PI_DATABASE_URL" if settings.database_url else str(settings.home)
    raise EmptyCorpusError(
        f"no filings are stored yet in {where}: run `pi ingest FOLDER` "
        "(PDF, HTML, EDGAR .txt, Markdown) first, then ask again"
    )


def corpus_embedder(session: Session) -> Embedder:
    """The embedder most stored documents were embedded with (a question's vector must be
    comparable with theirs), whatever PI_EMBEDDER says now."""
    stored = session.execute(
        text("SELECT embedder FROM documents GROUP BY embedder ORDER BY count(*) DESC LIMIT 1")
    ).scalar()
    return get_embedder(embedder_named(stored) if stored else None, queries=True)


@dataclass(frozen=True)
class Citation:
    document: str
    page: int
    node_id: str


@dataclass
class Answer:
    question: str
    mode: str
    route: str
    route_reason: str
    sql: str | None
    documents: list[DocumentHit]
    nodes: list[NodeHit]
    citations: list[Citation]
    answer: str
    timings: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    usage: dict[str, int] = field(
        default_factory=lambda: {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
    )

    def to_dict(self) -> dict[str, Any]:
        """The stable `pi ask --json` shape."""
        return {
            "question": self.question,
            "mode": self.mode,
            "route": self.route,
            "route_reason": self.route_reason,
            "sql": self.sql,
            "documents": [{"name": d.name, "score": round(d.score, 6)} for d in self.documents],
            "nodes": [
                {
                    "document": n.document,
                    "node_id": n.node_id,
                    "title": n.title,
                    "start_page": n.start_page,
                    "end_page": n.end_page,
                }
                for n in self.nodes
            ],
            "citations": [asdict(c) for c in self.citations],
            "answer": self.answer,
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
            "usage": self.usage,
            "warnings": self.warnings,
        }


@dataclass
class _Tree:
    nodes: list[NodeInfo]
    parents: dict[str, str | None]
    summaries: dict[str, str]


def _tree(session: Session, document: str) -> _Tree:
    rows = session.execute(
        text(
            "SELECT n.node_id, n.parent_node_id, n.title, n.start_page, n.end_page, n.summary "
            "FROM nodes n JOIN documents d ON d.id = n.document_id "
            "WHERE d.name = :name ORDER BY n.id"
        ),
        {"name": document},
    ).all()
    tree = _Tree([], {}, {})
    paths: dict[str, str] = {}
    for node_id, parent, title, start, end, summary in rows:
        path = f"{paths.get(parent, '')} / {title}" if parent else title
        paths[node_id] = path
        tree.nodes.append(NodeInfo(node_id, title, start, end, path))
        tree.parents[node_id] = parent
        tree.summaries[node_id] = summary or ""
    return tree


def _user_knowledge() -> str:
    """The knowledge file in PI_HOME (one fact per line), or ""."""
    path = get_settings().home / "knowledge.txt"
    return path.read_text(encoding="utf-8").strip() if path.exists() else ""


def _knowledge(user: str, hint: str | None, statements: dict[Statement, int]) -> str | None:
    """The user's knowledge file, where the statements the question needs are, and --hint."""
    where = "\n".join(f"The {kind} is on page {page}." for kind, page in statements.items())
    return "\n".join(x for x in (user, where, hint or "") if x) or None


def _llm_nodes(
    chat: StructuredChat,
    question: str,
    document: str,
    tree: _Tree,
    usage: Usage,
    knowledge: str | None,
    local: list[NodeHit],
    warnings: list[str],
) -> list[NodeHit]:
    """The model's choice of nodes (validated ids), or the local ranking when it fails."""
    try:
        chosen, problems = search_tree_llm(
            chat=chat,
            question=question,
            document=document,
            nodes=tree.nodes,
            parents=tree.parents,
            summaries=tree.summaries,
            usage=usage,
            knowledge=knowledge,
        )
    except LLMError as exc:
        warnings.append(f"{document}: llm tree search failed ({exc}); local search instead")
        return local
    warnings.extend(problems)
    info = {n.node_id: n for n in tree.nodes}
    picked = [
        NodeHit(document, i, info[i].title, info[i].start_page, info[i].end_page, 1.0 / (rank + 1))
        for rank, i in enumerate(chosen)
    ]
    if not picked:
        warnings.append(f"{document}: llm tree search chose no node; local search instead")
    return picked or local


def ask(
    *,
    session: Session,
    question: str,
    route: Route = Route.AUTO,
    embedder: Embedder | None = None,
    hint: str | None = None,
    max_documents: int = 3,
    max_citations: int = 10,
    chat: StructuredChat | None = None,
) -> Answer:
    """Answer a question. With `chat` (llm mode) documents are selected by Query-to-SQL and
    the answer is written by the model from the extracted pages; without it, everything is
    local. Model failures fall back to the local step and are reported in `warnings`."""
    question = checked_question(question)
    if hint is not None:
        hint = _clean(hint, "--hint")[:MAX_QUESTION_CHARS] or None
    _require_documents(session)
    usage = Usage()
    warnings: list[str] = []
    timings: dict[str, float] = {}
    started = clock = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[stage] = now - clock
        clock = now

    query = f"{question} {hint}" if hint else question
    embedder = embedder or corpus_embedder(session)
    vector = embedder.embed([query])[0]
    lap("embed")
    # chunk vectors of PI_EMBEDDER=fast documents are re-scored by the question's transformer
    # (semantic.rescored embeds only their chunks)
    transformer = embedder.name == SentenceTransformerEmbedder.name
    rescorer = embedder if transformer and approximate_stored(session) else None
    constraints = parse_constraints(question, session=session)
    decision = select_documents(
        session=session,
        question=query,
        vector=vector,
        constraints=constraints,
        route=route,
        chat=chat,
        usage=usage,
        rescorer=rescorer,
    )
    lap("route")
    warnings.extend(decision.warnings)
    ranked = decision.documents
    top = ranked[0].score if ranked else 0.0
    entities = entity_groups(constraints.companies) if decision.route == Route.METADATA else []
    if len(entities) > 1:  # "Amazon vs Apple": each company's best filing, cited in turn
        selected = _best_per_entity(session, ranked, entities)
    else:
        selected = [
            d
            for d in ranked[:max_documents]
            if d is ranked[0] or (top > 0 and d.score >= MULTI_DOCUMENT_RATIO * top)
        ]
    rows = documents_by_name(session, [d.name for d in selected])
    ids = {name: row.id for name, row in rows.items()}
    notice = _unmet(constraints, [rows[d.name] for d in selected if d.name in rows])
    if notice:
        warnings.append(notice)
    user_knowledge = _user_knowledge()
    needed = statements_for(query, knowledge_facts(user_knowledge))
    nodes: list[NodeHit] = []
    pages: list[tuple[PageHit, float]] = []
    # full text and section titles also search where filings discuss what the question names
    phrases = section_phrases(query)
    lexical = " ".join([query, *phrases])
    trees: dict[str, _Tree] = {}
    for doc in selected:
        hits = chunk_hits(
            session=session,
            question=query,
            vector=vector,
            document_ids=[ids[doc.name]],
            phrases=phrases,
            rescorer=rescorer,
        )
        tree = trees[doc.name] = _tree(session, doc.name)
        found = statement_pages(session=session, document_id=ids[doc.name]) if needed else {}
        statements = {kind: found[kind] for kind in needed if kind in found}
        best, doc_pages = search_tree(
            question=lexical,
            document=doc.name,
            nodes=tree.nodes,
            hits=hits,
            statement_pages=list(statements.values()),
        )
        if chat is not None:
            knowledge = _knowledge(user_knowledge, hint, statements)
            best = _llm_nodes(chat, question, doc.name, tree, usage, knowledge, best, warnings)
            doc_pages = pages_in_nodes(best, doc_pages)
        nodes.extend(best)
        if len(entities) > 1:  # interleaved: every company named gets its first pages cited
            pages.extend((p, 1.0 / (rank + 1)) for rank, p in enumerate(doc_pages))
            continue
        weight = doc.score / top if top > 0 else 1.0
        pages.extend((p, p.score * weight) for p in doc_pages)
    pages.sort(key=lambda x: -x[1])
    citations = [Citation(p.document, p.page, p.node_id) for p, _ in pages[:max_citations]]
    # the figure asked for, as the filing tags it (inline XBRL), with its page cited first
    figure = (
        stated_figure(session=session, question=question, document_id=ids[selected[0].name])
        if selected and selected[0].name in ids
        else None
    )
    stated = ""
    if figure is not None:
        document = selected[0].name
        others = [c for c in citations if (c.document, c.page) != (document, figure.page)]
        shown_on = Citation(document, figure.page, leaf_of(trees[document].nodes, figure.page))
        citations = [shown_on, *others[: max_citations - 1]]
        stated = (
            f"{figure.shown} — {figure.period} ({figure.concept}) [{document}, p. {figure.page}]"
        )
    lap("tree_search")
    texts = _page_texts(session, citations[:5])
    answer = ""
    if chat is not None and texts:
        try:
            answer, cited, dropped = llm_answer(
                chat=chat, question=question, pages=texts, usage=usage
            )
            warnings.extend(dropped)
            by_key = {(c.document, c.page): c for c in citations}
            first = [by_key[k] for k in cited]
            citations = first + [c for c in citations if (c.document, c.page) not in cited]
        except LLMError as exc:
            warnings.append(f"llm answer failed ({exc}); extracted text instead")
            answer = ""
    if not answer:
        answer = extractive_answer(extract_lines(query, texts))
        if stated:
            answer = f"{stated}\n\n{answer}"
    if notice:
        answer = f"{notice}\n\n{answer}"
    lap("answer")
    timings["total"] = time.perf_counter() - started
    result = Answer(
        question=question,
        mode=str(Mode.LLM if chat else Mode.LOCAL),
        route=str(decision.route),
        route_reason=decision.reason,
        sql=decision.sql,
        documents=ranked[:10],
        nodes=nodes,
        citations=citations,
        answer=answer,
        timings=timings,
        warnings=warnings,
        usage={
            "calls": usage.calls,
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
        },
    )
    session.add(
        QueryLog(
            question=question,
            mode=result.mode,
            route=result.route,
            route_reason=result.route_reason,
            documents=[{"name": d.name, "score": d.score} for d in ranked[:10]],
            citations=[asdict(c) for c in citations],
            latency_ms=timings["total"] * 1000,
            usage=result.usage,
        )
    )
    return result


def _best_per_entity(
    session: Session, ranked: list[DocumentHit], entities: list[list[str]]
) -> list[DocumentHit]:
    """The best-ranked document of each company group, in ranking order."""
    company = column_by_name(session, "company", [d.name for d in ranked])
    out: list[DocumentHit] = []
    for group in entities:
        best = next((d for d in ranked if company.get(d.name) in group), None)
        if best is not None:
            out.append(best)
    return sorted(out, key=lambda d: ranked.index(d))


def _unmet(constraints: Constraints, rows: list[Any]) -> str | None:
    """What the question asked for that no selected filing is — its filing type, quarter or
    fiscal year — said first ("No Apple Inc. filing for Q3 fiscal 2023 is stored; nearest:
    ..."), or None when the selected filings (`rows`, best first) are what was asked for."""
    if not rows or of_dates(rows, constraints.dates):  # the filing of the date named
        return None
    missing = (
        (constraints.doc_types and not any(r.doc_type in constraints.doc_types for r in rows))
        or (constraints.periods and not any(r.fiscal_period in constraints.periods for r in rows))
        or (
            constraints.years
            and not any(
                years_of(r.fiscal_year, r.period_end) & set(constraints.years) for r in rows
            )
        )
    )
    if not missing:
        return None
    kind = " or ".join(constraints.doc_types) or "filing"
    years = "/".join(str(y) for y in sorted(constraints.years))
    when = " ".join(x for x in ("/".join(constraints.periods), years and f"fiscal {years}") if x)
    company = f"{constraints.companies[0]} " if constraints.companies else ""
    nearest = ", ".join(_label(row) for row in rows)
    return f"No {company}{kind}{f' for {when}' if when else ''} is stored; nearest: {nearest}."


def _label(row: Any) -> str:
    period = " ".join(str(x) for x in (row.fiscal_period, row.fiscal_year) if x)
    return f"{row.name} ({', '.join(x for x in (row.doc_type, period) if x) or 'no metadata'})"


def _page_texts(session: Session, citations: list[Citation]) -> list[tuple[str, int, str]]:
    out = []
    for c in citations:
        body = session.execute(
            text(
                "SELECT p.text FROM pages p JOIN documents d ON d.id = p.document_id "
                "WHERE d.name = :n AND p.page = :p"
            ),
            {"n": c.document, "p": c.page},
        ).scalar()
        if body:
            out.append((c.document, c.page, body))
    return out
