"""A question's selection shown without an answer (`pi search`, the MCP `search` tool): the
cited pages, best first, each with its section and the line sharing most words with the
question."""

from __future__ import annotations

from ..db import queries
from ..db.sql import Session
from ..patterns import deferred
from .results import Answer, SearchHit, SearchResult

_WORD = deferred(r"[a-z0-9]{3,}")


def search_result(*, session: Session, answer: Answer, limit: int) -> SearchResult:
    """The filings and pages `answer` selected (at most `limit` pages), with snippets."""
    cited = answer.citations[: max(1, limit)]
    words = set(_WORD.findall(answer.question.lower()))
    texts = {
        (p.document, p.page): p.text
        for p in queries.page_texts(session, [(c.document, c.page) for c in cited])
    }
    titles = {(n.document, n.node_id): n.title for n in answer.nodes}
    hits = [
        SearchHit(
            c.document,
            c.page,
            titles.get((c.document, c.node_id)),
            snippet(texts.get((c.document, c.page), ""), words),
        )
        for c in cited
    ]
    return SearchResult(
        answer.question, answer.route, answer.route_reason, answer.documents, hits, answer.warnings
    )


def snippet(text: str, words: set[str], size: int = 240) -> str:
    """The line of `text` sharing most of `words`, cut at `size` characters."""
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    best = max(lines, key=lambda line: len(words & set(_WORD.findall(line.lower()))))
    return best if len(best) <= size else best[: size - 1] + "…"
