"""A formula as a question writes it in words, in formula syntax (`formulas.parse_formula`):
"average PP&E between FY2018 and FY2019" → "fy2019 average(PP&E)", "divided by" → "/", "A
minus B as a percentage of C" → "(A - B) / (C)", "long-term debt including the current
portion" → "long-term debt + current portion of long-term debt"."""

from __future__ import annotations

import re

from ..patterns import deferred
from ..periods import MONTH_WORDS

_WORDS_TO_OPS = (
    (r"\bdivided by\b|\bover\b", "/"),
    (r"\bmultiplied by\b|\btimes\b|(?<=[\w)])\s+[x×]\s+(?=[\w(])", "*"),
    (r"\bplus\b", "+"),
    (r"\bminus\b|\bless\b", "-"),
)
# "... as a percentage of ...": all before it over all after it
_SHARE_OF = deferred(
    r"\s+as\s+an?\s+(?:percentage|percent|share|proportion|fraction)\s+of\s+", re.IGNORECASE
)
# "average PP&E between FY2018 and FY2019", "the average of total assets at the end of 2019
# and 2020"
_YEAR_OF = r"(?:fy\s?|fiscal\s+(?:year\s+)?)?(\d{4})"
_BETWEEN = deferred(
    r"\b(?:the\s+)?(average|change)\s+(?:in\s+|of\s+)?(?:the\s+)?(.+?)\s+(?:between|at\s+the\s+ends?"
    rf"\s+of|for|in)\s+(?:the\s+)?{_YEAR_OF}\s+and\s+{_YEAR_OF}"
    # "... between FY2019 and FY2020 year-ends": the balances at the two years' ends
    r"(?:\s+(?:fiscal\s+)?year[\s-]?ends?\b)?",
    re.IGNORECASE,
)
# "the average of receivables, net at May 31, 2022 and May 31, 2023": the balances at the end
# of the year asked and of the year before, whatever calendar the company's years keep
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_DAY = rf"({'|'.join(_MONTHS)})[a-z]*\.?\s+\d{{1,2}},?\s+(\d{{4}})"
_BETWEEN_DATES = deferred(
    r"\b(?:the\s+)?(average|change)\s+(?:in\s+|of\s+)?(?:the\s+)?(.+?),?\s+(?:between|at|as\s+of"
    rf"|on)\s+(?:the\s+)?{_DAY}\s+and\s+(?:at\s+|as\s+of\s+|on\s+)?{_DAY}",
    re.IGNORECASE,
)


def _year_ends(found: re.Match[str], year: int | None) -> bool:
    """Whether the two dates of `_BETWEEN_DATES` are a year apart, the later in the year
    asked (`year`): a fiscal year ending in January is named by its start by some companies and
    by its end by others, so dates that do not fall in the year named are not read as it."""
    first, second = (
        int(found.group(n + 1)) * 12 + _MONTHS.index(found.group(n).lower()[:3]) for n in (3, 5)
    )
    ends_asked = year is None or max(first, second) // 12 == year
    return abs(abs(second - first) - 12) <= 1 and ends_asked


