"""What a figure question says of a metric: the metrics it defines in its own words ("DPO is
defined as: 365 * (average accounts payable between FY2016 and FY2017) / (FY2017 COGS + change
in inventory between FY2016 and FY2017)"), read into the same formulas and winning over the
catalogue's; the metric it asks for; its fiscal years and how to round (`Asked`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..periods import MONTH_WORDS
from ..periods.filing_words import PRIOR, without_source
from ..periods.grammar import PeriodAsk, fiscal_years_written, parse_period
from .formula_words import including, translate
from .formulas import FormulaError, Node, parse_formula
from .metrics import Catalogue, Metric
from .terms import phrase_words

_NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
SENTENCES = re.compile(r"(?<=[.?!])\s+(?=[A-Z(])")
# the words after a definition that say how to give the answer ("..., in USD millions", "...,
# to two decimal places", "..., as a percentage")
_HOW = (
    r"(?:round|using|in\s|express|give|answer|based|(?:to\s+)?(?:zero|one|two|three|four|\d)\s+"
    r"decimal|as\s+an?\s+percent(?:age)?\b(?!\s+of))"
)
_HOW_GIVEN = rf",\s*(?:and\s+)?{_HOW}"
_DEFINED = re.compile(
    r"^(?:(?:the\s+)?(?P<name>[\w&%/' -]+?)\s+(?:here\s+)?(?:is|are)\s+defined\s+as"
    rf"|define\s+(?P<name2>[\w&%/' -]+?)\s+as)\s*:?\s*(?P<expr>.+?)(?:{_HOW_GIVEN}.*)?\.?$",
    re.IGNORECASE,
)
_SPAN_AVERAGE = re.compile(r"\b(\d|two|three|four|five)[\s-]years?\s+average\b", re.IGNORECASE)
# "round your answer to two decimal places", "as a percentage with two decimals", "give a
# percentage to two decimal places"
_PLACES = re.compile(r"\b(zero|one|two|three|four|\d)\s+decimal(?:s|\s+places?)?\b", re.IGNORECASE)
_CHANGE = re.compile(r"\bchang\w*|\bcompare\w*|\bdifference\b|\bvs\.?\b", re.IGNORECASE)
_PERCENT = re.compile(r"%|\bpercent|\bpercentage\b|\bas\s+a\s+share\b|\bshare\s+of\b", re.I)
_PERCENT_NAME = re.compile(r"\b(?:margin|rate|growth)\b", re.IGNORECASE)
# a term defined as an equation: "where debt = long-term debt + notes payable, and equity =
# total stockholders' equity" (each term, like "taking X as", an input of the metric asked)
_TERM_NAME = r"(?:the\s+)?(?P<name>[a-z][\w&'’ -]{0,40}?)(?:\s*=|\s+(?:is|are)\s)"
_EQUATION = re.compile(rf"\b(?:where|with)\s+{_TERM_NAME}", re.IGNORECASE)
_EQUATION_TERM = re.compile(
    rf"(?:\b(?:where|with)|,?\s+and)\s+{_TERM_NAME}\s*(?P<expr>[^=?;]+?)"
    rf"(?=,?\s+and\s+(?:the\s+)?[a-z][\w&'’ -]{{0,40}}?(?:\s*=|\s+(?:is|are)\s)|\?|;|{_HOW_GIVEN}"
    r"|\.\s|\.?$)",
    re.IGNORECASE,
)
# "taking total debt as long-term debt including the current portion and finance leases",
# "Take EBIT as income before taxes plus interest expense"
_TAKEN_END = (
    rf"(?=[?;]|{_HOW_GIVEN}|,?\s+and\s+(?:divide|multiply|subtract|add|round|give|express|use)\b"
    r"|,\s+and\s+(?:the\s+)?[a-z][\w&'/ -]{2,40}?\s+(?:as|to\s+be)\s|\.\s|\.?$)"
)
_TAKING = re.compile(
    r"\b(?:taking|treating|counting|take|treat|count)\s+(?:the\s+)?"
    r"(?P<name>[a-z][\w&'/ -]{2,40}?)\s+(?:as|to\s+be)\s+"
    rf"(?P<expr>[^?;:]+?){_TAKEN_END}",
    re.IGNORECASE,
)
# the next term taken the same way: "Take total debt as A plus B, and equity as C"
_AND_TAKING = re.compile(
    r",\s+and\s+(?:the\s+)?(?P<name>[a-z][\w&'/ -]{2,40}?)\s+(?:as|to\s+be)\s+"
    rf"(?P<expr>[^?;:]+?){_TAKEN_END}",
    re.IGNORECASE,
)


# a definition written after the metric's name in the question's own sentence: "What was
# eBay's debt-to-equity ratio at year-end 2019, defined as long-term debt divided by total
# stockholders' equity?" (also "computed as", "calculated as", "i.e.", "that is,")
_INLINE = re.compile(
    r"(?P<before>.+?),?\s+(?:(?:(?:is|are|was)\s+)?(?:defined|computed|calculated|measured)\s+as\s*:?"
    r"|i\.e\.,?|that\s+is,)\s+"
    rf"(?P<expr>[^?;]+?)(?=\?|;|{_HOW_GIVEN}|\.\s|\.?$)",
    re.IGNORECASE,
)
# "Calculate Acme's interest coverage for fiscal 2023 as operating income divided by
# interest expense": the metric named, defined after "as"
_CALCULATE_AS = re.compile(
    r"(?:^|,\s*)(?P<before>(?:calculate|compute|determine)\s+(?!it\s).+?)\s+as\s+"
    r"(?P<expr>[^?;]+?\b(?:divided\s+by|plus|minus)\b[^?;]+?)"
    rf"(?=\?|;|{_HOW_GIVEN}|\.\s|\.?$)",
    re.IGNORECASE,
)
# the metric's name at the end of the words before its definition: after the company's
# possessive or the question's verb, before the period asked
_INLINE_NAME = re.compile(
    r"(?:['’]s?|\b(?:was|is|were|are|the|compute|calculate))\s+(?:(?:fy|q[1-4]\s*)?\d{2,4}\s+)?"
    r"(?P<name>[a-z][\w&%/-]*"
    r"(?:\s+[a-z][\w&%/-]*){0,4}?)(?:\s+(?:for|in|at|of|as|during|from)\b.*)?$",
    re.IGNORECASE,
)
# words after a metric's name that say its form ("gross margin percentage")
_MEASURE_WORD = re.compile(r"\s+(?:percentage|percent|ratio|rate)\s*$")
# words before a metric's name that are not its name ("the FY2019 EBITDA margin")
_NAME_START = re.compile(r"^(?:(?:the|its|their|(?:fy|q[1-4]\s*)?\d{2,4})\s+)+", re.IGNORECASE)
# the period a definition may end with ("... divided by net revenues for the three months
# ended June 30, 2023"): the question's period, not the formula's
_TRAILING_PERIOD = re.compile(
    r"\s+(?:for|in|during|as\s+of|at)\s+(?:the\s+)?(?:three|six|nine|twelve|fiscal|year|"
    r"quarter|first|second|third|fourth|full|\d{4}|fy).*$|"
    r"\s+(?:in|from)\s+(?:its|the)\s+[^,;]*?\b(?:10-?[KQ]|report|release|filing)\b.*$",
    re.IGNORECASE,
)
# when every term of a definition is read: "..., all at December 31, 2016", "... each year,
# then averaged" (the period asked, or each year of an average asked)
_TRAILING_ALL = re.compile(
    r",?\s+(?:all|both|each)\s+(?:for|in|during|as\s+of|at|from|per|on)\s+[^-+*/]*$"
    r"|,?\s+each\s+year\b[^-+*/]*$"
    # one period or date, no term after it: "... / total revenues, for the year ended May 31,
    # 2021", "... at December 31, 2022" (two dates are an average's: "at May 31, 2022 and ...")
    r"|,?\s+(?:for|in|during|as\s+of|at|on)\s+(?:the\s+)?(?:(?:fiscal\s+)?years?|(?:three|six|nine|"
    rf"twelve)\s+months|quarter|fiscal|fy|\d{{4}}|{MONTH_WORDS})\b(?:(?!\band\b)[^-+*/()])*$",
    re.IGNORECASE,
)


def _trailing(expr: str) -> str:
    """A definition less the period it ends with."""
    return _TRAILING_ALL.sub("", _TRAILING_PERIOD.sub("", expr))


# a formula the question tells how to compute, naming no metric (where it names one, "calculate
# X as ..." is X's definition: `_CALCULATE_AS`): "Give operating income
# divided by interest expense for the year ...", "Compute it as the income tax provision
# divided by income before income taxes, in percent"
_IMPERATIVE = re.compile(
    r"^(?:give|use|compute|calculate|take|report)\s+(?:it\s+as\s+|(?:the\s+)?ratio\s+of\s+)?"
    # not "calculate X's interest coverage as ...": a definition of a metric it names
    r"(?P<expr>(?:(?!\bas\s+(?!an?\s+(?:percentage|percent|share)\b))[^?;:])+?"
    r"\b(?:divided\s+by|as\s+an?\s+(?:percentage|percent|share)\s+of)\b[^?;]+?)"
    rf"(?={_HOW_GIVEN}|\s+and\s+round|\s+in\s+percent|\.\s|\.?$)",
    re.IGNORECASE,
)
# "Compute it as notes payable plus ... minus cash", "Divide capital expenditures by
# depreciation": a formula the question tells, of any operation
_IT_AS = re.compile(
    r"^(?:compute|calculate|take|measure)\s+it\s+as\s+"
    r"(?P<expr>[^?;:]+?\b(?:plus|minus|less|divided\s+by|over|times)\b[^?;:]+?)"
    rf"(?={_HOW_GIVEN}|\s+and\s+round|\.\s|\.?$)",
    re.IGNORECASE,
)
_DIVIDE = re.compile(
    r"(?:^|,?\s+and\s+)divide\s+(?P<a>[^?;:]+?)\s+by\s+(?P<b>[^?;:]+?)"
    rf"(?={_HOW_GIVEN}|\s+and\s+round|\.\s|\.?$)",
    re.IGNORECASE,
)
# "Take Acme's operating cash flow for 2022 and subtract its capital expenditures": A - B
_TAKE_AND = re.compile(
    r"^(?:take|start\s+(?:with|from))\s+(?P<a>[^?;:]+?)\s+and\s+(?:then\s+)?"
    r"(?P<op>subtract|deduct|add|divide)\s+(?:it\s+by\s+|by\s+)?(?P<b>[^?;:]+?)"
    rf"(?:\s+(?:from|to)\s+it)?(?={_HOW_GIVEN}|\.\s|\.?$)",
    re.IGNORECASE,
)
_OWNER = re.compile(r"^(?:[A-Z][\w&.-]*|[a-z]+[A-Z][\w&.-]*)(?:\s+[A-Z][\w&.-]*){0,3}['’]s?\s+")
# a word after a metric's name that makes it another measure: "free cash flow margin",
# "working capital to sales", "EBITDA growth"
_MEASURE_OF = re.compile(
    r"\s*(?:margin|ratio|rate|yield|conversion|coverage|turnover|intensity|multiple|per|to|"
    r"growth)\b"
)
_TAKE_OPS = {"subtract": "minus", "deduct": "minus", "add": "plus"}
ASKED = "the question's formula"  # a metric the question computes without naming it
# a formula shown with its symbols after a colon or in parentheses
_SHOWN = re.compile(
    r"(?::\s*|\()(?P<expr>[a-z(][^:()?]*?(?:\s/\s|\s+divided\s+by\s+)[^:()?]*?)"
    r"(?=\)|\.\s|\.?$|\?|,\s*(?:and\s+)?round)",
    re.IGNORECASE,
)
# "How many times did Acme's fiscal 2023 operating income cover its interest expense?"
_COVER = re.compile(
    r"\bhow\s+many\s+times\s+(?:did|does|do|has|have|was|is|were|could|would)\s+"
    r"(?:(?:[\w&.-]+\s+){0,3}?[\w&.-]+['’]s?\s+)?(?:(?:fiscal\s+|fy\s?)?\d{4}\s+)?"
    r"(?P<a>[a-z][\w\s&'-]*?)\s+"
    r"cover(?:ed|s)?\s+(?:its\s+|their\s+|the\s+)?(?P<b>[a-z][\w\s&'-]*?)"
    r"(?=\s+(?:in|for|during)\s|\s*\(|\?|,|\.|$)",
    re.IGNORECASE,
)


def _definitions(question: str) -> list[tuple[str, str]]:
    """(name, expression) of each definition the question writes: of the metric asked
    (`_written`, or a formula it tells how to compute, named `ASKED`), and "taking X as Y"
    of an input anywhere in a sentence."""
    found = []
    for sentence in SENTENCES.split(question):
        written = _written(sentence)
        found.extend(written)
        told = _told(sentence.strip())
        if told and not written:
            found.append((ASKED, _trailing(told)))
        shown = None if told or written else _SHOWN.search(sentence)
        if shown and _restated(sentence[: shown.start()], shown["expr"]):
            shown = None  # "gross margin percentage (gross margin divided by net sales)"
        if shown:  # "... the balance sheet: A / B", "the equity multiplier (A / B)"
            found.append((ASKED, _trailing(shown["expr"]).strip()))
        cover = _COVER.search(sentence)
        if cover and not told:
            found.append((ASKED, f"{cover['a']} divided by {cover['b']}"))
        found.extend((name, including(expr)) for name, expr in _taken(sentence))
        for term in _EQUATION_TERM.finditer(sentence):
            found.append((term.group("name").strip(), _trailing(term.group("expr")).strip()))
    return found


def _taken_matches(text: str) -> list[re.Match[str]]:
    """Each term `text` takes as something: "taking X as A", and the next ones of the same
    list ("Take debt as A, and equity as B")."""
    found = []
    for taken in _TAKING.finditer(text):
        found.append(taken)
        then = _AND_TAKING.match(text, taken.end())
        while then is not None:
            found.append(then)
            then = _AND_TAKING.match(text, then.end())
    return found


def _taken(text: str) -> list[tuple[str, str]]:
    """(name, expression) of each term `text` takes as something (`_taken_matches`)."""
    return [(m.group("name").strip(), m.group("expr").strip()) for m in _taken_matches(text)]


def _told(sentence: str) -> str:
    """The formula a sentence tells how to compute without naming a metric ("Give A divided by
    B", "Compute it as A minus B", "Divide A by B"); "" where it tells none."""
    told = _IMPERATIVE.match(sentence) or _IT_AS.match(sentence)
    if told:
        return told["expr"]
    divide = _DIVIDE.search(sentence)
    if divide:
        return f"({_trailing(divide['a'])}) divided by ({_trailing(divide['b'])})"
    take = None if _TAKING.search(sentence) else _TAKE_AND.match(sentence)
    if take is None:  # "Take EBITDA as ..., and divide by ...": a term taken, then the formula
        return ""
    op = _TAKE_OPS.get(take["op"].lower(), "divided by")
    a, b = (_OWNER.sub("", _trailing(take[side])) for side in "ab")
    return f"({a}) {op} ({b})"


def _restated(before: str, expr: str) -> bool:
    """Whether a formula shown after a metric's name uses that name itself: the catalogue's
    metric, restated ("gross margin percentage (gross margin divided by net sales)")."""
    name = " ".join(phrase_words(before).split()[-3:])
    own = _MEASURE_WORD.sub("", f" {name} ").strip()
    words = phrase_words(expr)
    return any(f" {' '.join(own.split()[i:])} " in words for i in range(len(own.split()) - 1))


def _written(sentence: str) -> list[tuple[str, str]]:
    """The definition a sentence writes of the metric asked: "X is defined as Y", "define X
    as Y", or one after its name ("..., defined as Y", "i.e. Y"); [] when it writes none."""
    match = _DEFINED.match(sentence.strip())
    if match:
        name = match.group("name") or match.group("name2")
        return [(name.strip(), _TRAILING_ALL.sub("", match.group("expr")))]
    inline = _INLINE.search(sentence.strip()) or _CALCULATE_AS.search(sentence.strip())
    # "Calculate Acme's full-year 2022 EBITDA, in USD millions, as ...": the name before
    # how the answer is given, its period words dropped
    # (and the filing it is read from: "From the income statement in Acme's 10-Q, ...")
    before = re.sub(rf"{_HOW_GIVEN}.*$", "", without_source(inline["before"])) if inline else ""
    before = re.sub(r"\b(?:full[- ]year|fiscal(?:\s+year)?)\s+(?=\d)", "", before, flags=re.I)
    # the metric is named in the clause that asks ("Using the cash flow statement in ...,
    # what was Acme's free cash flow ...")
    asking = list(_ASKING.finditer(before))
    before = before[asking[-1].start() :] if asking else before
    named = _INLINE_NAME.search(before) if inline else None
    if inline is None or named is None:
        return []
    expr = _trailing(inline.group("expr"))
    if _OPERATION.search(inline.group("expr")) and not _OPERATION.search(expr):
        expr = inline.group("expr")  # a period inside the formula, not after it: not cut
    name = _NAME_START.sub("", named["name"]).strip()
    own = _MEASURE_WORD.sub("", phrase_words(name)).strip()
    # "gross margin, defined as gross margin divided by net sales" names a line by the
    # metric's own name: the usual metric; "i.e. 2020" restates a period
    if own in phrase_words(expr) or not re.search(r"[a-z]{3,}", expr, re.I):
        return []
    return [(name, expr)]


_OPERATION = re.compile(
    r"\b(?:divided\s+by|times|plus|minus|over|less|multiplied\s+by)\b|\s[-+*/]\s", re.I
)
_ASKING = re.compile(r"\b(?:what|which)\s+(?:was|is|were|are)\b", re.IGNORECASE)
# a formula told in words anywhere: "compute full-year 2022 EBITDA as operating income plus
# depreciation plus amortization of intangibles"
_TELLS = re.compile(
    r"\b(?:compute|calculate|computed|calculated|defined|measured)\b[^?.;]*?\bas\b[^?.;]*?"
    r"\b(?:plus|minus|divided\s+by|over|times)\b",
    re.IGNORECASE,
)


def _period_outside_formulas(question: str) -> PeriodAsk | None:
    """The period the question names outside the formulas it writes; None where it names
    none there: "DSO for fiscal 2023, defined as the average of receivables at May 31, 2022 and
    May 31, 2023 over revenue" asks fiscal 2023, whatever dates its inputs are read at."""
    spans: list[tuple[int, int]] = []
    at = 0
    for sentence in SENTENCES.split(question):
        start = question.find(sentence, at)
        at = start + len(sentence)
        lead = start + len(sentence) - len(sentence.lstrip())
        body = sentence.strip()
        found = [
            _DEFINED.match(body),
            _INLINE.search(body),
            _CALCULATE_AS.search(body),
            _IMPERATIVE.match(body),
            _IT_AS.match(body),
            _SHOWN.search(body),
            *_TAKING.finditer(body),
            *_EQUATION_TERM.finditer(body),
        ]
        spans.extend((lead + m.start("expr"), lead + m.end("expr")) for m in found if m)
    rest, end = [], 0
    for begin, stop in sorted(spans):
        if begin >= end:
            rest.append(question[end:begin])
            end = stop
    rest.append(question[end:])
    # "From Acme's 10-Q for the quarter ended June 30, 2023, what was ... for the six months
    # ended June 30, 2023": the period asked, not the filing's, where both are dated
    asked = parse_period(without_source(" ".join(rest)))
    if asked.kind is not None and (asked.years or asked.end) and not PRIOR.search(question):
        return asked  # (the period before the filing's is read from the filing's: PRIOR)
    named = parse_period(" ".join(rest))
    return named if named.kind is not None else None


def period_asked(question: str) -> PeriodAsk:
    """The period the question asks, read outside its formulas where it names one there,
    with every year and date it mentions."""
    whole = parse_period(question)
    named = _period_outside_formulas(question)
    if named is None:
        return whole
    return replace(named, mentioned=whole.mentioned, dates=whole.dates)


def writes_definition(question: str) -> bool:
    """Whether the question writes how its metric is computed, in a form it may not be
    read in ("defined as (...)", "where debt = ...")."""
    written = any(_written(sentence) for sentence in SENTENCES.split(question))
    told = _EQUATION.search(question) or _TELLS.search(question) or _TAKING.search(question)
    taken = any(_TAKE_AND.match(s.strip()) for s in SENTENCES.split(question))
    return written or taken or bool(told)


def defined_metrics(question: str) -> dict[str, Metric]:
    """The metrics the question defines, by their name's words."""
    found: dict[str, Metric] = {}
    # a formula told without a name: a percentage where the question asks one, or a rate
    told = bool(_PERCENT.search(question) or _PERCENT_NAME.search(SENTENCES.split(question)[0]))
    # the fiscal year the question names outside its formulas, which dated inputs must end
    named = _period_outside_formulas(question)
    year = named.years[-1] if named is not None and named.years else None
    for name, written in _definitions(question):
        expr = translate(written.strip(), year)
        try:
            formula = parse_formula(expr)
        except FormulaError:
            continue
        if not _names(formula):
            continue  # "i.e. 2020": a period restated, not a formula
        if formula.kind == "name" and _OPERATION.search(written):
            continue  # an operation written and one term read: the formula is cut short
        # a margin or a rate is a percentage, as analysts and the catalogue state them
        percent = bool(_PERCENT.search(written) or _PERCENT_NAME.search(name))
        percent = percent or (name == ASKED and told)
        found[phrase_words(name)] = Metric((name.lower(),), expr, percent)
    return found


def _names(node: Node) -> bool:
    """Whether a formula names any line item or metric."""
    return node.kind == "name" or any(_names(arg) for arg in node.args)


@dataclass(frozen=True)
class Asked:
    """What a figure question asks about time and form: its fiscal years (the last is the
    one asked; all of them for an N-year average), and how to round."""

    years: list[int]
    span_average: bool
    places: int | None
    percent: bool
    change: bool = False  # how it changed from the first year to the last


def asked(question: str) -> Asked:
    years = fiscal_years_written(question)
    span = _SPAN_AVERAGE.search(question)
    span_average = bool(span) and len(years) >= 2
    if span_average:
        years = list(range(years[0], years[-1] + 1))
    places = None
    found = _PLACES.search(question)
    if found:
        word = found.group(1).lower()
        places = int(word) if word.isdigit() else _NUMBER_WORDS.get(word)
    first = SENTENCES.split(question)[0]  # what is asked, not how it defines its terms
    change = not span_average and len(years) >= 2 and bool(_CHANGE.search(first))
    return Asked(years, span_average, places, bool(_PERCENT.search(question)), change)


def input_names(question: str) -> list[str]:
    """The names of the inputs the question defines ("taking X as ...", "where X = ...")."""
    taken = [name for name, _ in _taken(question)]
    return taken + [m["name"] for m in _EQUATION_TERM.finditer(question)]


def _inputs_defined(text: str) -> str:
    """`text` less the definitions of the metric's inputs ("taking X as ...", "where X = ...")."""
    for taken in reversed(_taken_matches(text)):
        text = f"{text[: taken.start()]} {text[taken.end() :]}"
    return _EQUATION_TERM.sub(" ", text)


def metric_in(question: str, catalogue: Catalogue, defined: dict[str, Metric]) -> Metric | None:
    """The metric a question asks for: one it defines (named in its first sentence, else
    the first it defines), else the catalogue's with the longest name found in it."""
    # a term defined by "taking X as ..." is an input of the metric asked, not the metric
    first = phrase_words(_inputs_defined(SENTENCES.split(question)[0]))
    told = defined.get(phrase_words(ASKED))
    if told is not None:  # "compute it as ...": the question's formula for what it asks
        return told
    inputs = {phrase_words(n) for n in input_names(question)}
    for metric in defined.values():
        if phrase_words(metric.name) in inputs:
            continue  # "where debt = ...": an input of the metric asked, not the metric
        if any(phrase_words(n) in first for n in metric.names):
            return metric
    words = phrase_words(_inputs_defined(question))
    best: tuple[Metric, int] | None = None
    for metric in catalogue.metrics:
        for name in metric.names:
            w = phrase_words(name)
            if w in words and (best is None or len(w) > best[1]):
                best = (metric, len(w))
    if best is None:
        return next((m for m in defined.values() if phrase_words(m.name) not in inputs), None)
    name = next(phrase_words(n) for n in best[0].names if len(phrase_words(n)) == best[1])
    if _MEASURE_OF.match(words[words.find(name) + len(name) :]):
        return None  # "free cash flow margin": a measure of the metric the catalogue has not
    # "ROE is defined as ...": the question's own definition of the catalogue's metric asked
    names = {phrase_words(n) for n in best[0].names}
    own = next((m for m in defined.values() if names & {phrase_words(n) for n in m.names}), None)
    return own or _with_terms(best[0], catalogue, defined)


def _with_terms(metric: Metric, catalogue: Catalogue, defined: dict[str, Metric]) -> Metric:
    """The catalogue's metric with a term the question defines in place of the catalogue's
    formula for that term: "the EBITDA margin, with EBITDA = income from operations + D&A"
    computes the margin on the question's EBITDA."""
    formula = metric.formula
    for term in defined.values():
        usual = catalogue.metric(term.name)
        if usual is not None and usual is not metric and usual.formula in formula:
            formula = formula.replace(usual.formula, term.name)
    return metric if formula == metric.formula else replace(metric, formula=formula)
