"""One line item over another that a question asks without a metric's name: "capital
expenditure (purchases of property and equipment) as a percentage of net revenues", "the ratio
of capital expenditures to depreciation and amortization" — each side a line's whole name, read
as a metric the question defines (`ASKED`)."""

from __future__ import annotations

import re
from itertools import pairwise

from ..patterns import deferred
from ..periods.grammar import quarters_written
from .figures import LineItem
from .formulas_told import SENTENCES
from .items_named import items_in
from .metric_questions import ASKED
from .metrics import Catalogue, Metric
from .narrowing import ADJUSTED
from .statements import Statement
from .terms import phrase_words

# the first word of a period after a side's name ("for full-year 2022", "in the second quarter")
_PERIOD_START = (
    r"(?:fy|fiscal|the|\d|full|year|q[1-4]\b|first|second|third|fourth|three|six|nine|twelve)"
)
_YEARS = r"(?:fy|fiscal|q[1-4]\b|(?:19|20)\d\d)"  # "from FY2018 to FY2020", not "from the U.S."
# one line as a share of another, asked without a name: "what was Acme's capital expenditure
# (purchases of property and equipment) as a percentage of net revenues in FY2018?"
# (a line's name may hold a comma: "marketing, general and administrative expense"; "relative
# to" asks the same share)
_SHARE_WORDS = (
    # (an average over years written first: "3-year average of R&D expense as a % of ...")
    r"\s*(?:(?:\d|two|three|four|five)[\s-]years?\s+average\s+of\s+)?(?P<a>[a-z](?:[^?,;]|,\s(?=[a-z])(?!(?:what|which|how|who)\b))*?)\s+(?:as\s+an?\s+(?:percentage|percent|%|share|"
    r"proportion)\s+of|relative\s+to|in\s+relation\s+to)\s+"
    r"(?:its\s+|the\s+)?(?P<b>[a-z][^?,;]*?)"
    rf"(?=\s+(?:in|for|during|at|over)\s+{_PERIOD_START}|\s+(?:from|between)\s+{_YEARS}"
    r"|\?|,|;|\.\s|\.?$)"
)
# the whole named first: "What percentage of Acme's fiscal 2023 revenue went to salaries and
# employee benefits?", "What share of net sales did cost of sales represent in 2022?"
_OF_WHOLE = (
    r"\bwhat\s+(?:percentage|percent|share|proportion|fraction)\s+of\s+"
    r"(?:(?:[\w&.-]+\s+){0,3}?[\w&.-]+['’]s?\s+)?(?:(?:fiscal\s+(?:year\s+)?|fy\s?)?\d{4}\s+)?"
    r"(?:its\s+|the\s+)?(?P<b>[a-z][^?,;()]*?)\s*(?:\([^()]*\)\s*)?"
    r"(?:went\s+to|was\s+spent\s+on|(?:was|were)\s+(?:made\s+up\s+of|accounted\s+for\s+by)|"
    r"(?:was|were)\s+paid\s+(?:out\s+)?(?:as|in|for)|"
    r"did\s+(?:its\s+|the\s+)?(?P<a2>[a-z][^?,;]*?)\s+(?:represent|account\s+for|make\s+up|"
    r"consume|take))\s*(?:its\s+|the\s+)?(?P<a>[a-z][^?,;]*?)?"
    rf"(?=\s+(?:in|for|during|at|over)\s+{_PERIOD_START}|\?|,|;|\.\s|\.?$)"
)
# after the owner's name ("eBay's capital expenditure ..."), else after "what was"
_LINE_SHARE = (
    re.compile(rf"['’]s?\s+{_SHARE_WORDS}", re.IGNORECASE),
    re.compile(rf"\bwhat\s+(?:was|is|were)\s+(?:the\s+)?{_SHARE_WORDS}", re.IGNORECASE),
    # "Acme FY2023 R&D intensity: research and development expense as a percentage of ...":
    # the share written after its name and a colon
    re.compile(rf":{_SHARE_WORDS}", re.IGNORECASE),
    re.compile(_OF_WHOLE, re.IGNORECASE),
)
# "the ratio of capital expenditures to depreciation and amortization": one line over another
_RATIO_OF = deferred(
    r"\bratio\s+of\s+(?:its\s+|the\s+)?(?P<a>[a-z][^?,;]*?)\s+to\s+(?:its\s+|the\s+)?"
    r"(?P<b>[a-z][^?,;]*?)(?=\s+(?:in|for|during|at|over|as|using|from)\s|\?|,|;|\.\s|\.?$)",
    re.IGNORECASE,
)
# a period written onto a side of the share ("FY2019 net income", "Q4 revenue")
_SIDE_PERIOD = deferred(r"\b(?:(?:fiscal\s+(?:year\s+)?|fy\s?)?\d{2,4}|q[1-4])\b", re.I)
_NOT_A_LINE = deferred(r"\b(?:margin|ratio|rate|percent\w*|return|yield|growth)\b", re.I)


