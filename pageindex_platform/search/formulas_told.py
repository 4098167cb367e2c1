"""The formulas a question tells how to compute without defining a metric ("Give A divided by
B", "Compute it as A minus B", "Divide A by B", "Take A and subtract B"), the terms it takes as
something ("taking total debt as A plus B, and equity as C"), and the words after a formula that
say how to give the answer or when its terms are read (`trailing`)."""

from __future__ import annotations

import re

from ..patterns import deferred
from ..periods import MONTH_WORDS
from .terms import phrase_words

# the words after a definition that say how to give the answer ("..., in USD millions", "...,
# to two decimal places", "..., as a percentage")
_HOW = (
    r"(?:round|using|in\s|express|give|answer|based|(?:to\s+)?(?:zero|one|two|three|four|\d)\s+"
    r"decimal|as\s+an?\s+percent(?:age)?\b(?!\s+of))"
)
HOW_GIVEN = rf",\s*(?:and\s+)?{_HOW}"

# "taking total debt as long-term debt including the current portion and finance leases",
# "Take EBIT as income before taxes plus interest expense"
_TAKEN_END = (
    rf"(?=[?;]|{HOW_GIVEN}|,?\s+and\s+(?:divide|multiply|subtract|add|round|give|express|use)\b"
    r"|,\s+(?:then\s+)?divided\s+by\b"
    r"|,\s+and\s+(?:the\s+)?[a-z][\w&'/ -]{2,40}?\s+(?:as|to\s+be)\s|\.\s|\.?$)"
)
TAKING = deferred(
    r"\b(?:taking|treating|counting|defining|take|treat|count|define)\s+(?:the\s+)?"
    r"(?P<name>[a-z][\w&'/ -]{2,40}?)\s+(?:as|to\s+be)\s+"
    rf"(?P<expr>[^?;:]+?){_TAKEN_END}",
    re.IGNORECASE,
)
# where a question's sentences end
SENTENCES = deferred(r"(?<=[.?!])\s+(?=[A-Z(])")
# the next term taken the same way: "Take total debt as A plus B, and equity as C"
_AND_TAKING = deferred(
    r",\s+and\s+(?:the\s+)?(?P<name>[a-z][\w&'/ -]{2,40}?)\s+(?:as|to\s+be)\s+"
    rf"(?P<expr>[^?;:]+?){_TAKEN_END}",
    re.IGNORECASE,
)


# the period a definition may end with ("... divided by net revenues for the three months
# ended June 30, 2023"): the question's period, not the formula's
_TRAILING_PERIOD = deferred(
    r"\s+(?:for|in|during|as\s+of|at)\s+(?:the\s+)?(?:three|six|nine|twelve|fiscal|year|"
    r"quarter|first|second|third|fourth|full|\d{4}|fy).*$",
    re.IGNORECASE,
)
# no operation after where a term is read: "net income, from the income statement, divided by
# total assets, ..." reads two terms
_NO_OPERATION = (
    r"(?!.*(?:\s[-+*/]\s|\b(?:divided|over|minus|plus|less|times|multiplied|subtract|add)\b))"
)
# where every term is read: "..., from the balance sheet in the 2018 Form 10-K", "..., all
# per the consolidated statements of income"
_READ_IN = deferred(
    r",?\s+(?:(?:all|both|each)\s+)?(?:in|from)\s+(?:its|the)\s+[^,;]*?"
    rf"\b(?:10-?[KQ]|report|release|filing)\b{_NO_OPERATION}.*$"
    # (a statement named after a comma, no operation after it: "capital expenditures in the
    # statement of cash flows by ..." names where one term is read)
    r"|,\s+(?:(?:all|both|each)\s+)?(?:in|from|per|using)\s+(?:its|the)\s+[^,;]*?"
    rf"\b(?:statements?|sheets?)\b{_NO_OPERATION}.*$",
    re.IGNORECASE,
)
# when every term of a definition is read: "..., all at December 31, 2016", "... each year,
# then averaged" (the period asked, or each year of an average asked)
TRAILING_ALL = deferred(
    r",?\s+(?:all|both|each)\s+(?:for|in|during|as\s+of|at|from|per|on)\s+[^-+*/]*$"
    r"|,?\s+each\s+year\b[^-+*/]*$"
    # one period or date, no term after it: "... / total revenues, for the year ended May 31,
    # 2021", "... at December 31, 2022" (two dates are an average's: "at May 31, 2022 and ...")
    r"|,?\s+(?:for|in|during|as\s+of|at|on)\s+(?:the\s+)?(?:(?:fiscal\s+)?years?|(?:three|six|nine|"
    rf"twelve)\s+months|quarter|fiscal|fy|\d{{4}}|{MONTH_WORDS})\b(?:(?!\band\b)[^-+*/()])*$",
    re.IGNORECASE,
)


