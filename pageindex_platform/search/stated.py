"""What a figure question's answer states before any extracted text: the figure of the line
item asked, for the period and scope asked — or the metric asked, computed with its working —
each with its label, period and page. Where the question asks for a segment or an adjusted
figure the tables do not give, or a line not found, it says so and what it found instead; it
never states another line as the one asked."""

from __future__ import annotations

import logging
import re
from dataclasses import replace

from ..db.queries import DocumentInfo
from ..db.sql import Session
from ..index.text import phrase_words
from ..patterns import deferred
from ..periods import PeriodAsk, PeriodKind
from ..periods.fiscal import asked_years, year_ended_before
from ..periods.grammar import figure_period, figure_years
from .amounts import amount_stated, with_sentences
from .checks import CheckedBook, Vetted, required_statements
from .companies import names_of
from .figures import Figure, LineItem
from .formulas import FormulaError
from .headline import (
    Stated,
    candidate,
    demote,
    figure_headline,
    for_reference,
    in_unit,
    metric_checks,
    metric_headline,
    not_sure,
    set_aside,
    unsure,
)
from .items_named import items_asked, joined_items
from .line_shares import line_metric
from .metric_parts import metric_part
from .metric_questions import (
    Asked,
    asked,
    defined_metrics,
    measures_another,
    metric_in,
    period_asked,
    writes_definition,
)
from .metrics import Catalogue, Metric
from .named_rows import or_named_row
from .narrowing import ADJUSTED, narrowed, other_than_the_line
from .one_figure import one_asked
from .parts_asked import part_asked
from .phrase_end import another_measure, named_beyond
from .printed import continuing_unsaid
from .printed_rates import against_printed
from .registrants import registrant_asked
from .said_first import in_text
from .schedules import due_later, scheduled
from .segments import segment_stated
from .stated_periods import fiscal_years_of, read_period, with_reading, year_labels
from .table_named import unquoted
from .text_amounts import or_in_text
from .working import MissingInput, Working, compute, terms_defined

logger = logging.getLogger(__name__)

# a question answered by yes or no, a name or a reason, not by a number
_NOT_A_NUMBER = deferred(
    r"^\W*(?:is|are|was|were|does|do|did|has|have|had|can|could|should|will|would|which|why|"
    r"who|among|explain|describe|list|discuss|what (?:drove|drives|caused|causes|led|"
    r"explains|contributed|are the (?:main|major|key|primary)))\b",
    re.IGNORECASE,
)
_GROWTH_FORMULA = deferred(r"/\s*\(?\s*previous\(|\s-\s*1\s*$")  # "X / previous(X) - 1"
# two figures asked added ("A plus B", "A and B combined"): no one row is the answer
_SUM_ASKED = deferred(r"\b(?:plus|minus|sum\s+of)\b|\band\s[^?.;]{1,80}?\bcombined\b", re.I)
# words that make a line's name a measure no statement reports ("comparable sales")
_OTHER_MEASURE = frozenset({"comparable", "comp", "same", "like", "deferred"})
_VALUED = deferred(  # a fair value, not the carrying amount; what is authorized, not what was done
    r"\b(?:fair|market)\s+value\b|\bauthori[sz](?:e|ed|es|ing|ation)s?\b", re.IGNORECASE
)
_COMPONENT = deferred(r"\b(?:component|portion)s?\s+of(?:\s+\S+){0,3}\s*$")  # "... of inventories"
_DEDUCTED = deferred(r" (?:net of|excluding|exclusive of|less|after|before) $")


def state(
    *,
    session: Session,
    question: str,
    catalogue: Catalogue,
    document: DocumentInfo,
    period: PeriodAsk | None = None,
) -> Stated:
    """The figure or metric `question` asks for, from `document`'s figures, for the period
    asked (`period`, else read from the question) on the filing's calendar; empty when the
    question names no line item or metric."""
    period = period if period is not None else period_asked(question)
    written = asked(question)
    if not (written.change or written.span_average):  # "fiscal 2022, in its 2023 10-K"
        written = replace(written, years=figure_years(question, written.years))
        period = figure_period(question, period)
    ask, period, read_as = fiscal_years_of(written, period, document)
    if period.end is not None or period.count:  # a date's fiscal year; the last N years
        ask = replace(ask, years=asked_years(period, document) or ask.years)
    ended = year_ended_before(document)
    if period.kind == PeriodKind.LATEST_YEAR and ended is not None:
        # the last fiscal year a quarter's filing has seen end is the one before its own
        ask = replace(ask, years=ask.years or [ended])
    book = CheckedBook(session, document, period)
    book.required = required_statements(question, catalogue.items)
    names = names_of(session, document)  # the company's, read once
    book.registrant = registrant_asked(session, document, question, names)
    # an amount by the year it falls due is no line's: a schedule's row
    stated = scheduled(session=session, question=question, document=document)
    scheduled_row = stated.headline is not None
    # the question's own formula, or a measure of a metric the catalogue does not name ("free
    # cash flow margin"): no line of it is the answer
    formula_asked = writes_definition(question) or measures_another(question, catalogue)
    if stated.headline is None:
        stated = _stated(session, question, catalogue, book, ask, document, formula_asked)
    year = ask.years[-1] if ask.years else None
    unquoted(stated, question)  # "for 'amortizable tax basis in intangibles'"
    if not (_NOT_A_NUMBER.search(question) or formula_asked or _SUM_ASKED.search(question)):
        items = catalogue.items
        stated = or_named_row(
            stated, session=session, question=question, book=book, year=year, items=items
        )
    why = narrowed(question, stated.headline, names) if stated.headline is not None else None
    line = stated.headline if stated.headline and stated.headline.kind != "metric" else None
    together = joined_items(question, catalogue.items, line.label) if line else ""
    why = why or (f"{together} are asked together; one line is not both" if together else None)
    if why is None and line is not None and stated.figures:
        first = stated.figures[0]
        why = continuing_unsaid(question, first, book.page_text(first.page))
    if why is not None:  # "revenue generated internationally": not the whole line's
        unsure(stated, why)
    stated = or_in_text(stated, session=session, question=question, document=document, year=year)
    due = due_later(question, document) if not scheduled_row else None
    if due and stated.headline is not None and stated.headline.kind != "metric":
        unsure(stated, f"an amount due in {due} is asked; a line's or a sentence's is not it")
    in_unit(one_asked(stated, question), question, ask.places)
    return with_reading(stated, read_as or read_period(period, book, ask, stated.figures))


