"""A part of the company as filings print it: a segment note that gives each business its
own block of rows under its name, a row that names the part with its noun ("MCAC SBU") or
with the company's name ("Summit Freight segment"); and two copies of one filing without a
CIK to tell them apart (a 10-K and the annual report that prints it), where only one prints
the figure readably."""

from __future__ import annotations

from pathlib import Path

import pytest

from pageindex_platform.search.for_part import part_for
from pageindex_platform.search.home_abroad import HOME_SIDE, place_asked
from pageindex_platform.search.text_ask import text_ask

from .conftest import ingest_once
from .helpers import annual_filing, ingest_files, run_json

# the income statement of the synthetic filings below
INCOME = """CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Years Ended December 31,
2023 2022 2021
Total revenues $ 4,000 $ 3,700 $ 3,400
Operating income 900 800 700
Net income 450 380 300
"""
NOTE = (
    """# Item 8. Financial Statements

"""
    + INCOME
    + """
# Note 12. Segment Information

The following table presents summary results for each of our three businesses for each of
fiscal 2023, 2022 and 2021:
Year Ended December 31,
(in millions) 2023 2022 2021
Cloud and license:
Revenues $ 3,000 $ 2,800 $ 2,600
Sales and marketing expenses 700 650 600
Margin $ 2,300 $ 2,150 $ 2,000
Hardware:
Revenues $ 1,000 $ 900 $ 800
Margin $ 400 $ 350 $ 300
Totals:
Revenues $ 4,000 $ 3,700 $ 3,400
"""
)
UNITS = """
Total revenue by strategic business unit
(in millions)
Years Ended December 31,
2023 2022 2021
South America SBU 2,500 2,300 2,100
MCAC SBU 1,500 1,400 1,300
Total revenue 4,000 3,700 3,400

Operating income by segment
(in millions)
Years Ended December 31,
2023 2022 2021
Summit Freight segment 600 550 500
Summit Parcel segment 300 250 200
Total operating income 900 800 700
"""


@pytest.fixture
def summit(tmp_path: Path) -> None:
    files = {"summit-10k-2023.md": annual_filing(2023, NOTE + UNITS, name="SUMMIT INC.")}
    ingest_once("summit", tmp_path / "summit", files)


@pytest.mark.parametrize(
    ("question", "value", "label"),
    [
        ("What were the revenues of Summit's cloud and license business in 2022?", 2_800e6, ""),
        ("What was the revenue of Summit's hardware business in fiscal 2023?", 1_000e6, ""),
        (
            "What total revenue did Summit's MCAC strategic business unit report for 2022?",
            1_400e6,
            "MCAC SBU",
        ),
        (
            "How much operating income did the Summit Freight segment earn in 2023?",
            600e6,
            "Summit Freight segment",
        ),
        # a part named by its name after "for", without the word "segment"
        ("What total revenue did Summit report for MCAC in 2022?", 1_400e6, "MCAC SBU"),
    ],
)
def test_a_part_s_figure_is_read_as_the_filing_prints_the_part(
    summit: None, question: str, value: float, label: str
) -> None:
    out = run_json("ask", question)
    headline = out["headline"]
    assert headline is not None, out["answer"]
    assert headline["value"] == pytest.approx(value) and headline["kind"] == "segment"
    assert label in out["answer"].split("\n")[0]


def test_a_block_names_the_part_it_heads(summit: None) -> None:
    # the hardware block's rows are never the cloud business's, nor the totals a part's
    out = run_json("ask", "What were the revenues of Summit's cloud and license business in 2021?")
    assert out["headline"]["value"] == pytest.approx(2_600e6)
    assert "under the heading 'Cloud and license:'" in out["answer"]
    other = run_json("ask", "What were the revenues of Summit's services business in 2023?")
    assert other["headline"] is None
    assert "not the segment's" in other["answer"]