# a qualifier a name carries in parentheses ("interest expense (net of amounts capitalized)")
_QUALIFIER = deferred(
    r"\(\s*((?:excluding|including|net\s+of|less|after|before|exclusive\s+of|attributable)\b"
    r"[^()]*)\)",
    re.IGNORECASE,
)
# where a term is read, in parentheses: "dividends paid (from the cash flow statement)",
# "D&A (cash flow statement)", "amortization (the latter two from the cash flow statement)"
_STATEMENT = r"[^()]*?(?:statement|sheet)s?"
_READ_FROM = deferred(
    rf"\(\s*(?:[^()]*?\b((?:from|in|on|per)\s+the\s+{_STATEMENT})|(?:the\s+)?({_STATEMENT}))\s*\)",
    re.I,
)
# a name followed by its own formula in parentheses: "free cash flow (cash from operations
# less capital expenditures)" is the formula
_NAMED_FORMULA = deferred(
    r"(?:^|(?<=[-+*/(]\s)|(?<=[-+*/(])|(?<=\bby\s)|(?<=\bplus\s)|(?<=\bminus\s)|(?<=\bless\s)"
    r"|(?<=\bover\s))(?!(?:average|change|previous)\s*\()"
    r"(?:(?!(?:divided|plus|minus|less|over|times|as)\b)[a-z][\w&'’.-]*\s+)*?"
    r"(?!(?:divided|plus|minus|less|over|times|as)\b)[a-z][\w&'’.-]*\s*"
    r"(\((?:[^()]*?(?:\s[-+*/]\s|\b(?:plus|minus|less|divided\s+by)\b))[^()]*\))",
    re.I,
)
# what a question says of a term in parentheses, no operation in them: "diluted earnings per
# share (net income attributable to the company's common stockholders)" names the row before it
# (not a term's own period, "net revenue (FY2022)", "inventories (December 31, 2022)", nor
# what "average" or "between" take)
_GLOSS = deferred(
    r"(?<=[\w'’])(?<!\bby)(?<!\bplus)(?<!\bminus)(?<!\bless)(?<!\bover)(?<!\btimes)"
    r"(?<!\baverage)(?<!\bof)(?<!\bbetween)"
    r"\s*\((?![^()]*?(?:\s[-+*/]\s|\d|\b(?:plus|minus|less|divided|times|over|fy|fiscal|years?|"
    rf"quarters?|prior|current|previous|between|average|{MONTH_WORDS})\b))[^()]*\)",
    re.IGNORECASE,
)
# two kinds of one noun: "short-term plus long-term debt" is short-term debt plus long-term debt
_SHARED_NOUN = deferred(
    r"\b((?:[a-z]+-)+[a-z]+)\s+(plus|and)\s+((?:[a-z]+-)+[a-z]+)\s+([a-z]+)\b",
    re.IGNORECASE,
)
# a comma before "divided by" closes the dividend: "A minus B minus C, divided by D"
_DIVIDED_AFTER = deferred(r",\s*(?:divided\s+by|over)\s+", re.IGNORECASE)
# what a formula leaves out of a row it names: "'Additions to property, plant and equipment'
# (ignore the separate held-for-sale line)": no term of it
_OTHER_ROWS = deferred(
    r"\(\s*(?:ignor(?:e|ing)|disregard(?:ing)?|exclud(?:e|ing)|not\s+counting)\b[^()]*?"
    r"\b(?:lines?|rows?|adjustments?)\b[^()]*\)",
    re.I,
)
# the other side of a line's name, as filings print it: "net cash provided by (used for)
# operating activities", "income (loss) before income taxes", "provision (benefit)"
_OTHER_SIDE = deferred(
    r"\s*\(\s*(?:used\s+(?:for|in)|losse?s?|benefits?|expenses?|income|decrease|gains?|deficit)"
    r"\s*\)",
    re.IGNORECASE,
)
# quotation marks around a row's printed name: "'Additions to property, plant and equipment'"
_QUOTES = deferred(r"(?<!\w)['‘“\"]|['’”\"](?!\w)")
# a printed line's name that says what it leaves out: "long-term debt, less current portion"
_LESS_CURRENT = deferred(r",\s*less\s+(current\s+(?:portion|maturities))\b(?!\s+of\b)", re.I)
# both portions of one line: "notes payable and other borrowings, current plus non-current"
_BOTH_PORTIONS = deferred(
    r"(^|[-+*/(]\s*|\b(?:plus|minus|less|by|over)\s+)([a-z][\w &'’-]*?),?\s+current\s+"
    r"(?:plus|and)\s+(non-?current)\b",
    re.I,
)
# words before a term that are no part of its name: "its 2019 EBIT", "the provision for taxes"
_DETERMINER = deferred(
    r"(^|[-+*/(]\s*)(?:(?:its|their|the|(?-i:[A-Z])[\w&.-]*['’]s?(?=\s))\s+)+", re.I
)
# a year written before a name, as the fiscal year's: "2020 net income"
_YEAR_BEFORE = deferred(r"(?<![\w.])((?:19|20)\d\d)\s+(?=[a-z])", re.IGNORECASE)
# when a term is read, said inside a formula: "receivables at the fiscal year-end (December
# 26, 2020)" (the year asked's end), "full-year 2020 net revenue" (the year 2020)
_AT_YEAR_END = deferred(
    r"\s+(?:at|as\s+of)\s+(?:the\s+)?(?:fiscal\s+)?year[- ]end\b(?:\s*\([^()]*\d{4}\s*\))?",
    re.IGNORECASE,
)
_WHOLE_YEAR = deferred(r"\b(?:full[- ]year|fiscal(?:\s+year)?)\s+(?=(?:19|20)\d\d\b)", re.I)
# "average PP&E" (the year's and the year before's) where no years are named
_OF_YEARS = deferred(
    r"\b(average|change)\s+(?:in\s+|of\s+)?(?:the\s+)?(?!\()([^-+*/()]+?)(?=\s*[-+*/)]|\s*$)",
    re.IGNORECASE,
)


