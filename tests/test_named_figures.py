"""Figures a question names in the words of a filing's rows and sentences: an amount a
schedule gives by the year it falls due ("operating lease payments ... due in 2024"), a balance
sheet's deferred revenue, a row the primary statement prints beside a note's row of the same
name, an amount paid with cash ("How much cash did Acme pay for repurchases of its common
stock"), the size of a group ("our workforce of 12,300 people"), a percentage change of a
number of things; and what is not the line asked: a place the question names ("revenue in
Japan"), a row whose label holds other columns' cells."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pageindex_platform.search.figures import Figure, LineItem
from pageindex_platform.search.row_labels import heading_check

from .conftest import ingest_once
from .helpers import annual_filing, ingest_files, run_json
from .test_question_formulas import FILING

# a business sold, whose table names a row as the income statement does
DISCONTINUED = """# Discontinued Operations

The following table shows the results of the business sold.
(In millions)
Years Ended December 31,
2023 2022 2021
Provision for transaction losses 5 3 1

# Item 8. Financial Statements"""
NAMED = (
    FILING.replace(
        "Total current liabilities 3,000 2,900",
        "Deferred revenue 700 600\nTotal current liabilities 3,000 2,900",
    )
    .replace(
        "Total operating expenses 3,500 3,300 3,100",
        "Provision for transaction losses 300 280 260\nTotal operating expenses 3,500 3,300 3,100",
    )
    .replace("# Item 8. Financial Statements", DISCONTINUED)
    + """
# Note 9. Leases

Maturity of lease liabilities as of December 31, 2023 are as follows (in millions):
Operating Finance
2024 $ 183 $ 13
2025 165 5
2026 115 1
Thereafter 42 —
Total lease payments 505 19

# Note 10. Debt

The estimated fair value of the notes approximated their carrying value as of December 31,
2022 and 2023.
Expected future principal maturities as of December 31, 2023 are as follows (in millions):
Fiscal Years:
2024 $ 750
2025 1,750
2026 1,150
Thereafter 2,550
Total future maturities $ 6,200

Future minimum rental payments under operating leases as of December 31, 2022 were as
follows (in millions):
2023 $ 90
2024 80
2025 70
Thereafter 60

Leases where the Company is a lessor. Tenants pay base rent and a percentage of their sales.
We provide construction allowances to certain lessees.
Expected fixed future minimum lease payments are as follows (in millions):
2024 $ 40
2025 41
2026 42
Thereafter 43

# Note 11. Commitments

The following table summarizes our contractual obligations (in millions):
Payments Due During the Year Ending December 31, Debt Leases Purchase Obligations Total
2024 $ 750 $ 196 $ 66 $ 1,012
2025 1,750 170 18 1,938
2026 1,150 116 15 1,281
Thereafter 2,550 42 — 2,592

# Item 1A. Human Capital

We invest in our global workforce of 12,300 people. We own approximately 148,000 acres of
land, including approximately 121,000 acres of watershed lands.
The decrease in transaction losses in 2023 was primarily due to a $114 million loss related
to a merchant insolvency. About 3,000 employees, which constitute 25% of our total workforce,
are represented by unions.
Our total number of payment transactions was 6.1 billion and 5.5 billion in 2023 and 2022,
respectively, an increase of 10%.
"""
)


@pytest.fixture
def acme(tmp_path: Path) -> None:
    files = {"acme-10k-2023.md": annual_filing(2023, NAMED, name="ACME CORPORATION")}
    ingest_once("acme_named", tmp_path / "acme", files)


ASKED = [
    (
        "What was Acme's current deferred revenue as of December 31, 2023, per its balance "
        "sheet? In USD millions.",
        700,
    ),
    (
        "What provision for transaction losses did Acme record in fiscal 2023, as shown in its "
        "consolidated statement of operations? Answer in USD millions.",
        300,
    ),
    (
        "How much cash did Acme pay for repurchases of its common stock in fiscal 2023, "
        "according to its cash flow statement? Answer in USD millions.",
        10_000,
    ),
    ("How many people were in Acme's global workforce at the end of 2023?", 12_300),
    ("What was Acme's net revenue in Calendar 2023? In USD millions.", 9_000),
    (
        "How much cash did Acme use to repurchase common stock in fiscal 2023? In USD millions.",
        10_000,
    ),
    (
        "By what percentage did Acme's total number of payment transactions increase in 2023 "
        "compared with 2022?",
        10,
    ),
]


SCHEDULED = [
    (
        "As of December 31, 2023, how much in operating lease payments did Acme have scheduled "
        "to fall due in 2024? Answer in USD millions.",
        183,
    ),
    (  # the sentence before the table's introduction says other dates: not the table's
        "Looking at the expected future principal maturities of Acme's debt as of December 31, "
        "2023, how much was due in 2025? Answer in USD millions.",
        1_750,
    ),
    (  # several years asked together: their sum, each year's cell cited
        "Based on the expected future principal maturities of Acme's debt as of December 31, "
        "2023, how much was due in 2024, 2025 and 2026 combined? Answer in USD millions.",
        750 + 1_750 + 1_150,
    ),
    (
        "Looking at the expected future principal maturities of Acme's debt as of December 31, "
        "2023, how much in total was due in 2025 through 2026? Answer in USD millions.",
        1_750 + 1_150,
    ),
]


