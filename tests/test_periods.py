"""Periods a question names — calendar dates, a year with no filing of its own, a year and
quarter without a company — deciding which filing answers, against the real database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pageindex_platform.periods.dates import parse_dates
from pageindex_platform.periods.grammar import figure_years, fiscal_years_written

from .helpers import annual_filing, cover, ingest_files, run_json

EVENT = (
    "FORM 8-K\n\nCURRENT REPORT\n\nGIZMO WORKS INC.\n\n(Exact name of registrant as "
    "specified in its charter)\n\nDate of Report: {day}\n\n"
)


def _ask(question: str) -> Any:
    return run_json("ask", question)


@pytest.mark.parametrize(
    ("question", "dates"),
    [
        ("the 8k filing dated 1st July 2022", ["2022-07-01"]),
        ("net sales in the quarter ended December 31, 2022", ["2022-12-31"]),
        ("the 3rd of March 2021 and Sept. 18, 2023", ["2021-03-03", "2023-09-18"]),
        ("filed 2022-07-01 or 7/1/2022", ["2022-07-01"]),
        ("May 5 2021", ["2021-05-05"]),
        ("30 Feb 2022", []),
        ("in May 2021", []),
        ("Q2 2023 and 2023-Q2", []),
        ("1,234 million in 2022", []),
    ],
)
@pytest.mark.no_database
def test_calendar_dates_as_questions_write_them(question: str, dates: list[str]) -> None:
    assert parse_dates(question) == dates


def test_the_8k_of_the_date_named_is_the_one_selected(tmp_path: Path) -> None:
    """Two 8-Ks of one company and year: the date decides, though the other one's words
    match the question better."""
    ingest_files(
        tmp_path / "events",
        {
            "april.md": EVENT.format(day="April 26, 2022") + "# Item 8.01 Other Events\n\nThe "
            "agenda of the meeting: the key agenda items were the board's agenda for the "
            "dividend.\n",
            "july.md": EVENT.format(day="July 1, 2022") + "# Item 5.02 Departure of Directors\n\n"
            "The board appointed a new chief financial officer.\n",
        },
    )
    out = _ask("What was the key agenda of Gizmo Works' 8-K dated 1st July 2022?")
    assert [d["name"] for d in out["documents"]] == ["july"]
    assert "period_end near ['2022-07-01']" in out["route_reason"]
    # An 8-K is filed a few days after its event: the filing date finds it too.
    assert [d["name"] for d in _ask("Gizmo Works 8-K filed July 6, 2022")["documents"]] == ["july"]


def test_a_quarter_named_by_its_end_date_finds_its_filing_without_a_warning(
    corpus: Path,
) -> None:
    """Amcor's quarter ended December 31, 2022 is the second quarter of its fiscal 2023: the
    date finds the 10-Q, and no "no filing for fiscal 2022" notice is given."""
    out = _ask("AMCR net sales in the quarter ended December 31, 2022")
    assert out["documents"][0]["name"] == "AMCOR_2023Q2_10Q"
    assert not any(w.startswith("No ") for w in out["warnings"]), out["warnings"]


def test_a_year_without_a_filing_falls_back_to_the_nearest_earlier_one(tmp_path: Path) -> None:
    """FY2023's outlook is in the FY2022 annual report, not in an older one whose words match
    the question better; the user is told that no FY2023 filing is stored."""
    ingest_files(
        tmp_path / "annual",
        {
            "k2016.md": annual_filing(
                2016,
                "# Item 7. Outlook\n\nWe forecast production rate changes: "
                "the production rate of the G-7 line will rise, and the forecast "
                "production rate of the G-9 line falls.\n",
            ),
            "k2022.md": annual_filing(
                2022,
                "# Item 7. Outlook\n\nFor 2023 we expect to raise the G-7 "
                "line to 38 units a month.\n",
            ),
        },
    )
    out = _ask("What production rate changes is Gizmo Works forecasting for FY2023?")
    assert [d["name"] for d in out["documents"]] == ["k2022"]
    assert "nearest earlier year [2022]" in out["route_reason"]
    assert any(w.startswith("No Gizmo Works Inc. filing for fiscal 2023") for w in out["warnings"])


def test_a_period_named_without_a_company_weighs_the_whole_corpus_ranking(
    tmp_path: Path,
) -> None:
    """No company named: the semantic route ranks every filing, and the one of the latest
    year and the quarter named comes first though an older one repeats the question's words."""
    quarter = cover("10-Q", "For the quarterly period ended March 31, 2024")
    ingest_files(
        tmp_path / "both",
        {
            "k2023.md": annual_filing(
                2023,
                "# Liquidity\n\nCash and cash equivalents fell; a drop in "
                "cash and cash equivalents from 2022.\n",
            ),
            "q2024.md": quarter + "# Balance sheet\n\nCash was $2.1 billion at March 31, 2024.\n",
        },
    )
    out = _ask("Was there any drop in cash and cash equivalents between FY2023 and Q1 of FY2024?")
    assert out["route"] == "semantic"
    assert out["documents"][0]["name"] == "q2024"


@pytest.mark.no_database
@pytest.mark.parametrize(
    ("question", "years"),
    [
        ("Diluted EPS for fiscal 2022, in the comparative column of its fiscal 2023 10-K?", [2022]),
        ("In AES's 2016 annual report (10-K), what was net income for the prior year?", [2015]),
        ("Its 2019 10-K: what net income for the year before the one the filing covers?", [2018]),
        ("Cash at the end of 2020, as shown in its 2021 10-K?", [2020]),
        ("How much did revenue grow in 2023 compared to the prior year?", [2023]),
        ("Apple revenue FY2023", [2023]),
        ("What was revenue in 2022 and 2023 as reported in the 2023 10-K?", [2022, 2023]),
        ("What was revenue in the 2023 10-K compared to the prior year?", [2023]),
        # a quarter naming the release read is not the year asked beside it
        ("What was R&D spending in 2021, based on its Q4 2022 earnings release?", [2021]),
        ("What was revenue in Q4, based on its Q4 2022 earnings release?", [2022]),
        ("What was revenue in Q4 2021, per its Q4 2022 earnings release?", [2021]),
    ],
)
def test_the_years_a_figure_is_asked_for_leave_out_the_filing_s(
    question: str, years: list[int]
) -> None:
    assert figure_years(question, fiscal_years_written(question)) == years
