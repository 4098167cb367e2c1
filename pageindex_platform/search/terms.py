"""A question's words as search terms: its keywords (common words left out), the same as
Postgres full-text terms and an OR query of them, and each term's rarity among some rows
(ln((N + 1) / (n + 0.5)), so that a word on every page — "fiscal", "end" — counts for little).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from ..db.sql import Session, text
from ..index.text import phrase_words
from ..patterns import deferred

__all__ = [
    "glossed",
    "keywords",
    "name_words",
    "phrase_words",
    "rarity",
    "spelled_out",
    "term_weights",
    "terms",
    "tsquery",
]

_WORD = deferred(r"[a-z0-9]+(?:[.-][a-z0-9]+)*")
_STOP = frozenset(
    (
        "a an and are as at be by can did do does for from had has have how in is it its of on "
        "or our than that the their then there these this to was were what when where which "
        "while who will with would you your please give answer question using based data shown "
        "details response relying information provided calculate round decimal places"
    ).split()
)


def keywords(question: str) -> list[str]:
    words = [w for w in _WORD.findall(question.lower()) if w not in _STOP and len(w) > 1]
    return list(dict.fromkeys(words))


def terms(question: str, phrases: Sequence[str] = ()) -> list[str]:
    """The question's keywords as full-text terms ("full-time" is "full" and "time", as the
    text search parser indexes it), then `phrases` as phrase terms ("human <-> capital")."""
    words = (part for w in keywords(question) for part in re.split(r"[.-]", w))
    found = [t for t in (re.sub(r"[^a-z0-9]", "", w) for w in words) if t][:24]
    for phrase in phrases:
        parts = [t for t in (re.sub(r"[^a-z0-9]", "", w) for w in phrase.lower().split()) if t]
        if parts:
            found.append(parts[0] if len(parts) == 1 else f"({' <-> '.join(parts)})")
    return list(dict.fromkeys(found))[:32]


def tsquery(question: str, phrases: Sequence[str] = ()) -> str:
    """An OR query of the question's keywords (to_tsquery syntax, injection-safe)."""
    return " | ".join(terms(question, phrases))  # "" matches nothing (no syntax error)


def rarity(
    session: Session, n_terms: int, *, rows: str, tsv: str, params: dict[str, Any]
) -> list[float]:
    """ln((N + 1) / (n + 0.5)) of terms `:t0`... over the N rows of `rows` (a FROM clause),
    n of which contain the term in their `tsv` column."""
    counts = ", ".join(
        f"count(*) FILTER (WHERE {tsv} @@ to_tsquery('english', :t{i}))" for i in range(n_terms)
    )
    row = session.execute(text(f"SELECT count(*), {counts} FROM {rows}"), params).one()
    return [math.log((row[0] + 1) / (n + 0.5)) for n in row[1:]]


def term_weights(
    session: Session,
    question: str,
    document_ids: Sequence[int] | None,
    phrases: Sequence[str] = (),
) -> list[float]:
    """The rarity of each term among the chunks of `document_ids` (all chunks when None)."""
    found = terms(question, phrases)
    if not found:
        return []
    where = "WHERE document_id = ANY(:ids)" if document_ids is not None else ""
    params: dict[str, Any] = {f"t{i}": t for i, t in enumerate(found)}
    if document_ids is not None:
        params["ids"] = list(document_ids)
    return rarity(session, len(found), rows=f"chunks {where}", tsv="tsv", params=params)


def name_words(name: str | None) -> set[str]:
    """A company's name as the words a question's words are compared with ("Acme Inc." →
    {"acme", "inc"}): words the question says of the owner, not of what it asks."""
    return set(phrase_words(name or "").split())


# a name spelled out before its abbreviation: "gross merchandise volume (GMV)"
_ABBREVIATION = deferred(r"\(([A-Z][A-Za-z&]{1,7})\)")
_SMALL_WORDS = frozenset("and of the for to in & a".split())


# a primary statement as a question names it: "the condensed consolidated balance sheet", "its
# consolidated statement of cash flows", "the income statement" (a regular expression's text)
STATEMENT_NAMED = (
    r"(?:condensed\s+)?(?:consolidated\s+)?(?:statements?\s+of\s+\w+(?:\s+\w+)?|income\s+statement"
    r"|balance\s+sheet|cash\s+flows?\s+statement)\b"
)


def initials(words: str, skipped: frozenset[str]) -> str:
    """The first letters of a name's words but the `skipped` ones: "earnings before interest
    and taxes" → "ebit"."""
    return "".join(w[0] for w in words.split() if w not in skipped)


def abbreviations(text: str) -> dict[str, str]:
    """Each abbreviation `text` spells out, with its name's words: "total payment volume
    (TPV)" → {"tpv": "total payment volume"}."""
    return {initials(n.lower(), _SMALL_WORDS): phrase_words(n) for n in spelled_out(text)[1]}


def spelled_out(text: str) -> tuple[str, list[str]]:
    """`text` with each name spelled out before its abbreviation left as the abbreviation
    alone ("gross merchandise volume (GMV)" → "GMV"), and the names spelled out: a filing
    names it either way, and one thing asked is one term, not four."""
    names: list[str] = []
    out, last = [], 0
    for found in _ABBREVIATION.finditer(text):
        letters = "".join(c.lower() for c in found[1] if c.isupper() or c == "&")
        words = text[last : found.start()].split()
        for k in range(1, min(len(words), 8) + 1):
            if initials(" ".join(words[-k:]).lower(), _SMALL_WORDS) == letters:
                out.append(" ".join([*words[:-k], found[1]]) + " ")
                names.append(" ".join(words[-k:]))
                break
        else:
            out.append(text[last : found.end()])
        last = found.end()
    out.append(text[last:])
    return "".join(out), names


def glossed(label: str, question: str) -> set[str]:
    """The words a row's label says in parentheses that the question writes in parentheses
    too ("(including production and communication costs)"): the gloss both give of it."""
    return _in_parentheses(question) & _in_parentheses(label)


def _in_parentheses(text: str) -> set[str]:
    """The words a text writes in parentheses."""
    return set(phrase_words(" ".join(re.findall(r"\(([^)]*)\)", text))).split())
