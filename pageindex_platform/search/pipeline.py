"""The ask flow, top-down: the question → its constraints → the route → each selected
document's search → the evidence → the answer with citations, logged in `query_log`.

Each stage is a function of typed values in its own module; the steps that local and llm mode
take differently are chosen once (`steps_for`), and one `Trace` collects the warnings,
the model's usage and the stages' times.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from ..db import queries
from ..db.queries import DocumentInfo
from ..db.sql import Session, driver_error, text
from ..embeddings.space import EmbeddingSpace
from ..errors import EmptyCorpusError
from ..llm import StructuredChat
from ..settings import Mode, redact_text
from .constraints import Constraints, parse_constraints
from .document_search import Found, Selected, search_document, select_documents, with_rivals
from .evidence import Evidence, gather, missing_notice, not_stored_notice, period_source
from .headline import Stated, demote
from .modes import Steps, Written
from .query import Query
from .results import Answer, DocumentScore, EvidenceLine, NodeRef
from .router import Route, RouteDecision, decide_route
from .scope import Filters, select
from .semantic import ChunkSearch
from .series_answer import with_series
from .series_text import evidence_lines
from .trace import Trace
from .vocabulary import Vocabulary

logger = logging.getLogger(__name__)


def steps_for(chat: StructuredChat | None) -> Steps:
    """The mode's steps: llm with a chat model, else local (which never imports the llm
    steps' modules: their response models, the SQL parser)."""
    if chat is None:
        steps = Steps()
    else:
        from .llm_steps import LlmSteps

        steps = LlmSteps(chat)
    logger.info("mode %s", steps.mode)
    return steps


def ask(
    *,
    session: Session,
    question: str,
    space: EmbeddingSpace,
    vocabulary: Vocabulary,
    route: Route = Route.AUTO,
    hint: str | None = None,
    max_documents: int = 3,
    max_citations: int = 10,
    chat: StructuredChat | None = None,
    filters: Filters | None = None,
    location: str = "this corpus",
) -> Answer:
    """Answer a question: llm mode with `chat` (model failures fall back to the local step, in
    `warnings`), else local. `space`: the corpus's embedding space; `vocabulary`: the packaged
    files and the corpus home's; `filters`: the filings the answer may come from (an
    EmptySelectionError when none); `location`: where the corpus is, for the message when it
    is empty."""
    query = Query.parse(question, hint, vocabulary)
    _require_documents(session, location)
    allowed = (
        select(session=session, filters=filters, aliases=vocabulary.aliases) if filters else None
    )
    steps = steps_for(chat)
    trace = Trace()
    search = ChunkSearch(session, query, space.embed_question(query.text))
    trace.lap("embed")
    constraints = parse_constraints(query.question, session=session, aliases=vocabulary.aliases)
    if constraints.not_stored and allowed is None:
        return _not_stored(query, steps.mode, constraints, trace, session)
    decision = decide_route(
        search=search,
        constraints=constraints,
        requested=route,
        steps=steps,
        trace=trace,
        within=[d.id for d in allowed] if allowed is not None else None,
    )
    trace.lap("route")
    selected = select_documents(
        search=search, decision=decision, constraints=constraints, limit=max_documents
    )
    selected, claimed = with_rivals(session=session, selected=selected)
    missing, nearest = missing_notice(constraints, [d for d, _ in selected.documents])
    notice = " ".join(n for n in (missing, claimed) if n)
    if notice:
        trace.warn(notice)
    found = [
        search_document(search=search, document=d, score=s, steps=steps, trace=trace)
        for d, s in selected.documents
    ]
    evidence = _gathered(
        session, query, selected, found, constraints, allowed, trace, max_citations
    )
    trace.lap("tree_search")
    pages = queries.page_texts(session, [(c.document, c.page) for c in evidence.citations[:5]])
    written = steps.write_answer(query, evidence.citations, evidence.stated.text, pages, trace)
    trace.lap("answer")
    readings = _readings(constraints, evidence.stated, [d for d, _ in selected.documents])
    if nearest:  # a figure of the nearest filing is not the one asked
        demote(evidence.stated, "the period asked is not stored; this is the nearest filing's")
    answer = _answer(
        query, steps.mode, decision, found, written, evidence.stated, notice, readings, trace
    )
    _log(session, answer)
    return answer


def _gathered(
    session: Session,
    query: Query,
    selected: Selected,
    found: list[Found],
    constraints: Constraints,
    allowed: list[DocumentInfo] | None,
    trace: Trace,
    max_citations: int,
) -> Evidence:
    """What the answer stands on: the pages found and the figure stated, or, for a series
    question, the series and its pages (series_answer.py)."""
    evidence = gather(
        session=session,
        query=query,
        selected=selected,
        found=found,
        companies=_stated_companies(constraints.companies, allowed, trace),
        max_citations=max_citations,
        period=constraints.period,
    )
    return with_series(
        session=session,
        query=query,
        constraints=constraints,
        allowed=allowed,
        evidence=evidence,
        max_citations=max_citations,
    )


def _readings(constraints: Constraints, stated: Stated, documents: list[DocumentInfo]) -> list[str]:
    """How the question's words were read: a company's name, the period on the answering
    filing's calendar, and the filing a comparative period is read from."""
    named = documents and constraints.companies
    source = period_source(constraints, documents[0]) if named else None
    return [*constraints.readings, *stated.readings, *([source] if source else [])]


