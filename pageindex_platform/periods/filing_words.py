"""How a question names the filing it reads rather than the period it asks: "its fiscal 2023
10-K", "its 10-K for fiscal 2015", "its Q4 2022 earnings release"; and the words that ask the
period before the one named, or a full year beside a quarter."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..patterns import deferred

# The kinds of filing a question names: "10-K", "annual report", "Form 10-Q".
_FILING = r"(?:10-?K|10-?Q|20-F|annual\s+report|quarterly\s+report|filing)"
# A year that names the filing a figure is read from, not the period asked of it: "its
# fiscal 2023 10-K", "the 2016 annual report", "FY2019 Form 10-K".
FILING_YEAR = deferred(
    r"(?:\bFY\s?'?|\bfiscal(?:\s+year)?\s+'?)?(?<!\d)(?P<y>(?:19|20)\d\d)\s+(?:form\s+)?"
    rf"(?:{_FILING}|report)\b"
    # "its 10-K for fiscal 2015"
    rf"|\b{_FILING}\s+for\s+(?:the\s+)?(?:fiscal(?:\s+year)?\s+|FY\s?)?"
    r"(?P<y2>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
# An annual filing named by its fiscal year: "its 2021 Form 10-K", "the 2016 annual report".
ANNUAL_FILING_YEAR = deferred(
    r"(?:\bFY\s?'?|\bfiscal(?:\s+year)?\s+'?)?(?<!\d)((?:19|20)\d\d)\s+(?:form\s+)?"
    r"(?:10-?K|20-F|annual\s+report)\b|\b(?:10-?K|annual\s+report)\s+for\s+(?:the\s+)?"
    r"(?:fiscal(?:\s+year)?\s+|FY\s?)?((?:19|20)\d\d)\b",
    re.IGNORECASE,
)
# A filing named, with or without its year: "its 10-Q for the quarter ended June 30, 2023".
FILING_NAMED = deferred(rf"\b(?:form\s+)?{_FILING}\b", re.IGNORECASE)
# The period before the one named: "the prior year", "the comparable prior-year quarter",
# "the year before", "a year earlier", "the comparative column".
PRIOR = deferred(
    r"\b(?:prior|previous|preceding)[\s-]+(?:fiscal[\s-]+)?(?:year|quarter|period)\b|"
    r"\byear[\s-]+(?:ago|before|earlier)\b|\bcomparative\s+(?:column|year|period)\b",
    re.IGNORECASE,
)
# a quarter that names the filing read ("its Q4 2022 earnings release"), and a full year
# asked beside it ("Acme's FY2022 net margin, per its Q4 2022 earnings release")
FILING_AFTER = deferred(
    r"\s+(?:(?:19|20)\d\d\s+)?(?:earnings(?!\s+per\b)|financial\s+results|results"
    r"|(?:press\s+|news\s+)?release"
    r"|10-?Q|report|shareholder\s+letter|conference\s+call)\b",
    re.IGNORECASE,
)
# the words before a filing's own date: "published on April 25, 2023", "dated May 3, 2023"
ISSUED = deferred(r"\b(?:published|dated|filed|released|issued)(?:\s+on)?\s*$", re.IGNORECASE)
FULL_YEAR = deferred(
    r"\bFY\s?'?\d{2,4}\b|\bfull[\s-]+year\b|\bfiscal\s+(?:year\s+)?\d{4}\b|\bannual\b",
    re.IGNORECASE,
)
# where the question says the answer is read, not what it asks: "According to Acme's 2016
# annual report, ...", "Per the Form 8-K Acme filed on February 7, 2023, ...", "In the
# stockholder letter of Acme's 2023 annual report, ..."
_SOURCE = deferred(
    r"(?:^|,\s*)(?:according\s+to|per|in|from|based\s+on|as\s+(?:stated|reported|disclosed)\s+in)"
    r"\s+(?:the\s+|its\s+|their\s+)?[^,?]{0,80}?\b(?:8-?K|10-?K|10-?Q|annual\s+report|quarterly"
    r"\s+report|filing|release|letter|proxy(?:\s+statement)?)\b[^,?]{0,60}?(?=,|\?|$)",
    re.IGNORECASE,
)


# who the question says states the figure, which a sentence need not name: "how many
# employees did CEO Jane Doe say would ...", "what did Acme's chief financial officer report";
# a name without an officer's title only before a verb of speech ("did Jane Doe say"): "did
# Acme Ground report" names the part of the company that reports the figure
_SPEECH = r"say|state|tell|write|mention"
_STATEMENT = r"announce|disclose|report|note"
_NAME = r"(?:(?-i:[A-Z][\w.-]*)\s+){0,3}"
_SPEAKER = deferred(
    r"\b(did|does|do)\s+(?:(?:the|its|their|[A-Z][\w&.-]*['’]s?)\s+)?"
    r"(?:(?:CEO|CFO|COO|chief\s+[a-z]+\s+officer|chair(?:man|woman|person)?|president)\s+"
    rf"{_NAME}(?=(?:{_SPEECH}|{_STATEMENT})\b)"
    rf"|{_NAME}(?=(?:{_SPEECH})\b)"
    rf"|(?=(?:{_STATEMENT})\b))",
    re.IGNORECASE,
)


def without_source(question: str) -> str:
    """The question less the words that name the filing the answer is read from, or the
    person said to state it."""
    return _SPEAKER.sub(r"\1 ", _SOURCE.sub(" ", question))


# how the question wants its answer given, not what it asks: "Answer in millions of shares.",
# "Round to two decimal places.", "..., in USD millions?", "..., rounded to one decimal"
_FORM = deferred(
    r"(?<=[.?!])\s+(?:please\s+)?(?:answer|round|express|give\s+(?:the|your)\s+answer|report\s+"
    r"(?:the|your)\s+answer)\b[^.?!]*[.?!]?"
    r"|,\s*(?:and\s+)?(?:round(?:ed)?|express(?:ed)?|answer(?:ed)?|in\s+(?:usd|us\$|\$|dollars|"
    r"millions|billions|thousands))\b[^,.?!]*"
    # "in dollar terms (not per share)": the whole amount, said in money
    r"|\s+in\s+(?:dollar|absolute|nominal)\s+terms\b|\s*\((?:not|rather\s+than)\s+per\s+share\)",
    re.IGNORECASE,
)


def without_form(question: str) -> str:
    """The question less the words that say how its answer is to be given."""
    return _FORM.sub(" ", question)


# the words that name a filing as where a figure is read: "per its", "according to the"
_READ_IN = deferred(
    r"\b(?:per|according\s+to|based\s+on|from|in|using|citing)\s+(?:its|the|their)\s+$",
    re.IGNORECASE,
)


def filing_quarters(
    question: str, spans: Sequence[tuple[int, int]], years: Sequence[int | None]
) -> tuple[list[bool], bool]:
    """For each quarter the question writes (its span, the year written onto it), whether
    the filing's noun follows it ("Q4 2022 earnings release"); and whether another quarter of
    its own year is asked beside one that only names the filing read ("revenue in Q4 2021,
    per its Q4 2022 release"): then only those read in are the filing's."""
    filing = [bool(FILING_AFTER.match(question, end)) for _, end in spans]
    read_in = [
        named and bool(_READ_IN.search(question, 0, start))
        for (start, _), named in zip(spans, filing, strict=True)
    ]
    beside = any(y is not None and not r for y, r in zip(years, read_in, strict=True))
    if any(read_in) and beside:
        return read_in, True
    return filing, False
