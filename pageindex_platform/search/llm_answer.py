"""LLM-mode answers: written from the extracted pages only, with (document, page) citations
that must be among those pages; invented ones are dropped and reported."""

from __future__ import annotations

import json
from collections.abc import Sequence

from pydantic import BaseModel

from ..db.queries import PageInfo
from ..llm import StructuredChat, Usage, some_known

PAGE_CHARS = 3500  # per page, to keep the prompt within budget


class Cite(BaseModel):
    document: str
    page: int


class CitedAnswer(BaseModel):
    answer: str
    citations: list[Cite]


def llm_answer(
    *,
    chat: StructuredChat,
    question: str,
    pages: Sequence[PageInfo],
    usage: Usage,
    figures: str = "",
) -> tuple[str, list[tuple[str, int]], list[str]]:
    """(answer, valid citations in the model's order, warnings about dropped citations).
    `figures`: the figures and working read from the filing's tables and tagged facts, each
    with its page, given to the model as evidence."""
    payload: dict[str, object] = {
        "question": question,
        "pages": [
            {"document": p.document, "page": p.page, "text": p.text[:PAGE_CHARS]} for p in pages
        ],
    }
    if figures:
        payload["figures"] = figures
    prompt = (
        "TASK: answer_question\nAnswer the question from these pages only. Cite every page "
        "you used as {document, page}. If the pages do not hold the answer, say so. `figures` "
        "are read from these pages' tables, with their working: state them as given.\nINPUT:\n"
        + json.dumps(payload, ensure_ascii=False)
    )
    messages = [
        {"role": "system", "content": "You are a careful financial analyst. JSON only."},
        {"role": "user", "content": prompt},
    ]
    extracted = {(p.document, p.page) for p in pages}
    cited = some_known(
        lambda r: [(c.document, c.page) for c in r.citations],
        extracted,
        "citations",
        "one of the given pages",
    )
    reply = chat.ask_sync(messages, CitedAnswer, usage=usage, step="answer", check=cited)
    valid: list[tuple[str, int]] = []
    warnings = []
    for c in reply.citations:
        key = (c.document, c.page)
        if key in extracted:
            if key not in valid:
                valid.append(key)
        else:
            warnings.append(f"dropped citation {c.document} p. {c.page}: not an extracted page")
    return reply.answer.strip(), valid, warnings
