"""The companies stored: their names and aliases, the names a question's words resemble, the
words common across the corpus (a term of the trade, not a name) and the symbols other
companies hold."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..sql import Session, text


@dataclass(frozen=True)
class CompanyNames:
    """A stored company name, the other names its filings go by (symbols included), and the
    span of its filings' periods (ISO dates; None when no filing has one)."""

    company: str
    aliases: tuple[str, ...]
    first: str | None = None
    last: str | None = None


def company_names(session: Session) -> list[CompanyNames]:
    """Each stored company name once, with every alias its filings give it."""
    rows = session.execute(
        text(
            "SELECT d.company, array_remove(array_agg(DISTINCT a.alias), NULL), "
            "min(d.period_end), max(d.period_end) FROM documents d "
            "LEFT JOIN LATERAL unnest(d.company_aliases) AS a(alias) ON TRUE "
            "WHERE d.company IS NOT NULL GROUP BY d.company ORDER BY d.company"
        )
    )
    return [
        CompanyNames(company, tuple(sorted(aliases or ())), first, last)
        for company, aliases, first, last in rows
    ]


def common_words(session: Session, phrase: str, share: float = 0.5) -> bool:
    """Whether every word of `phrase` (its periods and numbers aside) is an English stop word
    ("IT", "ON", "ALL") or in more than `share` of the stored documents: a term of the trade
    ("GAAP", "EBITDA"), not a name."""
    words = [w for w in re.findall(r"[A-Za-z]+", phrase) if not re.fullmatch(r"(?i)fy|[qh]", w)]
    if not words:
        return True
    counts = ", ".join(
        f"count(*) FILTER (WHERE numnode(plainto_tsquery('english', :w{i})) = 0 "
        f"OR lexemes @@ plainto_tsquery('english', :w{i}))"
        for i in range(len(words))
    )
    row = session.execute(
        text(f"SELECT count(*), {counts} FROM documents"),
        {f"w{i}": w for i, w in enumerate(words)},
    ).one()
    total, found = row[0], row[1:]
    return bool(total) and all(n > share * total for n in found)


@dataclass(frozen=True)
class Mentions:
    """How one stored company's filings name a phrase: on how many pages of how many of its
    filings, of how many filings and pages in all (of the filings naming it)."""

    company: str
    pages: int
    documents: int
    filings: int
    pages_of_naming: int  # the pages of its filings that name the phrase somewhere


def mentions(session: Session, phrase: str, limit: int = 10) -> list[Mentions]:
    """The stored companies whose filings' pages name `phrase` most, most first (the pages'
    full-text index: no page is read)."""
    rows = session.execute(
        text(
            "WITH hits AS (SELECT p.document_id, count(*) AS n FROM pages p "
            "WHERE p.tsv @@ phraseto_tsquery('english', :p) GROUP BY p.document_id) "
            "SELECT d.company, sum(h.n), count(*), sum(d.page_count), "
            "(SELECT count(*) FROM documents o WHERE o.company = d.company) "
            "FROM hits h JOIN documents d ON d.id = h.document_id "
            "WHERE d.company IS NOT NULL GROUP BY d.company ORDER BY 2 DESC LIMIT :k"
        ),
        {"p": phrase, "k": limit},
    )
    return [
        Mentions(str(company), int(pages), int(documents), int(filings), int(total or 0))
        for company, pages, documents, total, filings in rows
    ]


COVER_PAGES = 3  # a filing's cover page is among its first pages (an EDGAR reprint adds one)


def cover_texts(
    session: Session, phrase: str, document_id: int | None = None
) -> list[tuple[str, str]]:
    """(company, page text) of the first pages of stored filings (or of one document) that
    name `phrase`: where a cover page prints its registrants."""
    rows = session.execute(
        text(
            "SELECT d.company, p.text FROM pages p JOIN documents d ON d.id = p.document_id "
            "WHERE p.page <= :n AND d.company IS NOT NULL "
            "AND (CAST(:d AS integer) IS NULL OR d.id = :d) "
            "AND p.tsv @@ phraseto_tsquery('english', :p) ORDER BY d.company, p.page"
        ),
        {"p": phrase, "n": COVER_PAGES, "d": document_id},
    )
    return [(str(company), str(body)) for company, body in rows]


def stop_word(session: Session, word: str) -> bool:
    """Whether `word` is an English stop word ("IT", "ALL", "ON"): no lexeme of its own."""
    found = session.execute(
        text("SELECT numnode(plainto_tsquery('english', :w)) = 0"), {"w": word}
    ).scalar()
    return bool(found)


def companies_resembling(session: Session, question: str, similarity: float) -> list[str]:
    """Stored companies one of whose names (of 4 letters or more) is like a run of the
    question's words (pg_trgm word_similarity at least `similarity`)."""
    rows = session.execute(
        text(
            "SELECT DISTINCT d.company FROM documents d "
            "CROSS JOIN LATERAL unnest(array_append(d.company_aliases, d.company)) AS f(form) "
            "WHERE length(f.form) >= 4 AND word_similarity(lower(f.form), lower(:q)) >= :s"
        ),
        {"q": question, "s": similarity},
    ).scalars()
    return [str(company) for company in rows if company]


def stored_companies(session: Session) -> list[str]:
    """The distinct company names stored (one company is stored under one spelling)."""
    rows = session.execute(text("SELECT DISTINCT company FROM documents WHERE company IS NOT NULL"))
    return [str(company) for company in rows.scalars()]


def symbol_holders(
    session: Session, symbols: Sequence[str], company: str, document_id: int
) -> dict[str, list[str]]:
    """For each of `symbols`, the other company names stored with it as an alias (another
    document than `document_id`, under a name other than `company`)."""
    rows = session.execute(
        text(
            "SELECT DISTINCT s.symbol, d.company FROM documents d, "
            "unnest(d.company_aliases) AS s(symbol) WHERE s.symbol = ANY(:symbols) "
            "AND d.id <> :id AND d.company IS NOT NULL AND d.company <> :company "
            "ORDER BY d.company"
        ),
        {"symbols": list(symbols), "id": document_id, "company": company},
    )
    holders: dict[str, list[str]] = {}
    for row in rows:
        holders.setdefault(row.symbol, []).append(row.company)
    return holders
