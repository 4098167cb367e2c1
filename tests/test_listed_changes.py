"""A release's list of how each part moved under a sentence that says what moved ("Global
comparable sales increased 11.7%, reflecting strong comparable sales across all segments:"
over "• U.S. increased 10.3%"), and a table of percentages that prints "%" on its first row
and its total only: each part's change is read as the list or the table gives it — never a
change computed between two rates read as dollars."""

from __future__ import annotations

from pathlib import Path

import pytest

from pageindex_platform.index.tables import PERCENT_ROW, read_tables
from pageindex_platform.records import PageText

from .conftest import ingest_once
from .helpers import cover, run_json

COMPARABLE = """COMPARABLE SALES
Increase/(Decrease)
Quarters Ended June 30,
2023 2022
U.S. 10.3 % 3.7 %
International Operated Markets 11.9 13.0
International Developmental Licensed Markets 14.0 16.0
Expected life of options (in years) 5.7 6.0
Total 11.7 % 9.7 %
"""


@pytest.mark.no_database
def test_rates_under_a_first_row_marked_percent_are_percentages() -> None:
    figures = read_tables([PageText(2, COMPARABLE)], period_end="2023-06-30", fiscal_year=2023)
    rows = {(f.label, f.period_end): f for f in figures}
    operated = rows[("International Operated Markets", "2023-06-30")]
    assert (operated.value, operated.source) == (11.9, PERCENT_ROW)
    assert rows[("International Operated Markets", "2022-06-30")].value == 13.0
    assert rows[("U.S.", "2023-06-30")].source == PERCENT_ROW
    # no rate of the table is read as dollars; a row of years is no rate
    assert all(f.source == PERCENT_ROW for f in figures if "years" not in (f.label or ""))
    life = rows.get(("Expected life of options (in years)", "2023-06-30"))
    assert life is None or life.source != PERCENT_ROW


QUARTER = "For the quarterly period ended June 30, 2023"
RELEASE = f"""{cover("10-Q", QUARTER, name="ORIOLE FOODS INC.")}
# Management's Discussion and Analysis

Second quarter financial performance:
• Global comparable sales increased 11.7% for the quarter, with double-digit growth across
each segment
• Digital sales in our top six markets were over $8 billion for the quarter

Global comparable sales increased 11.7%, reflecting strong comparable sales across all segments:
•
U.S. increased 10.3%
•
International Operated Markets segment increased 11.9%
•
Consolidated revenues increased 14% (14% in constant currencies).

{COMPARABLE}
# Financial Statements

CONDENSED CONSOLIDATED STATEMENT OF INCOME
(In millions)
Three Months Ended June 30,
2023 2022
Total revenues 6,497.5 5,718.4
Operating income 3,104.1 1,711.8
Net income 2,310.4 1,188.0
"""


@pytest.fixture
def oriole(tmp_path: Path) -> None:
    ingest_once("oriole", tmp_path / "oriole", {"oriole-10q-2023q2.md": RELEASE})


@pytest.mark.parametrize(
    ("question", "value"),
    [
        (
            "In Oriole Foods' second quarter 2023 results, by what percentage did U.S. "
            "comparable sales increase?",
            10.3,
        ),
        (
            "By what percentage did Oriole Foods' International Operated Markets comparable "
            "sales increase in Q2 2023?",
            11.9,
        ),
    ],
)
def test_each_part_s_change_is_read_as_the_list_or_table_gives_it(
    oriole: None, question: str, value: float
) -> None:
    out = run_json("ask", question)
    headline = out["headline"]
    assert headline is not None, out["answer"]
    assert headline["value"] == pytest.approx(value), out["answer"]
