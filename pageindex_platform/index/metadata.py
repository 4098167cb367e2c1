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

from ..records import DocMetadata, DocType, PageText, TreeNode
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
    rf"({_DATE})\s*\n?\s*\(?date of report|date of report[^\n:]*:?\s*\n?\s*({_DATE})",
    re.IGNORECASE,
)
_FISCAL_YEAR = re.compile(r"\bfiscal\s+(?:year\s+)?(20\d\d|19\d\d)\b", re.IGNORECASE)
_QUARTER = re.compile(r"\b(first|second|third|fourth)[\s-]+(?:fiscal\s+)?quarter\b", re.IGNORECASE)
_QUARTER_NUMBER = {"first": "Q1", "second": "Q2", "third": "Q3", "fourth": "Q4"}
_REGISTRANT = re.compile(r"^\(?\s*exact name of (?:the )?registrant", re.IGNORECASE)
_TICKER = re.compile(r"\((?:NYSE|NASDAQ|Nasdaq|NYSE American|ASX)\s*:\s*([A-Z.]{1,6})\)")
# The cover page's "Securities registered pursuant to Section 12(b)" table: a trading symbol
# is a row (or a cell) of capitals next to the name of its exchange.
_SYMBOL_HEADER = re.compile(r"trading\s+symbol", re.IGNORECASE)
SYMBOL = re.compile(r"[A-Z]{1,5}(?:\.[A-Z])?")  # a trading symbol: MMM, GIS, BRK.B
_EXCHANGE = re.compile(r"exchange|nasdaq|nyse|market", re.IGNORECASE)
_SYMBOL_INLINE = re.compile(
    rf"(?<![\w$.,])({SYMBOL.pattern})\s+(?:The\s+)?(?:New York Stock Exchange|NYSE|Nasdaq|"
    r"NASDAQ)"
)
_NOT_SYMBOLS = {"NYSE", "NASDAQ", "LLC", "INC", "THE", "NONE", "N", "A", "I", "II"}
_RESULTS = re.compile(
    r"\b(reports?|reported|announces?|announced)\b.{0,120}\b(results|earnings)\b",
    re.IGNORECASE | re.DOTALL,
)
_SUFFIXES = {
    "inc",
    "incorporated",
    "corp",
    "corporation",
    "co",
    "company",
    "plc",
    "ltd",
    "limited",
    "llc",
    "lp",
    "sa",
    "nv",
    "ag",
    "the",
    "com",
    "holdings",
    "group",
    "international",
}
# Rows of a cover page that are never the registrant's name.
_NOT_A_NAME = re.compile(
    r"transition period|pursuant|commission|file number|securities|exchange act|washington|"
    r"fiscal year|quarterly period|^\W*(?:or|form\b.*)\W*$|^[\W\d_]*$",
    re.IGNORECASE,
)
_LEGAL_SUFFIX = re.compile(
    r"(?:\b(?:inc|incorporated|corp|corporation|company|co|plc|ltd|limited|llc|n\.?v|s\.?a|ag)"
    r"\.?|\bholdings)$",
    re.IGNORECASE,
)
_CHECK_MARK = re.compile(r"indicate by check mark", re.IGNORECASE)
_NAME_WORD = r"(?:[A-Z0-9][\w'’.&-]*|&|and|of|the)"
# "McDonald's Corporation today announced", "Ulta Beauty, Inc. (NASDAQ: ULTA) today reported"
_ANNOUNCER = re.compile(
    rf"([A-Z][\w'’.&-]*(?:,?[ \t]+{_NAME_WORD}){{0,5}}?,?[ \t]+"
    r"(?:Inc|Corporation|Company|Corp|Co|plc|Ltd|Limited|Incorporated)\.?)\s*(?:\([^)]{0,40}\)\s*)?,?\s*(?:today\s+)?"
    r"(?:announced|reported|reports|announces)\b"
)
_HEADLINE = re.compile(r"^\s*(.{2,60}?)\s+(?:reports|announces|reported|announced)\b", re.I | re.M)


