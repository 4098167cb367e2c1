"""Metrics a question defines in the words analysts write them: "Compute it as A divided by B,
to two decimal places", "Divide A by B", "Take EBIT as ...", a name followed by its formula in
parentheses, a row's name in quotation marks, "(cash flow statement)", "..., all at December
31, 2023", "each year, then averaged", "X, current plus non-current", two lines joined by
"and", a term the question abbreviates, a line the question names by a metric's name (the
"Gross margin" row), and the period asked beside the filing it is read from."""

from __future__ import annotations

from pathlib import Path

import pytest

from pageindex_platform.search.formula_words import translate
from pageindex_platform.search.metric_questions import defined_metrics, period_asked

from .conftest import ingest_once
from .helpers import annual_filing, ingest_files, run_json
from .helpers import stated_value as _stated
from .test_said_figures import TEXT

FILING = TEXT.replace(
    "Receivables, net 1,100 900", "Marketable securities 500 400\nReceivables, net 1,100 900"
).replace("Long-term debt 9,000 7,600", "Short-term debt 1,000 800\nLong-term debt 9,000 7,600")


@pytest.fixture
def acme(tmp_path: Path) -> None:
    files = {"acme-10k-2023.md": annual_filing(2023, FILING, name="ACME CORPORATION")}
    ingest_files(tmp_path / "acme", files)


DEFINED = [
    (
        "What was Acme's debt-to-equity ratio at December 31, 2023, where debt is short-term "
        "debt plus long-term debt and equity is total stockholders' equity, all from the "
        "consolidated balance sheet? Round to two decimal places.",
        10_000 / 8_000,
    ),
    (
        "From the income statement in Acme's 2023 Form 10-K, what was Acme's research margin "
        "for fiscal 2023, defined as (net revenue - research and development) / net revenue? "
        "Round to two decimal places.",
        (9000 - 1800) / 9000 * 100,
    ),
    (
        "What was Acme's effective income tax rate for fiscal year 2023? Compute it as the "
        "provision for taxes divided by income before taxes, to two decimal places.",
        200 / 1400 * 100,
    ),
    (
        "Calculate Acme's FY2023 EBITDA, in USD millions, as unadjusted operating income "
        "plus depreciation and amortization.",
        2000,
    ),
    (
        "What was Acme's free cash flow conversion for fiscal 2023, i.e., free cash flow "
        "(net cash provided by operating activities less capital expenditures) as a "
        "percentage of net income? Round to two decimal places.",
        1000 / 1200 * 100,
    ),
    (
        "What is Acme's FY2023 capex-to-depreciation ratio? Divide capital expenditures in "
        "the consolidated statement of cash flows by 'Depreciation and amortization' and "
        "round to two decimal places.",
        2.0,
    ),
    (
        "For fiscal 2023, how many dollars of operating cash flow did Acme generate per "
        "dollar of net income? Use net cash provided by operating activities divided by "
        "net income, two decimals.",
        2000 / 1200,
    ),
    (
        "What is Acme's FY2023 selling intensity? Selling intensity is defined as: "
        "marketing, general and administrative expense / net revenue. Round your answer to "
        "two decimal places, in percent.",
        1700 / 9000 * 100,
    ),
    (
        "What is Acme's FY2023 quick ratio? Quick ratio is defined as: (cash and cash "
        "equivalents + receivables, net) / total current liabilities, all at December 31, "
        "2023. Round your answer to two decimal places.",
        3100 / 3000,
    ),
    (
        "What was Acme's net debt at December 31, 2023? Compute it as long-term debt minus "
        "cash and cash equivalents and marketable securities, in USD millions.",
        9000 - 2500,
    ),
    (
        "What is Acme's 3-year average gross margin percentage over FY2021, FY2022 and "
        "FY2023 (gross margin divided by net revenue each year, then averaged)? Round to "
        "two decimal places.",
        (4400 / 8000 + 4700 / 8500 + 5000 / 9000) / 3 * 100,
    ),
    (
        "What was Acme's FY2023 EBITDA margin, with EBITDA = operating income + "
        "depreciation and amortization (cash flow statement)? Percent, two decimals.",
        2000 / 9000 * 100,
    ),
    (
        "By how many percentage points did Acme's operating margin (operating income "
        "divided by net revenue) change between fiscal 2022 and fiscal 2023? Round to two "
        "decimals.",
        (1500 / 9000 - 1400 / 8500) * 100,
    ),
    (
        "Calculate Acme's days sales outstanding for FY2023 as 365 x the average of "
        "receivables, net at December 31, 2022 and December 31, 2023, divided by FY2023 "
        "net revenue. Round to two decimals.",
        365 * 1000 / 9000,
    ),
    (  # "it" is the metric asked; where its terms are read, after a comma, is no term
        "What was Acme's debt-to-equity ratio at December 31, 2023? Define it as: (short-term "
        "debt + long-term debt) / total stockholders' equity, from the balance sheet in the "
        "2023 Form 10-K. Round to two decimal places.",
        10_000 / 8_000,
    ),
    (  # what the question says of a term in parentheses is no term
        "Compute Acme's fiscal 2023 payout of research. Define it as: research and development "
        "(the income statement's line) / net income (attributable to Acme), all from the "
        "consolidated statements of operations in the 2023 Form 10-K. Round to two decimals.",
        1800 / 1200,
    ),
    (
        "What percentage of Acme's fiscal 2023 net revenue went to research and development? "
        "Round to two decimal places.",
        1800 / 9000 * 100,
    ),
    (
        "How large was Acme's marketing, general and administrative expense relative to net "
        "revenue in fiscal 2023? Give the percentage to two decimal places.",
        1700 / 9000 * 100,
    ),
    (
        "How fast did Acme's net revenue grow in 2023 compared with 2022, per its 2023 Form "
        "10-K? Answer in percent to two decimals.",
        (9000 / 8500 - 1) * 100,
    ),
    (
        "Per Acme's 2023 Form 10-K, what was its year-over-year growth in net revenue for "
        "fiscal 2023? Round to two decimal places (percent).",
        (9000 / 8500 - 1) * 100,
    ),
]


