"""A part of the company asked by its name wherever the question puts it: "net revenues of
Marlin's Harbor Point Resorts" (after the line, after the owner's name), "revenue of Marlin
Macau" (a part named after the company), "Harbor Point Resorts rooms revenue" (a name that
ends in a word of the company's, "Resorts"); a row named in quotes ("'Other' revenue"); and
a line narrowed to whom it was sold ("sales to wholesale customers in Asia Pacific"). Each is
the part's row or nothing: never the company's total, another part's row nor the region's."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ingest_once
from .helpers import cover, run_json

COVER = cover(
    "10-K", "For the fiscal year ended December 31, 2023", name="MARLIN RESORTS INTERNATIONAL"
)
ANNUAL = f"""{COVER}
# Item 7. Management's Discussion and Analysis

Marlin Resorts reports three segments: Harbor Point Resorts, Regional Operations and
Marlin Macau.

## Harbor Point Resorts

Harbor Point Resorts
(In thousands)
Years ended December 31, 2023 2022
Casino revenue $ 1,200,500 $ 1,100,400
Rooms revenue 813,000 790,000
Food and beverage revenue 640,250 600,100
Net revenues 2,653,750 2,490,500

## Regional Operations

Regional Operations
(In thousands)
Years ended December 31, 2023 2022
Casino revenue $ 2,901,072 $ 2,700,000
Rooms revenue 220,828 210,000
Net revenues 3,121,900 2,910,000

## Marlin Macau

Marlin Macau
(In thousands)
Years ended December 31, 2023 2022
Casino revenue $ 607,095 $ 900,000
Rooms revenue 66,498 90,000
Net revenues 673,593 990,000

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF OPERATIONS
(In thousands)
Years ended December 31, 2023 2022
Casino revenue $ 4,708,667 $ 4,700,400
Rooms revenue 1,100,326 1,090,000
Food and beverage revenue 640,250 600,100
Total revenues 6,449,243 6,390,500
Operating income 1,020,400 980,300
Net income 610,200 590,100

Note 14. Revenues by Region

Revenues by region
(In thousands)
Years ended December 31, 2023 2022
North America $ 5,775,650 $ 5,400,500
Asia Pacific 673,593 990,000
Total revenues $ 6,449,243 $ 6,390,500
"""

_THOUSAND = 1_000


@pytest.fixture
def marlin(tmp_path: Path) -> None:
    ingest_once("marlin", tmp_path / "marlin", {"marlin-10k-2023.md": ANNUAL})


@pytest.mark.parametrize(
    ("question", "value", "word"),
    [
        # the part after the line, after the owner's name; its name ends in "Resorts"
        ("What were net revenues of Marlin's Harbor Point Resorts in 2023?", 2_653_750, ""),
        (
            "What were Harbor Point Resorts rooms revenues in 2023, per Marlin's 10-K?",
            813_000,
            "rooms",
        ),
        # a part named after the company, after the line
        ("What was net revenue of Marlin Macau in 2023?", 673_593, ""),
    ],
)
def test_a_part_asked_by_its_name_is_its_row(
    marlin: None, question: str, value: int, word: str
) -> None:
    out = run_json("ask", question)
    headline = out["headline"]
    assert headline is not None, out["answer"]
    # never the company's total revenues (6,449,243) nor its rooms revenue (1,100,326)
    assert headline["value"] == pytest.approx(value * _THOUSAND)
    assert word in str(headline["label"]).lower()


@pytest.mark.parametrize(
    "question",
    [
        # Regional Operations prints no row "Other"
        "How much 'Other' revenue did Marlin's Regional Operations segment report in 2023?",
        # the region's row is all its revenue, not its sales to one kind of customer
        "What were Marlin's sales to wholesale customers in Asia Pacific in 2023?",
    ],
)
def test_a_row_the_part_does_not_print_is_not_stated(marlin: None, question: str) -> None:
    out = run_json("ask", question)
    assert out["headline"] is None, out["answer"]