def line_share(question: str, catalogue: Catalogue) -> dict[str, Metric]:
    """One line item as a percentage of another that the question asks in its first
    sentence, as a metric it defines (named `ASKED`); {} where it asks none, or both sides
    name one line ("cloud revenues as a percentage of total revenues": a part, not a line)."""
    first = SENTENCES.split(question)[0]
    ratio = _RATIO_OF.search(first)
    found = next((m for m in (s.search(first) for s in _LINE_SHARE) if m), None) or ratio
    a = _side(found)
    if found is None or not a or _NOT_A_LINE.search(a):
        return {}
    b = found["b"]
    periods = [_SIDE_PERIOD.findall(side.lower()) for side in (a, b)]
    if any(re.match(r"q[1-4]", p) for side in periods for p in side) or (
        all(periods) and periods[0] != periods[1]
    ):
        return {}  # "FY2019 net income as a percentage of FY2018 revenue": not one period
    left, right = _line_named(a, catalogue), _line_named(b, catalogue)
    # a share of a line whose part no line item names: read from the row printed so ("fuel
    # expense as a percentage of revenue": the income statement's "Fuel")
    row = _row_named(a) if left is None and right is not None and found is not ratio else ""
    if (left is None and not row) or right is None or left is right:
        return {}
    share = found is not ratio  # a share is a percentage; a ratio of one to another is not
    over = left.name if left is not None else row
    return {phrase_words(ASKED): Metric((ASKED,), f"({over}) / ({right.name})", share)}


def _side(found: re.Match[str] | None) -> str:
    """The words of a share's part, where one was found."""
    if found is None:
        return ""
    groups = found.groupdict()
    return groups.get("a2") or groups.get("a") or ""


def _row_named(words: str) -> str:
    """The words of a share's side that may be a row's printed name: not a part's (a
    segment, a region), no parenthesis, no figure, no operator word; "" where they are not."""
    bare = _NOT_THE_NAME.sub("", words.strip())
    # a possessive names a part's ("Asia Pacific's revenue"); operators, a formula's
    if _A_PART.search(bare) or re.search(r"[()\d%$'’]|\b(?:plus|minus|less|divided|times)\b", bare):
        return ""
    bare = re.sub(r",\s*", " ", bare)  # "marketing, general and administrative": one name
    return bare if 1 <= len(bare.split()) <= 6 else ""


# a line's change in percent, asked without a metric's name: "By what percentage did Acme's
# net revenue change in fiscal 2022 compared with fiscal 2021?", "How much did Acme's net
# revenues grow year over year in Q2 2023? Give the percentage"
_MOVED = r"(?:increas|decreas|grow|grew|ris|rose|declin|fall|fell|drop|chang)\w*\b"
# the period after what changed: "... in fiscal 2022", "... for the second quarter"
_IN_PERIOD = (
    r"\s+(?:in|for|during|over)\s+(?:the\s+)?"
    r"(?:fiscal|fy|q[1-4]|first|second|third|fourth|full|year|quarter|(?:19|20)\d\d)"
)
_GROWTH = (
    re.compile(
        r"\bby\s+(?:what|how\s+much)\s+(?:percent(?:age)?|%)\s+(?:did|does|do|has|have|had|"
        rf"was|were|is|are)\s+(?P<a>[^?,;]+?)\s+{_MOVED}",
        re.IGNORECASE,
    ),
    # "What was the percentage change in Acme's net revenue from fiscal 2021 to fiscal 2022?"
    re.compile(
        r"\b(?:percent(?:age)?|%)\s+(?:change|increase|decrease|growth|decline)\s+in\s+"
        rf"(?P<a>[^?,;]+?)(?=\s+(?:from|between)\s|{_IN_PERIOD}|\s*\?|$)",
        re.IGNORECASE,
    ),
    # "How fast did Acme's total operating revenues grow in 2021 compared with 2020?"
    re.compile(
        r"\bhow\s+(?:fast|quickly)\s+(?:did|does|do|has|have|had)\s+(?P<a>[^?,;]+?)\s+grow",
        re.IGNORECASE,
    ),
    # "What was Acme's year-over-year growth in net revenues for fiscal 2018?"
    re.compile(
        r"\b(?:(?:year[- ]over[- ]year|yoy|annual)\s+)?growth\s+(?:rate\s+)?in\s+(?P<a>[^?,;]+?)"
        r"(?=\s+(?:between|compared|versus|vs)\b|\s+from\s+(?:fiscal|fy|q[1-4]|(?:19|20)\d\d|the\s+"
        rf"(?:prior|previous|same))|{_IN_PERIOD}|\s*[?,;]|$)",
        re.IGNORECASE,
    ),
    # "What is Acme's year-over-year change in total revenue from FY2019 to FY2020?": in
    # percent, as the catalogue's "year-over-year change in revenue" is
    re.compile(
        r"\b(?:year[- ]over[- ]year|yoy)\s+(?:change|increase|decrease|decline)\s+in\s+"
        rf"(?P<a>[^?,;]+?)(?=\s+(?:from|between|compared|versus|vs)\b|{_IN_PERIOD}|\s*[?,;(]|$)",
        re.IGNORECASE,
    ),
    re.compile(
        rf"\bhow\s+much\s+(?:did|does|do|has|have|had)\s+(?P<a>[^?,;]+?)\s+{_MOVED}",
        re.IGNORECASE,
    ),
)