def _parse_date(text: str) -> date | None:
    cleaned = " ".join(text.replace(",", " ").split())
    try:
        return datetime.strptime(cleaned, "%B %d %Y").date()
    except ValueError:
        return None


def short_company(company: str) -> str:
    """'MGM Resorts International' -> 'MGM Resorts'; 'Amazon.com, Inc.' -> 'Amazon'."""
    company = re.sub(r"\s+\.", ".", company)  # "NIKE, Inc ."
    words = re.split(r"[\s,]+", company.replace(".com", " com"))
    while words and words[-1].lower().strip(".") in _SUFFIXES:
        words.pop()
    while words and words[0].lower() == "the":
        words.pop(0)
    return " ".join(words).strip(" ,.") or company


def _display(name: str) -> str:
    """'MGM RESORTS INTERNATIONAL' -> 'MGM Resorts International': a short first word is
    taken for an acronym (MGM, CVS, 3M) and keeps its capitals."""
    name = re.sub(r"\s+([.,])", r"\1", " ".join(name.split())).strip(" ,")  # "Inc ." -> "Inc."
    if name.isupper() and len(name) > 4:
        words = name.split()
        bare = words[0].strip(".,")
        acronym = len(bare) <= 3 and bare.lower() not in _SUFFIXES
        first = words[0] if acronym else words[0].capitalize()
        return " ".join([first, *(w.capitalize() for w in words[1:])])
    return name


def trading_symbols(rows: Sequence[str]) -> list[str]:
    """The trading symbols a cover page lists for the registrant's securities (common stock
    first; notes, whose symbols carry digits, are left out)."""
    header = next((i for i, r in enumerate(rows) if _SYMBOL_HEADER.search(r)), None)
    if header is None:
        return []
    window = [r.strip() for r in rows[max(0, header - 8) : header + 25]]
    found: list[str] = []
    for i, row in enumerate(window):
        following = next((r for r in window[i + 1 : i + 4] if r), "")
        if SYMBOL.fullmatch(row) and _EXCHANGE.search(following):
            found.append(row)
        found.extend(m.group(1) for m in _SYMBOL_INLINE.finditer(row))
    return [s for s in dict.fromkeys(found) if s not in _NOT_SYMBOLS]


def _registrant(rows: Sequence[str]) -> str | None:
    """The row above "(Exact name of registrant as specified in its charter)"."""
    for i, row in enumerate(rows):
        if _REGISTRANT.match(row.strip()):
            for prev in reversed(rows[max(0, i - 3) : i]):
                if sum(c.isalpha() for c in prev) >= 2 and not _NOT_A_NAME.search(prev.strip()):
                    return _display(prev)
    return None


def _cover_name(rows: Sequence[str]) -> str | None:
    """Older covers print no "(Exact name of registrant ...)" line: the first row in capitals
    ending in a legal suffix ("3M COMPANY") before the check-mark questions."""
    for row in rows:
        row = row.strip()
        if _CHECK_MARK.search(row):
            break
        letters = [c for c in row if c.isalpha()]
        if (
            2 <= len(letters) <= 60
            and all(c.isupper() for c in letters)
            and _LEGAL_SUFFIX.search(row.rstrip(" ,."))
            and not _NOT_A_NAME.search(row)
        ):
            return _display(row)
    return None


def _announcer(text: str) -> tuple[str | None, str | None]:
    """An earnings release's company: the legal name that "today announced" and the
    headline's name ("McDONALD'S REPORTS SECOND QUARTER 2023 RESULTS")."""
    legal = _ANNOUNCER.search(text[:4000])
    headline = _HEADLINE.search(text[:2000])
    return (
        _display(legal.group(1)) if legal else None,
        _display(headline.group(1)) if headline else None,
    )


