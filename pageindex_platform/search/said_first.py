"""A figure asked in words (a count, a percentage said in a sentence, an amount beside a
metric's name), read from the filing's sentences before any line item or metric."""

from __future__ import annotations

from ..db.queries import DocumentInfo
from ..db.sql import Session
from .headline import Stated
from .line_shares import over_years
from .metric_questions import Asked
from .metrics import Metric
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
    if moved is not None and not set(phrase_words(moved.name).split()) <= set(in_text.subject):
        return None
    if in_text.percent and over_years(question):
        return Stated()
    year = ask.years[-1] if ask.years else None
    said = text_stated(
        session=session, question=question, document=document, ask=in_text, year=year
    )
    return said if said.text or not in_text.percent else None
