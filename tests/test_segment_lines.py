"""A part of a segment's line, as an analyst asks it: "What package revenue did Osprey's
Express segment report?" is the segment's package row, not the segment's total revenues nor
the company's package revenue; a line the segment's table does not print ("fuel surcharge
revenue" of Ground) is not stated as the segment's total; and a part that is the subject of
"report" ("did Osprey Ground report") or that a metric is "of" ("the operating margin of
Osprey Express") is the part asked; and one line is not two lines asked "combined"."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ingest_once
from .helpers import cover, run_json

COVER = cover("10-K", "For the fiscal year ended December 31, 2023", name="OSPREY LOGISTICS CORP.")
ANNUAL = f"""{COVER}
# Item 7. Management's Discussion and Analysis

Osprey reports two segments: Osprey Express and Osprey Ground.

## Osprey Express Segment

The following table shows the revenues of the Osprey Express segment by source:

Osprey Express Segment
(In millions)
Years ended December 31, 2023 2022
Package revenue $ 22,000 $ 21,000
Total freight revenue 7,642 8,711
Other revenue 1,200 1,100
Total revenues 30,842 30,811

## Osprey Ground Segment

The following table shows the revenues of the Osprey Ground segment by source:

Osprey Ground Segment
(In millions)
Years ended December 31, 2023 2022
Package revenue $ 31,007 $ 30,732
Other revenue 2,500 2,500
Total revenues 33,507 33,232

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF INCOME
(In millions)
Years ended December 31, 2023 2022
Package revenue 53,007 51,732
Freight revenue 7,642 8,711
Other revenue 3,700 3,600
Total revenues 64,349 64,043
Operating income 5,120 4,870
Net income 3,950 3,720

CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
Years ended December 31, 2023 2022
Net cash provided by operating activities 8,848 8,201
Capital expenditures (6,174) (5,903)

Note 12. Segment Information

Revenues by segment
(In millions)
Years ended December 31, 2023 2022
Osprey Express $ 30,842 $ 30,811
Osprey Ground 33,507 33,232
Total revenues $ 64,349 $ 64,043
"""

_MILLION = 1_000_000


@pytest.fixture
def osprey(tmp_path: Path) -> None:
    ingest_once("osprey", tmp_path / "osprey", {"osprey-10k-2023.md": ANNUAL})


@pytest.mark.parametrize(
    "question",
    [
        "What package revenue did Osprey's Express segment report in 2023?",
        "What was Osprey Express package revenue in 2023?",
    ],
)
def test_a_line_of_a_segment_is_its_row_under_the_segment(osprey: None, question: str) -> None:
    out = run_json("ask", question)
    headline = out["headline"]
    assert headline is not None, out["answer"]
    # the segment's package row: not its total revenues (30,842), nor the company's (53,007)
    assert headline["value"] == pytest.approx(22_000 * _MILLION)
    assert "package" in str(headline["label"]).lower()


@pytest.mark.parametrize(
    "question",
    [
        # Ground prints no fuel surcharge row
        "What fuel surcharge revenue did Osprey's Ground segment report in 2023?",
        # freight revenue is Express's (and the company's), not Ground's
        "What freight revenue did Osprey Ground report in 2023?",
        # a name the package row does not print
        "What Priority package revenue did Osprey's Express segment report in 2023?",
        # a part no table prints: not a row named by its name's word ("Total freight revenue")
        "What package revenue did Osprey Freight report in 2023?",
    ],
)
def test_a_line_the_segment_does_not_print_is_not_stated(osprey: None, question: str) -> None:
    out = run_json("ask", question)
    # never Ground's total revenues, Express's freight or the company's total
    assert out["headline"] is None, out["answer"]
    assert out["answer"].startswith("No "), out["answer"]  # says so plainly


def test_a_metric_of_a_named_part_is_not_the_company_s(osprey: None) -> None:
    out = run_json("ask", "What was the operating margin of Osprey Express in 2023?")
    headline = out["headline"]
    # never the whole company's 5,120 / 64,349 = 7.96%
    assert headline is None, out["answer"]
    assert "Osprey Express" in out["answer"]


def test_two_lines_asked_combined_are_not_one_of_them(osprey: None) -> None:
    question = (
        "How much did Osprey spend on capital expenditures and aircraft deposits combined in 2023?"
    )
    out = run_json("ask", question)
    assert out["headline"] is None, out["answer"]  # not the capital expenditures alone
    assert "6,174" in out["answer"]  # the line is shown as a candidate set aside