def letters(name: str) -> str:
    """A name's letters and digits, lower-case: one company whatever its case or punctuation."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


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


def _company(rows: Sequence[str], first: str, doc_type: str) -> tuple[str | None, set[str]]:
    """The company and other names it goes by on these pages (none for a document that is
    neither a filing nor a release: notes that mention a company are not its own)."""
    company = _registrant(rows[:200]) or _cover_name(rows[:120])
    aliases: set[str] = set()
    if company is None and doc_type == DocType.EARNINGS:  # no SEC cover: a press release
        legal, headline = _announcer(first)
        company = legal or headline
        if legal and headline and letters(legal).startswith(letters(headline)):
            aliases.add(headline)
    if company:
        aliases.add(short_company(company))
    ticker = _TICKER.search(first)
    if ticker:
        aliases.add(ticker.group(1))
    aliases.update(trading_symbols(rows[:400]))
    aliases.discard(company or "")
    return company, aliases


def _unspaced(name: str, text: str) -> str:
    """Words a PDF split after their first letter ("MGM R Esorts I Nternational") joined
    again when the joined word is written in the filing ("Resorts", "International")."""

    def join(m: re.Match[str]) -> str:
        word = m.group(1) + m.group(2).lower()
        return word if re.search(rf"\b{word}\b", text) else m.group(0)

    return re.sub(r"\b([A-Z]) ([A-Z][a-z]+)\b", join, name)


def first_word(company: str) -> str | None:
    """The first word of a name of several words ("Verizon" of "Verizon Communications")."""
    words = short_company(company).split()
    return words[0].strip(",.") if len(words) > 1 and words[0].isalpha() else None


def _called_by_first_word(company: str, pages: Sequence[PageText]) -> str | None:
    """A company of several words is called by its first alone ("Verizon", "Activision")
    when the filing writes that word capitalized nearly always: "General" (general and
    administrative) and "Best" (best efforts) are ordinary words, "Verizon" is not."""
    word = first_word(company)
    if word is None or len(word) < 4:
        return None
    text = "\n".join(p.text for p in pages[:60])
    # words, not web or e-mail addresses ("www.verizon.com")
    found = re.findall(rf"(?<![\w./@]){re.escape(word)}\b(?!\.(?:com|net|org)\b)", text, re.I)
    return word.capitalize() if len(found) >= 5 and not any(w.islower() for w in found) else None


_DEI_TYPES = {"10-K": DocType.FORM_10K, "10-Q": DocType.FORM_10Q, "8-K": DocType.FORM_8K}


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
    first = "\n".join(p.text for p in pages[:3])
    rows = first.splitlines()
    doc_type = _doc_type(first)
    company, aliases = _company(rows, first, doc_type)
    if company and re.search(r"\b[A-Z] [A-Z][a-z]", company):
        body = "\n".join(p.text for p in pages[:60])
        company = _unspaced(company, body)
        aliases = {_unspaced(a, body) for a in aliases} | {short_company(company)}
        aliases.discard(company)
    called = _called_by_first_word(company, pages) if company else None
    if called:
        aliases.add(called)

    end: date | None = None
    if doc_type == DocType.FORM_8K:
        m = _REPORT_DATE.search(first)
        if m:
            end = _parse_date(m.group(1) or m.group(2))
    if end is None:
        m = _PERIOD_END.search(first)
        if m:
            end = _parse_date(m.group(1))
    opening = "\n".join(p.text for p in pages[:10])
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
    if cover_facts:
        company, aliases, doc_type, end, year, period = _with_cover_facts(
            cover_facts, company, aliases, doc_type, end, year, period
        )
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
        company = _display(registrant)
        aliases.add(short_company(company))
    for symbol in re.split(r"[,\s]+", facts.get("dei:TradingSymbol", "")):
        if SYMBOL.fullmatch(symbol):
            aliases.add(symbol)
    kind = _DEI_TYPES.get(facts.get("dei:DocumentType", "").strip().upper().removesuffix("/A"))
    doc_type = kind or doc_type
    end = _fact_date(facts.get("dei:DocumentPeriodEndDate", "")) or end
    focus_year = facts.get("dei:DocumentFiscalYearFocus", "").strip()
    if focus_year.isdigit():
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
        DocType.EARNINGS: "earnings release",
    }.get(DocType(doc_type), "document")
