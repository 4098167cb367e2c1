"""Where one figure is not what a question asks, though it names its line: a difference of
two ("how much higher was A than B", "by how much did A exceed B"), several combined ("in
2019 and 2018 combined"), an average of several years, a change over a period ("the net
change in cash", "the year-over-year change in operating income")."""

from __future__ import annotations

import re

from ..patterns import deferred
from .headline import WHOLE_NOT_PART, Stated, unsure
from .results import Headline
from .sentence_numbers import TOTAL_ASKED
from .two_figures import two_asked


def one_asked(stated: Stated, question: str) -> Stated:
    """The answer with its headline set aside where one figure is not what the question asks:
    a difference of two (a metric among them), several combined, an average, a change."""
    headline = stated.headline
    if headline is None:
        return stated
    two = two_asked(question)
    if two is not None and two.percent and headline.unit in ("%", "percent"):
        why = ""  # a change in percent, said or computed as such ("an increase of 11%")
    elif two is not None and two.periods and headline.unit == "%" and said_as_change(stated):
        why = ""  # "by how much did comparable sales increase": "increased 11.7%" says it
    elif two is not None and two.periods and _change_computed(stated, two.percent):
        why = ""  # "how much did X rise in 2018 relative to 2017": X - previous(X), computed
    elif two is not None and not two.added:
        why = "one figure; the question asks how much one is more or less than another"
    elif two is not None and headline.kind in ("line item", "segment", "row"):
        why = "one figure; the question asks two combined"  # "the combined ... of A and B"
    else:
        why = _not_one_figure(question, headline)
    if why:  # "how much higher", "in 2019 and 2018 combined", "the average of", "change in"
        unsure(stated, why)
    return stated


def _change_computed(stated: Stated, percent: bool) -> bool:
    """Whether the headline is a metric computed as a line's change from the year before, in
    percent where a percentage is asked and in the line's unit where an amount is."""
    working = stated.working
    return working is not None and "previous(" in working.formula and working.percent == percent


def _not_one_figure(question: str, headline: Headline) -> str:
    """Why the headline, one part's or one period's row, is not what the question asks: a
    total of several ("... in 2019 and 2018 combined", "the combined revenue of A and B"), an
    average of several years, a change over a period the label does not say; "" where it may
    be."""
    if headline.kind == "text":  # a sentence's level ("Employees 131.9"), not its change
        changed = _CHANGE_IN.search(question) or _CHANGE_DID.search(question)
        return "" if not changed or _SAID_CHANGE.search(headline.label) else _LEVEL_NOT_CHANGE
    if headline.kind not in ("line item", "segment", "row"):
        return ""
    years = set(re.findall(r"\b(?:19|20)\d\d\b", question))
    several = len(years) > 1 or (headline.kind == "segment" and " and " in question)
    if TOTAL_ASKED.search(question) and several:
        return "one figure; the question asks several combined"
    if _AVERAGE.search(question) and len(years) > 1:
        return "one period's figure; the question asks an average of several"
    changed = _CHANGE_IN.search(question) or _CHANGE_DID.search(question)
    if changed and not _CHANGE_IN.search(f"{headline.label} in"):
        return _LEVEL_NOT_CHANGE
    return ""


_LEVEL_NOT_CHANGE = "the line's own figure; the question asks its change over a period"
# a sentence that says a change ("increased 4%", "was $1.2 billion higher than")
_SAID_CHANGE = deferred(
    r"\b(?:increas|decreas|grow|grew|rise|rose|risen|fall|fell|declin|drop|chang|climb|jump|"
    r"up|down|higher|lower|more|less|fewer|reduc|gain|los[st]|eliminat)\w*\b|\b(?:cut|add|"
    r"added|adding|hire[sd]?|hiring|laid|lay|layoffs?|open(?:ed|ing)?|clos(?:e|ed|ing|ure))\b",
    re.IGNORECASE,
)


# "how much did X rise year over year", "by how much did X go up": a change asked by its verb
_CHANGE_DID = deferred(
    r"\bhow\s+(?:much|many)(?:\s+[\w'’-]+){0,3}?\s+did\b[^?]*?\b(?:increase|decrease|grow|grew|rise|rose|fall|fell|decline|"
    r"drop|change|climb|jump|go\s+(?:up|down))\w*\b|\bhow\s+many\b[^?]*?\bdid\b[^?]*?\b"
    r"(?:cut|reduce|add|lose|shed|eliminate|hire)\b",
    re.IGNORECASE,
)
_AVERAGE = deferred(r"\b(?:average|mean)\b", re.IGNORECASE)
_CHANGE_IN = deferred(
    r"\b(?:change|increase|decrease|growth|decline)s?\b(?:\s*\([^)]*\))?\s+(?:in|of)\b",
    re.IGNORECASE,
)


def whole_for_part(stated: Stated, side: Stated) -> Stated:
    """`stated`, a computed change of a line, set aside where the question's side (the line in
    one period) names a part whose own figure was not found, and the whole company's was
    set aside: the whole's change is not the part's ("MGM China's net revenues"); a share a
    sentence says is no change either."""
    headline = stated.headline
    if headline is None or headline.kind != "metric":
        return no_share_for_change(stated)
    if any(c.set_aside.startswith(WHOLE_NOT_PART) for c in side.candidates):
        unsure(stated, "the whole company's change; the question asks a part's")
    return stated


def no_share_for_change(stated: Stated) -> Stated:
    """`stated` with a share a sentence says ("68% of its revenues") set aside, where a
    change in percent is asked."""
    if (
        stated.headline is not None
        and stated.headline.kind == "text"
        and not said_as_change(stated)
    ):
        unsure(stated, "a share of something; the question asks a change in percent")
    return stated


def said_as_change(stated: Stated) -> bool:
    """Whether `stated` is a percentage a sentence says as a change ("increased 94%"), not a
    share of something ("68% of its revenues were from fixed-price contracts")."""
    headline = stated.headline
    if headline is None or headline.kind != "text":
        return False
    at = headline.label.find(headline.shown)
    after = _LISTED.sub("", headline.label[at + len(headline.shown) :]) if at >= 0 else ""
    return not re.match(r"\s+of\b", after)  # "68% and 69% of their revenues": shares


# the percentages listed after a first one ("68% and 69%", "71%, 70% and 68%")
_LISTED = deferred(r"^(?:\s*(?:,|and|,\s*and)\s*\(?-?\d+(?:\.\d+)?\)?\s?%)+")
