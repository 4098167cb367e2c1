"""Document metadata as evidence: company, filing type, fiscal year, fiscal period and period
end, each decided from signals (`signals.py`) — the inline XBRL cover facts, the cover page,
the text (`cover.py`, `company.py`), and at store time the corpus and the file name
(`resolve.py`) — and kept with its source and confidence. A filing's file name is never its
company's name: users' files are named after download links, UUIDs or anything.

Fiscal years are named as the company names them ("fiscal 2024" for a year ending in January
2024 or in January 2025), so the filing's own "fiscal YYYY" / "Q2 FY24" mentions decide
between neighbouring years, before the calendar's rule.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from ..names import SYMBOL, display_name
from ..periods import parse_written_date
from ..records import DocMetadata, DocType, PageText, TreeNode
from .company import aliases_of, company_signals, joined_again
from .cover import (
    end_signals,
    fiscal_year_end,
    period_signals,
    type_signals,
    year_end_after,
    year_signals,
)
from .signals import UNSURE, Decided, Signal, Source, decide
from .text import squeezed
from .tree import PREFACE, WHOLE_DOCUMENT

# the forms a cover's dei:DocumentType names by their SEC names (an amendment's "/A" aside)
_DEI_TYPES = {str(kind): kind for kind in (DocType.FORM_10K, DocType.FORM_10Q, DocType.FORM_8K)}
_XBRL = 0.99  # a dei: cover fact is the filer's own statement of the field
_OTHER_COMPANY = 0.5  # the least confidence for a company of a document that is no filing


def _fact_date(value: str) -> date | None:
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        return parse_written_date(value)


@dataclass(frozen=True)
class FirstPages:
    """What the metadata is read from: the pages, their first three squeezed (`first`)
    and its lines (`rows`), the first ten (`opening`), the first forty where the statements
    are, lower-case (`statements`), and the cover facts."""

    pages: Sequence[PageText]
    first: str
    opening: str
    rows: list[str]
    cover_facts: Mapping[str, str]
    statements: str = ""

    @classmethod
    def of(cls, pages: Sequence[PageText], cover_facts: Mapping[str, str]) -> FirstPages:
        first = squeezed(p.text for p in pages[:3])
        opening = squeezed(p.text for p in pages[:10])
        statements = " ".join(" ".join(p.text.split()) for p in pages[:40]).lower()
        return cls(pages, first, opening, first.splitlines(), cover_facts, statements)


def extract_metadata(
    *, pages: Sequence[PageText], tree: Sequence[TreeNode] = (), cover_facts: Mapping[str, str] = {}
) -> DocMetadata:
    """Type, company, fiscal year and period from what the first pages say; an inline-XBRL
    filing's `dei:` cover facts (`cover_facts`) are the filer's own statement and weigh
    most. The signals are kept on the metadata for the store, which adds the corpus's."""
    read = FirstPages.of(pages, cover_facts)
    return metadata_of(read_signals(read), read=read, tree=tree)


def read_signals(read: FirstPages) -> list[Signal]:
    """Every signal the file itself gives: type and company first, then the period end, and
    the fiscal year and period by the calendar those imply."""
    facts = read.cover_facts
    signals = type_signals(read.first) + _xbrl_type(facts)
    kind = str(decide(signals)["doc_type"].value)
    signals += company_signals(read.pages, read.rows, read.first, kind)
    registrant = facts.get("dei:EntityRegistrantName", "").strip()
    if registrant:
        signals.append(Signal("company", display_name(registrant), Source.XBRL, _XBRL, "dei"))
    ends = end_signals(read.first, read.opening, kind)
    xbrl_end = _fact_date(facts.get("dei:DocumentPeriodEndDate", ""))
    if xbrl_end is not None:
        ends.append(Signal("period_end", xbrl_end.isoformat(), Source.XBRL, _XBRL, "dei"))
    signals += ends
    decided_end = decide(ends).get("period_end")
    end = date.fromisoformat(decided_end.value) if decided_end else None
    year_end = fiscal_year_end(read.opening, end, kind)
    periods = period_signals(read.first, read.statements, kind, end, year_end) + _xbrl_period(
        facts, kind, end
    )
    if year_end is None and end is not None:  # the year ends where its fourth quarter does
        quarter = decide(periods).get("fiscal_period")
        if quarter is not None and quarter.confidence >= UNSURE:
            year_end = year_end_after(end, str(quarter.value))
    return signals + periods + year_signals(read.first, read.opening, kind, end, year_end)


def _xbrl_type(facts: Mapping[str, str]) -> list[Signal]:
    kind = _DEI_TYPES.get(facts.get("dei:DocumentType", "").strip().upper().removesuffix("/A"))
    return [Signal("doc_type", str(kind), Source.XBRL, _XBRL, "dei")] if kind else []


