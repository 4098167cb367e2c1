"""Figures a filing states in its text rather than its tables: counts ("we operated 871
warehouses", "approximately 316,000 employees", "we repurchased 4.2 million shares") and
percentages ("paid memberships increased 7.6%"), found in the sentence that says them, with
its page, and checked as table figures are: the digits are on the page (they are read from
it), the sentence speaks of the period asked, and of the company rather than a segment
unless the question names one."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy.orm import Session

from ..db import queries
from ..db.queries import DocumentInfo
from .headline import Stated, not_sure
from .results import Candidate, Check, Headline
from .terms import phrase_words

_COUNT = re.compile(
    r"\bhow many\s+(?P<a>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)|\b(?:total\s+)?number of\s+"
    r"(?P<b>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)",
    re.IGNORECASE,
)
_PERCENT_ASKED = re.compile(
    r"\bby (?:what|how much) (?:percent|percentage|%)|\bwhat (?:was |is )?(?:the )?"
    r"percent(?:age)?(?: point)? (?:increase|decrease|change|growth|decline|rise)|"
    r"\bpercent(?:age)? (?:increase|decrease|change|growth|decline) (?:in|of)\b|"
    r"\b(?:comparable|same[- ]store|comp)\s+(?:store\s+)?sales\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.;!?])\s+(?=[A-Z(])|\n{2,}|\n(?=[A-Z•\-])")
_NUMBER = r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s*(million|billion|thousand)\b)?"
_PERCENT = re.compile(r"\(?(-?\d+(?:\.\d+)?)\)?\s?(%|percent\b)", re.IGNORECASE)
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_YEAR = re.compile(r"\b(?:fiscal\s+|fy\s?)?((?:19|20)\d\d)\b", re.IGNORECASE)
_STOP = frozenset(
    "a an the of in on at for to by and or did does do was were is are has have had how many "
    "what which number total company its their it as from with during end fiscal year quarter "
    "percent percentage increase decrease change growth grow rise decline compared over than "
    "versus vs much prior previous last first second third fourth yoy".split()
)
_UP = re.compile(r"\b(?:increas\w*|grew|grow\w*|rose|ris\w*|up|higher|improv\w*)\b", re.I)
_DOWN = re.compile(r"\b(?:decreas\w*|declin\w*|fell|fall\w*|down|lower|drop\w*)\b", re.I)
_SEGMENT = re.compile(r"\bsegments?\b", re.IGNORECASE)
# a sentence of plans or expectations states no figure reported
_PLAN = re.compile(
    r"\b(?:expects?|expected|plans?|planned|will|anticipates?|intends?|targets?|goal|on track|"
    r"outlook|guidance|forecast\w*|project(?:s|ed|ions?)?)\b",
    re.IGNORECASE,
)
_RANGE = re.compile(r"(?:\d\s*(?:to|-|–|and)\s*)$")  # "20 to 30": a range, not a count
_MAX_LABEL = 220


@dataclass(frozen=True)
class TextAsk:
    """What a question asks a sentence for: a count of `noun`, or a percentage; `terms` are
    its other words a sentence should share."""

    percent: bool
    noun: str
    terms: tuple[str, ...]
    direction: str  # "up", "down" or ""


def text_ask(question: str, company_words: set[str]) -> TextAsk | None:
    """The count or percentage a question asks for in text; None when it asks neither."""
    count = _COUNT.search(question)
    percent = _PERCENT_ASKED.search(question)
    if not count and not percent:
        return None
    words = [w for w in phrase_words(question).split() if w not in _STOP and not w.isdigit()]
    terms = tuple(w for w in words if w not in company_words and not re.match(r"^(fy|q)\d", w))
    noun = ""
    if count:
        noun = phrase_words(count.group("a") or count.group("b") or "").split()[0]
    direction = "up" if _UP.search(question) else "down" if _DOWN.search(question) else ""
    return TextAsk(bool(percent) and not count, noun, terms, direction)


def text_stated(
    *, session: Session, question: str, document: DocumentInfo, ask: TextAsk, year: int | None
) -> Stated:
    """The best sentence's figure, checked; candidates set aside when none passes."""
    found = _found(session, document, ask)
    segment_asked = bool(_SEGMENT.search(question))
    aside: list[Candidate] = []
    for _, page, sentence, value, shown in found[:8]:
        checks = _checks(sentence, document, year, segment_asked, page)
        failed = next((c for c in checks if not c.passed), None)
        unit = "%" if ask.percent else ask.noun
        fields = {
            "value": value,
            "shown": shown,
            "unit": unit,
            "label": _label(sentence),
            "period": _period(document, year),
            "period_start": None,
            "period_end": document.period_end,
            "document": document.name,
            "page": page,
            "checks": checks,
        }
        if failed is None:
            headline = Headline(**fields, kind="text")  # type: ignore[arg-type]
            text = f"{shown} — “{headline.label}” [{document.name}, p. {page}]"
            return Stated(text, headline=headline, candidates=aside)
        aside.append(Candidate(**fields, set_aside=failed.detail))  # type: ignore[arg-type]
    what = "the percentage asked" if ask.percent else f"the number of {ask.noun}"
    return Stated(not_sure(what, aside), candidates=aside) if aside else Stated()


