"""Document metadata from the cover page and first pages, never from the file name.

SEC covers say what the filing is ("FORM 10-K", "QUARTERLY REPORT"), whose it is (the row
above "(Exact name of registrant as specified in its charter)") and which period it covers
("For the fiscal year ended December 31, 2018"). Earnings releases announce "... Reports
Fourth Quarter and Fiscal 2023 Results". Fiscal years are named as the company names them
("fiscal 2024" for a year ending in January 2024 or in January 2025), so explicit "fiscal YYYY"
mentions near the period end decide between neighbouring years.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import date, datetime

from ..names import SYMBOL, display_name, letters, short_company
from ..records import DocMetadata, DocType, PageText, TreeNode
from .company import company_names
from .text import squeezed
from .tree import PREFACE, WHOLE_DOCUMENT

_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_DATE = rf"(?:{_MONTHS})\s+\d{{1,2}}\s*,?\s*\d{{4}}"
_PERIOD_END = re.compile(
    rf"(?:year|period|quarter|weeks?|months)(?:\s*\([^)]{{0,30}}\))?\s+ended\s*:?\s*,?\s*({_DATE})",
    re.IGNORECASE,
)
_FISCAL_YEAR_END = re.compile(
    rf"fiscal\s+year\s+end(?:ed|ing|s)?\s*(?:on\s+)?({_MONTHS})\s+\d{{1,2}}", re.IGNORECASE
)
_MONTH_NUMBER = {m.lower(): i for i, m in enumerate(_MONTHS.split("|"), 1)}
_REPORT_DATE = re.compile(
    rf"({_DATE})\s*\n?\s*\(?date of report|date of report[^\n:]{{0,120}}:?\s*\n?\s*({_DATE})",
    re.IGNORECASE,
)
_FISCAL_YEAR = re.compile(r"\bfiscal\s+(?:year\s+)?(20\d\d|19\d\d)\b", re.IGNORECASE)
_QUARTER = re.compile(r"\b(first|second|third|fourth)[\s-]+(?:fiscal\s+)?quarter\b", re.IGNORECASE)
_QUARTER_NUMBER = {"first": "Q1", "second": "Q2", "third": "Q3", "fourth": "Q4"}
_RESULTS = re.compile(
    r"\b(reports?|reported|announces?|announced)\b.{0,120}\b(results|earnings)\b",
    re.IGNORECASE | re.DOTALL,
)


def _parse_date(text: str) -> date | None:
    cleaned = " ".join(text.replace(",", " ").split())
    try:
        return datetime.strptime(cleaned, "%B %d %Y").date()
    except ValueError:
        return None


def _doc_type(first: str) -> str:
    head = first[:6000]
    # A form's name on a line of its own ("FORM 10-Q", "FORM 10-Q (Mark One)"): "Form 10-Q
    # for the quarter ended ..." inside a sentence is a reference to another filing.
    for form, cover, kind in (
        (r"10-?K", r"ANNUAL REPORT PURSUANT TO SECTION", DocType.FORM_10K),
        (r"10-?Q", r"QUARTERLY REPORT PURSUANT TO SECTION", DocType.FORM_10Q),
        (r"8-?K", r"^\s*CURRENT REPORT\s*$", DocType.FORM_8K),
    ):
        if re.search(rf"^\s*FORM\s+{form}\b.{{0,20}}$|{cover}", head, re.M | re.I):
            return kind
    if _RESULTS.search(head[:1500]):
        return DocType.EARNINGS
    return DocType.OTHER


def _quarter(
    doc_type: str,
    opening: str,
    quarters: Counter[str],
    end: date | None,
    fy_end_month: int | None,
) -> str | None:
    """The fiscal quarter: year-to-date columns, else months since the fiscal year's end,
    else the quarter most often named."""
    low = opening.lower()
    if doc_type == DocType.FORM_10Q:
        if "nine months ended" in low:
            return "Q3"
        if "six months ended" in low:
            return "Q2"
    if end is not None and fy_end_month is not None:
        months = (end.month - fy_end_month) % 12
        if months in (3, 6, 9, 0):
            return f"Q{months // 3 or 4}"
    if quarters:
        return quarters.most_common(1)[0][0]
    return "Q1" if doc_type == DocType.FORM_10Q else None


def _pick_year(mentions: Counter[int], allowed: Sequence[int], default: int) -> int:
    best = [(mentions[y], -abs(y - default), y) for y in allowed if mentions[y]]
    return max(best)[2] if best else default


# the forms a cover's dei:DocumentType names by their SEC names (an amendment's "/A" aside)
_DEI_TYPES = {str(kind): kind for kind in (DocType.FORM_10K, DocType.FORM_10Q, DocType.FORM_8K)}


def _fact_date(value: str) -> date | None:
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        return _parse_date(value)


def extract_metadata(
    *, pages: Sequence[PageText], tree: Sequence[TreeNode] = (), cover_facts: Mapping[str, str] = {}
) -> DocMetadata:
    """Type, company, fiscal year and period from what the first pages say (the file's name
    is not consulted: users' files are named after download links, UUIDs or anything). An
    inline-XBRL filing's `dei:` cover facts (`cover_facts`) are exact and take precedence."""
    first = squeezed(p.text for p in pages[:3])
    doc_type = _doc_type(first)
    company, aliases = company_names(pages, first.splitlines(), first, doc_type)
    end, year, period = _period(pages, first, doc_type)
    if cover_facts:
        company, aliases, doc_type, end, year, period = _with_cover_facts(
            cover_facts, company, aliases, doc_type, end, year, period
        )
    title, description = _described(company, doc_type, year, period, end, pages, tree)
    return DocMetadata(
        company=company,
        company_aliases=sorted(aliases),
        doc_type=str(doc_type),
        fiscal_year=year,
        fiscal_period=period,
        period_end=end.isoformat() if end else None,
        cik=_cik(cover_facts),
        title=title,
        description=description,
    )


def _period(
    pages: Sequence[PageText], first: str, doc_type: str
) -> tuple[date | None, int | None, str | None]:
    """(period end, fiscal year, fiscal period) from the first pages: the date of an 8-K's
    event or the period ended, and the fiscal year as the company names it."""
    end: date | None = None
    if doc_type == DocType.FORM_8K:
        m = _REPORT_DATE.search(first)
        if m:
            end = _parse_date(m.group(1) or m.group(2))
    if end is None:
        m = _PERIOD_END.search(first)
        if m:
            end = _parse_date(m.group(1))
    opening = squeezed(p.text for p in pages[:10])
    mentions = Counter(
        int(y) for y in _FISCAL_YEAR.findall(first if doc_type == DocType.FORM_10K else opening)
    )
    quarters = Counter(_QUARTER_NUMBER[q.lower()] for q in _QUARTER.findall(first[:8000]))

    headline = Counter(int(y) for y in _FISCAL_YEAR.findall(first[:600]))
    fy_end = _FISCAL_YEAR_END.search(opening)
    fy_end_month = _MONTH_NUMBER[fy_end.group(1).lower()] if fy_end else None

    period: str | None = None
    year: int | None = end.year if end else None
    if doc_type == DocType.FORM_10K:
        period = "FY"
        if end is not None and end.month == 1 and end.day <= 10:
            # a 52/53-week year ending in the first days of January is the year before's
            year = end.year - 1
        elif end is not None and end.month <= 3:
            year = _pick_year(headline + mentions, (end.year - 1, end.year), end.year)
    elif doc_type in (DocType.FORM_10Q, DocType.EARNINGS):
        period = _quarter(doc_type, opening, quarters, end, fy_end_month)
        if period is None and re.search(
            r"full[\s-]+year|fiscal (?:year )?\d{4} results", first, re.I
        ):
            period = "FY"
        if end is not None:
            # a fiscal year is usually named by the calendar year it ends in
            by_rule = end.year + (1 if fy_end_month and end.month > fy_end_month else 0)
            allowed = (end.year - 1, end.year, end.year + 1)
            year = _pick_year(headline, allowed, 0) or by_rule
        elif headline or mentions:
            year = (headline or mentions).most_common(1)[0][0]
    return end, year, period


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


def _with_cover_facts(
    facts: Mapping[str, str],
    company: str | None,
    aliases: set[str],
    doc_type: str,
    end: date | None,
    year: int | None,
    period: str | None,
) -> tuple[str | None, set[str], str, date | None, int | None, str | None]:
    """The dei: facts over what the text suggested (what they leave out stays)."""
    registrant = facts.get("dei:EntityRegistrantName")
    if registrant:
        if company and letters(company) != letters(registrant):
            aliases.add(short_company(company))
        company = display_name(registrant)
        aliases.add(short_company(company))
    for symbol in re.split(r"[,\s]+", facts.get("dei:TradingSymbol", "")):
        if SYMBOL.fullmatch(symbol):
            aliases.add(symbol)
    kind = _DEI_TYPES.get(facts.get("dei:DocumentType", "").strip().upper().removesuffix("/A"))
    doc_type = kind or doc_type
    end = _fact_date(facts.get("dei:DocumentPeriodEndDate", "")) or end
    focus_year = facts.get("dei:DocumentFiscalYearFocus", "").strip()
    if re.fullmatch(r"(?:19|20|21)\d\d", focus_year):  # a year, not any number
        year = int(focus_year)
    elif doc_type == DocType.FORM_8K and end is not None:
        year = end.year
    focus = facts.get("dei:DocumentFiscalPeriodFocus", "").strip().upper()
    if focus in ("FY", "Q1", "Q2", "Q3", "Q4"):
        period = focus
    if doc_type == DocType.FORM_8K:
        period = None
    aliases.discard(company or "")
    return company, aliases, doc_type, end, year, period


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
