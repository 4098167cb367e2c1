"""Periods as analysts write them, against the real database: one company whose fiscal year
ends on September 30, with its fiscal 2024 10-K and the 10-Q of the second quarter of fiscal
2025 (which reports the same quarter a year before, the six months to date and the balance
at the last year end). Each wording class finds the filing and the figure of the period it
names, on the company's own calendar; a period a stored filing reports beside its own is
never said to be missing."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from pageindex_platform.periods import PeriodKind, parse_period

from .helpers import annual_filing, cover, ingest_files, run_json

ANNUAL = """# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Years Ended September 30,
2024 2023 2022
Revenue $ 1,200 $ 1,100 $ 1,000
Net income 120 110 100

CONSOLIDATED BALANCE SHEETS
(In millions)
September 30, 2024 September 30, 2023
Total assets 5,000 4,500
"""
QUARTER = """# Item 1. Financial Statements

CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Three Months Ended Six Months Ended
March 31, 2025 March 31, 2024 March 31, 2025 March 31, 2024
Revenue $ 330 $ 300 $ 640 $ 590
Net income 33 30 64 59

CONDENSED CONSOLIDATED BALANCE SHEETS
(In millions)
March 31, 2025 September 30, 2024
Total assets 5,300 5,000
"""


def _gizmo(folder: Path, quarter_year: int) -> None:
    """Gizmo Works' fiscal 2024 10-K and the 10-Q of the second quarter of `quarter_year`."""
    body = QUARTER.replace("2025", str(quarter_year)).replace("2024", str(quarter_year - 1))
    ingest_files(
        folder,
        {
            "gizmo-10k-2024.md": annual_filing(2024, ANNUAL, symbol="GZMO", month="September 30"),
            f"gizmo-10q-{quarter_year}q2.md": cover(
                "10-Q", f"For the quarterly period ended March 31, {quarter_year}", symbol="GZMO"
            )
            + body,
        },
    )


@pytest.fixture
def gizmo(tmp_path: Path) -> None:
    _gizmo(tmp_path / "gizmo", 2025)


def _ask(question: str) -> Any:
    return run_json("ask", question)


def _stated(out: dict[str, Any]) -> tuple[float, str | None, str, str]:
    figure = out["figures"][0]
    return figure["value"] / 1e6, figure["period_start"], figure["period_end"], figure["document"]


def _no_missing_notice(out: dict[str, Any]) -> None:
    said = [out["answer"], *out["warnings"]]
    assert not any("is stored" in s and s.startswith("No ") for s in said), said


YEAR = (1200.0, "2023-10-01", "2024-09-30", "gizmo-10k-2024")


@pytest.mark.parametrize(
    "words",
    ["FY24", "FY2024", "fiscal 2024", "fiscal year 2024", "the year ended September 30, 2024"],
)
def test_a_fiscal_year_in_every_wording_is_the_year_figure(gizmo: None, words: str) -> None:
    out = _ask(f"What was Gizmo Works' revenue for {words}?")
    assert _stated(out) == YEAR
    _no_missing_notice(out)
    assert any(
        r.startswith(f'read "{words.removeprefix("the ")}" as fiscal 2024') for r in out["readings"]
    ), out["readings"]


def test_a_bare_year_is_the_company_fiscal_year(gizmo: None) -> None:
    """ "2024" for a September year end is its fiscal 2024, not the calendar year."""
    out = _ask("What was Gizmo Works' revenue for 2024?")
    assert _stated(out) == YEAR
    assert 'read "2024" as fiscal 2024, the year ended September 30, 2024' in out["readings"]


@pytest.mark.parametrize(
    "words",
    [
        "Q2 FY25",
        "2Q25",
        "the second quarter of fiscal 2025",
        "the three months ended March 31, 2025",
        "the quarter ended March 31, 2025",
    ],
)
def test_a_quarter_in_every_wording_is_three_months_never_the_year_to_date(
    gizmo: None, words: str
) -> None:
    out = _ask(f"What was Gizmo Works' revenue for {words}?")
    assert _stated(out) == (330.0, "2025-01-01", "2025-03-31", "gizmo-10q-2025q2")
    _no_missing_notice(out)
    assert any("second quarter of fiscal 2025" in r for r in out["readings"]), out["readings"]