def trailing(expr: str) -> str:
    """A definition less the period it ends with and where its terms are read."""
    return read_in(_TRAILING_PERIOD.sub("", expr))


# where a term says it is printed, at its end: "total equity as printed on the balance sheet
# (including noncontrolling interests)" (nothing after it but that gloss)
_PRINTED_IN = deferred(
    r",?\s+as\s+(?:printed|shown|reported|presented|stated)\s+(?:in|on)\s+(?:its|the)\s+"
    r"[a-z\s'’-]*?\b(?:statements?|sheets?|10-?[KQ]|report)\b"
    r"(?:\s*\(?\s*including\s+[a-z\s'’-]+\)?)?\s*$",
    re.IGNORECASE,
)


def printed_in(expr: str) -> str:
    """`expr` less the words at its end that say where its term is printed."""
    return _PRINTED_IN.sub("", expr)


def read_in(expr: str) -> str:
    """A definition less the words after it that say when or where all its terms are read
    ("..., all at December 31, 2016", "..., from the balance sheet in the 2018 Form 10-K")."""
    return TRAILING_ALL.sub("", _READ_IN.sub("", expr)).rstrip(" ,")


# a formula the question tells how to compute, naming no metric (where it names one, "calculate
# X as ..." is X's definition: `metric_questions`): "Give operating income
# divided by interest expense for the year ...", "Compute it as the income tax provision
# divided by income before income taxes, in percent"
IMPERATIVE = deferred(
    r"^(?:give|use|compute|calculate|take|report)\s+(?:it\s+as\s+|(?:the\s+)?ratio\s+of\s+)?"
    # not "calculate X's interest coverage as ...": a definition of a metric it names
    r"(?P<expr>(?:(?!\bas\s+(?!an?\s+(?:percentage|percent|share)\b))[^?;:])+?"
    r"\b(?:divided\s+by|as\s+an?\s+(?:percentage|percent|share)\s+of)\b[^?;]+?)"
    rf"(?={HOW_GIVEN}|\s+and\s+round|\s+in\s+percent|\.\s|\.?$)",
    re.IGNORECASE,
)
# "Compute it as notes payable plus ... minus cash", "Divide capital expenditures by
# depreciation": a formula the question tells, of any operation
IT_AS = deferred(
    r"^(?:compute|calculate|take|measure)\s+it\s+as\s+"
    r"(?P<expr>[^?;:]+?\b(?:plus|minus|less|divided\s+by|over|times)\b[^?;:]+?)"
    rf"(?={HOW_GIVEN}|\s+and\s+round|\.\s|\.?$)",
    re.IGNORECASE,
)
_DIVIDE = deferred(
    r"(?:^|,?\s+and\s+)divide\s+(?P<a>[^?;:]+?)\s+by\s+(?P<b>[^?;:]+?)"
    rf"(?={HOW_GIVEN}|\s+and\s+round|\.\s|\.?$)",
    re.IGNORECASE,
)
# "Take Acme's operating cash flow for 2022 and subtract its capital expenditures": A - B
TAKE_AND = deferred(
    r"^(?:take|start\s+(?:with|from))\s+(?P<a>[^?;:]+?)\s+and\s+(?:then\s+)?"
    r"(?P<op>subtract|deduct|add|divide)\s+(?:it\s+by\s+|by\s+)?(?P<b>[^?;:]+?)"
    rf"(?:\s+(?:from|to)\s+it)?(?={HOW_GIVEN}|\.\s|\.?$)",
    re.IGNORECASE,
)
_OWNER = deferred(r"^(?:[A-Z][\w&.-]*|[a-z]+[A-Z][\w&.-]*)(?:\s+[A-Z][\w&.-]*){0,3}['’]s?\s+")
_TAKE_OPS = {"subtract": "minus", "deduct": "minus", "add": "plus"}


def taken_matches(text: str, asked: str | None = None) -> list[re.Match[str]]:
    """Each term `text` takes as something: "taking X as A", and the next ones of the same
    list ("Take debt as A, and equity as B"); not "Define X as ..." where X is what the
    question asks in its first sentence (`asked`, else `text`'s own first sentence): that
    defines the metric asked, not one of its inputs."""
    first = SENTENCES.split(text)[0]
    said = phrase_words(first if asked is None else asked)
    found = []
    for taken in TAKING.finditer(text):
        after = asked is not None or taken.start() >= len(first)
        if after and taken[0].lower().startswith("defin") and _whole_name(taken["name"], said):
            continue
        found.append(taken)
        then = _AND_TAKING.match(text, taken.end())
        while then is not None:
            found.append(then)
            then = _AND_TAKING.match(text, then.end())
    return found