def _not_stored(
    query: Query, mode: Mode, constraints: Constraints, trace: Trace, session: Session
) -> Answer:
    """The answer to a question about companies no stored filing is of: the notice alone,
    no other company's figure or passage."""
    notice = not_stored_notice(constraints)
    trace.warn(notice)
    trace.finish()
    answer = Answer(
        question=query.question,
        mode=str(mode),
        route=str(Route.METADATA),
        route_reason=f"no stored company is named ({', '.join(constraints.unknown)} is not stored)",
        sql=None,
        documents=[],
        nodes=[],
        citations=[],
        answer=notice,
        timings={k: round(v, 4) for k, v in trace.timings.items()},
        warnings=trace.warnings,
        usage=trace.usage_summary(),
    )
    _log(session, answer)
    return answer


def _answer(
    query: Query,
    mode: Mode,
    decision: RouteDecision,
    found: list[Found],
    written: Written,
    stated: Stated,
    notice: str,
    readings: list[str],
    trace: Trace,
) -> Answer:
    """The answer as returned: what the corpus lacks said first, the route and its reason,
    the documents ranked and the nodes searched, the citations in the answer's order, the
    figures and working stated, and the lines it stands on (each stated figure's row, then
    the lines extracted from the cited pages)."""
    trace.finish()
    figures = [f.stated() for f in stated.figures]
    rows = [
        EvidenceLine(f.document, f.page, f"{f.label}: {f.shown.lstrip('$-')}", "figure")
        for f in figures
    ] + evidence_lines(stated.series)
    if stated.headline is not None and stated.headline.kind == "text":  # the sentence itself
        h = stated.headline
        rows.insert(0, EvidenceLine(h.document, h.page, h.label.rstrip("…"), "figure"))
    return Answer(
        question=query.question,
        mode=str(mode),
        route=str(decision.route),
        route_reason=decision.reason,
        sql=decision.sql,
        documents=[DocumentScore(d.name, round(d.score, 6)) for d in decision.documents[:10]],
        nodes=[
            NodeRef(n.document, n.node_id, n.title, n.start_page, n.end_page)
            for doc in found
            for n in doc.nodes
        ],
        citations=written.citations,
        answer=_text(notice, stated.text, written.text, readings),
        figures=figures,
        working=stated.working.stated() if stated.working else None,
        headline=stated.headline,
        candidates=stated.candidates,
        compared=stated.compared,
        evidence=rows + written.lines,
        timings={k: round(v, 4) for k, v in trace.timings.items()},
        warnings=trace.warnings,
        usage=trace.usage_summary(),
        readings=readings,
        series=stated.series,
    )


def _text(notice: str, stated: str, written: str, readings: list[str]) -> str:
    """The answer's text: what the corpus lacks, then the stated figures (`written` begins
    with them) and how the question was read, then the rest."""
    said = "\n".join(f"{r[:1].upper()}{r[1:]}" for r in readings)
    if said and stated and written.startswith(stated):
        written = f"{stated}\n{said}{written[len(stated) :]}"
    elif said:
        written = f"{said}\n\n{written}"
    return f"{notice}\n\n{written}" if notice else written


def _stated_companies(
    named: list[str], allowed: list[DocumentInfo] | None, trace: Trace
) -> list[str]:
    """The companies whose figures the answer may state as the ones asked: those the
    question names, else those of the filings the caller's filters chose. A question naming
    a company the filters leave out is answered from the filters' filings, and warned of."""
    if allowed is None:
        return named
    kept = sorted({d.company for d in allowed if d.company})
    if not named:
        return kept
    if not set(named) & set(kept):
        trace.warn(
            f"the question names {', '.join(named)}; the filters keep only filings of "
            f"{', '.join(kept) or 'no named company'}"
        )
    return named


def _require_documents(session: Session, location: str) -> None:
    if not queries.has_ready_documents(session):
        raise EmptyCorpusError(
            f"no filings are stored yet in {location}: run `pi ingest FOLDER` "
            "(PDF, HTML, EDGAR .txt, Markdown) first, then ask again"
        )


def _log(session: Session, answer: Answer) -> None:
    """The question's row in `query_log`: its route, documents, citations, time and usage.
    Best-effort: a row that cannot be written (a full disk) costs the log, not the answer,
    and the answer does not wait for the row to reach the disk (a crash may lose the last
    rows, never the corpus)."""
    try:
        with session.begin_nested():
            session.execute(text("SET LOCAL synchronous_commit TO OFF"))
            session.execute(_LOG, _log_row(answer))
    except Exception as exc:
        cause = driver_error(exc)
        if cause is None:
            raise
        logger.warning("the question was not logged in query_log (%s)", str(cause).strip()[:240])


_LOG = text(
    "INSERT INTO query_log (question, mode, route, route_reason, documents, citations, "
    "latency_ms, usage) VALUES (:question, :mode, :route, :route_reason, "
    "CAST(:documents AS jsonb), CAST(:citations AS jsonb), :latency_ms, CAST(:usage AS jsonb))"
)


def _log_row(answer: Answer) -> dict[str, Any]:
    """The row as stored: any URL-like text in it (a failed model step's reason that quotes
    an endpoint, a question that pastes a link) has its secrets masked."""
    return {
        "question": redact_text(answer.question),
        "mode": str(answer.mode),
        "route": str(answer.route),
        "route_reason": redact_text(answer.route_reason),
        "documents": json.dumps([{"name": d.name, "score": d.score} for d in answer.documents]),
        "citations": json.dumps([c.to_dict() for c in answer.citations]),
        "latency_ms": answer.timings["total"] * 1000,
        "usage": json.dumps(_masked(answer.usage)),
    }


def _masked(value: Any) -> Any:
    """A JSON value with the secrets of every URL-like string in it masked."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, dict):
        return {k: _masked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_masked(v) for v in value]
    return value