def test_the_other_copy_of_one_filing_states_what_the_first_does_not_print(
    tmp_path: Path,
) -> None:
    # the annual report prints the note's rows without their labels: only the 10-K reads
    unreadable = UNITS.replace("Summit Freight segment 600", "600")
    files = {
        "summit-annual-report-2023.md": annual_filing(2023, NOTE + unreadable, name="SUMMIT INC."),
        "summit-10k-2023.md": annual_filing(2023, NOTE + UNITS, name="SUMMIT INC."),
    }
    ingest_files(tmp_path / "copies", files)
    question = "How much operating income did the Summit Freight segment earn in 2023?"
    out = run_json("ask", question)
    headline = out["headline"]
    assert headline is not None and headline["value"] == pytest.approx(600e6)
    assert headline["document"] == "summit-10k-2023"
    # a copy that disagrees is never outvoted: both shown, none stated
    ingest_files(
        tmp_path / "tampered",
        {
            "summit-10k-2023-copy.md": annual_filing(
                2023,
                NOTE + UNITS.replace("Freight segment 600", "Freight segment 650"),
                name="SUMMIT INC.",
            )
        },
    )
    disputed = run_json("ask", question)
    assert disputed["headline"] is None
    assert {600e6, 650e6} <= {c["value"] for c in disputed["candidates"]}


PLACES = (
    """# Item 1. Business

Cloud revenue increased 25% in 2023, driven by new customers.

Advertising costs were $63 million in 2023 ($58 million in 2022 and $51 million in 2021).
Interest expense increased $12 million in 2023.

Employees
As of December 31, 2023, we employed approximately 12,000 people globally. Approximately
5,200 of our employees were located in the U.S.

As of December 31, 2023, we employed approximately 9,000 full-time employees, of which
approximately 3,000 were employed in the U.S. and approximately 6,000 were employed
internationally.

# Item 8. Financial Statements

"""
    + INCOME
    + """
CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
Years Ended December 31,
2023 2022 2021
Net cash provided by operating activities 820 710 630
Payments for repurchases of common stock (300) (250) (200)

CONSOLIDATED BALANCE SHEETS
(In millions)
December 31, 2023 December 31, 2022
Cash and cash equivalents 1,305 1,100
Inventories 600 550

Other information
Years Ended December 31,
2023 2022 2021
Number of stores 1,008 980 950
"""
)


@pytest.fixture
def places(tmp_path: Path) -> None:
    files = {"summit-10k-2023.md": annual_filing(2023, PLACES, name="SUMMIT INC.")}
    ingest_once("places", tmp_path / "places", files)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("How many employees did Summit have at the end of 2023?", 12_000),
        ("Roughly how many of Summit's employees were based in the United States in 2023?", 5_200),
        (
            "How many of Summit's full-time employees were employed outside the United States?",
            6_000,
        ),
        ("How many full-time employees did Summit have in the United States in 2023?", 3_000),
        ("How many full-time employees did Summit have at the end of 2023?", 9_000),
        ("By what percentage did Summit's cloud revenue increase in 2023?", 25),
        # an amount the notes state only in a sentence, of the year asked
        ("What were Summit's advertising costs in 2022?", 58e6),
        ("How much did Summit spend on advertising in 2021?", 51e6),
        # a count no sentence states, from the row that names it
        ("How many stores did Summit have at the end of 2022?", 980),
        # the cash of its operating activities, not its cash at the year's end
        ("How much net cash did Summit generate from operating activities in 2023?", 820e6),
        # the line's own words after "for" name no part of it
        ("What was Summit's net cash provided for operating activities in 2023?", 820e6),
        ("How much did Summit pay for repurchases of its common stock in 2023?", 300e6),
    ],
)
def test_a_figure_is_the_one_the_question_s_words_name(
    places: None, question: str, value: float
) -> None:
    headline = run_json("ask", question)["headline"]
    assert headline is not None and headline["value"] == value


@pytest.mark.parametrize(
    "question",
    [
        "How much of Summit's fiscal 2023 revenue was generated internationally?",
        "What was Summit's domestic revenue in 2023?",
        "How much revenue did Summit's first-party advertising products deliver in 2023?",
        "How much revenue did Summit say its first-party advertising products delivered in 2023?",
        # a component of a line is not the line
        "What was the finished goods component of Summit's inventories at December 31, 2023?",
        "What net revenue retention rate did Summit report for 2023?",
        "What was Summit's revenue per shipment in 2023?",
        "How much remained available under Summit's repurchase program at the end of 2023?",
        # what the line is for narrows it: not the whole company's line
        "What were Summit's total revenues for data storage products in 2023?",
        # a ratio asked that cannot be computed is never a line of it
        "How many times did Summit's 2023 net income cover its interest expense?",
        # a sentence's change is not the line's amount
        "What was Summit's interest expense in 2023?",
        # one word of two shared is no sign of what a percentage is of
        "By what percentage did Summit's cloud bookings grow in 2023?",
    ],
)
def test_the_whole_line_is_never_stated_for_a_figure_the_question_narrows(
    places: None, question: str
) -> None:
    out = run_json("ask", question)
    assert out["headline"] is None, out["answer"]
    assert not out["answer"].startswith("$4,000 million")
    # the same line asked whole is stated, whatever period or owner it is asked "for"
    for whole in (
        "What were Summit's total revenues in 2023?",
        "What were Summit's total revenues for the fiscal year 2023?",
        "What were the total revenues for Summit Inc. in 2023?",
    ):
        assert run_json("ask", whole)["headline"]["value"] == 4_000e6, whole


