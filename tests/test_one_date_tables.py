"""A note's table headed by one date — introduced by a sentence that names it ("... at
December 31, 2023, are as follows (amounts in millions):"), headed by a line that begins with
it ("At December 31, 2023"), or a year alone under its span ("Year Ended December 31," over
"2023") — gives each row of one amount at that date or for that period; never a row of
several amounts (columns the date does not name), a year's row, a page's number, a rate, a
figure in a scale the page does not say, or a date long before the filing's period."""

from __future__ import annotations

from pathlib import Path

import pytest

from pageindex_platform.index.tables import read_tables
from pageindex_platform.records import PageText

from .conftest import ingest_once
from .helpers import annual_filing, run_json

LEASES = """12. Leases
Components of our lease costs are as follows (amounts in millions):
Year Ended December 31,
2023
Operating lease costs $ 84
Variable lease costs 17
Future undiscounted lease payments for our operating lease liabilities, and a reconciliation
of these payments to our operating lease liabilities at December 31,
2023, are as follows (amounts in millions):
For the years ending December 31,
2024 $ 91
2025 70
Thereafter 45
Total future lease payments $ 406
Less imputed interest (41)
Total lease liabilities $ 365
Our leases have remaining terms of one to nine years, and some of them include options to
extend the terms that we are not reasonably certain to exercise.
Other income $ 12
Maturities of operating and finance lease liabilities as of December 31, 2023 were as follows
(in millions):
Operating Finance
Total lease payments 406 118
At December 31, 2023 Balance Sheet Classification
Weighted-average remaining lease term (years)
Operating leases 7
Year Ended December 31,
2023
Right-of-use assets obtained in exchange for new lease obligations:
Finance leases $ 99
"""


def _figures(text: str, period_end: str = "2023-12-31") -> dict[tuple[str, str], object]:
    figures = read_tables([PageText(96, text)], period_end=period_end, fiscal_year=2023)
    return {(f.label or "", f.period_end): f for f in figures}


@pytest.mark.no_database
def test_a_table_under_one_date_gives_its_single_amounts_at_that_date() -> None:
    rows = _figures(LEASES)
    total = rows[("Total lease liabilities", "2023-12-31")]
    assert (total.value, total.period_start, total.page) == (365e6, None, 96)  # type: ignore[attr-defined]
    assert rows[("Less imputed interest", "2023-12-31")].value == -41e6  # type: ignore[attr-defined]
    # "Year Ended December 31," over "2023": a year's costs, not a balance
    cost = rows[("Operating lease costs", "2023-12-31")]
    assert (cost.value, cost.period_start) == (84e6, "2023-01-01")  # type: ignore[attr-defined]
    labels = {label for label, _ in rows}
    # a row of operating and finance amounts: columns the date does not name
    assert "Total lease payments" not in labels
    # the paragraph after the table ends it; a rate's years and a day are no amounts
    assert not {"Other income", "Operating leases", "For the years ending December"} & labels
    assert not any(label[:1].isdigit() for label in labels)  # a year's row is not a label
    # a short label under a heading's colon is named with it: not the finance leases' cost
    obtained = "Right-of-use assets obtained in exchange for new lease obligations: Finance leases"
    assert rows[(obtained, "2023-12-31")].value == 99e6  # type: ignore[attr-defined]
    assert "Finance leases" not in labels


@pytest.mark.no_database
def test_no_amounts_in_a_scale_unsaid_or_under_a_date_long_before_or_after() -> None:
    unscaled = "At December 31, 2023\nTotal lease liabilities $ 365\n"
    assert _figures(unscaled) == {}
    old = "The purchase price at April 29, 2009 was as follows (in millions):\nLand $ 95\n"
    assert _figures(old) == {}
    letter = "Dear Ms. Smith\nApril 15, 2023\nPage 2\n"
    assert _figures(letter) == {}
    later = "Commitments at December 31, 2024 are as follows (in millions):\nTotal $ 5\n"
    assert _figures(later) == {}
    # a statement of income "as of" a date: flows whose span the sentence does not say
    flows = (
        "The following table presents the summarized statement of income information as of "
        "December 31, 2023 (in millions):\nRevenue $ 6,713\nNet income $ 388\n"
    )
    assert _figures(flows) == {}
    # a table of part of the company (held for sale, a group of guarantors): not its lines
    for part in ("assets and liabilities classified as held for sale", "guarantor subsidiaries"):
        table = f"The {part} as of December 31, 2023 are as follows (in millions):\nTotal $ 37\n"
        assert _figures(table.replace("Total", "Accounts payable")) == {}


TEXT = (
    """# Item 8. Financial Statements

CONSOLIDATED BALANCE SHEETS
(In millions)
December 31, 2023 December 31, 2022
Total assets 9,000 8,500
Total liabilities 5,200 5,000

# Note 12. Leases

"""
    + LEASES
)


@pytest.fixture
def heron(tmp_path: Path) -> None:
    files = {"heron-10k-2023.md": annual_filing(2023, TEXT, name="HERON SYSTEMS INC.")}
    ingest_once("heron", tmp_path / "heron", files)


def test_a_note_s_one_date_total_is_stated_at_its_date(heron: None) -> None:
    out = run_json("ask", "What were Heron Systems' total lease liabilities at December 31, 2023?")
    headline = out["headline"]
    assert headline is not None, out["answer"]
    assert (headline["value"], headline["period_start"]) == (365e6, None)
    assert headline["label"] == "Total lease liabilities"
