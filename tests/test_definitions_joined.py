"""Metrics written the ways analysts write them beyond one definition: two definitions joined
by a semicolon ("X is defined as A minus B; Y = X / C"), a defined name that adds "ratio" to
the catalogue's ("capex to revenue ratio"), a change "year-over-year ... (in percent)", an
average over years of one line as a % of another, and a term of the question's formula that
the balance sheet prints by its block alone ("Debt" below "Total current liabilities" for
long-term debt)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pageindex_platform.search.metric_questions import defined_metrics

from .helpers import annual_filing, ingest_files
from .helpers import stated_value as _stated

FILING = """# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF INCOME
(In millions)
Years Ended December 31,
2023 2022 2021
Net revenue 10,000 9,000 8,000
Cost of sales 6,000 5,500 5,000
Research and development 1,500 1,440 1,200
Operating income 2,500 2,060 1,800
Net income 1,800 1,500 1,300

# Balance Sheets

CONSOLIDATED BALANCE SHEETS
(In millions)
December 31, 2023 December 31, 2022
Cash and cash equivalents 1,200 1,100
Total current assets 4,000 3,600
Total assets 20,000 18,000
Short-term debt 500 400
Accounts payable 900 850
Total current liabilities 2,400 2,200
Debt 4,500 4,100
Other long-term liabilities 1,100 1,000
Total liabilities 8,000 7,300
Total stockholders' equity 12,000 10,700

# Cash Flows

CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
Years Ended December 31,
2023 2022 2021
Net income 1,800 1,500 1,300
Depreciation and amortization 700 650 600
Net cash provided by operating activities 3,000 2,700 2,400
Capital expenditures (1,200) (1,100) (900)
Net cash used in investing activities (1,200) (1,100) (900)
"""


@pytest.fixture
def brightline(tmp_path: Path) -> None:
    files = {"brightline-10k-2023.md": annual_filing(2023, FILING, name="BRIGHTLINE SYSTEMS INC.")}
    ingest_files(tmp_path / "brightline", files)


@pytest.mark.no_database
def test_two_definitions_joined_by_a_semicolon() -> None:
    defined = defined_metrics(
        "What is Acme's FY2023 free cash flow margin? Free cash flow is defined as net cash "
        "provided by operating activities minus capital expenditures; free cash flow margin = "
        "free cash flow / total revenues. Answer as a percentage rounded to one decimal place."
    )
    assert {name.strip() for name in defined} == {"free cash flow", "free cash flow margin"}


def test_the_metric_asked_of_two_definitions_is_the_one_the_other_feeds(
    brightline: None,
) -> None:
    # the margin asked, computed on the free cash flow the first definition gives
    assert _stated(
        "What is Brightline Systems' FY2023 free cash flow margin? Free cash flow is defined as "
        "net cash provided by operating activities minus capital expenditures; free cash flow "
        "margin = free cash flow / net revenue. Answer as a percentage rounded to one decimal "
        "place."
    ) == pytest.approx(18.0, abs=0.05)


def test_a_defined_name_that_adds_ratio_to_the_catalogues(brightline: None) -> None:
    assert _stated(
        "What is the FY2023 capital expenditure to total revenue ratio for Brightline Systems? "
        "Capex to revenue ratio is defined as: capital expenditures / net revenue. Answer in "
        "units of percents and round to one decimal place."
    ) == pytest.approx(12.0, abs=0.05)


def test_a_year_over_year_change_asked_in_percent(brightline: None) -> None:
    assert _stated(
        "What is Brightline Systems' year-over-year change in net revenue from FY2022 to FY2023 "
        "(in percent)? Round to one decimal place."
    ) == pytest.approx(11.1, abs=0.05)


def test_an_average_over_years_of_one_line_as_a_percent_of_another(brightline: None) -> None:
    # (15.0% + 16.0% + 15.0%) / 3
    assert _stated(
        "What is Brightline Systems' 3-year average of research and development expense as a % "
        "of net revenue from FY2021 to FY2023? Answer as a percentage to one decimal place."
    ) == pytest.approx(15.3, abs=0.05)


def test_a_term_the_balance_sheet_prints_by_its_block_alone(brightline: None) -> None:
    # long-term debt is the "Debt" row below "Total current liabilities"
    assert _stated(
        "Compute Brightline Systems' debt-to-equity ratio as of December 31, 2023. Define it as: "
        "(short-term debt + long-term debt) / total stockholders' equity, all from the "
        "consolidated balance sheet. Round to two decimal places."
    ) == pytest.approx(0.42, abs=0.005)
