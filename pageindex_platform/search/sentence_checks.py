"""The checks of a figure read from a sentence of a filing (counts, percentages, amounts
said in text): the page it is read from, the period the sentence speaks of, that it reports
the figure rather than a plan, and that it is the company's own rather than a segment's."""

from __future__ import annotations

import re

from ..db.queries import DocumentInfo
from ..periods.grammar import MATURITY
from .results import Check
from .sentence_numbers import YEAR, position

_SEGMENT = re.compile(r"\bsegments?\b", re.IGNORECASE)
# a sentence about one segment ("Our Outdoor segment sales increased 12.5%"), not one that
# says the company's figure spans its segments ("throughout our Domestic and International
# segments")
_ONE_SEGMENT = re.compile(r"\bsegment\b(?!s)", re.IGNORECASE)
_SPANNING = re.compile(
    r"\b(?:throughout|across|among|in|of|for)\s+(?:all\s+(?:of\s+)?)?(?:our|its|the|their)\s+"
    r"(?:[\w&'’-]+\s+){0,5}segments\b",
    re.IGNORECASE,
)
_ALLOWED = re.compile(r"\bauthori[sz]\w*|\bpermit\w*|\bup\s+to\b", re.IGNORECASE)
# a sentence of plans or expectations states no figure reported
_PLAN = re.compile(
    r"\b(?:expects?|expected|plans?|planned|will|would|anticipates?|intends?|targets?|goal|"
    r"on track|outlook|guidance|forecast\w*|project(?:s|ed|ions?)?|future)\b",
    re.IGNORECASE,
)


def sentence_checks(
    sentence: str,
    document: DocumentInfo,
    year: int | None,
    question: str,
    page: int,
    shown: str = "",
) -> list[Check]:
    """The checks a figure read from a sentence passes or fails: its page, its period (the
    year the sentence says, else the filing's), that it is reported (not a plan, unless a
    plan is asked: "how much will Acme pay") and the company's (not one segment's, unless
    one is asked)."""
    checks = [Check("page", True, f"read from the sentence on p. {page}")]
    years = {int(y) for y in YEAR.findall(MATURITY.sub(" ", sentence))}
    own = document.fiscal_year
    if year is not None and years and year not in years:
        said = ", ".join(str(y) for y in sorted(years))
        checks.append(Check("period", False, f"the sentence speaks of {said}, not {year}"))
    elif year is not None and not years and own is not None and own != year:
        checks.append(Check("period", False, f"the filing is of fiscal {own}, not {year}"))
    else:
        checks.append(Check("period", True, "the sentence is of the period asked"))
    at = position(sentence, shown) if shown else -1
    if _PLAN.search(_clause(sentence, shown)) and not _PLAN.search(question):
        checks.append(Check("kind", False, "the sentence speaks of a plan or an expectation"))
    elif at > 0 and _ALLOWED.search(sentence[:at]) and not _ALLOWED.search(question):
        # "authorizes us to issue 3.6 billion shares": what may be done, not what was
        checks.append(Check("kind", False, "the sentence gives what is authorized"))
    else:
        checks.append(Check("kind", True, "the sentence reports the figure"))
    one = _ONE_SEGMENT.search(sentence) or (
        _SEGMENT.search(sentence) and not _SPANNING.search(sentence)
    )
    if one and not _SEGMENT.search(question):
        checks.append(Check("statement", False, "the sentence gives a segment's figure"))
    else:
        checks.append(Check("statement", True, "the company's own figure"))
    return checks


def _clause(sentence: str, shown: str) -> str:
    """The sentence up to the end of the clause that says `shown` (the whole sentence without
    it): "... were $67.9 billion, approximately 49% of which we expect to recognize ..." reports
    the amount; the expectation is of another figure."""
    at = position(sentence, shown) if shown else -1
    if at < 0:
        return sentence
    end = at + len(shown)
    return sentence[:end] + sentence[end:].split(",")[0]