def test_a_metric_the_question_defines_is_computed_as_it_says(acme: None) -> None:
    for question, value in DEFINED:
        assert _stated(question) == pytest.approx(value, abs=0.006), question


def test_a_formula_whose_term_the_filing_does_not_print_states_nothing(acme: None) -> None:
    out = run_json(
        "ask",
        "What was Acme's net debt at December 31, 2023? Compute it as long-term debt minus "
        "cash and cash equivalents and restricted cash, in USD millions.",
    )
    assert out["headline"] is None, out["answer"]


@pytest.mark.no_database
@pytest.mark.parametrize(
    ("words", "formula"),
    [
        (
            "free cash flow (cash from operations less capital expenditures) as a percentage "
            "of net income",
            "((cash from operations - capital expenditures)) / (net income)",
        ),
        (
            "its 2019 earnings before interest and taxes divided by the interest expense",
            "fy2019 earnings before interest and taxes / interest expense",
        ),
        (
            "operating income + depreciation and amortization (cash flow statement)",
            "operating income + depreciation and amortization  from the cash flow statement",
        ),
        (
            "notes payable and other borrowings, current plus non-current",
            "notes payable and other borrowings current + notes payable and other borrowings "
            "non-current",
        ),
        (
            "(current portion of long-term debt + long-term debt, less current portion) / equity",
            "(current portion of long-term debt + long-term debt net of current portion) / equity",
        ),
        (
            "operating cash flow minus 'Additions to property, plant and equipment'",
            "operating cash flow - Additions to property plant and equipment",
        ),
        (  # a comma closes the dividend
            "total current assets minus inventories, divided by total current liabilities",
            "(total current assets - inventories) / (total current liabilities)",
        ),
        (  # the parentheses define the name just before them, not the whole
            "capital expenditures divided by total revenues (services plus hardware)",
            "capital expenditures / (services + hardware)",
        ),
    ],
)
def test_how_a_question_writes_a_formula(words: str, formula: str) -> None:
    assert translate(words) == formula


@pytest.mark.no_database
def test_the_period_asked_beside_the_filing_it_is_read_from() -> None:
    question = (
        "From Acme's Form 10-Q for the quarter ended June 30, 2023, what was the EBITDA margin "
        "for the six months ended June 30, 2023, with EBITDA = income from operations + "
        "depreciation and amortization? Percent, two decimals."
    )
    assert period_asked(question).months == 6
    taken = defined_metrics(
        "What was Acme's debt-to-assets ratio? Treat debt as notes payable, current plus "
        "non-current, and divide by total assets; round to two decimals."
    )
    assert taken[" debt "].formula == "notes payable current + notes payable non-current"
    divided = defined_metrics(
        "What was Acme's 2023 SG&A as a share of revenue? Divide sales and marketing plus general "
        "and administrative by net revenues."
    )[" the question s formula "]
    assert (divided.formula, divided.percent) == (
        "(sales and marketing + general and administrative) / (net revenues)",
        True,
    )
    ebit = defined_metrics(
        "What was Acme's FY2023 EBIT margin? Take EBIT as operating income, and divide earnings "
        "before interest and taxes by total net sales."
    )
    assert ebit[" the question s formula "].formula == (
        "(earnings before interest and taxes) / (total net sales)"
    )
    assert ebit[" ebit "].formula == "operating income"