def _found(
    session: Session, document: DocumentInfo, ask: TextAsk
) -> list[tuple[int, int, str, float, str]]:
    """(score, page, sentence, value, as written) for each figure of the kind asked, best
    first: the sentences sharing most of the question's words."""
    keys = [ask.noun] if ask.noun else list(ask.terms)
    pages = queries.pages_mentioning(session, document, [k for k in keys if len(k) > 2])
    out: list[tuple[int, int, str, float, str]] = []
    for page in pages:
        for sentence in _SENTENCE.split(page.text):
            flat = " ".join(sentence.split())
            words = phrase_words(flat)
            score = sum(f" {t} " in words for t in ask.terms)
            for value, shown in _figures(flat, ask):
                out.append((score, page.page, flat, value, shown))
    out.sort(key=lambda x: (-x[0], x[1]))
    # a sentence names at least half of what is asked ("global comparable sales": two of the
    # three words), or it speaks of something else
    return [x for x in out if x[0] >= max(1, (len(ask.terms) + 1) // 2)]


def _figures(sentence: str, ask: TextAsk) -> list[tuple[float, str]]:
    """The figures of the kind asked in a sentence: a number before the noun asked, or a
    percentage in a sentence moving the way asked."""
    if ask.percent:
        if ask.direction == "up" and not _UP.search(sentence):
            return []
        if ask.direction == "down" and not _DOWN.search(sentence):
            return []
        return [
            (_signed(float(m.group(1)), m.group(0), sentence[: m.start()], ask), m.group(0))
            for m in _PERCENT.finditer(sentence)
        ]
    stem = re.escape(ask.noun.rstrip("s")[:-1] if len(ask.noun) > 4 else ask.noun)
    # "871 warehouses", "4.2 million shares of common stock"; not "10,000 of our employees"
    pattern = rf"{_NUMBER}\s+(?:(?!of\b)[A-Za-z-]+\s+){{0,3}}?{stem}\w*"
    found = []
    for m in re.finditer(pattern, sentence, re.IGNORECASE):
        if re.match(r"(?:19|20)\d\d$", m.group(1)) or _RANGE.search(sentence[: m.start()]):
            continue  # a year or a range's end, not a count
        value = float(m.group(1).replace(",", "")) * _SCALES.get((m.group(2) or "").lower(), 1)
        found.append((value, m.group(0)))
    return found


def _signed(value: float, shown: str, before: str, ask: TextAsk) -> float:
    """A percentage the sentence says fell ("comparable sales declined 6.2%", or "(6.2)%" as
    accounts print a negative) is a change of -6.2 — unless the question asks how much it
    fell, whose answer is the fall itself."""
    value = abs(value)
    if ask.direction:
        return value
    if shown.startswith("(") and ")" in shown:
        return -value
    ups = [m.end() for m in _UP.finditer(before)]
    downs = [m.end() for m in _DOWN.finditer(before)]
    return -value if downs and max(downs) > max(ups, default=-1) else value


def _checks(
    sentence: str, document: DocumentInfo, year: int | None, segment_asked: bool, page: int
) -> list[Check]:
    checks = [Check("page", True, f"read from the sentence on p. {page}")]
    years = {int(y) for y in _YEAR.findall(sentence)}
    own = document.fiscal_year
    if year is not None and years and year not in years:
        said = ", ".join(str(y) for y in sorted(years))
        checks.append(Check("period", False, f"the sentence speaks of {said}, not {year}"))
    elif year is not None and not years and own is not None and own != year:
        checks.append(Check("period", False, f"the filing is of fiscal {own}, not {year}"))
    else:
        checks.append(Check("period", True, "the sentence is of the period asked"))
    if _PLAN.search(sentence):
        checks.append(Check("kind", False, "the sentence speaks of a plan or an expectation"))
    else:
        checks.append(Check("kind", True, "the sentence reports the figure"))
    if _SEGMENT.search(sentence) and not segment_asked:
        checks.append(Check("statement", False, "the sentence gives a segment's figure"))
    else:
        checks.append(Check("statement", True, "the company's own figure"))
    return checks


def _period(document: DocumentInfo, year: int | None) -> str:
    """The period a sentence's figure is of: the quarter of a quarter's filing, else the
    fiscal year asked, else the filing's period end."""
    if year is None:
        return str(document.period_end or "")
    quarter = document.fiscal_period if document.fiscal_period in ("Q1", "Q2", "Q3", "Q4") else ""
    return f"{quarter} FY{year}".strip() if document.fiscal_year == year else f"FY{year}"


def _label(sentence: str) -> str:
    return sentence if len(sentence) <= _MAX_LABEL else f"{sentence[: _MAX_LABEL - 1]}…"
