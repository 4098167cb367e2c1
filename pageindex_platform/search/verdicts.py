"""What an answer states when more than one filing speaks: documents that claim to be the
same filing must agree before either's figure is stated (a duplicate agrees; a tampered copy
does not, and then both are shown and neither stated); and a comparison states each named
company's figure from its own filing, or says why it has none."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..db.queries import DocumentInfo
from ..db.sql import Session
from ..index.tables import label_key
from ..periods import PeriodAsk
from .document_search import Found
from .headline import Stated, as_candidate
from .query import Query
from .results import Candidate, Check, ComparedFigure, Headline
from .stated import state

_AGREE = 0.005  # relative difference within which two figures are the same


def agreed(
    *,
    session: Session,
    query: Query,
    stated: Stated,
    document: DocumentInfo,
    rivals: Sequence[DocumentInfo],
    period: PeriodAsk | None,
) -> Stated:
    """`stated` (`document`'s) with each rival document's figure: said beside it, and where
    one differs, no headline — both figures shown as candidates set aside; where `document`
    states none, the first rival's that passes every check, said as the other copy's."""
    disputed = False
    for rival in rivals:
        said = state(
            session=session,
            question=query.question,
            catalogue=query.catalogue,
            document=rival,
            period=period,
        )
        if not said.figures:
            continue
        if stated.headline is None and said.headline is not None and not disputed:
            if _set_aside_otherwise(stated.candidates, said.headline):
                # the first copy's own row of that line and period holds another value
                stated.candidates[:0] = [_disputed(said.headline, document.name)]
                disputed = True
                continue
            # a table the first copy prints unreadably: the other copy's row, said as such
            why = stated.text.splitlines()[0] if stated.text else "no figure was found"
            said.text += (
                f"\nFrom {rival.name}, which claims the same filing as {document.name}; "
                f"{document.name} gave none: {why}"
            )
            said.candidates.extend(stated.candidates)
            stated = said
            continue
        other = rival.name
        ours, theirs = stated.headline, said.headline
        if ours and theirs and _same(ours.value, theirs.value) and _spanned(theirs, ours):
            # one figure; the copy whose table says the span it covers is stated
            stated, said, ours, theirs = said, stated, theirs, ours
            other = document.name
        stated.text += f"\n{other}, claiming the same filing, states: {said.text.splitlines()[0]}"
        stated.figures.extend(said.figures)
        if ours is None or theirs is None:
            continue
        if _same(ours.value, theirs.value):
            check = Check("agreement", True, f"{other}, claiming the same filing, agrees")
            stated.headline = replace(ours, checks=[*ours.checks, check])
            continue
        stated.headline = None
        disputed = True
        stated.candidates[:0] = [_disputed(ours, rival.name), _disputed(theirs, ours.document)]
        stated.text = (
            f"No figure could be stated with confidence: {ours.document} and {rival.name} claim "
            f"to be the same filing and disagree ({ours.shown} against {theirs.shown}); both are "
            f"shown.\n{stated.text}"
        )
    return stated


def compared(
    *,
    session: Session,
    query: Query,
    found: Sequence[Found],
    named: Sequence[str],
    period: PeriodAsk | None,
) -> Stated:
    """Each named company's figure from its best filing, in the order named."""
    out = Stated()
    lines: list[str] = []
    for company in named:
        document = next((d.document for d in found if d.document.company == company), None)
        if document is None:
            why = f"no filing of {company} was selected"
            out.compared.append(ComparedFigure(company, None, why))
            lines.append(f"{company}: no figure stated — {why}.")
            continue
        said = state(
            session=session,
            question=_without_others(query.question, document, found),
            catalogue=query.catalogue,
            document=document,
            period=period,
        )
        out.figures.extend(said.figures)
        out.candidates.extend(said.candidates)
        if said.headline is not None:
            h = said.headline
            out.compared.append(ComparedFigure(company, h))
            lines.append(
                f"{company}: {h.shown} — {h.label}, {h.period} [{h.document}, p. {h.page}]"
            )
            continue
        why = said.text.splitlines()[0] if said.text else f"no figure found in {document.name}"
        out.compared.append(ComparedFigure(company, None, why))
        lines.append(f"{company}: no figure stated — {why}")
    out.text = "\n".join(lines)
    return out


def _without_others(question: str, document: DocumentInfo, found: Sequence[Found]) -> str:
    """The question as one company's filing reads it: the capitalised words of the other
    companies' names left out, so that "Compare Widget Works and Gadget Corp operating
    income" asks Widget Works' own figure, not a part named "Gadget Corp"."""
    names = {
        n
        for d in found
        if d.document.company != document.company
        for n in (d.document.company or "", *d.document.company_aliases)
    }
    others = {w.lower() for n in names for w in re.findall(r"[A-Za-z0-9]{2,}", n)}
    others -= {w.lower() for w in re.findall(r"[A-Za-z0-9]{2,}", document.company or "")}
    kept = [
        w
        for w in question.split()
        if not (w[:1].isupper() and re.sub(r"['’]s?$|[^\w]", "", w).lower() in others)
    ]
    return " ".join(kept)


def _set_aside_otherwise(candidates: Sequence[Candidate], headline: Headline) -> bool:
    """Whether a candidate set aside in one copy is the other copy's row of the same line
    and period with another value."""
    return any(
        label_key(c.label) == label_key(headline.label)
        and c.period_end == headline.period_end
        and not _same(c.value, headline.value)
        for c in candidates
    )


def _spanned(figure: Headline, other: Headline) -> bool:
    """Whether `figure` says the span it covers where `other`, the same figure, has only
    its end (a table whose header gives the years but not "Year ended")."""
    return figure.period_start is not None and other.period_start is None


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= _AGREE * max(abs(a), abs(b), 1.0)


def _disputed(headline: Headline, other: str) -> Candidate:
    return as_candidate(headline, f"disagrees with {other}, which claims the same filing")
