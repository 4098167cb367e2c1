"""The checks of a figure read from a sentence of a filing (counts, percentages, amounts
said in text): the page it is read from, the period the sentence speaks of, that it reports
the figure rather than a plan, and that it is the company's own rather than a segment's."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..db.queries import DocumentInfo
from ..patterns import deferred
from ..periods.grammar import MATURITY
from .headline import Stated
from .results import Candidate, Check, Headline
from .sentence_numbers import YEAR, position, sentence_label

_SEGMENT = deferred(r"\bsegments?\b", re.IGNORECASE)
# a sentence about one segment ("Our Outdoor segment sales increased 12.5%"), not one that
# says the company's figure spans its segments ("throughout our Domestic and International
# segments")
_ONE_SEGMENT = deferred(
    r"\b(segment)\b(?!s)|\b(SBU)\b|\bbusiness\s+(unit)\b(?!s)|\b(subsidiar)y\b|\b(division)\b(?!s)|"
    r"\b(utilit)(?:y|ies)\b|^\s*(?:\(\w+\)\s*)?(includes?)\b",
    re.IGNORECASE,
)
# the parent named with its part, the two together: "PG&E Corporation and the Utility had
# access to ...", "Acme Inc. and its subsidiaries"
_WITH_PARENT = deferred(
    r"\b(?:Corporation|Company|Inc\.?|Group|Holdings|Parent)\s+and\s+(?:the|its)\s+(?:[\w-]+\s+)?"
    r"(?i:segments?|subsidiar\w+|utilit\w+|divisions?|business\s+units?|SBUs?)\b"
)
_SPANNING = deferred(
    r"\b(?:throughout|across|among|in|of|for)\s+(?:(?:all\s+(?:of\s+)?)?(?:our|its|the|their)\s+"
    r"(?:[\w&'’-]+\s+){0,5}segments\b|(?:each|every|all)\s+(?:of\s+(?:our|its|the|their)\s+)?"
    r"(?:[\w&'’-]+\s+){0,4}?segments?\b)",  # "with double-digit growth across each segment"
    re.IGNORECASE,
)
# a sentence whose subject is another entity: "OVEC has two plants ... with 2,109 MW"
_SUBJECT = deferred(
    r"^\s*((?:[A-Z][\w&.'’-]*\s+){1,4}?)(?:has|have|had|owns|owned|operates|operated)\b"
)
_WE = frozenset("we our the company its management".split())
_NUMBERS = "one two three four five six seven eight nine ten eleven twelve".split()
# a number the question says in words ("its eight utility businesses"), not the parties of
# what it tells ("when the two companies ended their merger")
_NUMBER_WORD = deferred(
    rf"\b({'|'.join(_NUMBERS[1:])})\b(?!\s+(?:decimal|companies|parties|sides)\b)", re.IGNORECASE
)
_PREFERRED = deferred(r"\bpreferred\s+(?:stock|shares?)\b", re.IGNORECASE)
_ALLOWED = deferred(r"\bauthori[sz]\w*|\bpermit\w*|\bup\s+to\b", re.IGNORECASE)
# a sentence of plans or expectations states no figure reported
_PLAN = deferred(
    r"\b(?:expects?|expected|plans?|planned|will|would|anticipates?|intends?|targets?|goal|"
    r"on track|outlook|guidance|forecast\w*|project(?:s|ed|ions?)?|future|committed|"
    r"commitments?|agree(?:s|d)?\s+to|obligated|(?:is|are)\s+payable|(?:is|are|was|were)\s+to\s+be)\b",
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
    plan is asked: "how much will Acme pay"; not what is authorized) and the company's (not
    a segment's, a unit's, a subsidiary's or a utility's, nor a footnote of what a figure
    includes, unless the question names that part; not preferred stock's)."""
    checks = [Check("page", True, f"read from the sentence on p. {page}")]
    years = set(years_said(sentence))
    own = document.fiscal_year
    if year is not None and years and year not in years:
        said = ", ".join(str(y) for y in sorted(years))
        checks.append(Check("period", False, f"the sentence speaks of {said}, not {year}"))
    elif year is not None and not years and own is not None and own != year:
        checks.append(Check("period", False, f"the filing is of fiscal {own}, not {year}"))
    else:
        checks.append(Check("period", True, "the sentence is of the period asked"))
    at = position(sentence, shown) if shown else -1
    if _PLAN.search(_clause(sentence, at, shown)) and not _PLAN.search(question):
        checks.append(Check("kind", False, "the sentence speaks of a plan or an expectation"))
    elif at > 0 and _ALLOWED.search(sentence[:at]) and not _ALLOWED.search(question):
        # "authorizes us to issue 3.6 billion shares": what may be done, not what was
        checks.append(Check("kind", False, "the sentence gives what is authorized"))
    else:
        checks.append(Check("kind", True, "the sentence reports the figure"))
    part = _ONE_SEGMENT.search(sentence)
    named = part is not None and re.search(
        rf"\b{next(g for g in part.groups() if g)}", question, re.I
    )
    spans = _SPANNING.search(sentence)
    one = (
        part and not named and not _WITH_PARENT.search(sentence) and not (spans and part[1])
    ) or (_SEGMENT.search(sentence) and not spans)
    other = _other_subject(sentence, document, question)
    missing = [w for w in _NUMBER_WORD.findall(question) if not _says_number(sentence, w)]
    if missing:  # "its eight utility businesses": the sentence of the eight
        checks.append(Check("statement", False, f"the sentence does not say {missing[0]!r}"))
    elif other:
        checks.append(Check("statement", False, f"the sentence speaks of {other}"))
    elif (within := _INCLUDED_IN.match(sentence)) and within[
        "line"
    ].lower() not in question.lower():
        line = within["line"].strip()
        checks.append(Check("statement", False, f"the sentence gives the part in {line!r}"))
    elif _PREFERRED.search(sentence) and not _PREFERRED.search(question):
        checks.append(Check("statement", False, "the sentence speaks of preferred stock"))
    elif one and not _SEGMENT.search(question):
        what = part[0].strip() if part else "segment"
        checks.append(Check("statement", False, f"the sentence gives a part's figure ({what})"))
    else:
        checks.append(Check("statement", True, "the company's own figure"))
    return checks


