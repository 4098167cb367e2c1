"""A combined filing of two registrants (a holding company and its utility, one 10-K): a
question that names the registrant the filing is not stored as ("Brightwater Power and
Light Company") finds the filing by its cover page, and its figures are those of that
registrant's own statements, never the holding company's; the holding company's question
is unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import annual_filing, ingest_files, run_json

CO_REGISTRANT = (
    "BRIGHTWATER POWER AND LIGHT COMPANY\n\n(Exact name of registrant as specified in its "
    "charter)\n\nGLOSSARY\n\nRWC Riverside Water Company, a subsidiary of Northgate Energy "
    "Corporation\n\n"
)
# other companies' filings: a name that one filing of three prints is no common word
OTHER = "# Item 8. Financial Statements\n\nTotal revenues 5,000 4,000\nNet income 500 400\n"

BODY = """# Corporation Statements

NORTHGATE ENERGY CORPORATION
CONSOLIDATED STATEMENTS OF INCOME
(in millions)
Year ended December 31,
2023 2022
Electric 9,000 8,200
Natural gas 3,000 2,800
Total operating revenues 12,000 11,000
Cost of electricity 3,000 2,700
Operation and maintenance 6,000 5,600
Depreciation 1,500 1,300
Total operating expenses 10,500 9,600
Operating Income 1,500 1,400
Interest expense 400 380
Net income 900 800

# Utility Statements

BRIGHTWATER POWER AND LIGHT COMPANY
CONSOLIDATED STATEMENTS OF INCOME
(in millions)
Year ended December 31,
2023 2022
Electric 8,900 8,150
Natural gas 2,900 2,750
Total operating revenues 11,800 10,900
Cost of electricity 3,000 2,700
Operation and maintenance 5,700 5,450
Depreciation 1,400 1,200
Total operating expenses 10,100 9,350
Operating Income 1,700 1,550
Interest expense 350 330
Net income 1,000 900

# Item 7. Operating Statistics

Brightwater Power & Light Company (the “Utility”) is the operating subsidiary of Northgate
Energy Corporation.
The following table shows the Utility's operating statistics for electricity sold.
2023 2022
Total operating revenues 8,000 7,600
"""


@pytest.fixture
def combined(tmp_path: Path) -> None:
    filing = annual_filing(2023, BODY, name="NORTHGATE ENERGY CORPORATION")
    at = filing.index("# Corporation")
    files = {
        "northgate-10k-2023.md": filing[:at] + CO_REGISTRANT + filing[at:],
        "acme-10k-2023.md": annual_filing(2023, OTHER, name="ACME TOOLS INC."),
        "zenith-10k-2023.md": annual_filing(2023, OTHER, name="ZENITH FOODS INC."),
    }
    ingest_files(tmp_path / "northgate", files)


def test_the_registrant_named_is_read_from_its_own_statements(combined: None) -> None:
    out = run_json(
        "ask", "What were Brightwater Power and Light Company's operating income in 2023?"
    )
    assert out["headline"] is not None, out["answer"]
    assert out["headline"]["value"] == 1_700e6
    margin = run_json(
        "ask",
        "What was the operating margin of Brightwater Power and Light Company in FY2023? Round "
        "to one decimal place.",
    )
    assert margin["headline"]["value"] == pytest.approx(14.4, abs=0.05)  # 1,700 / 11,800
    # its name without its legal ending: the start of the name the cover prints
    short = run_json("ask", "What was Brightwater Power and Light's operating income in 2023?")
    assert short["headline"]["value"] == 1_700e6


def test_the_company_stored_keeps_its_own_statements(combined: None) -> None:
    out = run_json("ask", "What was Northgate Energy's operating income in 2023?")
    assert out["headline"]["value"] == 1_500e6


def test_a_subsidiary_the_first_pages_name_is_no_registrant(combined: None) -> None:
    # named in a glossary, not as a registrant: the parent's figure is never stated for it
    out = run_json("ask", "What were Riverside Water Company's total operating revenues in 2023?")
    assert out["headline"] is None, out["answer"]


def test_the_short_name_the_filing_defines_is_the_registrant(combined: None) -> None:
    # "the Utility" is what the filing calls Brightwater Power & Light Company
    out = run_json("ask", "What was the Utility's operating income in 2023 per Northgate's 10-K?")
    assert out["headline"] is not None, out["answer"]
    assert out["headline"]["value"] == 1_700e6
    # named to be left out, it is not the one asked
    out = run_json(
        "ask",
        "What was Northgate Energy's operating income in 2023 (the holding company, not the "
        "Utility)?",
    )
    assert out["headline"]["value"] == 1_500e6
