"""A total of counts a sentence lists by kind, where the question asks the total ("how many
permanent employees in total (full-time plus part-time)": "approximately 328,000 permanent
full-time and approximately 201,000 permanent part-time employees"), checked as a sentence's
figure is."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from ..db.queries import DocumentInfo
from ..patterns import deferred
from .headline import Stated
from .narrowing import place_check
from .results import Candidate, Check
from .sentence_checks import sentence_checks, sentence_figure, sentence_period, stated_from
from .sentence_numbers import TOTAL_ASKED
from .terms import phrase_words
from .text_ask import TextAsk

# a figure's digits and the words between listed figures that qualify none
_NO_QUALIFIER = deferred(r"[\d,.]+|\b(?:and|or|approximately|about|roughly|nearly)\b")


def listed_count(
    sentence: str, figures: Sequence[tuple[float, str]], noun: str, terms: Collection[str]
) -> tuple[float, str] | None:
    """(sum, as written) of the counts a sentence lists of one noun, each with its own
    qualifier ("approximately 328,000 permanent full-time and approximately 201,000 permanent
    part-time employees"), where each qualifier says a word of the question ("in total
    (full-time plus part-time)") that the others do not; None otherwise."""
    if len(figures) < 2:
        return None
    starts = [sentence.find(shown) for _, shown in figures]
    if any(a < 0 for a in starts) or starts != sorted(starts):
        return None
    head = re.search(rf"\b{re.escape(noun[:5])}\w*", sentence[starts[-1] :], re.IGNORECASE)
    if head is None:
        return None
    ends = [*starts[1:], starts[-1] + head.start()]
    qualifiers = []
    for start, end in zip(starts, ends, strict=True):
        said = _NO_QUALIFIER.sub(" ", sentence[start:end])
        words = set(phrase_words(said.replace("-", " ")).split())
        if re.search(r"[;:]|\b(?:of|in|at|for|including|which|whom)\b", said):
            return None  # not one list of the noun's kinds
        qualifiers.append(words & set(terms))
    if not all(q - set().union(*(o for o in qualifiers if o is not q)) for q in qualifiers):
        return None  # a qualifier the question does not name apart from the others
    total = sum(v for v, _ in figures)
    return total, f"{total:,.0f} {noun}s"


def total_stated(
    *,
    question: str,
    document: DocumentInfo,
    found: Sequence[tuple[int, str, list[tuple[float, str]]]],  # page, sentence, its figures
    ask: TextAsk,
    year: int | None,
    aside: list[Candidate],
) -> Stated | None:
    """The total of the first sentence (`found`: each sentence once, with its page and its
    figures) that lists the counts asked together, where a total is asked; None otherwise."""
    if ask.percent or not TOTAL_ASKED.search(question):
        return None
    names = (document.company or "", *document.company_aliases)
    for page, sentence, figures in found:
        listed = listed_count(sentence, figures, ask.noun, ask.terms)
        if listed is None:
            continue
        total, shown = listed
        checks = sentence_checks(sentence, document, year, question, page, shown)
        checks.append(Check("label", True, "the total of the counts the sentence lists by kind"))
        checks.append(place_check(question, sentence, figures[0][1], names))
        figure = sentence_figure(
            value=total,
            shown=shown,
            unit=ask.noun,
            sentence=sentence,
            period=sentence_period(document, year),
            document=document,
            page=page,
            checks=checks,
        )
        return stated_from(figure, aside)
    return None
