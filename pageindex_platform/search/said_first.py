"""A figure asked in words (a count, a percentage said in a sentence, an amount beside a
metric's name), read from the filing's sentences before any line item or metric; and a
computed metric that is not what the question asks (the whole company's where a part's is
asked, the usual definition where the question writes its own) set aside, with a sentence's
figure in its place where one says what is asked."""

from __future__ import annotations

from ..db.queries import DocumentInfo
from ..db.sql import Session
from .companies import names_of
from .headline import Stated, demote
from .line_shares import over_years
from .metric_parts import metric_part
from .metric_questions import Asked, writes_definition
from .metrics import Metric
from .narrowing import ADJUSTED
from .sentence_checks import years_said
from .sentences import text_stated
from .terms import name_words, phrase_words
from .text_ask import in_sentences, text_ask
from .working import terms_defined


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


def said_instead(
    session: Session,
    question: str,
    document: DocumentInfo,
    ask: Asked,
    asked: tuple[Metric, dict[str, Metric], dict[str, Metric]],
    stated: Stated,
) -> Stated | None:
    """A sentence's figure in place of a computed metric: where the whole's metric was set
    aside ("global comparable sales growth" is no revenue growth), what a sentence says;
    where the metric was not computed, a line the filing names so ("Operating margin
    increased $344 million, or 15%")."""
    metric, told, defined = asked
    if stated.headline is None and stated.working and not told:
        return in_text(session, question, document, ask, None, {})
    if stated.working is None and metric not in defined.values():
        return in_text(session, question, document, ask, None, {}, metric)
    return None


def set_aside_unasked(
    session: Session,
    question: str,
    document: DocumentInfo,
    metric: Metric,
    defined: dict[str, Metric],
    stated: Stated,
) -> None:
    """The computed metric set aside, and said so first, where it is not what the question
    asks: computed by the usual definition where the question writes its own, for the whole
    company where it asks a part's, from the reported lines where it asks an adjusted one."""
    own = metric in defined.values() or terms_defined(question, stated.working)
    if stated.working is None or own:
        return
    if writes_definition(question):
        stated.text = (
            "The question defines the metric in its own words, which could not be "
            f"read as a formula; computed by the usual definition instead: {stated.text}"
        )
        demote(stated, "the usual definition, not the one the question writes")
    elif part := metric_part(question, metric.names, names_of(session, document)):
        stated.text = f"The question asks for {part}; the whole company's instead: {stated.text}"
        demote(stated, f"{part!r} is asked; {metric.name} is the whole company's")
    elif ADJUSTED.search(question):
        stated.text = (
            "The question asks for an adjusted (non-GAAP) figure; computed from the "
            f"reported lines instead: {stated.text}"
        )
        demote(stated, "computed from the reported lines; an adjusted figure is asked")
