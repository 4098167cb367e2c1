"""Where one figure is not what a question asks, though it names its line: a difference of
two ("how much higher was A than B", "by how much did A exceed B"), several combined ("in
2019 and 2018 combined"), an average of several years, a change over a period ("the net
change in cash", "the year-over-year change in operating income")."""

from __future__ import annotations

import re

from .headline import Stated, demote, not_sure
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
    elif two is not None and not two.added:
        why = "one figure; the question asks how much one is more or less than another"
    else:
        why = _not_one_figure(question, headline)
    if why:  # "how much higher", "in 2019 and 2018 combined", "the average of", "change in"
        demote(stated, why)
        stated.text = not_sure("the figure asked", stated.candidates)
    return stated


def _not_one_figure(question: str, headline: Headline) -> str:
    """Why the headline, one part's or one period's row, is not what the question asks: a
    total of several ("... in 2019 and 2018 combined", "the combined revenue of A and B"), an
    average of several years, a change over a period the label does not say; "" where it may
    be."""
    if headline.kind not in ("line item", "segment", "row"):
        return ""
    years = set(re.findall(r"\b(?:19|20)\d\d\b", question))
    several = len(years) > 1 or (headline.kind == "segment" and " and " in question)
    if TOTAL_ASKED.search(question) and several:
        return "one figure; the question asks several combined"
    if _AVERAGE.search(question) and len(years) > 1:
        return "one period's figure; the question asks an average of several"
    if _CHANGE_IN.search(question) and not _CHANGE_IN.search(f"{headline.label} in"):
        return "the line's own figure; the question asks its change over a period"
    return ""


_AVERAGE = re.compile(r"\b(?:average|mean)\b", re.IGNORECASE)
_CHANGE_IN = re.compile(
    r"\b(?:change|increase|decrease|growth|decline)s?\b(?:\s*\([^)]*\))?\s+(?:in|of)\b",
    re.IGNORECASE,
)