def translate(expression: str, year: int | None = None) -> str:
    """A question's words for a formula in formula syntax: "average PP&E between FY2018 and
    FY2019" → "fy2019 average(PP&E)", "divided by" → "/", "A minus B as a percentage of C"
    → "(A - B) / (C)". Balances at two dates are the average (or change) of fiscal `year`
    asked and the year before where the dates end those years; else they stay unread."""
    share = _SHARE_OF.search(expression) or _outside_parentheses(_DIVIDED_AFTER, expression)
    if share:
        left, right = expression[: share.start()], expression[share.end() :]
        return f"({translate(left, year)}) / ({translate(right, year)})"
    text = _QUOTES.sub("", _NAMED_FORMULA.sub(r"\1", _OTHER_ROWS.sub(" ", expression)))
    text = _OTHER_SIDE.sub("", text)
    text = _SHARED_NOUN.sub(r"\1 \4 \2 \3 \4", text)  # "short-term plus long-term debt"
    text = _LESS_CURRENT.sub(r" net of \1", text)
    text = _BOTH_PORTIONS.sub(r"\1\2, current plus \2, \3", text)
    text = _READ_FROM.sub(lambda m: f" {m[1] or f'from the {m[2]}'}", text)
    text = _GLOSS.sub("", _QUALIFIER.sub(r" \1", text))
    text = _BETWEEN_DATES.sub(
        lambda m: f"{m.group(1).lower()}({m.group(2)})" if _year_ends(m, year) else m.group(0),
        text,
    )
    # the later of the two years ends the average, whichever is written first
    text = _BETWEEN.sub(
        lambda m: f"fy{max(m.group(3), m.group(4))} {m.group(1).lower()}({m.group(2)})", text
    )
    text = _YEAR_BEFORE.sub(r"fy\1 ", _WHOLE_YEAR.sub("", _AT_YEAR_END.sub("", text)))
    over = re.search(r"\b(?:over|divided\s+by)\s+", text, re.IGNORECASE)
    rest = text[over.end() :] if over else ""
    # (but "A divided by B minus 1" is a growth: (A / B) - 1, a number after the operation)
    if (
        over
        and "(" not in rest
        and re.search(r"\b(?:plus|minus|less)\b|\s[+-]\s", rest)
        and not re.search(r"(?:\b(?:plus|minus|less)|\s[+-])\s+\d+(?:\.\d+)?\s*$", rest)
    ):
        text = f"{text[: over.start()]}divided by ({rest})"  # "A over B plus C": A / (B + C)
    before = text[: over.start()] if over else ""
    if over and "(" not in before and re.search(r"\b(?:plus|minus|less)\b|\s[+-]\s", before):
        text = f"({before}) {text[over.start() :]}"  # "A plus B over C": (A + B) / C
    for words, op in _WORDS_TO_OPS:
        text = re.sub(words, op, text, flags=re.IGNORECASE)
    text = _OF_YEARS.sub(lambda m: f"{m.group(1).lower()}({m.group(2)})", text)
    text = _DETERMINER.sub(r"\1", text.strip())
    # "property, plant and equipment, net"; "..., divided by"
    return re.sub(r",\s*(?=[a-z]|[-+*/)])", " ", text)


def _outside_parentheses(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The first match of `pattern` in `text` that no parenthesis encloses."""
    for found in pattern.finditer(text):
        if text.count("(", 0, found.start()) == text.count(")", 0, found.start()):
            return found
    return None


def including(expression: str) -> str:
    """ "long-term debt including the current portion and finance leases" → "long-term debt
    + current portion of long-term debt + finance leases"."""
    base, rest = _split_including(expression)
    if not rest:
        return expression
    parts = [
        re.sub(r"^(?:the|its|their)\s+", "", p.strip())
        for p in re.split(r",\s*(?:and\s+)?|\s+and\s+", rest)
    ]
    parts = [
        f"{p} of {base}" if re.fullmatch(r"(?:current|non-?current) portion", p) else p
        for p in parts
        if p
    ]
    return " + ".join([base, *parts])


def _split_including(expression: str) -> tuple[str, str]:
    found = re.search(r"\s+including\s+", expression, re.IGNORECASE)
    if found is None:
        return expression, ""
    return expression[: found.start()].strip(), expression[found.end() :]
