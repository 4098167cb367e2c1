"""What a figure question says of a metric: the metrics it defines in its own words ("DPO is
defined as: 365 * (average accounts payable between FY2016 and FY2017) / (FY2017 COGS + change
in inventory between FY2016 and FY2017)"), read into the same formulas and winning over the
catalogue's; the metric it asks for; its fiscal years and how to round (`Asked`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..patterns import deferred
from ..periods.filing_words import PRIOR, without_source
from ..periods.grammar import PeriodAsk, fiscal_years_written, parse_period
from .formula_words import including, translate
from .formulas import FormulaError, Node, parse_formula
from .formulas_told import (
    HOW_GIVEN,
    IMPERATIVE,
    IT_AS,
    SENTENCES,
    TAKE_AND,
    TAKING,
    asks_term,
    portions,
    printed_in,
    read_in,
    taken,
    taken_matches,
    told,
    trailing,
)
from .metrics import Catalogue, Metric
from .terms import phrase_words

_NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_DEFINED = deferred(
    r"^(?:(?:the\s+)?(?P<name>[\w&%/' -]+?)\s+(?:here\s+)?(?:is|are)\s+defined\s+as"
    r"|define\s+(?P<name2>[\w&%/' -]+?)\s+as"
    # "free cash flow margin = free cash flow / total revenues", a sentence of its own
    r"|(?:the\s+)?(?P<name3>[a-z][\w&%/' -]{2,60}?)\s*=)"
    rf"\s*:?\s*(?P<expr>.+?)(?:{HOW_GIVEN}.*)?\.?$",
    re.IGNORECASE,
)
# definitions joined by a semicolon: "X is defined as A minus B; Y = X / C"
_JOINED = deferred(r";\s+(?=[\w&%/' -]{2,60}?(?:\s*=|\s+is\s+defined\s+as))", re.IGNORECASE)
_SPAN_AVERAGE = deferred(r"\b(\d|two|three|four|five)[\s-]years?\s+average\b", re.IGNORECASE)
# "round your answer to two decimal places", "as a percentage with two decimals", "give a
# percentage to two decimal places"
_PLACES = deferred(r"\b(zero|one|two|three|four|\d)\s+decimal(?:s|\s+places?)?\b", re.IGNORECASE)
_CHANGE = deferred(r"\bchang\w*|\bcompare\w*|\bdifference\b|\bvs\.?\b", re.IGNORECASE)
_PERCENT = deferred(r"%|\bpercent|\bpercentage\b|\bas\s+a\s+share\b|\bshare\s+of\b", re.I)
_PERCENT_NAME = deferred(r"\b(?:margin|rate|growth)\b", re.IGNORECASE)
# a term defined as an equation: "where debt = long-term debt + notes payable, and equity =
# total stockholders' equity" (each term, like "taking X as", an input of the metric asked)
_TERM_NAME = r"(?:the\s+)?(?P<name>[a-z][\w&'’ -]{0,40}?)(?:\s*=|\s+(?:is|are)\s)"
_EQUATION = deferred(rf"\b(?:where|with)\s+{_TERM_NAME}", re.IGNORECASE)
_EQUATION_TERM = deferred(
    rf"(?:\b(?:where|with)|,?\s+and)\s+{_TERM_NAME}\s*(?P<expr>[^=?;]+?)"
    rf"(?=,?\s+and\s+(?:the\s+)?[a-z][\w&'’ -]{{0,40}}?(?:\s*=|\s+(?:is|are)\s)|\?|;|{HOW_GIVEN}"
    r"|\.\s|\.?$)",
    re.IGNORECASE,
)
# a definition written after the metric's name in the question's own sentence: "What was
# eBay's debt-to-equity ratio at year-end 2019, defined as long-term debt divided by total
# stockholders' equity?" (also "computed as", "calculated as", "i.e.", "that is,")
_INLINE = deferred(
    r"(?P<before>.+?),?\s+(?:(?:(?:is|are|was)\s+)?(?:defined|computed|calculated|measured)\s+as\s*:?"
    r"|i\.e\.,?|that\s+is,|using\s+(?=[^?;]*?\b(?:plus|minus|over|divided\s+by)\b))\s*"
    rf"(?P<expr>[^?;]+?)(?=\?|;|{HOW_GIVEN}|\.\s|\.?$)",
    re.IGNORECASE,
)
# "Calculate Acme's interest coverage for fiscal 2023 as operating income divided by
# interest expense": the metric named, defined after "as"
_CALCULATE_AS = deferred(
    # (not "Compute Acme's ratio for 2023, taking debt as ...": a term taken, not the metric)
    r"(?:^|,\s*)(?P<before>(?:calculate|compute|determine)\s+(?!it\s)"
    r"(?:(?!,?\s+(?:taking|treating|counting|with|where)\b).)+?)\s+as\s+"
    r"(?P<expr>[^?;]+?\b(?:divided\s+by|plus|minus)\b[^?;]+?)"
    rf"(?=\?|;|{HOW_GIVEN}|\.\s|\.?$)",
    re.IGNORECASE,
)
# the metric's name at the end of the words before its definition: after the company's
# possessive or the question's verb, before the period asked
_INLINE_NAME = deferred(
    r"(?:['’]s?|\b(?:was|is|were|are|the|compute|calculate))\s+(?:(?:fy|q[1-4]\s*)?\d{2,4}\s+)?"
    r"(?P<name>[a-z][\w&%/-]*"
    r"(?:\s+[a-z][\w&%/-]*){0,4}?)(?:\s+(?:for|in|at|of|as|during|from)\b.*)?$",
    re.IGNORECASE,
)
# words after a metric's name that say its form ("gross margin percentage")
_MEASURE_WORD = deferred(r"\s+(?:percentage|percent|ratio|rate)\s*$")
# words before a metric's name that are not its name ("the FY2019 EBITDA margin")
_NAME_START = deferred(r"^(?:(?:the|its|their|(?:fy|q[1-4]\s*)?\d{2,4})\s+)+", re.IGNORECASE)
# a word after a metric's name that makes it another measure: "free cash flow margin",
# "working capital to sales", "EBITDA growth"
_MEASURE_OF = deferred(
    r"\s*(?:margin|ratio|yield|conversion|coverage|turnover|intensity|multiple|per|to|"
    r"growth)\b"
)
# a word before it that makes it a ratio's second term: "debt to EBITDA", "net debt per ..."
_MEASURE_BEFORE = deferred(r"\b(?:to|per|over|versus|vs)\s*$")


def measures_another(question: str, catalogue: Catalogue) -> bool:
    """Whether the question asks a measure of a catalogue metric the catalogue does not name
    ("free cash flow margin", "debt-to-EBITDA"): neither the metric nor its lines answer it."""
    words = phrase_words(_inputs_defined(question))
    names = dict.fromkeys(phrase_words(n) for metric in catalogue.metrics for n in metric.names)
    said = [name for name in names if name in words]  # the catalogue's names the question says
    for name in said:
        if any(len(other) > len(name) and name.strip() in other for other in said):
            continue  # a longer name the catalogue has ("ebitda margin") holds it
        at = words.find(name)
        after = _MEASURE_OF.match(words[at + len(name) :])
        if after and after[0].strip() == "ratio" and " to " in name:
            continue  # "capex to revenue ratio": the ratio the name says, not another measure
        if after or _MEASURE_BEFORE.search(words[:at]):
            return True
    return False


ASKED = "the question's formula"  # a metric the question computes without naming it
# a formula shown with its symbols after a colon or in parentheses
_SHOWN = deferred(
    r"(?::\s*|\()(?P<expr>[a-z(][^:()?]*?(?:\s/\s|\s+divided\s+by\s+)[^:()?]*?)"
    r"(?=\)|\.\s|\.?$|\?|,\s*(?:and\s+)?round)",
    re.IGNORECASE,
)
# "How many times did Acme's fiscal 2023 operating income cover its interest expense?"
_COVER = deferred(
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
    sentences = [p for s in SENTENCES.split(question) for p in _JOINED.split(s)]
    for n, sentence in enumerate(sentences):
        written = _written(sentence)
        found.extend(written)
        said = told(sentence.strip())
        if said and not written:
            found.append((ASKED, trailing(said)))
        shown = None if said or written else _SHOWN.search(sentence)
        if shown and _restated(sentence[: shown.start()], shown["expr"]):
            shown = None  # "gross margin percentage (gross margin divided by net sales)"
        if shown:  # "... the balance sheet: A / B", "the equity multiplier (A / B)"
            found.append((ASKED, trailing(shown["expr"]).strip()))
        cover = _COVER.search(sentence)
        if cover and not said:
            found.append((ASKED, f"{cover['a']} divided by {cover['b']}"))
        asked = sentences[0] if n else None  # "Define gross margin as ...": the metric asked
        # "equity as total equity as printed on the balance sheet (...)": where it is read
        found.extend((name, including(printed_in(expr))) for name, expr in taken(sentence, asked))
        found.extend(portions(sentence))  # "debt (current plus noncurrent portions)"
        for term in _EQUATION_TERM.finditer(sentence):
            found.append((term.group("name").strip(), trailing(term.group("expr")).strip()))
    return found


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
        name = (match.group("name") or match.group("name2") or match.group("name3")).strip()
        # "Define it as: ...", "This ratio is defined as ...": the metric the question asks
        name = ASKED if _PRONOUN.fullmatch(name) else name
        return [(name, read_in(match.group("expr")))]
    inline = _INLINE.search(sentence.strip()) or _CALCULATE_AS.search(sentence.strip())
    # "Calculate Acme's full-year 2022 EBITDA, in USD millions, as ...": the name before
    # how the answer is given, its period words dropped
    # (and the filing it is read from: "From the income statement in Acme's 10-Q, ...")
    before = re.sub(rf"{HOW_GIVEN}.*$", "", without_source(inline["before"])) if inline else ""
    before = re.sub(r"\b(?:full[- ]year|fiscal(?:\s+year)?)\s+(?=\d)", "", before, flags=re.I)
    # the metric is named in the clause that asks ("Using the cash flow statement in ...,
    # what was Acme's free cash flow ...")
    asking = list(_ASKING.finditer(before))
    before = before[asking[-1].start() :] if asking else before
    named = _INLINE_NAME.search(before) if inline else None
    if inline is None or named is None:
        return []
    expr = trailing(inline.group("expr"))
    if _OPERATION.search(inline.group("expr")) and not _OPERATION.search(expr):
        expr = inline.group("expr")  # a period inside the formula, not after it: not cut
    name = _NAME_START.sub("", named["name"]).strip()
    own = _MEASURE_WORD.sub("", phrase_words(name)).strip()
    # "gross margin, defined as gross margin divided by net sales" names a line by the
    # metric's own name: the usual metric; "i.e. 2020" restates a period
    if own in phrase_words(expr) or not re.search(r"[a-z]{3,}", expr, re.I):
        return []
    return [(name, expr)]


_PRONOUN = deferred(r"(?:it|this|that|(?:this|the)\s+(?:ratio|metric|measure|figure))", re.I)
_OPERATION = deferred(
    r"\b(?:divided\s+by|times|plus|minus|over|less|multiplied\s+by)\b|\s[-+*/]\s", re.I
)
_ASKING = deferred(r"\b(?:what|which)\s+(?:was|is|were|are)\b", re.IGNORECASE)
# a formula told in words anywhere: "compute full-year 2022 EBITDA as operating income plus
# depreciation plus amortization of intangibles"
_TELLS = deferred(
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
            IMPERATIVE.match(body),
            IT_AS.match(body),
            _SHOWN.search(body),
            *TAKING.finditer(body),
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
    shown = _EQUATION.search(question) or _TELLS.search(question) or TAKING.search(question)
    take_and = any(TAKE_AND.match(s.strip()) for s in SENTENCES.split(question))
    return written or take_and or bool(shown)


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
    names = [name for name, _ in taken(question)]
    return names + [m["name"] for m in _EQUATION_TERM.finditer(question)]


def _inputs_defined(text: str) -> str:
    """`text` less the definitions of the metric's inputs ("taking X as ...", "where X = ...")."""
    for match in reversed(taken_matches(text)):
        text = f"{text[: match.start()]} {text[match.end() :]}"
    return _EQUATION_TERM.sub(" ", text)