# "Included in “Other long-term liabilities” ... was $2.0 billion of unearned revenue": the
# part of the amount that one line holds, not the whole
_INCLUDED_IN = deferred(
    r"^\W*(?:included|recorded|reported|presented|classified)\s+(?:with)?in\s+(?:the\s+)?[“\"']?"
    r"(?P<line>[^”\"',]{3,60})",
    re.IGNORECASE,
)


def _clause(sentence: str, at: int, shown: str) -> str:
    """The sentence up to the end of the clause that says `shown`, written at `at` (the whole
    sentence where it is not there): "... were $67.9 billion, approximately 49% of which we
    expect to recognize ..." reports the amount; the expectation is of another figure."""
    if at < 0:
        return sentence
    end = at + len(shown)
    return sentence[:end] + sentence[end:].split(",")[0]


def _other_subject(sentence: str, document: DocumentInfo, question: str) -> str:
    """The entity a sentence speaks of as its subject where it is neither the company (its
    names, "we", "the Company") nor named by the question ("OVEC has two plants with a
    combined generation capacity of 2,109 MW"); "" otherwise."""
    subject = _SUBJECT.match(sentence)
    if subject is None or subject[1].strip().lower() in question.lower():
        return ""
    names = (document.company or "", *document.company_aliases)
    own = {w for n in names for w in n.lower().split()} | _WE
    said = {w.lower().strip(".,") for w in subject[1].split()}
    return "" if said & own else subject[1].strip()


def _says_number(sentence: str, word: str) -> bool:
    """Whether a sentence says a number the question names in words ("eight"), in words or
    in digits."""
    digits = str(_NUMBERS.index(word.lower()) + 1)
    return bool(re.search(rf"\b(?:{word}|{digits})\b", sentence, re.IGNORECASE))


# a year that is part of an event's name, not the period a figure is of: "the 2018 Camp
# fire", "the 2017 Northern California wildfires"
_EVENT_YEAR = deferred(
    r"\b(?:19|20)\d\d\s+(?:[A-Z][\w'’-]*\s+){1,3}(?:[Ff]ires?|[Ww]ildfires?|[Ss]torms?|"
    r"[Hh]urricanes?|[Ee]arthquakes?|[Ff]loods?|[Ee]xplosions?|[Ii]ncidents?)\b"
)


def years_said(text: str) -> list[int]:
    """The years a text writes, in order, less those that name when something falls due
    ("Senior Notes due 2033") or an event ("the 2018 Camp fire")."""
    return [int(y) for y in YEAR.findall(_EVENT_YEAR.sub(" ", MATURITY.sub(" ", text)))]


def sentence_figure(
    *,
    value: float,
    shown: str,
    unit: str,
    sentence: str,
    period: str,
    document: DocumentInfo,
    page: int,
    checks: list[Check],
) -> Headline | Candidate:
    """A figure read from a sentence: the headline where it passes every check, else a
    candidate set aside with the first check it failed."""
    fields = {
        "value": value,
        "shown": shown,
        "unit": unit,
        "label": sentence_label(sentence),
        "period": period,
        "period_start": None,
        "period_end": document.period_end,
        "document": document.name,
        "page": page,
        "checks": checks,
    }
    failed = next((c for c in checks if not c.passed), None)
    if failed is None:
        return Headline(**fields, kind="text")  # type: ignore[arg-type]
    return Candidate(**fields, set_aside=failed.detail)  # type: ignore[arg-type]


