"""A figure asked in words (a count, a percentage said in a sentence, an amount beside a
metric's name), read from the filing's sentences before any line item or metric."""

from __future__ import annotations

from ..db.queries import DocumentInfo
from ..db.sql import Session
from .headline import Stated
from .line_shares import over_years
from .metric_questions import Asked
from .metrics import Metric
from .narrowing import ADJUSTED
from .sentence_checks import years_said
from .sentences import text_stated
from .terms import name_words, phrase_words
from .text_ask import in_sentences, text_ask


def in_text(
    session: Session,
    question: str,
    document: DocumentInfo,
    ask: Asked,
    metric: Metric | None,
    defined: dict[str, Metric],
    moved: Metric | None = None,
) -> Stated | None:
    """The figure asked in words, read from the filing's sentences; None where it is not
    looked for there, or a percentage is not found. A change over several years is not a
    sentence's (a sentence says one year's change). `moved`: a metric not computed, whose
    change a sentence may say as a line's ("Operating margin increased $344 million, or
    15%"), looked for only where the question asks the change of that name itself."""
    in_text = text_ask(question, name_words(document.company))
    if in_text is None or not in_sentences(in_text, metric, defined):
        return None
    if moved is not None and (
        not set(phrase_words(moved.name).split()) <= set(in_text.subject)
        or ADJUSTED.search(question)
    ):
        return None
    if in_text.percent and over_years(question):
        return Stated()
    year = ask.years[-1] if ask.years else None
    said = text_stated(
        session=session, question=question, document=document, ask=in_text, year=year
    )
    if moved is not None and said.headline is not None and not _first_year(said, year):
        return None  # "increased ... in 2020 compared to 2019" is 2020's change, not 2019's
    return said if said.text or not in_text.percent else None


def _first_year(said: Stated, year: int | None) -> bool:
    """Whether the sentence stated says the year asked first (the year of its change)."""
    years = years_said(said.headline.label) if said.headline is not None else []
    return year is None or (bool(years) and years[0] == year)
