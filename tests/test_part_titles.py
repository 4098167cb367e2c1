"""A part's figure its table's title names ("GREATER ASIA" over a region's own table, whose
row is "Earnings before interest and taxes" as in every other region's): stated as that part's,
named so; a rate per unit asked is never the row of the whole amount; the total of bonds a
sentence lists is their sum, not the last one's amount; and a question's words about the
filing's telling ("did Acme say ... when it announced") are not words a sentence must say."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ingest_once
from .helpers import cover, run_json, stated_value

YEAR = "For the fiscal year ended May 31, 2023"


def _region(name: str, revenue: str, ebit: str) -> str:
    return f"""{name}
(Dollars in millions)
FISCAL 2023 FISCAL 2022
Footwear $ {revenue} $ 4,100
Apparel 1,200 1,150
TOTAL REVENUES $ 9,999 $ 9,000
EARNINGS BEFORE INTEREST AND TAXES $ {ebit} $ 1,500
"""


ANNUAL = f"""{cover("10-K", YEAR, name="PLOVER OUTFITTERS INC.")}
# Item 7. Management's Discussion and Analysis

Operating segments are evaluated on earnings before interest and taxes.

{_region("NORTH AMERICA", "5,100", "3,531")}

{_region("GREATER ASIA", "4,400", "2,283")}

EXPRESS SEGMENT
(In millions)
FISCAL 2023 FISCAL 2022
Total package revenue $ 33,917 $ 35,000
Operating income 1,972 3,730

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF INCOME
(In millions)
Year Ended May 31,
2023 2022
Revenues 51,217 46,710
Income before income taxes 5,802 6,860
Net income 4,924 5,850
"""

EIGHT_K = """FORM 8-K

CURRENT REPORT

PLOVER OUTFITTERS INC.

(Exact name of registrant as specified in its charter)

Date of Report: June 5, 2023

# Item 8.01 Other Events

On June 5, 2023, Plover Outfitters Inc. completed the sale of (i) $850,000,000 aggregate
principal amount of 6.100% Senior Notes due 2029 (the "2029 Notes"), (ii) $1,150,000,000
aggregate principal amount of 6.400% Senior Notes due 2033 (the "2033 Notes") and (iii)
$500,000,000 aggregate principal amount of 6.750% Senior Notes due 2053 (the "2053 Notes",
together with the 2029 Notes and the 2033 Notes, the "Notes").

On June 5, 2023, Plover Outfitters Inc. announced that it has mutually agreed with Kestrel
Mills to terminate the merger agreement. In connection with the termination, Plover will pay
a termination fee of $353 million to Kestrel.
"""


@pytest.fixture
def plover(tmp_path: Path) -> None:
    ingest_once(
        "plover",
        tmp_path / "plover",
        {"plover-10k-2023.md": ANNUAL, "plover-8k-2023-06-05.md": EIGHT_K},
    )


def test_a_part_s_row_is_read_from_the_table_its_title_names(plover: None) -> None:
    question = (
        "What were the earnings before interest and taxes (EBIT) of Plover's Greater Asia "
        "geography in fiscal 2023?"
    )
    out = run_json("ask", question)
    headline = out["headline"]
    assert headline is not None, out["answer"]
    assert headline["value"] == pytest.approx(2_283_000_000), out["answer"]
    assert "GREATER ASIA" in headline["label"]  # named as the part's, not the company's


def test_a_rate_per_unit_is_not_the_row_of_the_whole_amount(plover: None) -> None:
    out = run_json("ask", "What was Plover's Express segment revenue per package in fiscal 2023?")
    headline = out["headline"]
    assert headline is None or headline["value"] != pytest.approx(33_917_000_000), out["answer"]


def test_the_total_of_listed_notes_is_their_sum(plover: None) -> None:
    question = (
        "In Plover's June 2023 8-K reporting the sale of Senior Notes (due 2029, 2033 and "
        "2053), what was the total aggregate principal amount sold, in USD millions?"
    )
    assert stated_value(question) == pytest.approx(2_500)  # not the 2053 notes' 500


def test_words_about_the_telling_are_not_asked_of_the_sentence(plover: None) -> None:
    question = (
        "In its June 2023 8-K, how large a termination fee did Plover say it would pay Kestrel "
        "Mills when it announced the end of the acquisition?"
    )
    assert stated_value(question) == pytest.approx(353_000_000)