HARBOR = """# Item 1. Business

As of December 31, 2023, we had approximately 4,600 full-time and 1,800 part-time employees
domestically. At the end of 2023 we operated 23 retail specialty pharmacy stores. We maintain
a national network of more than 680 retail pharmacies.

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions, except per share amounts)
Years Ended December 31,
2023 2022 2021
Total revenues $ 4,000 $ 3,700 $ 3,400
Net income 450 380 300
Diluted earnings per share 2.10 1.90 1.70
"""


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # "International" in the company's name is no place asked
        ("What diluted earnings per share did Harbor International report for 2023?", 2.10),
        # the place said after figures that share their noun is each one's
        ("How many full-time employees did Harbor International have domestically in 2023?", 4600),
        # "23 retail specialty pharmacy stores" counts stores, not pharmacies
        ("How many retail pharmacies were in Harbor International's national network?", 680),
    ],
)
def test_a_name_a_shared_place_and_a_noun_that_names_a_kind(
    tmp_path: Path, question: str, value: float
) -> None:
    files = {"harbor-10k-2023.md": annual_filing(2023, HARBOR, name="HARBOR INTERNATIONAL INC.")}
    ingest_once("harbor_parts", tmp_path / "harbor", files)
    headline = run_json("ask", question)["headline"]
    assert headline is not None and headline["value"] == pytest.approx(value)


@pytest.mark.no_database
def test_how_many_times_asks_a_ratio_not_a_count() -> None:
    assert (
        text_ask("How many times did Summit's operating income cover its interest?", set()) is None
    )
    assert text_ask("How many stores did Summit operate in 2023?", set()) is not None


# what a review found stated wrongly by a first version of these rules
SLIPS = """# Item 1. Business

We operated 1,140 stores at the end of 2023 throughout our Domestic and International
segments. At the end of 2023 we had approximately 90,000 employees in the U.S. and Canada.
Approximately 175 of our full-time employees were subject to fixed-term employment
agreements. At the end of 2023 we operated 60 restaurants, all of them in the United States.
We employed 15,000 people, most of them in the United States.

Cooperative advertising costs were $50 million in 2023 and $45 million in 2022.
Research and development costs related to our cloud products were $120 million in 2023.

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Years Ended December 31,
2023 2022 2021
Total revenues $ 4,000 $ 3,700 $ 3,400
Operating income 900 800 700
Interest expense (income), net (6) 4 5
Interest expense (after-tax) 30 28 25
Net income 450 380 300

# Note 12. Segment Information

Year Ended December 31,
(in millions) 2023 2022 2021
Cloud and license:
Cloud and license revenues $ 3,000 $ 2,800 $ 2,600
Hardware:
Hardware revenues $ 1,000 $ 900 $ 800
Total revenues $ 4,000 $ 3,700 $ 3,400
"""


@pytest.mark.parametrize(
    "question",
    [
        "How many stores did Lowe Peak operate in the United States at the end of 2023?",
        "How many employees did Lowe Peak have in the United States in 2023?",
        "How many of Lowe Peak's employees were full-time in 2023?",
        "How many restaurants did Lowe Peak operate outside the U.S. at the end of 2023?",
        "What was Lowe Peak's interest expense in 2023?",
        "How many times did Lowe Peak's 2023 operating income cover its interest expense?",
        "What was Lowe Peak's advertising expense in 2023?",
        "What was Lowe Peak's research and development expense in 2023?",
        "What was Lowe Peak's free cash flow as a percentage of total revenues in 2023?",
        "What was Lowe Peak's adjusted operating margin in 2023, defined as operating income "
        "excluding special items divided by total revenues?",
    ],
)
def test_a_figure_of_another_place_part_or_measure_is_never_stated(
    tmp_path: Path, question: str
) -> None:
    files = {"lowe-10k-2023.md": annual_filing(2023, SLIPS, name="LOWE'S PEAK INC.")}
    ingest_once("lowe", tmp_path / "lowe", files)
    out = run_json("ask", question)
    assert out["headline"] is None, out["answer"]


