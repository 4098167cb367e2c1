"""`pi eval financebench`: FinanceBench-format questions (JSONL; `evidence_page_num` 0-based)
through the `pi ask` pipeline and through the naive baselines, on the same database."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import text

from ..db import queries
from ..db.engine import Database
from ..embeddings.space import EmbeddingSpace
from ..errors import ConfigurationError, InputError, LLMError
from ..index.report import IngestReport
from ..jsonl import read_jsonl
from ..llm import StructuredChat
from ..records import DocType
from ..search.results import Answer
from ..search.router import Route
from .answers import score_answer
from .baselines import Baseline, full_text_top_k, vector_top_k
from .metrics import RANK_LIMIT, Gold, Ranking, Summary, first_gold_rank, summarize

if TYPE_CHECKING:
    from ..api import Corpus

OURS = "pageindex-platform"
MISS_K = 5  # a question is listed as a miss when no gold page is among our first 5 citations
# FinanceBench's document types as stored ones
DOC_TYPES = {
    "10k": DocType.FORM_10K,
    "10q": DocType.FORM_10Q,
    "8k": DocType.FORM_8K,
    "earnings": DocType.EARNINGS,
}


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    answer: str
    gold: Gold


def load_questions(path: Path) -> list[Question]:
    """Questions with their gold documents and pages (converted to our 1-based pages)."""
    out = []
    for number, row in enumerate(read_jsonl(path), 1):
        evidence = row.get("evidence") or []
        try:
            pages = frozenset(
                (str(e["doc_name"]), int(e["evidence_page_num"]) + 1) for e in evidence
            )
            question = str(row["question"])
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(
                path,
                f"row {number}: needs question and evidence "
                f"[{{doc_name, evidence_page_num}}] ({exc})",
            ) from exc
        if not pages:
            raise InputError(path, f"row {number}: no evidence")
        gold = Gold(frozenset(d for d, _ in pages), pages)
        out.append(
            Question(
                str(row.get("financebench_id", number)), question, str(row.get("answer", "")), gold
            )
        )
    return out


def load_gold(path: Path) -> dict[str, dict[str, Any]]:
    """FinanceBench document rows as `--metadata` overrides (company, doc_type, fiscal_year)."""
    out: dict[str, dict[str, Any]] = {}
    for number, row in enumerate(read_jsonl(path), 1):
        if not row.get("doc_name"):
            raise InputError(path, f"row {number}: no doc_name")
        kind = str(row.get("doc_type", "")).lower()
        out[str(row["doc_name"])] = {
            "company": row.get("company"),
            "doc_type": DOC_TYPES.get(kind, row.get("doc_type")),
            "fiscal_year": row.get("doc_period"),
        }
    return out


@dataclass
class EvalResult:
    summaries: list[Summary]
    questions: list[dict[str, Any]]
    skipped: list[str] = field(default_factory=list)  # questions whose documents are absent
    settings: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "settings": self.settings,
            "systems": [s.to_dict() for s in self.summaries],
            "skipped_questions": self.skipped,
            "questions": self.questions,
        }

    def misses(self) -> list[dict[str, Any]]:
        """Questions without a gold page among our first MISS_K citations."""
        out = []
        for q in self.questions:
            rank = q["systems"][OURS]["first_gold_rank"]
            if rank is None or rank > MISS_K:
                out.append(q)
        return out


Ask = Callable[[str], Answer]  # a question through `pi ask` (Corpus.ask, with its route)


def _ours(question: str, ask: Ask) -> Ranking:
    started = time.perf_counter()
    answer = ask(question)
    return Ranking(
        documents=[d.name for d in answer.documents][:RANK_LIMIT],
        pages=[(c.document, c.page) for c in answer.citations][:RANK_LIMIT],
        seconds=time.perf_counter() - started,
        route=answer.route,
        calls=answer.usage["calls"],
        prompt_tokens=answer.usage["prompt_tokens"],
        completion_tokens=answer.usage["completion_tokens"],
        answer=answer.answer,
    )


def _stored_documents(db: Database) -> tuple[set[str], dict[str, str]]:
    """The stored names, and each linked copy's name → the document it is stored as."""
    with db.session() as session:
        names = set(session.execute(text("SELECT name FROM documents")).scalars())
        return names, queries.copies_of(session)


def _as_stored(question: Question, copies: dict[str, str]) -> Question:
    """The question with an evidence file stored as a copy of another (the same content under
    another name) named as the document it is stored as."""
    pages = frozenset((copies.get(d, d), p) for d, p in question.gold.pages)
    gold = Gold(frozenset(d for d, _ in pages), pages)
    return Question(question.id, question.question, question.answer, gold)


