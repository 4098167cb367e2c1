"""Figures read from the rows a question names where no line item of the catalogue is the
row: one row as a percentage of a line ("fuel expense as a percentage of revenue"), an adjusted
measure printed so ("Adjusted EPS"), a row's name in quotation marks; and formulas written the
ways analysts write them: "Take A and subtract B", a loss or a benefit named for the line that
prints it ("loss before income taxes"), a date inside the formula ("at the fiscal year-end
(December 31, 2023)"). Where a formula is cut short or a quoted row is not the line, nothing
is stated."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pageindex_platform.search.metric_parts import segment_named
from pageindex_platform.search.metric_questions import defined_metrics
from pageindex_platform.search.text_ask import text_ask

from .helpers import annual_filing, ingest_files, run_json
from .helpers import stated_value as _stated

FILING = """# Item 1. Business

As of December 31, 2023, we had approximately 12,400 employees, of whom approximately 3,100
were located outside the United States.

# Item 7. Management's Discussion and Analysis

Reconciliation of Adjusted EPS
(In millions, except per share amounts)
Years Ended December 31,
2023 2022
Diluted loss per share (0.40) 1.10
Restructuring charges 0.90 0.20
Adjusted EPS 0.50 1.30

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Years Ended December 31,
2023 2022 2021
Revenue 10,000 9,500 9,000
Fuel 600 550 500
Salaries and employee benefits 4,000 3,800 3,600
Depreciation and amortization 700 650 600
Operating income (loss) (200) 1,200 1,100
Interest expense 300 250 200
Asset impairment expense (120) (80) (40)
Gain (loss) on sale of business (90) 30 20
Income (loss) before income taxes (500) 950 900
Income tax provision (benefit) (150) 200 190
Net income (loss) (350) 750 710
Net earnings (loss) per common share, diluted (0.72) 1.55 1.47

# Cash Flows

CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
Years Ended December 31,
2023 2022 2021
Net income (loss) (350) 750 710
Depreciation and amortization 700 650 600
Accrued expenses (50) (40) (30)
Net cash provided by continuing operating activities 1,600 1,500 1,400
Net cash used in discontinued operating activities (100) (50) (40)
Net cash provided by operating activities 1,500 1,450 1,360
Purchases of property and equipment (400) (380) (360)
Net cash used in investing activities (400) (380) (360)
Repurchases of common stock (500) (450) (400)
Dividends paid (200) (190) (180)
Net cash used in financing activities (700) (640) (580)

# Balance Sheets

CONSOLIDATED BALANCE SHEETS
(In millions)
December 31, 2023 December 31, 2022
Cash and cash equivalents 1,200 1,100
Accounts receivable, net 900 850
Total current assets 2,500 2,300
Total assets 15,000 14,000
Total current liabilities 2,000 1,900
Long-term debt 5,000 4,800
Total stockholders' equity 6,000 6,200

# Note 12. Income Taxes

The components of deferred tax assets were as follows (in millions):
December 31, 2023 December 31, 2022
Net operating loss carryforwards 420 380
Amortizable tax basis in intangibles 310 290
Total deferred tax assets 730 670

# Note 13. Supplemental Information

Certain consolidated statements of earnings amounts are as follows (in millions):
Years Ended December 31,
2023 2022
Freight brokerage commissions (including agent and carrier settlement costs) 190.4 175.2

# Note 14. Segment Information