def test_a_line_named_within_another_things_name_is_not_stated(acme: None) -> None:
    """ "asset" in "the asset retirement obligation rollforward" and "income tax" in "the
    income tax note" name other things than Total assets and the provision for taxes: no
    headline, where the filing prints neither; the lines asked alone are still stated."""
    for question in (
        "According to the asset retirement obligation rollforward in Acme's 2023 Form 10-K, "
        "what was the balance of its asset retirement obligations at December 31, 2023?",
        "From the income tax note of Acme's 2023 10-K, what was the balance of unrecognized "
        "tax benefits at December 31, 2023?",
        # a thing the line is spent on is a part of it
        "What were Acme's capital expenditures on aircraft and related equipment in 2023?",
    ):
        out = run_json("ask", question)
        assert out["headline"] is None, out["answer"]
        assert "could be stated with confidence" in out["answer"]
    assert _stated("What were Acme's total assets at December 31, 2023?") == 20_000e6
    assert _stated("What was Acme's provision for taxes in fiscal 2023?") == 200e6
    assert _stated("What were Acme's capital expenditures in fiscal 2023?") == 1_000e6


def test_the_lines_asked_alone_are_stated_whatever_follows_their_names(acme: None) -> None:
    """Words after a line's name that end its phrase (a date, "outstanding", "on hand", where
    it is read) or a sentence after it set nothing aside."""
    for question, value in (
        ("What was Acme's FY2023 net income? If it was a loss, give it as a negative.", 1_200),
        ("What were Acme's inventories this year, at December 31, 2023?", 900),
        ("What were Acme's total assets on December 31, 2023?", 20_000),
        ("What was Acme's long-term debt outstanding at December 31, 2023?", 9_000),
        ("What was Acme's capital expenditure on the cash flow statement for fiscal 2023?", 1_000),
    ):
        assert _stated(question) == pytest.approx(value * 1e6), question


def test_where_a_term_is_read_and_its_own_period_are_kept_in_the_formula(acme: None) -> None:
    """A definition whose terms each say where or when they are read is computed with all
    its terms, or not stated: never one term alone, never two years read as one."""
    for question, value in (
        (
            "What was Acme's 2023 return on assets? Define it as: net income, from the income "
            "statement, divided by total assets, from the balance sheet. Answer in percent.",
            1_200 / 20_000 * 100,
        ),
        (
            "What was Acme's revenue growth? Define it as: (net revenue (FY2023) - net revenue "
            "(FY2022)) / net revenue (FY2022). Answer in percent, two decimals.",
            (9_000 - 8_500) / 8_500 * 100,
        ),
    ):
        headline = run_json("ask", question)["headline"]
        assert headline is None or headline["value"] == pytest.approx(value, abs=0.01), question


def test_a_share_no_row_gives_is_read_from_the_sentence_that_says_it(tmp_path: Path) -> None:
    """ "What share of revenues did X represent": where no row is X, the sentence that says
    the share is the answer, not "not computed"."""
    said = (
        "\n# Item 7. Management's Discussion and Analysis\n\nSubscription and support revenues "
        "represented 71%, 70% and 68% of our total revenues in fiscal 2023, 2022 and 2021, "
        "respectively.\n"
    )
    files = {"acme-10k-2023.md": annual_filing(2023, FILING + said, name="ACME CORPORATION")}
    ingest_files(tmp_path / "acme", files)
    assert _stated(
        "What share of Acme's total revenues did subscription and support revenues represent "
        "in fiscal 2023?"
    ) == pytest.approx(71)


SECTIONS = """# Item 6. Selected Financial Data

(in millions)
December 31, 2023 December 31, 2022
Non-recourse debt (noncurrent) 14,500 13,000

# Item 8. Financial Statements

CONSOLIDATED BALANCE SHEETS
(in millions)
December 31, 2023 December 31, 2022
Total current assets 3,000 2,800
Total assets 26,000 24,000
CURRENT LIABILITIES
Accounts payable 900 850
Non-recourse debt, including $273 and $258 related to VIEs 1,300 1,200
Notes payable and other borrowings, current 600 550
Total current liabilities 2,500 2,300
NONCURRENT LIABILITIES
Non-recourse debt, including $1,502 and $1,531 related to VIEs 14,500 13,000
Notes payable and other borrowings, non-current 9,000 8,700
Recourse debt 4,700 5,000
Total noncurrent liabilities 19,500 18,300
Total equity 5,700 5,400
"""