def test_a_block_s_total_is_not_its_part(tmp_path: Path) -> None:
    # the total printed under the last block is every business's, never the hardware one's;
    # the row the question names whole ("Hardware revenues") may be stated
    files = {"lowe-10k-2023.md": annual_filing(2023, SLIPS, name="LOWE'S PEAK INC.")}
    ingest_once("lowe", tmp_path / "lowe", files)
    out = run_json("ask", "What were the revenues of Lowe Peak's hardware business in 2023?")
    assert out["headline"] is None or out["headline"]["value"] == 1_000e6, out["answer"]


def test_a_row_of_money_counts_nothing(tmp_path: Path) -> None:
    channels = """# Item 8. Financial Statements

Revenues by channel
(In millions)
Years Ended December 31,
2023 2022 2021
Stores $ 2,500 $ 2,300 $ 2,100
Digital 1,500 1,400 1,300
Total revenues $ 4,000 $ 3,700 $ 3,400
"""
    ingest_files(tmp_path / "gizmo", {"gizmo-10k-2023.md": annual_filing(2023, channels)})
    assert run_json("ask", "How many stores did Gizmo Works operate in 2023?")["headline"] is None


# a segment's operating units in a table of their own, and a release's sentence that gives the
# whole company's figure before a place's
UNITS_WITHIN = (
    """# Item 1. Business

Global comparable sales increased 11.7% in 2023, reflecting strong sales across all segments:
U.S. increased 10.3% and International Operated Markets increased 12.1%.

Total advertising costs for the years ended December 31, 2023 , 2022 , and 2021 were $101.9
million , $81.9 million , and $58.3 million , respectively.

# Item 7. Management's Discussion and Analysis

Net sales by segment
(In millions)
Years Ended December 31,
2023 2022 2021
North America Retail $ 3,000.0 $ 2,800.0 $ 2,600.0
International 1,000.0 900.0 800.0
Total net sales $ 4,000.0 $ 3,700.0 $ 3,400.0

Net sales for our North America Retail operating units
(In millions)
Years Ended December 31,
2023 2022 2021
U.S. Meals & Baking $ 1,850.5 $ 1,700.0 $ 1,600.0
U.S. Cereal 1,149.5 1,100.0 1,000.0
Total $ 3,000.0 $ 2,800.0 $ 2,600.0

# Item 8. Financial Statements

"""
    + INCOME
)


@pytest.fixture
def units(tmp_path: Path) -> None:
    files = {"summit-10k-2023.md": annual_filing(2023, UNITS_WITHIN, name="SUMMIT INC.")}
    ingest_once("units", tmp_path / "units", files)


def test_a_part_named_within_another_is_the_part_asked(units: None) -> None:
    # the segment only says where the unit is: its own figure is never the unit's
    within = "Within Summit's North America Retail segment, what were the"
    for asked, value, shown in (
        ("2023 net sales of the U.S. Meals & Baking operating unit", 1_850.5e6, "1,850.5"),
        (
            "combined 2023 net sales of the U.S. Meals & Baking and U.S. Cereal operating units",
            3_000e6,
            "3,000.0",
        ),
    ):
        out = run_json("ask", f"{within} {asked}?")
        assert out["headline"] is not None, out["answer"]
        assert out["headline"]["value"] == pytest.approx(value)
        assert f"${shown} million" in out["answer"].split("\n")[0]  # the places the table prints
        assert "U.S. Meals & Baking" in out["answer"].split("\n")[0]


def test_a_place_said_before_the_line_is_asked_of_that_place(units: None) -> None:
    # "U.S. comparable sales": the global figure the sentence gives first is not the U.S.'s
    out = run_json(
        "ask", "In Summit's 2023 results, by what percentage did U.S. comparable sales increase?"
    )
    headline = out["headline"]
    assert headline is None or headline["value"] == pytest.approx(10.3), out["answer"]


@pytest.mark.parametrize(
    ("question", "home"),
    [
        ("By what percentage did U.S. comparable sales increase in 2023?", True),
        ("What was Summit's U.S. revenue in 2023?", True),
        ("What was Summit's revenue in 2023, in U.S. dollars?", False),
        ("What was Summit's U.S. GAAP net income in 2023?", False),
    ],
)
def test_a_place_said_as_the_line_s_adjective_is_asked(question: str, home: bool) -> None:
    asked = place_asked(question, ["SUMMIT INC."])
    assert (asked is not None and asked[1] == HOME_SIDE) is home