@pytest.mark.parametrize(
    "words", ["the six months ended March 31, 2025", "the first half of fiscal 2025"]
)
def test_the_year_to_date_is_six_months(gizmo: None, words: str) -> None:
    out = _ask(f"What was Gizmo Works' revenue for {words}?")
    assert _stated(out) == (640.0, "2024-10-01", "2025-03-31", "gizmo-10q-2025q2")


@pytest.mark.parametrize("words", ["as of March 31, 2025", "at March 31, 2025"])
def test_a_balance_at_a_date(gizmo: None, words: str) -> None:
    out = _ask(f"What were Gizmo Works' total assets {words}?")
    assert _stated(out) == (5300.0, None, "2025-03-31", "gizmo-10q-2025q2")


@pytest.mark.parametrize(
    ("words", "value", "document"),
    [
        ("fiscal 2023", 1100.0, "gizmo-10k-2024"),
        ("the year ended September 30, 2023", 1100.0, "gizmo-10k-2024"),
        ("Q2 FY24", 300.0, "gizmo-10q-2025q2"),
        ("the three months ended March 31, 2024", 300.0, "gizmo-10q-2025q2"),
    ],
)
def test_a_comparative_period_is_read_from_the_filing_that_reports_it(
    gizmo: None, words: str, value: float, document: str
) -> None:
    """A prior year is in the next 10-K's comparative columns, a prior-year quarter in the
    10-Q's: no "not stored" notice, and the answer says which filing it reads it from."""
    out = _ask(f"What was Gizmo Works' revenue for {words}?")
    assert _stated(out)[0::3] == (value, document)
    assert out["citations"][0]["document"] == document
    _no_missing_notice(out)
    assert any(f"is read from {document}" in r for r in out["readings"]), out["readings"]


def test_a_prior_balance_is_read_from_the_annual_report(gizmo: None) -> None:
    out = _ask("What were Gizmo Works' total assets as of September 30, 2023?")
    assert _stated(out) == (4500.0, None, "2023-09-30", "gizmo-10k-2024")
    _no_missing_notice(out)


@pytest.mark.parametrize(
    "words", ["the last fiscal year", "the most recent fiscal year", "the latest fiscal year"]
)
def test_the_last_fiscal_year_is_the_newest_annual_period_not_a_newer_quarter(
    gizmo: None, words: str
) -> None:
    out = _ask(f"What was Gizmo Works' revenue in {words}?")
    assert _stated(out) == YEAR


def test_the_last_fiscal_year_is_not_an_annual_report_a_newer_quarter_has_outdated(
    tmp_path: Path,
) -> None:
    """With a 10-Q of fiscal 2026 stored, fiscal 2025 has ended: the fiscal 2024 10-K's
    year is not "the last fiscal year", and no filing of fiscal 2025 is stored."""
    _gizmo(tmp_path / "gizmo", 2026)
    out = _ask("What was Gizmo Works' revenue in the last fiscal year?")
    assert out["headline"] is None
    assert not any(f["value"] == 1200e6 for f in out["figures"]), out["figures"]
    # the balance at its end is in the newer 10-Q, beside the quarter's own
    assets = _ask("What were Gizmo Works' total assets at the end of the last fiscal year?")
    assert _stated(assets) == (5000.0, None, "2025-09-30", "gizmo-10q-2026q2")


@pytest.mark.parametrize("words", ["last quarter", "in the latest quarter"])
def test_the_last_quarter_is_the_newest_quarter(gizmo: None, words: str) -> None:
    out = _ask(f"What was Gizmo Works' revenue {words}?")
    assert _stated(out) == (330.0, "2025-01-01", "2025-03-31", "gizmo-10q-2025q2")


def test_a_quarterly_metric_is_computed_from_the_quarter_figures(gizmo: None) -> None:
    out = _ask("What was Gizmo Works' net profit margin in Q2 FY25?")
    working = out["working"]
    assert working["shown"] == "10.0%" and working["period"] == "Q2 FY2025"
    assert {(i["name"], i["value"] / 1e6, i["period_start"]) for i in working["inputs"]} == {
        ("net income", 33.0, "2025-01-01"),
        ("revenue", 330.0, "2025-01-01"),
    }
    assert out["answer"].startswith("10.0% — net profit margin, Q2 FY2025")