def stated_from(figure: Headline | Candidate, aside: list[Candidate]) -> Stated | None:
    """The answer stating `figure` where it is a headline ("$67.9 billion — “...” [doc, p.
    N]"), the candidates set aside before it kept; None, `figure` set aside, where it is not."""
    if isinstance(figure, Headline):
        text = f"{figure.shown} — “{figure.label}” [{figure.document}, p. {figure.page}]"
        return Stated(text, headline=figure, candidates=aside)
    aside.append(figure)
    return None


def sentence_period(document: DocumentInfo, year: int | None) -> str:
    """The period a sentence's figure is of: the quarter of a quarter's filing, else the
    fiscal year asked, else the filing's period end."""
    if year is None:
        return str(document.period_end or "")
    quarter = document.fiscal_period if document.fiscal_period in ("Q1", "Q2", "Q3", "Q4") else ""
    return f"{quarter} FY{year}".strip() if document.fiscal_year == year else f"FY{year}"


# an act done to what is counted, where the question asks what is had: "hired 23,000 new
# employees", "completed construction of 2,079 MW"
_ACTS = (
    r"completed|acquired|added|hired|opened|closed|signed|sold|retired|built|launched|"
    r"divested|repurchased"
)
_DONE = deferred(rf"\b(?:{_ACTS})\b[^.;]{{0,150}}$", re.IGNORECASE)
# the act said after the figure: "1,500 new restaurants ... were opened"
_DONE_AFTER = deferred(
    rf"[^.;\d]{{0,150}}?\b(?:were|was|been)\s+(?:\w+\s+)?(?P<act>{_ACTS})\b", re.IGNORECASE
)
# the act named as a noun before the figure: "the closure of 855 restaurants"
_ACT_OF = deferred(
    r"\b(?P<act>closure|opening|acquisition|addition|divestiture|retirement|sale|repurchase)s?"
    r"\s+of\s+(?:approximately\s+|about\s+|over\s+|nearly\s+|some\s+)?$",
    re.IGNORECASE,
)
_NEW = deferred(r"[\d,.]+\s+(?P<act>new)\b", re.IGNORECASE)


def act_done(sentence: str, at: int) -> str:
    """The act a sentence says was done to what the figure at `at` counts ("hired" of "we
    hired 23,000 employees", "opened" of "1,500 new restaurants were opened", "new" of "1,500
    new restaurants"), in lower case; "" where it says none."""
    before = _DONE.search(sentence[:at]) if at > 0 else None
    if before:
        return before[0].split()[0].lower()
    named = _ACT_OF.search(sentence[:at]) if at > 0 else None
    if named:
        return named["act"].lower()
    after = _NEW.match(sentence, max(at, 0)) or _DONE_AFTER.match(sentence, max(at, 0))
    return after["act"].lower() if after else ""


# what is new was opened, added, hired, launched, built or acquired
_NEW_BY = ("new", "open", "add", "hire", "laun", "buil", "acqu")


def act_asked(done: str, terms: tuple[str, ...]) -> bool:
    """Whether the question's words ask the act a sentence says was done ("open" asks what
    was "opened", or what is "new")."""
    stems = _NEW_BY if done == "new" else (done[:4],)
    return any(t[:4] in stems for t in terms)


# a change in the thing a sentence names ("the change in unearned revenue of $1.7 billion")
_CHANGE_IN = deferred(
    r"\b(?:change|increase|decrease|growth|decline|rise|reduction)s?\s+in\s+(?:the\s+|our\s+|its\s+)?$",
    re.IGNORECASE,
)
_CHANGE_ASKED = deferred(
    r"\b(?:chang|increas|decreas|grow|grew|rise|rose|fell|fall|declin|reduc)\w*", re.IGNORECASE
)


def change_check(sentence: str, core: Sequence[str], question: str) -> Check:
    """Whether the sentence names the thing asked as what changed ("the change in unearned
    revenue of $1.7 billion") where the question asks the thing, not a change."""
    named = re.search(rf"\b{re.escape(core[0])}", sentence, re.IGNORECASE) if core else None
    changed = named is not None and _CHANGE_IN.search(sentence[: named.start()]) is not None
    passed = not changed or _CHANGE_ASKED.search(question) is not None
    return Check("change", passed, "the amount asked, not a change in it")
