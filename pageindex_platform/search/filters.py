"""The metadata filter of the local route: the documents of the companies a question names,
narrowed by the date, years, quarters and filing types it names, each relaxed when it would
leave nothing."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from ..db import queries
from ..db.queries import DocumentInfo
from ..records import DocType
from .calendar import COMPARATIVE_YEARS, covers_year, filing_years, latest_periodic, of_dates
from .constraints import Constraints


@dataclass(frozen=True)
class MetadataMatch:
    """The documents a metadata selection kept, and what it applied, in words. `sql`: the
    model's query (llm mode), when it was what selected them."""

    ids: list[int]
    applied: str
    sql: str | None = None


def filter_documents(*, session: Session, constraints: Constraints) -> MetadataMatch:
    """Documents matching the constraints, relaxing the ones that match nothing, for each
    company named on its own ("Amazon vs Apple 2019" keeps Apple's filings when only Amazon's
    2019 one is stored). A calendar date the question names ("the 8-K dated July 1, 2022",
    "the quarter ended December 31, 2022") selects the filings of that date when there are
    any. A year with no filing of its own falls back to the next year's, which reports it as a
    comparative, then to the nearest earlier year's, which looks ahead to it, then to any
    year."""
    if not constraints.companies:
        return MetadataMatch([], "no company named")
    ids: list[int] = []
    said: list[str] = []
    for group in constraints.groups():
        found, applied = _filter_one(session, group, constraints)
        ids.extend(found)
        said.append(applied)
    return MetadataMatch(ids, " | ".join(said))


def _filter_one(
    session: Session, companies: list[str], constraints: Constraints
) -> tuple[list[int], str]:
    rows = queries.documents(session, companies=companies, ready=True, by_id=True)
    applied = [f"company in {companies}"]
    dated = of_dates(rows, constraints.dates)
    if dated:
        rows = dated
        applied.append(f"period_end near {constraints.dates}")
    elif constraints.years:
        rows, said = _of_years(rows, constraints.years)
        applied.append(said)
        if constraints.fiscal_year_mentioned and not constraints.periods:
            # a fiscal year's own filings (its 10-K, its fourth-quarter release) answer for
            # it; its first three quarters' filings only when it has none
            annual = [r for r in rows if covers_year(r) or r.doc_type == DocType.FORM_8K]
            if any(covers_year(r) for r in annual) and len(annual) < len(rows):
                rows = annual
                applied.append("the year's own filings (no quarter named)")
    elif not constraints.periods:
        # No period named: the question is about the company as it is now, which its latest
        # periodic filings describe (8-Ks report events of their own and all stay).
        rows = latest_periodic(rows)
        applied.append("latest filing of each periodic type (no period named)")
    for column, wanted in (
        ("doc_type", constraints.doc_types),
        ("fiscal_period", constraints.periods),
    ):
        kept = [r for r in rows if getattr(r, column) in wanted]
        if wanted and kept:
            rows = kept
            applied.append(f"{column} in {wanted}")
    return [r.id for r in rows], "; ".join(applied)


def _of_years(rows: list[DocumentInfo], named: list[int]) -> tuple[list[DocumentInfo], str]:
    """The filings of the years named, or of the nearest years that report them."""
    stated = set(named)
    # The filing of the latest year named reports up to two earlier years as comparatives,
    # so "FY2021 vs FY2022" is answered from the FY2022 filing alone; a wider span needs
    # the filings of each year.
    latest = {max(stated)} if max(stated) - min(stated) <= COMPARATIVE_YEARS else stated
    before = {y for r in rows for y in filing_years(r) if y < min(latest)}
    choices = (
        (latest, "fiscal_year in"),
        (stated, "fiscal_year in"),
        ({y + 1 for y in latest}, "next year"),
        ({max(before)} if before else set(), "nearest earlier year"),
    )
    for years, label in choices:
        kept = [r for r in rows if filing_years(r) & years]
        if kept:
            return kept, f"{label} {sorted(years)}"
    return rows, "years relaxed (no matching filing)"