The results of our reportable segments were as follows (in millions):
Years Ended December 31,
2023 2022
Ground segment:
Salaries expenses 2,100 2,000
"""


@pytest.fixture
def summit(tmp_path: Path) -> None:
    files = {"summit-10k-2023.md": annual_filing(2023, FILING, name="SUMMIT FREIGHT INC.")}
    ingest_files(tmp_path / "summit", files)


def _asked(question: str) -> dict[str, Any]:
    out = run_json("ask", question)
    return dict(out)


def test_a_row_as_a_percentage_of_a_line(summit: None) -> None:
    assert _stated(
        "Based on Summit's FY2023 income statement, what was fuel expense as a percentage of "
        "revenue in fiscal 2023? Round to two decimal places."
    ) == pytest.approx(6.0, abs=0.006)


def test_an_adjusted_measure_printed_on_its_own_row(summit: None) -> None:
    assert _stated("What Adjusted EPS (a non-GAAP measure) did Summit report for 2023?") == (
        pytest.approx(0.50)
    )


def test_a_loss_and_a_benefit_are_the_lines_that_print_them(summit: None) -> None:
    rate = _stated(
        "What was Summit's effective income tax rate for 2023, computed as the income tax "
        "benefit divided by the loss before income taxes? Give the percentage rounded to two "
        "decimal places."
    )
    assert rate == pytest.approx(30.0, abs=0.006)  # a benefit of 150 over a loss of 500


def test_take_one_line_and_subtract_another(summit: None) -> None:
    # the continuing operations' line the question names, not the total with discontinued
    assert _stated(
        "Take Summit's net cash provided by continuing operating activities for 2023 and "
        "subtract its purchases of property and equipment. What free cash flow does that give, "
        "in USD millions?"
    ) == pytest.approx(1200)


def test_a_date_inside_a_definition_is_when_its_term_is_read(summit: None) -> None:
    assert _stated(
        "Compute Summit's days sales outstanding for fiscal 2023, defined as net accounts "
        "receivable at the fiscal year-end (December 31, 2023) divided by full-year 2023 "
        "revenue, times 365."
    ) == pytest.approx(900 / 10_000 * 365, abs=0.006)


def test_a_quoted_row_is_read_and_no_other_line_stands_for_it(summit: None) -> None:
    out = _asked(
        "What deferred tax asset did Summit carry for 'amortizable tax basis in intangibles' "
        "at December 31, 2023?"
    )
    headline = out["headline"]
    assert isinstance(headline, dict), out["answer"]
    assert (headline["value"], headline["label"]) == (310e6, "Amortizable tax basis in intangibles")


@pytest.mark.no_database
def test_a_definition_cut_short_is_no_formula() -> None:
    # an operation written and one term read would state the term's figure as the metric
    defined = defined_metrics(
        "What was Acme's asset turnover for 2023, defined as revenue for the year ended "
        "December 31, 2023 divided by total assets?"
    )
    assert all(" / " in metric.formula for metric in defined.values()), defined


@pytest.mark.no_database
def test_a_company_name_written_in_lower_case_first() -> None:
    asked = text_ask("How many shares of common stock did eBay repurchase in 2016?", {"ebay"})
    assert asked is not None and asked.act == "repurchase"


def test_a_lines_change_asked_without_a_metrics_name(summit: None) -> None:
    assert _stated(
        "By what percentage did Summit's revenue change in 2023 compared with 2022?"
    ) == pytest.approx((10_000 / 9_500 - 1) * 100, abs=0.06)
    # "how much did it grow" with no percentage asks the amount: never the year's revenue
    assert _stated("How much did Summit's revenue grow in 2023?") == pytest.approx(500e6)
    assert _stated(
        "How much did Summit's net income decline in 2023? Give the percentage."
    ) == pytest.approx((-350 / 750 - 1) * 100, abs=0.06)


def test_words_a_question_asks_a_row_or_a_count_with(summit: None) -> None:
    # the order a filing prints the words of a per-share line in
    asked = "What diluted net earnings (loss) per common share did Summit report for 2023?"
    assert _stated(asked) == pytest.approx(-0.72)
    # the period said every way beside a row's name is no word of the row's
    assert _stated(
        "What salaries and employee benefits expense did Summit record for fiscal year 2023 "
        "alone, per its Form 10-K?"
    ) == pytest.approx(4_000e6)
    # the words the row's label glosses in parentheses, written in the question too
    assert _stated(
        "What were Summit's freight brokerage commissions (including agent and carrier "
        "settlement costs) in 2023?"
    ) == pytest.approx(190.4e6)


def test_a_figure_the_question_gives_is_not_its_answer(summit: None) -> None:
    out = _asked(
        "At December 31, 2023, Summit employed roughly 12,400 people. How many of them were "
        "located outside the United States?"
    )
    headline = out["headline"]
    assert headline is None or headline["value"] == 3_100, out["answer"]
    # the whole the question writes, if it is a candidate, is set aside as given
    given = [c for c in out.get("candidates") or [] if c["value"] == 12_400]
    assert all("the question itself gives" in c["set_aside"] for c in given), given


def test_a_loss_keeps_its_sign_where_it_is_added(summit: None) -> None:
    assert _stated(
        "What was Summit's 2023 EBITDA, defined as operating loss plus depreciation and "
        "amortization?"
    ) == pytest.approx(500e6)  # -200 + 700, not 200 + 700
    assert _stated(
        "What was Summit's 2023 net loss margin, computed as net loss divided by revenue?"
    ) == pytest.approx(3.5, abs=0.06)
    # a tax line is read as an amount: a benefit added to a loss is not stated
    out = _asked(
        "What was Summit's 2023 pre-tax loss, computed as net loss plus income tax benefit?"
    )
    assert out["headline"] is None, out["answer"]


def test_terms_taken_in_a_list_are_inputs_of_the_metric_asked(summit: None) -> None:
    ratio = _stated(
        "Take debt as long-term debt, and equity as total stockholders' equity. What was "
        "Summit's debt-to-equity ratio at December 31, 2023?"
    )
    assert ratio == pytest.approx(5_000 / 6_000, abs=0.006)
    # a measure of a metric the catalogue does not name is not the metric, nor a line of it
    out = _asked(
        "Take free cash flow as net cash provided by operating activities minus purchases of "
        "property and equipment, and revenue as total revenue. What was Summit's free cash "
        "flow margin in 2023?"
    )
    assert out["headline"] is None or out["headline"]["unit"] == "%", out["answer"]


def test_a_notes_row_the_statements_do_not_print_is_no_term(summit: None) -> None:
    # the segment note's "Salaries expenses" (2,100) is not the income statement's line
    out = _asked("What were Summit's salaries expenses as a percentage of revenue in 2023?")
    assert out["headline"] is None or out["headline"]["value"] == pytest.approx(40.0), out["answer"]


def test_a_balance_named_after_a_flow_is_not_the_flow(summit: None) -> None:
    # "income taxes payable" is owed at a date; the year's tax provision is not it
    out = _asked("What were Summit's income taxes payable at December 31, 2023?")
    assert out["headline"] is None, out["answer"]


def test_what_a_question_says_beside_a_line_makes_it_another_figure(summit: None) -> None:
    for question in (
        "What was Summit's 2023 net income plus depreciation and amortization?",  # a sum
        "What was Summit's core operating margin in 2022?",  # a non-GAAP measure
        "What was Summit's diluted EPS from continuing operations in 2023?",  # not the total
        # a row of a tax note, where the balance sheet is asked
        "What was Summit's amortizable tax basis in intangibles on the balance sheet at "
        "December 31, 2023?",
    ):
        out = _asked(question)
        assert out["headline"] is None, (question, out["answer"])


def test_a_change_from_another_base_is_not_the_years(summit: None) -> None:
    # over two years: the change from 2021's revenue to 2023's, both years cited — never
    # the last year's change
    out = _asked("By what percentage did Summit's revenue change from 2021 to 2023?")
    headline = out["headline"]
    assert headline is not None and headline["value"] == pytest.approx(11.1), out["answer"]
    inputs = [c["detail"] for c in headline["checks"] if c["name"] == "inputs"]
    assert any("2021" in i for i in inputs) and any("2023" in i for i in inputs), inputs
    for question in (
        "By what percentage did Summit's revenue grow since 2021?",
        "By what percentage did Summit's revenue grow on an organic basis in 2023?",
        "What was Summit's 2023 operating income plus interest expense?",  # a sum, no row
    ):
        out = _asked(question)
        assert out["headline"] is None, (question, out["answer"])


def test_a_part_s_row_keeps_the_company_s_word_in_its_own_name(tmp_path: Path) -> None:
    # "Summit Resorts' Coastal Resorts segment": the second "Resorts" is the part's name
    body = """# Item 7. Management's Discussion and Analysis