def _stated(
    session: Session,
    question: str,
    catalogue: Catalogue,
    book: CheckedBook,
    ask: Asked,
    document: DocumentInfo,
    formula_asked: bool,
) -> Stated:
    """The metric asked, computed, else the line item asked (none if `formula_asked`)."""
    told = defined_metrics(question)  # the question's own formulas; else a share or a growth
    defined = told or line_metric(question, catalogue)  # a share, a growth, a sum
    metric = metric_in(question, catalogue, defined)
    items = items_asked(question, catalogue.items)
    number = not _NOT_A_NUMBER.search(question)
    said = in_text(session, question, document, ask, metric, defined) if number else None
    if said is not None:
        return said
    uncomputed = ""  # the metric asked, where it could not be computed
    if metric is not None:
        try:
            stated = _computed(metric, catalogue, defined, book, ask, document)
        except FormulaError as exc:
            logger.info("metric %s not computed: %s", metric.name, exc)
            uncomputed = metric.name
            if number and not told:  # a share a sentence says ("represented 71%, 70% ...")
                said = in_text(session, question, document, ask, None, {})
                if said is not None and said.headline is not None:
                    return said
        else:
            _set_aside_unasked(session, question, document, metric, defined, stated)
            if stated.working is None and number and metric not in defined.values():
                # "Operating margin increased $344 million, or 15%": a line the filing names so
                said = in_text(session, question, document, ask, None, {}, metric)
                if said is not None and said.headline is not None:
                    return said
            if stated.working and not defined and not ADJUSTED.search(question):
                stated = against_printed(stated, stated.working, book)  # the filing's own
            return stated if number else for_reference(stated)
    if metric is None and formula_asked:
        return Stated()  # a line of the question's formula, or of the ratio asked, is not it
    words = phrase_words(question)
    # "revenues net of interest expense": the line after "net of" is not the one asked
    items = [i for i in items if not _DEDUCTED.search(words[: i[1] + 1])]
    if not items or not number:
        return Stated()
    item, at, length = items[0]
    qualifiers = words[:at].split()[-3:]
    if (
        _OTHER_MEASURE.intersection(qualifiers)
        or another_measure(words[at + length :], question)
        or (_VALUED.search(question))
        or _COMPONENT.search(words[:at])  # "the finished goods component of its inventories"
    ):
        logger.info("%r asks for another measure than %s", question, item.name)
        return Stated()
    stated = _line_item(session, question, catalogue, item, book, ask, document)
    line = stated.headline if stated.headline and stated.headline.kind != "metric" else None
    other = other_than_the_line(question, item, uncomputed) if line else None  # not a part's share
    other = other or (named_beyond(question, at, length, line.label) if line else None)
    if other is not None:
        what, reason = other
        unsure(stated, reason, what)
    return stated