def run_eval(
    *,
    db: Database,
    ask: Ask,
    questions: Sequence[Question],
    space: EmbeddingSpace,
    ks: Sequence[int],
    chat: StructuredChat | None = None,
    score_answers: bool = False,
    judge: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> EvalResult:
    """Every question through `ask` (the `pi ask` pipeline of the corpus in `db`) and both
    baselines (questions embedded in `space`). Questions none of whose evidence documents
    are stored are left out (and listed). Answers are scored only on request (llm mode, by
    `chat`): numbers must match for numeric gold answers, the model judges the rest."""
    stored, copies = _stored_documents(db)
    questions = [_as_stored(q, copies) for q in questions]
    kept = [q for q in questions if q.gold.documents & stored]
    skipped = [q.id for q in questions if not q.gold.documents & stored]
    runs: dict[str, list[Ranking]] = {OURS: [], Baseline.VECTOR: [], Baseline.FULL_TEXT: []}
    rows: list[dict[str, Any]] = []
    for number, q in enumerate(kept, 1):
        ours = _ours(q.question, ask)
        if score_answers:
            try:
                ours.answer_correct = score_answer(
                    q.question, q.answer, ours.answer, chat=chat if judge else None
                )
            except LLMError:
                ours.answer_correct = None
        with db.session() as session:
            vector = vector_top_k(session=session, question=q.question, embedder=space.questions)
        with db.session() as session:
            lexical = full_text_top_k(session=session, question=q.question)
        found = {OURS: ours, Baseline.VECTOR: vector, Baseline.FULL_TEXT: lexical}
        for name, ranking in found.items():
            runs[name].append(ranking)
        rows.append(
            {
                "id": q.id,
                "question": q.question,
                "gold_documents": sorted(q.gold.documents),
                "gold_pages": [list(p) for p in sorted(q.gold.pages)],
                "route": ours.route,
                "answer_correct": ours.answer_correct,
                "systems": {
                    str(name): {
                        "documents": r.documents[:3],
                        "pages": [list(p) for p in r.pages],
                        "first_gold_rank": first_gold_rank(r.pages, q.gold),
                        "seconds": round(r.seconds, 4),
                    }
                    for name, r in found.items()
                },
            }
        )
        if progress:
            progress(number, len(kept))
    golds = [q.gold for q in kept]
    summaries = [summarize(str(name), r, golds, ks) for name, r in runs.items()] if kept else []
    return EvalResult(
        summaries=summaries,
        questions=rows,
        skipped=skipped,
        settings={"ks": list(ks), "questions": len(kept)},
    )


Ingest = Callable[[list[Path], dict[str, dict[str, Any]] | None], IngestReport]


def evaluate_financebench(
    *,
    corpus: Corpus,
    questions: Sequence[Question],
    gold: dict[str, dict[str, Any]] | None,
    pdfs: Path,
    ks: Sequence[int],
    ingest: Ingest,
    score_answers: bool = False,
    judge: bool = False,
    route: Route = Route.AUTO,
    progress: Callable[[int, int], None] | None = None,
) -> EvalResult:
    """`pi eval financebench`: the PDFs ingested into `corpus` by `ingest` (`gold`: the
    documents file's metadata as overrides, or None), every question through `pi ask` and
    both baselines."""
    from ..llm.openai_compatible import chat_for

    db = corpus.db
    with chat_for(corpus.mode, corpus.settings, db) as chat:
        if score_answers and chat is None:
            raise ConfigurationError("--score-answers needs --mode llm and a model (PI_LLM_MODEL)")
        stored = ingest([pdfs], gold).summary()
        with db.session() as session:  # questions embedded as `pi ask` embeds them
            space = EmbeddingSpace.of_corpus(session, corpus.settings)
        result = run_eval(
            db=db,
            ask=lambda question: corpus.ask(question, route=route),
            questions=questions,
            space=space,
            ks=ks,
            chat=chat,
            score_answers=score_answers,
            judge=judge,
            progress=progress,
        )
    result.settings.update(
        {
            "mode": str(corpus.mode),
            "route": str(route),
            "metadata": "gold" if gold else "extracted",
            "embedder": space.questions.name,
            "documents": stored.stored + stored.skipped,
            "ingest": {
                key: getattr(stored, key)
                for key in ("stored", "skipped", "failed", "pages", "chunks", "seconds")
            },
        }
    )
    return result
