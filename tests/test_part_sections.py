"""A part's figure where the filing gives each segment or region a section of its own: the
table's rows carry the whole line's labels ("Total revenues") and only the heading over the
table, or the sentence that introduces it, names the part. A heading that names the part among
others, or prose that merely mentions it, names no table's part; a part named after the company
as the subject that reports the line ("did Lumen Cloud Services report") is read by its
shorter name too ("LCS"). And a count's level is no answer where its change is asked ("How
many employees did Lumen add")."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ingest_once
from .helpers import annual_filing, run_json

TEXT = """# Item 7. Management's Discussion and Analysis

Consolidated Results of Operations
Years Ended December 31,
2023 2022 2021
Total revenues 9,000 8,500 8,000
Operating income 1,500 1,400 1,300

Three Months Ended
(In Millions) Dec 31, 2023 Dec 31, 2022
Other information:
Employees (in thousands) 131.9 121.1

Operating income (loss) by segment (in millions):
Years Ended December 31,
2023 2022 2021
Freight Services 400 350 300
LCS 700 650 600
Rail, Sea & Air 400 400 400
Total operating income 1,500 1,400 1,300

Revenues by kind and segment (in millions):
Years Ended December 31,
2023 2022 2021
Company-operated sales:
Freight Services 1,100 1,000 900
Rail, Sea & Air 600 550 500
Total $ 1,700 $ 1,550 $ 1,400

The following table presents key operating metrics that affect our net revenues (in millions):
Years Ended December 31,
2023 2022 2021
GMV :
Freight Services $ 89,829 $ 83,883 $ 79,178

The increase in closures was primarily due to the sale of our business in Russia last year.
Stations at year end
2023 2022 2021
Rail, Sea & Air 10,103 10,785 10,560

# Freight Services Segment

The following table summarizes the Freight Services segment's performance:
(In millions)
Years Ended December 31,
2023 2022 2021
Total revenues 3,000 2,800 2,600
Operating expenses 2,600 2,450 2,300
Operating income $ 400 $ 350 $ 300

# Geographic results

GREATER EUROPE
% CHANGE
EXCLUDING
CURRENCY
(Dollars in millions) FISCAL 2023 FISCAL 2022 % CHANGE CHANGES
Revenues by:
Footwear $ 1,300 $ 1,150 13 % 10 %
Apparel 800 750 7 % 6 %
TOTAL REVENUES $ 2,100 $ 1,900 11 % 9 %

ASIA PACIFIC & LATIN AMERICA
(Dollars in millions) FISCAL 2023 FISCAL 2022 % CHANGE
TOTAL REVENUES $ 1,700 $ 1,600 6 %

# Outlook

The Lumen Cloud Services segment consists of amounts earned from storage and compute sales.
Years Ended December 31,
2023 2022 2021
Total revenues 8,000 7,000 6,000

# Harbor Logistics

Business Environment and Trends
The markets the segment serves include port handling, bonded warehousing, customs brokerage
and the short-sea feeder services that connect them. Volumes recovered during the year as
congestion eased and contract rates were renewed with most of the larger shipping lines, and
we expect demand to keep growing with regional trade over the next several years.

## Earnings From Operations

(In millions)
Years Ended December 31,
2023 2022 2021
Total revenues 1,200 1,100 1,000
Operating income 210 190 170
Harbor Logistics earnings from operations increased by $20 million compared with 2022,
primarily due to higher volumes at the bonded warehouses and favorable contract renewals.

# Coastal Shipping

The markets the segment serves include coastal container services, roll-on roll-off ferries
and bulk feeder routes between the regional ports. Volumes were steady during the year as
fuel costs eased and charter rates were renewed with most of the larger customers, and we
expect demand to keep pace with regional trade over the next several years.

# Results of Operations

