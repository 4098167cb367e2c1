"""A percentage a table prints on a row ("Skincare 20 %" in a table of the percentage of net
sales by category, "Effective tax rate 21.0 %"): stored apart from the amounts, stated where the
question asks a percentage and names the row (with the table's title where the row's label is
one word), never read as an amount nor for a line item's lookup."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ingest_once
from .helpers import annual_filing, run_json

FILING = """# Item 7. Management's Discussion and Analysis

Sales by Category
The following table sets forth the approximate percentage of net sales by primary category:
Years Ended December 31,
2023 2022
Cosmetics 40 % 42 %
Skincare 20 % 17 %
Fragrance 12 % 11 %

Comparable sales
Years Ended December 31,
2023 2022
Comparable sales (2.4)% 5.1 %

Income taxes
Years Ended December 31,
2023 2022
Effective tax rate 21.0 % 19.5 %

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Years Ended December 31,
2023 2022
Net sales $ 5,000 $ 4,600
Operating income 700 650
Net income 450 400
"""


@pytest.fixture
def percentages(tmp_path: Path) -> None:
    files = {"summit-10k-2023.md": annual_filing(2023, FILING, name="SUMMIT INC.")}
    ingest_once("percentages", tmp_path / "percentages", files)


@pytest.mark.parametrize(
    ("question", "value", "shown"),
    [
        (
            "What percentage of Summit's net sales came from the skincare category in 2023?",
            20,
            "20%",
        ),
        ("What was Summit's effective tax rate in 2022?", 19.5, "19.5%"),
        ("By what percentage did Summit's comparable sales change in 2023?", -2.4, "2.4"),
    ],
)
def test_a_row_of_percentages_is_read_as_printed(
    percentages: None, question: str, value: float, shown: str
) -> None:
    out = run_json("ask", question)
    headline = out["headline"]
    assert headline is not None, out["answer"]
    assert headline["value"] == pytest.approx(value)
    assert headline["unit"] == "%" and shown in headline["shown"]
    assert headline["page"] is not None


def test_a_percentage_is_never_an_amount(percentages: None) -> None:
    # the skincare row prints a share of net sales, not the category's sales
    out = run_json("ask", "What were Summit's skincare net sales in 2023, in USD millions?")
    headline = out["headline"]
    assert headline is None or headline["value"] not in (20, 17), out["answer"]
    # the income statement's amounts are read as before, beside the percentages
    sales = run_json("ask", "What were Summit's net sales in 2023?")
    assert sales["headline"]["value"] == pytest.approx(5_000e6)


TAXES = """# Item 7. Management's Discussion and Analysis

Income taxes
Years Ended December 31,
2023 2022
Effective tax rate 15.4 % 26.9 %

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Years Ended December 31,
2023 2022
Net sales $ 5,000 $ 4,600
Income before income taxes 1,000 900
Provision for income taxes 379 242
Net income 621 658

CONSOLIDATED BALANCE SHEETS
(In millions)
December 31, 2023 December 31, 2022
Accounts receivable, net 928 870
Total assets 9,000 8,500
"""


@pytest.fixture
def taxes(tmp_path: Path) -> None:
    files = {"summit-10k-2023.md": annual_filing(2023, TAXES, name="SUMMIT INC.")}
    ingest_once("taxes", tmp_path / "taxes", files)


def test_a_rate_the_filing_prints_is_the_one_stated(taxes: None) -> None:
    # computed from its lines the 2023 rate is 37.9%; the filing prints 15.4%: the filing's
    out = run_json("ask", "What was Summit's effective tax rate in 2023?")
    headline = out["headline"]
    assert headline is not None, out["answer"]
    assert headline["value"] == pytest.approx(15.4)
    assert "37.9%" in out["answer"]  # the computed figure is said beside it
    # where the two agree (2022: 242 / 900 = 26.9%) the computed metric says so
    agreed = run_json("ask", "What was Summit's effective tax rate in 2022?")
    assert agreed["headline"]["value"] == pytest.approx(26.9, abs=0.05)  # 242 / 900
    assert agreed["headline"]["shown"] == "26.9%"
    assert any(c["name"] == "agreement" and c["passed"] for c in agreed["headline"]["checks"])


@pytest.mark.parametrize(
    "question",
    [
        "At what rate did Summit's accounts receivable, net grow in 2023?",
        "What was the interest rate on Summit's accounts receivable, net in 2023?",
    ],
)
def test_an_amount_is_no_rate(taxes: None, question: str) -> None:
    out = run_json("ask", question)
    headline = out["headline"]
    assert headline is None or headline["value"] != pytest.approx(928e6), out["answer"]
