"""Local answers: table rows say which period each number belongs to."""

from __future__ import annotations

from pathlib import Path

import pytest

from pageindex_platform.index.table_headers import Column, column_dates
from pageindex_platform.search.extract import column_periods, with_periods

from .helpers import run_json

QUARTERS = [
    "Selected financial data ($ in millions):",
    "Three Months Ended Six Months Ended",
    "July 29, 2023 July 30, 2022 July 29, 2023 July 30, 2022",
]
YEARS = [
    "Consolidated Statement of Cash Flows",
    "Years ended December 31",
    "(Millions) 2018 2017 2016",
    "Cash Flows from Operating Activities",
]


@pytest.mark.no_database
def test_each_number_of_a_row_gets_its_column_period() -> None:
    assert column_periods(QUARTERS) == [
        "three months ended July 29, 2023",
        "three months ended July 30, 2022",
        "six months ended July 29, 2023",
        "six months ended July 30, 2022",
    ]
    row = with_periods("Comparable sales % change (6.3)% (12.7)% (8.4)% (10.6)%", QUARTERS)
    assert row.startswith("Comparable sales % change: (6.3)% (three months ended July 29, 2023);")
    assert with_periods("Revenue $ 8,890 $ 9,569 $ 17,691 $ 19,463", QUARTERS).startswith(
        "Revenue: $8,890 (three months ended July 29, 2023); $9,569"
    )
    row = with_periods("Purchases of property, plant and equipment (1,577) (1,373) (1,420)", YEARS)
    assert row.endswith(
        "(1,577) (year ended December 31, 2018); (1,373) (year ended December "
        "31, 2017); (1,420) (year ended December 31, 2016)"
    )


@pytest.mark.no_database
def test_a_month_written_short_is_the_month() -> None:
    # an earnings release's "Apr 1, 2023": the quarter ended that day, not a guess at the year
    short = ["Three Months Ended", "(In Millions; Unaudited) Apr 1, 2023 Apr 2, 2022"]
    labels = column_periods(short)
    assert labels == ["three months ended Apr 1, 2023", "three months ended Apr 2, 2022"]
    assert column_dates(labels[0], year_end=(12, 31)) == Column("2023-01-02", "2023-04-01")
    years = column_periods(["Years Ended", "Sept. 30, 2023 Sept. 24, 2022"])
    assert column_dates(years[1], year_end=(9, 30)) == Column("2021-09-25", "2022-09-24")
    assert column_dates("Dec 31, 2022", year_end=(12, 31)) == Column(None, "2022-12-31")


@pytest.mark.no_database
def test_rows_that_do_not_pair_with_a_header_stay_as_they_are() -> None:
    assert with_periods("Revenue $ 8,890 $ 9,569", QUARTERS) == "Revenue $ 8,890 $ 9,569"
    assert with_periods("Stores 1,008 257 28", ["Total store count"]) == "Stores 1,008 257 28"


def test_local_answer_says_which_quarter_a_figure_is(corpus: Path) -> None:
    out = run_json("ask", "Best Buy Q2 FY2024 comparable sales")
    assert "(6.3)% (three months ended July 29, 2023)" in out["answer"]