def _xbrl_period(facts: Mapping[str, str], kind: str, end: date | None) -> list[Signal]:
    found: list[Signal] = []
    focus_year = facts.get("dei:DocumentFiscalYearFocus", "").strip()
    if re.fullmatch(r"(?:19|20|21)\d\d", focus_year):  # a year, not any number
        found.append(Signal("fiscal_year", int(focus_year), Source.XBRL, _XBRL, "dei"))
    elif kind == DocType.FORM_8K and end is not None and facts:
        found.append(Signal("fiscal_year", end.year, Source.XBRL, 0.9, "dei: the event's year"))
    focus = facts.get("dei:DocumentFiscalPeriodFocus", "").strip().upper()
    if focus in ("FY", "Q1", "Q2", "Q3", "Q4") and kind != DocType.FORM_8K:
        found.append(Signal("fiscal_period", focus, Source.XBRL, _XBRL, "dei"))
    return found


def metadata_of(
    signals: Sequence[Signal], *, read: FirstPages, tree: Sequence[TreeNode]
) -> DocMetadata:
    """The metadata the signals decide, with each field's source and confidence, the names
    the company goes by on these pages, and the document's title and description."""
    decided = decide(signals)
    kind = str(decided["doc_type"].value) if "doc_type" in decided else str(DocType.OTHER)
    company = _company(decided.get("company"), kind, read)
    aliases = aliases_of(company, read.pages, read.rows, read.first) if company else set()
    for symbol in re.split(r"[,\s]+", read.cover_facts.get("dei:TradingSymbol", "")):
        if SYMBOL.fullmatch(symbol):
            aliases.add(symbol)
    aliases.discard(company or "")
    found_year = _value(decided, "fiscal_year")
    year = int(found_year) if found_year is not None else None
    period = None if kind == DocType.FORM_8K else _value(decided, "fiscal_period")
    end_text = _value(decided, "period_end")
    end = date.fromisoformat(end_text) if end_text else None
    title, description = _described(company, kind, year, period, end, read.pages, tree)
    sources = {f: d.to_dict() for f, d in decided.items() if f != "company" or company}
    if period is None:
        sources.pop("fiscal_period", None)
    return DocMetadata(
        company=company,
        company_aliases=sorted(aliases),
        doc_type=kind,
        fiscal_year=year,
        fiscal_period=period,
        period_end=end_text,
        cik=_cik(read.cover_facts),
        title=title,
        description=description,
        sources=sources,
        signals=list(signals),
        cover_facts=dict(read.cover_facts),
    )


def _value(decided: Mapping[str, Decided], field: str) -> str | None:
    found = decided.get(field)
    return None if found is None else found.value


def _company(found: Decided | None, kind: str, read: FirstPages) -> str | None:
    """The decided company, its letter-spaced words joined; none for a document that is no
    filing or release unless the evidence is strong (notes that mention a company are not
    its own)."""
    if found is None or (kind == DocType.OTHER and found.confidence < _OTHER_COMPANY):
        return None
    return joined_again(str(found.value), read.pages)


def _described(
    company: str | None,
    doc_type: str,
    year: int | None,
    period: str | None,
    end: date | None,
    pages: Sequence[PageText],
    tree: Sequence[TreeNode],
) -> tuple[str, str]:
    """The document's title and its description (what a question is compared with)."""
    sections = [n.title for n in tree if n.title not in (PREFACE, WHOLE_DOCUMENT)][:6]
    if company:
        title = f"{company} {_type_label(doc_type)}"
        if year:
            title += f" for fiscal {year}" + (f" {period}" if period and period != "FY" else "")
    else:  # notes, memos: no company's filing; their first heading says what they are
        title = sections[0] if sections else _type_label(doc_type).capitalize()
    description = f"{title}"
    if end:
        description += f", period ended {end.isoformat()}"
    description += f" ({len(pages)} pages)."
    if sections:
        description += " Sections include: " + "; ".join(s[:60] for s in sections) + "."
    return title, description


def _cik(facts: Mapping[str, str]) -> str | None:
    digits = re.sub(r"\D", "", facts.get("dei:EntityCentralIndexKey", ""))
    return digits.zfill(10) if 0 < len(digits) <= 10 else None


def _type_label(doc_type: str) -> str:
    return {
        DocType.FORM_10K: "Form 10-K annual report",
        DocType.FORM_10Q: "Form 10-Q quarterly report",
        DocType.FORM_8K: "Form 8-K current report",
        DocType.EARNINGS: str(DocType.EARNINGS),
    }.get(DocType(doc_type), "document")