Adjusted Property EBITDAR by segment
(In millions)
Years Ended December 31,
2023 2022
Coastal Resorts Adjusted Property EBITDAR $ 1,234 $ 1,100
Mountain Operations Adjusted Property EBITDAR 640 610
"""
    files = {"resorts-10k-2023.md": annual_filing(2023, body, name="SUMMIT RESORTS INC.")}
    ingest_files(tmp_path / "resorts", files)
    out = run_json(
        "ask",
        "What was the 2023 Adjusted Property EBITDAR of Summit Resorts' Coastal Resorts segment?",
    )
    assert out["headline"] is not None, out["answer"]
    assert out["headline"]["value"] == pytest.approx(1_234e6)


LEASES = """
# Note 7. Leases

The following table is a summary of the components of net lease cost for the period ended
December 31 (in millions):
Years Ended December 31,
2023 2022
Operating lease cost $ 3,300 $ 3,100
Finance lease cost:
Amortization of right-of-use assets 36 26
Interest on lease liabilities 18 16
Total finance lease cost 54 42
Variable lease cost 1,435 1,368
Net lease cost $ 4,789 $ 4,510

# Note 8. Revenues

Revenues by offering were as follows (in millions):
Years Ended December 31,
2023 2022
Revenues:
Cloud platform services $ 2,207 $ 1,485
Cloud infrastructure services 646 608
Total cloud revenues 2,853 2,093
New software licenses 7,276 8,535
Total revenues 10,129 10,628
"""


def test_a_row_after_a_block_s_total_is_not_under_its_heading(tmp_path: Path) -> None:
    """ "Finance lease cost:" heads the block that "Total finance lease cost" closes, not the
    "Net lease cost" row after it: that row is the one the question names."""
    files = {"summit-10k-2023.md": annual_filing(2023, FILING + LEASES, name="SUMMIT FREIGHT INC.")}
    ingest_files(tmp_path / "leases", files)
    assert _stated(
        "What total net lease cost did Summit report for fiscal 2023 in the leases note of its "
        "Form 10-K?"
    ) == pytest.approx(4_789e6)
    # a subtotal inside a block closes no more than its own: "Revenues:" still heads the row
    assert _stated("What were Summit's new software licenses revenues in fiscal 2022?") == (
        pytest.approx(8_535e6)
    )


PARTS = """# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF INCOME
(in millions)
Years Ended December 31,
2023 2022 2021
Operating Revenues
Electric 13,500 12,200 11,000
Natural gas 6,090 5,640 5,000
Total operating revenues 19,590 17,840 16,000
Operating Expenses
Cost of electricity 3,000 2,900 2,800
Total operating expenses 17,000 15,800 14,500
Operating Income 2,590 2,040 1,500
Net income 1,800 1,500 1,100