def _set_aside_unasked(
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


def _computed(
    metric: Metric,
    catalogue: Catalogue,
    defined: dict[str, Metric],
    book: CheckedBook,
    ask: Asked,
    document: DocumentInfo,
) -> Stated:
    try:
        working = compute(
            metric=metric,
            catalogue=catalogue,
            defined=defined,
            lookup=catalogue.lookup(with_sentences(book)),
            ask=ask,
            own_year=document.fiscal_year,
            rows=book.formula_row,
        )
    except MissingInput as exc:
        where = f" in {year_labels(book)(exc.year)}" if exc.year else ""
        formulas = "; ".join(
            f"{m.name} = {m.formula}"
            + (" as the question defines it" if m in defined.values() else "")
            for m in dict.fromkeys([metric, *defined.values()])
        )
        text = (
            f"{metric.name} is not computed: no figure for {exc.name}{where} was found among "
            f"{document.name}'s tagged facts or table rows ({formulas})."
        )
        aside = set_aside(list(book.vetted.values()))
        if aside:
            text = f"{text}\n{not_sure(f'{exc.name}{where}', aside)}"
        return Stated(text, candidates=aside)
    refused = _from_nothing(metric, working)
    if refused is not None:
        return refused
    years = working.years
    label = year_labels(book)
    when = (
        f"{label(years[0])}–{label(years[-1])} average"
        if len(years) > 1
        else (label(years[0]) if years else "")
    )
    working.period = when
    first = f"{working.shown} — {working.metric}{f', {when}' if when else ''}"
    if working.change:
        before, after = (
            f"{v:,.{working.places}f}{'%' if working.percent else ''}" for v in working.change
        )
        points = " percentage points" if working.percent else ""
        first = (
            f"{working.value:+,.{working.places}f}{points} — the change in {working.metric} from "
            f"{label(years[0])} ({before}) to {label(years[-1])} ({after})"
        )
        working.period = f"{label(years[0])} to {label(years[-1])}"
    terms = "".join(f"; {m.name} = {' '.join(m.formula.split())}" for m in working.defined)
    told = " (as the question defines them)" if terms else ""
    lines = [
        f"{first} = {working.formula}{terms}{told}{' (as a %)' if working.percent else ''}",
        "Working:",
    ]
    lines.extend(
        f"- {name}{f' {label(year)}' if year else ''}: {figure.shown} — {figure.cited}"
        for name, year, figure in working.inputs
    )
    stated = Stated("\n".join(lines), [f for _, _, f in working.inputs], working)
    return _checked_metric(stated, working, book)


def _from_nothing(metric: Metric, working: Working) -> Stated | None:
    """A change in percent from a year whose figure is at or below zero, refused: from a
    loss to a larger loss is no growth of 1,777%."""
    dated = [(year, f.value) for _, year, f in working.inputs if year is not None]
    if _GROWTH_FORMULA.search(metric.formula) and dated and min(dated)[1] <= 0:
        return Stated(
            f"{metric.name} is not stated: a change in percent from a figure at or below zero "
            "does not say how it moved."
        )
    return None


def _checked_metric(stated: Stated, working: Working, book: CheckedBook) -> Stated:
    """The metric as the headline when its own checks pass; else no headline, the metric a
    candidate set aside with the check it failed."""
    checks = metric_checks(working, book.vetted)
    headline = metric_headline(working, checks)
    stated.candidates = set_aside(list(book.vetted.values()))
    failed = next((c for c in checks if not c.passed), None)
    if failed is None:
        stated.headline = headline
        stated.text += "".join(f"\nNote: {n}." for n in headline.notes)
        return stated
    stated.headline = headline
    demote(stated, failed.detail)
    stated.text = f"{not_sure(working.metric, stated.candidates)}\n\n{stated.text}"
    return stated


def _line_item(
    session: Session,
    question: str,
    catalogue: Catalogue,
    item: LineItem,
    book: CheckedBook,
    ask: Asked,
    document: DocumentInfo,
) -> Stated:
    year = ask.years[-1] if ask.years else None
    figure = catalogue.lookup(book.get)(item, year)
    span = book.span(year)
    when = f" for {span.label}" if span is not None else f" for FY{year}" if year else ""
    part = part_asked(question, item, document)
    if part is not None:  # its row, or the whole company's figure set aside: never stated
        return segment_stated(
            session=session,
            book=book,
            item=item,
            part=part,
            year=year,
            whole=figure,
            when=when,
            items=catalogue.items,
            question=question,
        )
    vetted = _vetted_of(book, figure)
    aside = set_aside(list(book.vetted.values()))
    if ADJUSTED.search(question):
        if figure is None:
            return Stated(f"No reported {item.name}{when} was found in {document.name}.")
        reason = "the reported figure; the question asks for an adjusted (non-GAAP) one"
        return Stated(
            f"The question asks for an adjusted (non-GAAP) figure, which the statements do not "
            f"report; the reported {item.name} is {figure.shown} — {figure.cited}.",
            [figure],
            candidates=[candidate(figure, reason, vetted.checks if vetted else ()), *aside],
        )
    if figure is None and year is not None:  # "Advertising costs were $763 million in 2020"
        said = amount_stated(session=session, document=document, item=item, year=year, span=span)
        if said.headline is not None:
            said.candidates = aside
            return said
    if figure is None:
        if aside:
            return Stated(not_sure(f"{item.name}{when}", aside), candidates=aside)
        return Stated(
            f"No figure for {item.name}{when} was found among {document.name}'s tagged facts "
            "or table rows; the passages below may hold it."
        )
    checks, notes = (vetted.checks, vetted.notes) if vetted else ([], [])
    text = f"{figure.shown} — {figure.cited}" + "".join(f"\nNote: {n}." for n in notes)
    headline = figure_headline(figure, checks, notes=notes)
    return Stated(text, [figure], headline=headline, candidates=aside)


def _vetted_of(book: CheckedBook, figure: Figure | None) -> Vetted | None:
    """What was considered for the line item whose figure is `figure`."""
    return next((v for v in book.vetted.values() if figure and v.chosen is figure), None)