def test_amounts_a_schedule_gives_by_the_year_they_fall_due(acme: None) -> None:
    for question, value in SCHEDULED:
        out = run_json("ask", question)
        assert out["headline"] is not None, (question, out["answer"])
        assert float(out["headline"]["value"]) == pytest.approx(value), question
    # a year the schedule does not list (nor a line's balance), a column its header does not
    # name alone, a table as of another date, a year already past, rents to be received
    for question in (
        "How much in finance lease payments did Acme have due in 2029, as of December 31, 2023?",
        "How much of Acme's long-term debt is scheduled to mature in 2027, as of December 31, "
        "2023?",
        "As of December 31, 2023, how much in purchase obligations was due in 2024?",
        "As of December 31, 2023, how much in future minimum rental payments under operating "
        "leases did Acme have due in 2025?",
        "How much did Acme pay in operating lease payments in 2023?",
        # a year of the years asked together that the schedule does not list
        "As of December 31, 2023, how much of Acme's debt principal was due in 2026 and 2027 "
        "combined?",
    ):
        assert run_json("ask", question)["headline"] is None, question
    lessee = run_json(
        "ask",
        "How much in future minimum lease payments was Acme obligated to pay in 2024 under "
        "operating leases, as of December 31, 2023? In USD millions.",
    )["headline"]
    assert lessee is None or float(lessee["value"]) == 183, lessee


def test_figures_named_in_a_filings_words(acme: None) -> None:
    for question, value in ASKED:
        out = run_json("ask", question)
        assert out["headline"] is not None, (question, out["answer"])
        assert float(out["headline"]["value"]) == pytest.approx(value), question


def test_a_part_or_a_cause_is_not_the_figure_asked(acme: None) -> None:
    land = run_json(
        "ask",
        "How many acres of land did Acme own in total (including its watershed lands) at the "
        "end of 2023?",
    )["headline"]
    assert land is None or float(land["value"]) == 148_000, land
    losses = run_json("ask", "What were Acme's transaction losses in 2023? In USD millions.")
    assert losses["headline"] is None, losses["answer"]


NOT_THE_LINE = [
    "What was Acme's net revenue in Company-operated stores in 2023?",
    "What was Acme's net revenue in Rest of Asia Pacific in fiscal 2023?",
    "How much cash did Acme pay for income taxes in fiscal 2023?",
    "How much were Acme's cash interest payments in fiscal 2023?",  # not its cash's balance
    "What was Acme's total deferred revenue at December 31, 2023, current plus non-current?",
    "What were Acme's cash and cash equivalents and marketable securities at December 31, 2023?",
    "By what percentage did the number of Acme's employees change from 2022 to 2023?",
]


def test_a_line_that_is_only_part_of_what_is_asked_is_not_stated(acme: None) -> None:
    for question in NOT_THE_LINE:
        assert run_json("ask", question)["headline"] is None, question


def test_the_whole_companys_line_is_not_a_places(acme: None) -> None:
    out = run_json("ask", "How much revenue did Acme generate in Japan in fiscal 2023?")
    assert out["headline"] is None, out["answer"]
    assert "not Japan's" in out["answer"]  # the whole company's figure, set aside
    assert any("Japan" in c["set_aside"] for c in out["candidates"]), out["candidates"]


@pytest.mark.no_database
def test_a_label_holding_other_cells_is_a_misread_row() -> None:
    item = LineItem(("share repurchases",), (), True, ())
    figure = Figure(
        "ACME_2023_10K",
        "repurchase of common stock (86) (504) (2,988) —",
        3_492e6,
        "iso4217:USD",
        -6,
        "2022-06-01",
        "2023-05-31",
        72,
        "table",
    )
    check = heading_check(item, figure, "")
    assert not check.passed and "misread" in check.detail


ACROSS = """# Note 9. Debt

Contractual Repayment Schedule
Acme's long-term debt principal repayment amounts at December 31, 2023 are reflected in the
table below:
(in millions, except interest rates) 2024 2025 2026 2027 2028 Thereafter Total
Average fixed interest rate 3.10 % 3.20 % 3.30 % 3.40 % 3.50 % 4.00 % 3.80 %
Fixed rate obligations $ 500 $ 600 $ 700 $ 800 $ 900 $ 5,000 $ 8,500
Variable rate obligations $ 100 $ — $ 200 $ — $ — $ — $ 300
Total consolidated debt $ 600 $ 600 $ 900 $ 800 $ 900 $ 5,000 $ 8,800
Consolidated debt principal and interest $ 650 $ 640 $ 950 $ 850 $ 950 $ 6,000 $ 10,040
"""


def test_a_schedule_whose_columns_are_the_years(tmp_path: Path) -> None:
    """A repayment schedule printed with the years as its columns: the row the question
    names, for the year asked or several years together; not a row whose label says more
    than is asked ("principal and interest")."""
    files = {"acme-10k-2023.md": annual_filing(2023, ACROSS, name="ACME CORPORATION")}
    ingest_files(tmp_path / "across", files)
    for question, value in (
        (
            "Using the contractual repayment schedule in Acme's 2023 Form 10-K, how much total "
            "consolidated debt principal was scheduled to be repaid in 2024, 2025 and 2026 "
            "combined? Answer in USD millions.",
            2_100,
        ),
        (
            "Per Acme's contractual repayment schedule, how much in variable rate obligations "
            "was due in 2026? Answer in USD millions.",
            200,
        ),
    ):
        out = run_json("ask", question)
        assert out["headline"] is not None, (question, out["answer"])
        assert float(out["headline"]["value"]) == pytest.approx(value), question
        # the row the amount is read from, by its own name
        label = out["headline"]["label"]
        named = r"20\d\d(?:–20\d\d)? — (?:Total consolidated debt|Variable rate obligations)"
        assert re.fullmatch(named, label), label