CONSOLIDATED STATEMENTS OF CASH FLOWS
(in millions)
Years Ended December 31,
2023 2022 2021
Net income 1,800 1,500 1,100
Changes in operating assets and liabilities:
Accrued wildfire liabilities 30 20 10
Net cash provided by operating activities 4,000 3,500 3,000
"""


def test_a_figure_asked_in_percent_is_never_an_amount(tmp_path: Path) -> None:
    files = {"volta-10k-2023.md": annual_filing(2023, PARTS, name="VOLTA ENERGY CORP.")}
    ingest_files(tmp_path / "volta", files)
    asked = "What were Volta's natural gas operating revenues in fiscal 2023?"
    assert _stated(asked) == pytest.approx(6_090e6)
    # the unit said alone after the question: the part's amount is not its growth
    out = _asked(f"{asked[:-1]}, year over year? Percent, two decimals.")
    assert out["headline"] is None, out["answer"]
    assert "the question asks for a percentage" in out["answer"]


def test_a_parts_change_from_the_year_before(tmp_path: Path) -> None:
    files = {"volta-10k-2023.md": annual_filing(2023, PARTS, name="VOLTA ENERGY CORP.")}
    ingest_files(tmp_path / "volta", files)
    out = _asked(
        "How fast did Volta's natural gas operating revenues grow year over year in fiscal "
        "2023 (vs. 2022)? Percent, two decimals."
    )
    assert out["headline"]["value"] == pytest.approx((6_090 / 5_640 - 1) * 100, abs=0.006)
    assert "$6,090 million / $5,640 million - 1" in out["answer"]
    # without a percentage asked, the amount it rose by
    # a row that is itself a change over the year: no change of a change
    out = _asked(
        "How fast did Volta's accrued wildfire liabilities grow in 2023? Percent, two decimals."
    )
    assert out["headline"] is None or out["headline"]["value"] != pytest.approx(50), out["answer"]
    rose = _stated("By how much did Volta's natural gas operating revenues increase in 2023?")
    assert rose == pytest.approx(450e6)
    assert _stated(
        "By how much did Volta's natural gas operating revenues increase in fiscal 2023 "
        "compared with fiscal 2022? Answer in USD millions."
    ) == pytest.approx(450)


def test_a_metric_asked_of_a_named_segment_is_not_the_companys(summit: None) -> None:
    out = _asked(
        "Based on the segment results in Summit's 2023 Form 10-K, what operating margin did "
        "the Ground segment earn in fiscal 2023? Percent, two decimals."
    )
    assert out["headline"] is None, out["answer"]
    assert "The question asks for Ground" in out["answer"]
    # the company's own margin, asked as the company's, is stated
    assert _stated("What was Summit's operating margin in fiscal 2023?") == pytest.approx(-2.0)


def test_a_named_rows_change_from_the_year_before(summit: None) -> None:
    grew = _asked(
        "How fast did Summit's salaries and employee benefits expense grow in fiscal 2023? "
        "Percent, two decimals."
    )
    assert grew["headline"]["value"] == pytest.approx((4_000 / 3_800 - 1) * 100, abs=0.006)
    assert _stated(
        "By how much did Summit's salaries and employee benefits expense increase in fiscal "
        "2023 compared with fiscal 2022?"
    ) == pytest.approx(200e6)


@pytest.mark.no_database
@pytest.mark.parametrize(
    ("question", "part"),
    [
        (
            "What operating margin did the Client Computing segment earn in 2023?",
            "Client Computing",
        ),
        (
            "What was Summit's Data Center and AI (DCAI) segment margin?",
            "Data Center and AI (DCAI)",
        ),
        ("What was Summit Freight Ground segment's operating margin?", "Ground"),
        ("What was the operating margin of all Operating segments combined?", None),
        ("What was the operating margin excluding the Health Care segment?", None),
        ("Based on the segment results, what was Summit's operating margin?", None),
    ],
)
def test_the_segment_a_question_names(question: str, part: str | None) -> None:
    assert segment_named(question, ["SUMMIT FREIGHT INC."]) == part


def test_a_metric_that_is_an_amount_is_not_the_percentage_asked(summit: None) -> None:
    for asked in (
        "What was Summit's free cash flow in fiscal 2023? Percent, two decimals.",
        "What was Summit's EBITDA in fiscal 2023, as a percentage?",
    ):
        out = _asked(asked)
        assert out["headline"] is None, out["answer"]
        assert "the question asks a percentage" in out["answer"]
    # asked as an amount, it is stated
    assert _stated("What was Summit's free cash flow in fiscal 2023?") == pytest.approx(1_100e6)


def test_an_expense_printed_as_a_deduction_is_its_amount(summit: None) -> None:
    # "Asset impairment expense (120)": the expense is 120, and its change a difference of
    # amounts
    assert _stated("What was Summit's asset impairment expense in 2023?") == pytest.approx(120e6)
    higher = "How much higher was Summit's asset impairment expense in 2023 than in 2022?"
    assert _stated(higher) == pytest.approx(40e6)
    # a gain's parentheses say a loss: never stated as a gain of 90
    out = run_json("ask", "What was Summit's gain on sale of business in 2023?")
    assert out["headline"] is None or out["headline"]["value"] != pytest.approx(90e6)
    # a cash flow statement's parentheses say a change, not an expense's amount
    out = run_json("ask", "What were Summit's accrued expenses in 2023?")
    assert out["headline"] is None or out["headline"]["value"] != pytest.approx(50e6)


def test_two_lines_added_and_a_line_less_a_metric(summit: None) -> None:
    # two lines the question joins by "and" and asks combined: their sum, each cited
    combined = (
        "How much cash did Summit return to shareholders through repurchases of common stock "
        "and dividends paid combined in 2023?"
    )
    assert _stated(combined) == pytest.approx(700e6)
    # without a word of a sum, the two are not added
    out = run_json(
        "ask", "What were Summit's repurchases of common stock and dividends paid in 2023?"
    )
    assert out["headline"] is None or out["headline"]["value"] != pytest.approx(700e6)
    # a line less an amount metric of the same period: operating cash flow less free cash flow
    exceed = "By how much did Summit's operating cash flow exceed its free cash flow in 2023?"
    assert _stated(exceed) == pytest.approx(400e6)