def metric_in(question: str, catalogue: Catalogue, defined: dict[str, Metric]) -> Metric | None:
    """The metric a question asks for: one it defines (named in its first sentence, else
    the first it defines), else the catalogue's with the longest name found in it, else a
    term it takes ("taking X as ...") where its first sentence asks that term itself."""
    # a term defined by "taking X as ..." is an input of the metric asked, not the metric
    opening = SENTENCES.split(question)[0]
    first = phrase_words(_inputs_defined(opening))
    told = defined.get(phrase_words(ASKED))
    if told is not None:  # "compute it as ...": the question's formula for what it asks
        return told
    inputs = {phrase_words(n) for n in input_names(question)}
    # a term another definition uses is its input ("EBITDA = ...; EBITDA margin = EBITDA / ...")
    used = " ".join(phrase_words(m.formula) for m in defined.values())
    inputs |= {w for m in defined.values() if (w := phrase_words(m.name)) in used}
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
    if best is None:  # else the term taken is what is asked ("What was X, taking X as ...")
        asked = (m for m in defined.values() if phrase_words(m.name) not in inputs)
        taken = (m for m in defined.values() if any(asks_term(opening, n) for n in m.names))
        return next(asked, None) or next(taken, None)
    if measures_another(question, catalogue):
        return None  # "free cash flow margin": a measure of the metric the catalogue has not
    # "ROE is defined as ...": the question's own definition of the catalogue's metric asked
    names = {phrase_words(n) for n in best[0].names}  # "capex to revenue (ratio)"
    own = next((m for m in defined.values() if any(n in phrase_words(m.name) for n in names)), None)
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