def test_a_period_no_filing_reports_is_said_to_be_missing(gizmo: None) -> None:
    out = _ask("What was Gizmo Works' revenue for Q1 FY25?")
    assert any(w.startswith("No Gizmo Works Inc. ") for w in out["warnings"]), out["warnings"]
    # a date after the newest filing was made: no stored filing states a figure as of it
    out = _ask("What were Gizmo Works' total assets as of September 30, 2025?")
    assert any(w.startswith("No Gizmo Works Inc. ") for w in out["warnings"]), out["warnings"]
    assert out["headline"] is None, out["answer"]


@pytest.mark.parametrize(
    ("question", "kind", "years", "quarter", "months", "end"),
    [
        ("revenue FY2015–FY2022", PeriodKind.RANGE, tuple(range(2015, 2023)), None, 12, None),
        ("revenue from 2018 to 2022", PeriodKind.RANGE, tuple(range(2018, 2023)), None, 12, None),
        ("revenue over the last five years", PeriodKind.RANGE, (), None, 12, None),
        ("Q2 of FY2023 revenue", PeriodKind.QUARTER, (2023,), 2, 3, None),
        ("3QFY23 margin", PeriodKind.QUARTER, (2023,), 3, 3, None),
        ("the first nine months of fiscal 2025", PeriodKind.YEAR_TO_DATE, (2025,), 3, 9, None),
        ("as of FY2022", PeriodKind.INSTANT, (2022,), None, 0, None),
        (
            "the 13 weeks ended April 29, 2023",
            PeriodKind.QUARTER,
            (),
            None,
            3,
            date(2023, 4, 29),
        ),
        ("the most recent quarter", PeriodKind.LATEST_QUARTER, (), None, 3, None),
        ("the 8-K dated July 1, 2022", None, (), None, None, None),
        ("revenue by segment", None, (), None, None, None),
        # the year of the filing read is not the year asked
        ("per its 10-K for fiscal 2015, revenue in 2014", PeriodKind.YEAR, (2014,), None, 12, None),
        ("revenue per its 10-K for fiscal 2015", PeriodKind.YEAR, (2015,), None, 12, None),
        ("EPS reported for fiscal 2016 in its 2017 10-K", PeriodKind.YEAR, (2016,), None, 12, None),
        (
            "net income in 2018 compared with 2017, per its FY2019 10-K",
            PeriodKind.YEAR,
            (2017, 2018),
            None,
            12,
            None,
        ),
        ("Q4 2022 earnings per share, and FY2022 revenue", PeriodKind.QUARTER, (2022,), 4, 3, None),
        (
            "per its annual report for 2022, growth versus 2021",
            PeriodKind.YEAR,
            (2021, 2022),
            None,
            12,
            None,
        ),
        # the quarter of the release read is not asked beside a full year
        (
            "FY2022 net margin, per its Q4 2022 earnings release",
            PeriodKind.YEAR,
            (2022,),
            None,
            12,
            None,
        ),
        ("Q4 2022 net margin, per its earnings release", PeriodKind.QUARTER, (2022,), 4, 3, None),
        # ... nor beside a bare year, while a quarter asked without its year stays the quarter
        (
            "R&D in 2021, based on its Q4 2022 earnings release",
            PeriodKind.YEAR,
            (2021,),
            None,
            12,
            None,
        ),
        (
            "revenue in Q4, based on its Q4 2022 earnings release",
            PeriodKind.QUARTER,
            (2022,),
            4,
            3,
            None,
        ),
        ("revenue in Q4 2021, per its Q4 2022 release", PeriodKind.QUARTER, (2021,), 4, 3, None),
        (
            "revenue in Q4 2021, per its Q4 2022 earnings release",
            PeriodKind.QUARTER,
            (2021,),
            4,
            3,
            None,
        ),
        (
            "Q1 2023 net income per its Q1 2023 earnings release published on April 25, 2023",
            PeriodKind.QUARTER,
            (2023,),
            1,
            3,
            None,
        ),
    ],
)
@pytest.mark.no_database
def test_one_grammar_reads_every_period_wording(
    question: str,
    kind: PeriodKind | None,
    years: tuple[int, ...],
    quarter: int | None,
    months: int | None,
    end: date | None,
) -> None:
    ask = parse_period(question)
    assert (ask.kind, ask.years, ask.quarter, ask.months, ask.end) == (
        kind,
        years,
        quarter,
        months,
        end,
    )
    if "five" in question:
        assert ask.count == 5