def test_amounts_listed_after_their_years_are_each_year_s(units: None) -> None:
    # "for the years ended December 31, 2023, 2022, and 2021 were $X, $Y, and $Z, respectively"
    out = run_json("ask", "What were Summit's total advertising costs in 2022?")
    assert out["headline"] is not None, out["answer"]
    assert out["headline"]["value"] == pytest.approx(81.9e6)
    # a change of a line said only in prose: each year's amount from the sentence, cited
    out = run_json(
        "ask", "How much did Summit's total advertising costs rise in 2023 relative to 2022?"
    )
    assert out["headline"] is not None, out["answer"]
    assert out["headline"]["value"] == pytest.approx(20.0e6)
    assert "$81.9 million" in out["answer"].split("Read ")[0]  # each input cited
    # a metric whose input the filing says only in prose: the sentence's amount, cited
    out = run_json(
        "ask",
        "What is Summit's FY2023 advertising expense as a percentage of total revenues? Define it "
        "as: FY2023 advertising expense / FY2023 total revenues.",
    )
    assert out["headline"] is not None, out["answer"]
    assert out["headline"]["value"] == pytest.approx(101.9 / 4000 * 100, abs=0.05)
    assert "sentence" in out["answer"].split("Read ")[0]
    assert {f["source"] for f in out["figures"]} == {"text", "table"}  # where each was read


@pytest.mark.no_database
@pytest.mark.parametrize(
    ("question", "part"),
    [
        ("What were Acme's capital expenditures for aircraft and related equipment?", "aircraft"),
        ("What were Acme's net sales for Health Care in 2022?", "Health Care"),
        ("What was Acme's revenue for the fiscal year ended May 31, 2023?", ""),
        ("What was the revenue for Acme Corp. in 2023?", ""),
        ("What was Acme's revenue for the three months ended June 30?", ""),
        ("What was Acme's net income for common stockholders in 2021?", ""),
        ("What was Acme's revenue growth for 2022? Use a negative number for a decline.", ""),
        ("What was Acme's provision for income taxes in 2022?", "income taxes"),
        ("How did Acme's revenue compare with that for the comparable prior-year quarter?", ""),
        ("What was Acme's free cash flow in 2022? Use a negative sign for a net outflow.", ""),
    ],
)
def test_what_a_line_is_asked_for(question: str, part: str) -> None:
    found = part_for(question, ["Acme Corp."])
    assert found.startswith(part) and bool(found) == bool(part)


SIDE_BY_SIDE = """# Note 16. Segment Information

Total Assets Depreciation and Amortization Capital Expenditures
(in millions)
Year Ended December 31, 2023 2022 2021 2023 2022 2021 2023 2022 2021
Andes SBU
8,971 8,594 7,741 218 175 182 538 949 702
Brazil SBU
6,448 5,209 6,830 145 145 210 264 224 317
Total $ 15,419 $ 13,803 $ 14,571 $ 363 $ 320 $ 392 $ 802 $ 1,173 $ 1,019

Net revenues by geography
(in millions)
Years Ended December 31, 2023 2022
United States $ 2,500 $ 2,300
China 600 500
Rest of world 900 900
Total revenues $ 4,000 $ 3,700
"""


def test_a_part_s_column_is_never_guessed_and_a_place_attributed_is_its_row(
    tmp_path: Path,
) -> None:
    files = {"andes-10k-2023.md": annual_filing(2023, INCOME + SIDE_BY_SIDE, name="PEAK INC.")}
    ingest_once("side_by_side", tmp_path / "side", files)
    # side-by-side tables whose cells the page prints under each row's name: the first
    # column is the total assets, never the capital expenditures asked
    out = run_json("ask", "What were Peak's Andes SBU capital expenditures in 2023?")
    assert out["headline"] is None or out["headline"]["value"] == 538e6, out["answer"]
    assert not out["answer"].startswith("$8,971")
    # "attributed to China": its row, not the whole company's revenue
    out = run_json("ask", "How much of Peak's revenue was attributed to China in 2023?")
    assert out["headline"] is not None and out["headline"]["value"] == 600e6, out["answer"]