@pytest.fixture
def volta(tmp_path: Path) -> None:
    files = {"volta-10k-2023.md": annual_filing(2023, SECTIONS, name="VOLTA ENERGY CORP.")}
    ingest_once("volta", tmp_path / "volta", files)


def test_a_balance_sheet_row_named_by_its_section(volta: None) -> None:
    # "current non-recourse debt": the row so named in the current block, whatever its label
    # says it includes; "as printed on the balance sheet (...)" says where a term is read
    assert _stated(
        "What was Volta's total debt-to-equity ratio at December 31, 2023? Take total debt as "
        "current non-recourse debt plus noncurrent recourse debt plus noncurrent non-recourse "
        "debt, and equity as total equity as printed on the balance sheet (including "
        "noncontrolling interests). Round to two decimal places."
    ) == pytest.approx((1_300 + 4_700 + 14_500) / 5_700, abs=0.006)


def test_a_balance_asked_as_its_two_portions(volta: None) -> None:
    # "(current plus noncurrent portions)": each portion the balance sheet's row of its side
    # (a row under the block's total, or a row that prints its side after its name), added
    assert _stated(
        "What was Volta's total non-recourse debt (current plus noncurrent portions) at "
        "December 31, 2023?"
    ) == pytest.approx(15_800e6)
    assert _stated(
        "What were Volta's total notes payable and other borrowings (current plus non-current) "
        "at December 31, 2023?"
    ) == pytest.approx(9_600e6)
    # the term taken is the one asked
    assert _stated(
        "What was Volta's total non-recourse debt at December 31, 2023, taking total "
        "non-recourse debt as current non-recourse debt plus noncurrent non-recourse debt?"
    ) == pytest.approx(15_800e6)
    # a term taken for a ratio asked is an input, never the answer
    out = run_json(
        "ask",
        "Using Volta's balance sheet as of December 31, 2023, what was its debt-to-assets ratio? "
        "Treat debt as notes payable and other borrowings, current plus non-current, and divide "
        "by total assets; round to two decimals.",
    )
    assert out["headline"] is None or out["headline"]["value"] == pytest.approx(0.37, abs=0.01)
    # the side asked alone: the row of the balance sheet's current block, never a row that
    # says it is the noncurrent side
    current = "What was Volta's current non-recourse debt at December 31, 2023?"
    assert _stated(current) == pytest.approx(1_300e6)


PLAIN_SHEET = """# Item 8. Financial Statements

CONSOLIDATED BALANCE SHEETS
(in millions)
December 31, 2023 December 31, 2022
Total current assets 3,000 2,800
Total assets 26,000 24,000
LIABILITIES AND EQUITY
Accounts payable 900 850
Operating lease liabilities 100 90
Long-term debt, including current portion 4,000 3,800
Total current liabilities 2,500 2,300
Operating lease liabilities 700 650
Total liabilities 12,200 11,000
Total equity 13,800 13,000
"""


def test_a_section_names_the_block_its_totals_close_never_a_total(tmp_path: Path) -> None:
    files = {"volta-10k-2023.md": annual_filing(2023, PLAIN_SHEET, name="VOLTA ENERGY CORP.")}
    ingest_files(tmp_path / "volta", files)
    # no "Current liabilities" heading: the block is the one "Total current liabilities" closes
    assert _stated(
        "What was Volta's ratio of noncurrent operating lease liabilities to total equity at "
        "December 31, 2023? Take it as noncurrent operating lease liabilities divided by total "
        "equity. Round to four decimal places."
    ) == pytest.approx(700 / 13_800, abs=0.0001)
    # "noncurrent liabilities" is no row's name (not Total liabilities), nor is a row that
    # includes a part of another ("including current portion") the whole asked
    for asked in (
        "What was Volta's ratio of noncurrent liabilities to total equity at December 31, 2023? "
        "Take it as noncurrent liabilities divided by total equity. Round to two decimals.",
        "What was Volta's ratio of current long-term debt to total equity at December 31, 2023? "
        "Take it as current long-term debt divided by total equity. Round to two decimals.",
    ):
        out = run_json("ask", asked)
        headline = out["headline"]
        assert headline is None or headline["value"] not in (
            pytest.approx(12_200 / 13_800, abs=0.01),
            pytest.approx(4_000 / 13_800, abs=0.01),
        ), out["answer"]