(In millions)
Years Ended December 31,
2023 2022 2021
Total revenues 900 850 800
Operating income 120 110 100
Coastal Shipping and Harbor Logistics together carried most of the year's volume growth.
"""


@pytest.fixture
def lumen(tmp_path: Path) -> None:
    files = {"lumen-10k-2023.md": annual_filing(2023, TEXT, name="LUMEN CORPORATION")}
    ingest_once("lumen", tmp_path / "lumen", files)


OWN_SECTIONS = [
    # the sentence that introduces the segment's own table names it
    ("What total revenues did Lumen's Freight Services segment record in 2023?", 3_000e6),
    # the heading over a region's table, in capitals, with column headers between
    ("What were the revenues of Lumen's Greater Europe geography in fiscal 2022?", 1_900e6),
    # a part of the line in a region: its row under the line's heading in the region's
    ("What were Lumen's apparel revenues in Greater Europe in fiscal 2023?", 800e6),
    # a part named after the company, by its initials in the segment table
    ("What operating income did Lumen Cloud Services (LCS) report for fiscal 2023?", 700e6),
    # a name with a comma and an ampersand
    ("What operating income did Lumen Rail, Sea & Air report in 2022?", 400e6),
    # a table with no heading of its own in a section named by the line ("Earnings From
    # Operations") within the part's, on a page that names the part
    ("What operating income did Lumen's Harbor Logistics segment report in 2023?", 210e6),
]


def test_a_part_s_own_section_gives_its_figure(lumen: None) -> None:
    for question, value in OWN_SECTIONS:
        out = run_json("ask", question)
        headline = out["headline"]
        assert headline is not None, out["answer"]
        assert headline["value"] == pytest.approx(value), question
        assert headline["kind"] == "segment", question


NO_PART = [
    # a heading that names the part among other names heads another part's table
    "What were the revenues of Lumen's Asia Pacific region in fiscal 2023?",
    # prose that mentions the part heads no table of a section named otherwise
    "What revenues did Lumen Cloud Services report in 2023?",
    # a section of its own after the part's ("Results of Operations") holds the table, though
    # its page names the part
    "What operating income did Lumen's Coastal Shipping segment report in 2023?",
]


def test_a_heading_of_others_or_prose_names_no_part(lumen: None) -> None:
    for question in NO_PART:
        out = run_json("ask", question)
        assert out["headline"] is None, out["answer"]
        assert "1,700" not in out["answer"].split("\n")[0]


def test_a_kind_of_the_line_by_segment_or_a_count_is_not_a_segment_s_line(lumen: None) -> None:
    # "Company-operated sales:" over the segments' rows: a kind of revenue by segment; "GMV :"
    # another measure; the segment's own section gives its total revenues
    out = run_json("ask", "What were total revenues of Lumen's Freight Services segment in 2022?")
    assert out["headline"] is not None and out["headline"]["value"] == 2_800e6, out["answer"]
    # a table of stations whose introduction's prose says "sale": no table of revenue
    out = run_json("ask", "What were total revenues of Lumen's Rail, Sea & Air segment in 2023?")
    assert out["headline"] is None or out["headline"]["value"] != 10_103, out["answer"]


def test_an_adjusted_measure_is_not_the_reported_row(lumen: None) -> None:
    # the section's "Operating income" is the reported measure, not the adjusted one asked
    out = run_json(
        "ask", "What was the adjusted operating income of Lumen's Freight Services segment in 2023?"
    )
    assert out["headline"] is None or out["headline"]["value"] != 400e6, out["answer"]


def test_a_count_s_level_is_not_its_change(lumen: None) -> None:
    # "Employees (in thousands) 131.9": the level at the quarter's end, stated when asked
    level = run_json("ask", "How many employees did Lumen have at the end of 2023?")
    assert level["headline"]["value"] == pytest.approx(131_900)
    # "add", "cut": a change asked by its verb; the level set aside, said why
    out = run_json("ask", "How many employees did Lumen add in 2023?")
    assert out["headline"] is None
    assert "asks its change" in out["answer"]