def _whole_name(name: str, said: str) -> bool:
    """Whether `name` is said whole in `said` (phrase words), not as a word of a longer
    name: "debt" in "debt-to-equity ratio", "equity" in "return on equity" are not."""
    words = phrase_words(name).strip()
    found = re.search(rf"(?:^|\s)(\S+\s)?{re.escape(words)}(\s\S+)?(?:\s|$)", said.strip())
    if not words or found is None:
        return False
    before, after = (found.group(1) or "").strip(), (found.group(2) or "").strip()
    return before not in _JOINING and after not in _JOINING | _METRIC_WORDS


_JOINING = frozenset(("on", "to", "of", "per", "over", "and"))
_METRIC_WORDS = frozenset(("ratio", "turnover", "coverage", "margin", "multiple", "yield"))


def taken(text: str, asked: str | None = None) -> list[tuple[str, str]]:
    """(name, expression) of each term `text` takes as something (`taken_matches`)."""
    return [(m.group("name").strip(), m.group("expr").strip()) for m in taken_matches(text, asked)]


def told(sentence: str) -> str:
    """The formula a sentence tells how to compute without naming a metric ("Give A divided by
    B", "Compute it as A minus B", "Divide A by B"); "" where it tells none."""
    told = IMPERATIVE.match(sentence) or IT_AS.match(sentence)
    if told:
        return told["expr"]
    divide = _DIVIDE.search(sentence)
    if divide:
        return f"({trailing(divide['a'])}) divided by ({trailing(divide['b'])})"
    take = None if TAKING.search(sentence) else TAKE_AND.match(sentence)
    if take is None:  # "Take EBITDA as ..., and divide by ...": a term taken, then the formula
        return ""
    op = _TAKE_OPS.get(take["op"].lower(), "divided by")
    a, b = (_OWNER.sub("", trailing(take[side])) for side in "ab")
    return f"({a}) {op} ({b})"


# the words that open a question asking one term ("What were Acme's total ...")
ASKS_TERM = (
    r"^\s*(?:what|how\s+much)\s+(?:was|were|is|are)\s+(?:the\s+)?(?:(?-i:(?:[A-Z][\w&.-]*\s+)"
    r"{0,4}[A-Z][\w&.-]*['’]s?\s+)|its\s+|their\s+)?(?:total\s+|combined\s+)?"
)
# words after a term that make what is asked another measure of it
_MEASURE = deferred(
    r"\b(?:ratio|divided|per|percent(?:age)?|margin|over|relative|versus|times|multiple|yield|"
    r"coverage|turnover|share|to|as\s+a)\b|[%/]",
    re.IGNORECASE,
)


def asks_term(sentence: str, name: str) -> bool:
    """Whether a sentence asks the term itself ("What was Acme's total non-recourse debt at
    December 31, 2021, taking ..."): its name right after the question's opening words, and
    no measure of it before the first comma ("... debt relative to its equity")."""
    found = re.match(rf"{ASKS_TERM}{re.escape(name.strip())}\b(?P<rest>[^?]*)", sentence, re.I)
    return found is not None and not _MEASURE.search(found["rest"].split(",")[0])


# a balance asked as its two portions added ("total notes payable and other borrowings
# (current plus non-current)", "non-recourse debt (current plus noncurrent portions)")
_PORTIONS = deferred(
    r"(?:['’]s?|\b(?:its|their))\s+(?:total\s+|combined\s+)?(?P<name>[a-z][\w&'’ -]{2,60}?)"
    r"\s*\(\s*(?:the\s+)?current\s+(?:plus|and|\+)\s+(?:the\s+)?(?P<non>non-?current)"
    r"(?:\s+portions?)?\s*\)",
    re.IGNORECASE,
)


def portions(sentence: str) -> list[tuple[str, str]]:
    """(name, expression) of a balance the sentence asks as its current and noncurrent
    portions added, where it asks that balance itself: each portion the balance sheet's row
    of that side."""
    found = _PORTIONS.search(sentence)
    if found is None:
        return []
    name, non = found["name"].strip(), found["non"].lower()
    if re.search(r"\b(?:current|non-?current|long-term|ratio|of)\b", name, re.I):
        return []  # "long-term debt (current plus noncurrent)": no one row name
    return [(name, f"current {name} plus {non} {name}")] if _asks_portions(sentence, found) else []


def _asks_portions(sentence: str, found: re.Match[str]) -> bool:
    """Whether the sentence asks the balance itself: nothing but words of when or where after
    the portions ("... (current plus noncurrent) as of May 31, 2017, in USD millions")."""
    before = sentence[: found.start("name")]
    return asks_term(before + found["name"] + sentence[found.end() :], found["name"])