# a change from another base than the same period a year before, or on a basis of its own
_OVER_YEARS = deferred(
    r"\b(?:since|sequential\w*|quarter[- ]over[- ]quarter|compound\w*|cagr|annuali[sz]ed|"
    r"cumulative\w*|(?:two|three|four|five|ten|\d+)[- ](?:years?|fiscal\s+years)|"
    r"over\s+the\s+(?:last|past)?\s*(?:two|three|four|five|ten|\d+)\s+(?:fiscal\s+)?years)\b",
    re.IGNORECASE,
)
_ON_BASIS = deferred(r"\b(?:basis|currency|organic|local|comparable|same[- ]store)\b", re.I)
_YEAR = deferred(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
_IN_PERCENT = deferred(r"\bpercent(?:age)?\b|%", re.IGNORECASE)  # "Give the percentage"
_OWN_FIGURES = deferred(r"\d[\d.,]*\s*%")  # "5.25% Senior Notes": a name's figure
# a change from the quarter (or half) before: "sequentially", "the prior quarter"
_SEQUENTIAL = deferred(
    r"\b(?:prior|previous|preceding|last|sequential)\s+(?:fiscal\s+)?(?:quarter|half)\b", re.I
)


def over_years(question: str) -> bool:
    """Whether a change asked is from another base than the period a year before: over
    several years ("from fiscal 2021 to fiscal 2023", "since 2018"), sequentially."""
    years = {int(y) for y in _YEAR.findall(question)}
    return bool(_OVER_YEARS.search(question)) or (len(years) > 1 and max(years) - min(years) > 1)


def change_asked(question: str) -> tuple[str, bool] | None:
    """What the question asks the change of from the year (or quarter) before, in its first
    sentence, and whether in percent ("how much did net sales grow" without a percentage asks
    the amount); None where it asks none, or a change over years, sequentially, on a basis the
    filing states or of an adjusted measure."""
    first = SENTENCES.split(question)[0]
    found = next((m for m in (g.search(first) for g in _GROWTH) if m is not None), None)
    if found is None or over_years(question) or _ON_BASIS.search(question):
        return None
    if ADJUSTED.search(question) or _SEQUENTIAL.search(question):
        return None
    quarters = {q for q, _, _ in quarters_written(question)}
    if len(quarters) > 1:
        return None  # "Q2 2023 versus Q1 2023": from the quarter before, not the year before
    # "Give the percentage" (not the "5.25%" of a note's name)
    percent = _IN_PERCENT.search(_OWN_FIGURES.sub(" ", question))
    return found["a"], found.re is not _GROWTH[-1] or bool(percent)


def line_growth(question: str, catalogue: Catalogue) -> dict[str, Metric]:
    """A line item's change from the year (or quarter) before that the question asks without
    a metric's name — in percent, or as an amount where no percentage is asked — as a metric
    it defines (named `ASKED`); {} where what changed is no line's whole name (a segment's
    revenue, a number of stores)."""
    change = change_asked(question)
    if change is None:
        return {}
    what, percent = change
    # the owner named before it ("Acme's", "Acme Freight's") is no word of the line's name
    said = re.sub(r"^.*['’]s?\s+", "", what)
    item = _line_named(said, catalogue)
    if item is None or re.search(r"\bnumber\s+of\b", said, re.IGNORECASE):
        return {}
    if percent:
        formula = f"{item.name} / previous({item.name}) - 1"
    else:
        formula = f"{item.name} - previous({item.name})"
    return {phrase_words(ASKED): Metric((f"change in {item.name}",), formula, percent)}


# words before a line's name that are not part of it: the period ("FY2019", "fiscal 2023"),
# "its", "the", "total" (a possessive before it names the owner or a part: never stripped)
_NOT_THE_NAME = deferred(
    r"^(?:(?:its|their|the|total|(?:fiscal\s+(?:year\s+)?|fy\s?)?\d{2,4})\s+)*", re.IGNORECASE
)


def _line_named(words: str, catalogue: Catalogue) -> LineItem | None:
    """The line item `words` name whole ("net revenues", "total operating revenues"); None
    where they name more than a line ("AWS segment operating income", "free cash flow")."""
    if _A_PART.search(words):
        return None  # "net sales (North America segment)": a part's line, not the company's
    # a side's words in parentheses are said of it, not part of its name, as is a parenthesis
    # the side's end cuts that says where it is read ("(both from the cash flow statement",
    # cut before "from": "(both")
    bare = re.sub(
        r"\([^)]*\)|\(\s*(?:(?:both|each)\s*)?(?:(?:from|in|on|per)\s+the\b[^)]*)?$", " ", words
    )
    return catalogue.named(_NOT_THE_NAME.sub("", bare.strip()))


# words that make a side a part's: a segment, a region, a category, a unit
_A_PART = deferred(
    r"\b(?:segments?|divisions?|units?|regions?|categor(?:y|ies)|products?|brands?|sbus?|"
    r"geograph\w*|only)\b",
    re.IGNORECASE,
)


# a sum asked of the lines named, said right after them ("A and B combined") or before them
# ("the sum of A and B"); words that make what is asked another measure of them
_ADDED_AFTER = frozenset(("combined", "together", "altogether", "total"))
_ADDED_BEFORE = deferred(r"(?:\bsum of|\btotal of|\bcombined)\s*$")
_TOTAL = deferred(r"\btotal\b")
_NOT_A_SUM = deferred(
    r"\b(?:ratio|percent(?:age)?|per(?!\s+(?:the|its|their)\b)|growth|change|less|minus|"
    r"net\s+of|margin|as\s+a|"
    r"combined\s+company|divided|over)\b|%",
    re.IGNORECASE,
)


def line_metric(question: str, catalogue: Catalogue) -> dict[str, Metric]:
    """The metric a question asks of line items without a metric's name: one as a
    percentage of another, a line's change, or two lines added."""
    return (
        line_share(question, catalogue)
        or line_growth(question, catalogue)
        or lines_added(question, catalogue)
    )


def lines_added(question: str, catalogue: Catalogue) -> dict[str, Metric]:
    """Two payments, or two balances none a total, that the question joins by "and" or
    "plus" and asks the sum of ("repurchases of common stock and dividend payments combined",
    "how much cash in total ... through stock repurchases and dividends"), as a metric it
    defines (named `ASKED`); {} otherwise."""
    if _NOT_A_SUM.search(question):
        return {}
    words = phrase_words(question)
    found = sorted(items_in(question, catalogue.items), key=lambda x: x[1])
    found = [f for f in found if not any(_inside(f, o) for o in found if o is not f)]
    for (a, at_a, len_a), (b, at_b, len_b) in pairwise(found):
        joined = words[at_a + len_a : at_b].strip() in ("and", "plus")
        after = set(words[at_b + len_b :].split()[:2])
        paid = a.outflow and b.outflow  # two payments ("repurchases ... and dividends")
        said = bool(after & _ADDED_AFTER) or bool(_ADDED_BEFORE.search(words[:at_a]))
        said = said or (paid and " in total " in words)
        # two balances, none a total ("cash and equivalents and short-term investments")
        held = a.statements == b.statements == (Statement.BALANCE,) and not _TOTAL.search(
            f"{a.name} {b.name}"
        )
        if a is not b and joined and said and (paid or held):
            return {phrase_words(ASKED): Metric((ASKED,), f"{a.name} + {b.name}", False)}
    return {}


def _inside(one: tuple[LineItem, int, int], other: tuple[LineItem, int, int]) -> bool:
    """Whether one name found lies within another's ("net income" in "net income
    attributable to ...")."""
    return other[1] <= one[1] and one[1] + one[2] <= other[1] + other[2] and one != other
