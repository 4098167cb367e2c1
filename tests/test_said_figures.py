"""Figures a question asks in words a filing says otherwise: a metric whose definition dates its
inputs ("average total assets between December 31, 2022 and December 31, 2023") while the
question names the year asked; one line over another with words said of a side ("(both from
the cash flow statement)", "for full-year 2023"); an amount of a list of yearly amounts that
another amount follows; an amount named before its verb ("what termination fee did Acme agree
to pay"); a count said under an abbreviation the question spells out; a percentage said of
another line that the thing asked drove; a size asked in a unit's symbol ("in MW")."""

from __future__ import annotations

from pathlib import Path

import pytest

from pageindex_platform.search.amount_lists import of_year
from pageindex_platform.search.amounts import AMOUNT
from pageindex_platform.search.formula_words import translate
from pageindex_platform.search.metric_questions import period_asked
from pageindex_platform.search.narrowing import place_check

from .helpers import annual_filing, ingest_files, run_json
from .helpers import stated_value as _stated

TEXT = """# Item 1. Business

We currently own and/or operate a generation portfolio of 29,352 MW, excluding the generation
capabilities of our integrated utilities.

# Item 7. Management's Discussion and Analysis

Net revenues increased $481 million, or 7%, in 2023 compared to the prior year, driven
primarily by growth in total payment volume (TPV).
TPV was $1,377 billion and $1,240 billion in 2023 and 2022, respectively, an increase of 11%.
Rent expense was $283 million, $290 million and $278 million for fiscal 2023, 2022 and 2021,
respectively, net of sublease income of approximately $45 million for each of fiscal 2023 and
2022.
Lease cost was $190 million, $180 million and $170 million for fiscal 2023, 2022 and 2021,
respectively, net of sublease income of approximately $15 million, $12 million and $9 million,
respectively.
On August 16, 2023, Acme terminated its merger agreement with Summit Semiconductor. In
accordance with the terms of the merger agreement, Acme will pay a termination fee of $353
million to Summit.
Our total unearned revenue as of December 31, 2022 was $7.9 billion, of which $6.3 billion was
recognized as revenue during the year ended December 31, 2023, and our total unearned revenue as
of December 31, 2023 was $10.2 billion.
Included in “Other long-term liabilities” on our consolidated balance sheets was $1.4 billion
and $2.0 billion of unearned revenue as of December 31, 2022 and 2023.
Rooms revenue increased 5% in 2023 compared to 2022, primarily due to a 4% increase in REVPAR.
Casino revenue decreased 8% in 2023 compared to 2022.
In 2023, Acme recorded a $40 million pre-tax charge related to its securitization.
As of December 31, 2023, Acme had access to approximately $2.6 billion of total liquidity
comprised of approximately $1.1 billion of cash and $1.5 billion of availability under its
credit facility.
As of December 31, 2023, we employed approximately 30,000 full-time employees, including
approximately 9,000 in sales and marketing, approximately 4,000 in our cloud services and
license support operations, approximately 6,000 in services and approximately 11,000 in
research and development.
Of these employees, approximately 12,000 were employed in the United States and
approximately 18,000 were employed internationally.
Acme's non-GAAP core earnings, which exclude non-core items, were $494 million, or $0.23 per
diluted share, in 2023.
We had active accounts of 431 million and 429 million as of December 31, 2023 and 2022,
respectively.
Transaction expense increased by $497 million, or 16%, and $963 million, or 16%, in 2023 and
2022, respectively, due primarily to the increase in TPV.
On June 5, 2023, Acme completed the sale of (i) $850,000,000 aggregate principal amount of
6.100% Notes due 2029, (ii) $1,150,000,000 aggregate principal amount of 6.400% Notes due 2033
and (iii) $500,000,000 aggregate principal amount of 6.750% Notes due 2053.
Net sales of our reportable segments were $11,656 million in 2023.
Executives approve each grant of restricted stock units of 62,500 or greater.
In 2023, Acme Solar's subsidiary in Chile completed a plant of 3.1 GW.
At the end of 2023, after a year of construction, our renewable generation in operation
totaled 6.5 GW.
The settlement provides for an aggregate of $13.5 billion in value to be provided by Acme
Corporation and its subsidiaries to settle all claims relating to the 2018 Camp fire and the
2017 Northern California wildfires.
The Company recognized $2.1 billion, $1.9 billion and $1.7 billion of interest cost on its
term debt for 2023, 2022 and 2021, respectively.
We recognized $16 million, $14 million and $11 million of operating overhead expense related to
cash awards under the Long-Term Incentive Plan for 2023, 2022 and 2021, respectively.
As of December 31, 2023, we had $8.5 billion of gross unrecognized income tax benefits,
including related interest and penalties, recorded on our consolidated balance sheet.
In August 2023, we entered into ASR agreements with financial institutions under which we paid
an aggregate of $10.0 billion and received an aggregate initial share delivery of 165.5 million
shares of our common stock. In total, 203.2 million shares were repurchased under the ASR
agreements at an average price per share of $49.20.
As of December 31, 2023, Acme had approximately 12,000 permanent full-time and approximately
8,000 permanent part-time drivers.
Over the next 24 hours, we will be letting approximately 120 contractors globally know that
their contracts will be terminated.
Our distribution business is located in Ruritania and distributes power to 1.2 million
customers in the country.
As of December 31, 2023, we had approximately 5,000 technicians primarily in the United States.

REVENUES BY GEOGRAPHY
(In millions)
Years Ended December 31,
2023 2022 2021
Total Revenues by Geography:
Americas 5,000 4,800 4,500
EMEA 2,500 2,400 2,300
Asia Pacific 1,500 1,300 1,200
Total revenues 9,000 8,500 8,000
Cloud Revenues:
Americas 2,000 1,800 1,500
EMEA 1,000 900 800
Asia Pacific 700 600 500

The following table provides Cloud service revenue for our reportable segments:
(In millions)
Years Ended December 31,
2023 2022 2021
Enterprise 600 550 500
Consumer 400 350 300
Total Cloud service revenue 1,000 900 800

U.S. and international components of income before income taxes are as follows (in millions):
Years Ended December 31,
2023 2022 2021
U.S. 1,000 900 800
International 400 400 400
Income before income taxes 1,400 1,300 1,200

GEOGRAPHIC INFORMATION
(In millions)
Years Ended December 31,
2023 2022 2021
Revenue:
U.S. 6,000 5,600 5,300
Other countries 3,000 2,900 2,700
Total revenue 9,000 8,500 8,000

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Years Ended December 31,
2023 2022 2021
Net revenue 9,000 8,500 8,000
Cost of sales 4,000 3,800 3,600
Gross margin 5,000 4,700 4,400
Research and development 1,800 1,700 1,600
Marketing, general and administrative 1,700 1,600 1,500
Total operating expenses 3,500 3,300 3,100
Operating income 1,500 1,400 1,300
Interest and other, net (100) (100) (100)
Income before taxes 1,400 1,300 1,200
Provision for taxes 200 200 200
Net income 1,200 1,100 1,000

# Cash Flows

CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
Years Ended December 31,
2023 2022 2021
Cash flows from operating activities:
Net income 1,200 1,100 1,000
Depreciation and amortization 500 480 460
Share-based compensation 150 140 130
Changes in working capital 150 180 210
Net cash provided by operating activities 2,000 1,900 1,800
Capital expenditures (1,000) (900) (800)
Net cash used in investing activities (1,000) (900) (800)
Repurchases of common stock (10,000) (200) (150)
Net cash used in financing activities (10,000) (200) (150)
Net change in cash (9,000) 800 850

# Balance Sheets

CONSOLIDATED BALANCE SHEETS
(In millions)
December 31, 2023 December 31, 2022
Cash and cash equivalents 2,000 1,800
Receivables, net 1,100 900
Inventories 900 1,100
Total current assets 4,000 3,800
Property, plant and equipment, net 9,000 8,200
Goodwill 7,000 6,000
Total assets 20,000 18,000
Total current liabilities 3,000 2,900
Long-term debt 9,000 7,600
Total liabilities 12,000 10,500
Total stockholders' equity 8,000 7,500
"""


@pytest.fixture
def acme(tmp_path: Path) -> None:
    files = {"acme-10k-2023.md": annual_filing(2023, TEXT, name="ACME CORPORATION", symbol="ACMX")}
    ingest_files(tmp_path / "acme", files)


def _not_stated_as(question: str, not_this: float) -> None:
    """The answer states no figure, or another one than `not_this`."""
    out = run_json("ask", question)
    headline = out["headline"]
    assert headline is None or headline["value"] != pytest.approx(not_this, rel=1e-3), out["answer"]


def test_metrics_the_question_defines_with_dated_or_described_inputs(acme: None) -> None:
    # the dates of a definition's inputs are not the year asked
    roa = _stated(
        "What was Acme's FY2023 return on assets? Define ROA as FY2023 net income / average "
        "total assets between December 31, 2022 and December 31, 2023. Express as a percentage "
        "rounded to two decimal places."
    )
    assert roa == pytest.approx(1200 / 19000 * 100, abs=0.01)
    dso = _stated(
        "What were Acme's days sales outstanding for fiscal year 2023? Define DSO as (average of "
        "receivables, net at December 31, 2022 and December 31, 2023) / FY2023 revenue x 365. "
        "Round to two decimal places."
    )
    assert dso == pytest.approx(1000 / 9000 * 365, abs=0.01)
    # words said of a side, in parentheses or after it, are not its name
    assert _stated(
        "For Acme in FY2023, what was the ratio of capital expenditures to depreciation and "
        "amortization (both from the cash flow statement)? Round to two decimal places."
    ) == pytest.approx(2.0)
    assert _stated(
        "What was Acme's research and development expense as a percentage of net revenue for "
        "full-year 2023, on a GAAP basis? Round to one decimal place."
    ) == pytest.approx(20.0)


def test_figures_asked_in_the_words_analysts_use(acme: None) -> None:
    # "Define X as ...": an input of the metric asked, or the metric asked itself
    assert _stated(
        "What was Acme's debt-to-equity ratio at the end of FY2023? Define total debt as "
        "long-term debt plus total current liabilities, divided by total stockholders' equity. "
        "Round to two decimal places."
    ) == pytest.approx(1.5)
    assert _stated(
        "What was Acme's FY2023 gross margin percentage? Define gross margin as net revenue minus "
        "cost of sales, divided by net revenue. Round to two decimals."
    ) == pytest.approx(55.56)
    # an average "between FY2022 and FY2023 year-ends"
    assert _stated(
        "What is Acme's FY2023 inventory turnover ratio? Inventory turnover is defined as: FY2023 "
        "cost of sales / (average inventories between FY2022 and FY2023 year-ends). Round your "
        "answer to two decimal places."
    ) == pytest.approx(4.0)
    # a line's change in percent from one year to the next is one figure, not a series
    assert _stated(
        "By what percentage did Acme's net revenue change from FY2022 to FY2023?"
    ) == pytest.approx(5.9, abs=0.05)
    assert _stated(
        "What was the percentage change in Acme's operating income from FY2022 to FY2023?"
    ) == pytest.approx(7.1, abs=0.05)
    # an amount said before what it is of ("$2.6 billion of total liquidity comprised of ...")
    assert _stated(
        "As of December 31, 2023, how much total liquidity did Acme have access to? Answer in "
        "USD billions."
    ) == pytest.approx(2.6)  # in the unit asked
    # the whole amount where the question says "not per share"
    assert _stated(
        "How much were Acme's non-GAAP core earnings in 2023 in dollar terms (not per share)?"
    ) == pytest.approx(494e6)
    # of the parts a word goes with, the one named by the question's words alone
    assert _stated(
        "Roughly how many of Acme's full-time employees worked in services as of December 31, 2023?"
    ) == pytest.approx(6000)


def test_figures_said_in_sentences_of_other_shapes(acme: None) -> None:
    # a count after its noun ("active accounts of 431 million and 429 million"), by its year
    asked = "How many active accounts did Acme have as of December 31, {}?"
    assert _stated(asked.format(2023)) == pytest.approx(431e6)
    assert (run_json("ask", asked.format(2022))["headline"] or {}).get("value") != 431e6
    # an amount no line item names, said by its abbreviation; never a change listed after
    # "increased by", nor an amount of what a cause clause explains; "what were" a list is
    # not an amount
    assert run_json("ask", "What were Acme's reportable segments in 2023?")["headline"] is None
    tpv = "How much was Acme's total payment volume (TPV) in {}?"
    assert _stated(tpv.format(2023)) == pytest.approx(1377e9)
    assert _stated(tpv.format(2022)) == pytest.approx(1240e9)
    # the total of amounts listed of one kind, where a total is asked; else the one named
    assert _stated(
        "What was the total aggregate principal amount of the notes Acme sold on June 5, 2023?"
    ) == pytest.approx(2.5e9)
    assert _stated(
        "What aggregate principal amount of 6.400% Notes due 2033 did Acme sell on June 5, 2023?"
    ) == pytest.approx(1.15e9)
    # an amount of a line item booked for the thing asked ("of operating overhead expense
    # related to cash awards") is the amount asked
    assert _stated(
        "How much were Acme's cash awards under the Long-Term Incentive Plan in 2023?"
    ) == pytest.approx(16e6)
    # a threshold is no count: "units of 62,500 or greater"
    assert (
        run_json("ask", "How many restricted stock units did Acme grant in 2023?")["headline"]
        is None
    )
    # "Define debt as": an input, though the metric's name holds the word
    assert _stated(
        "What was Acme's debt-to-equity ratio at the end of FY2023? Define debt as long-term "
        "debt plus total current liabilities. Round to two decimal places."
    ) == pytest.approx(1.5)
    # "noncurrent" says the balance sheet's side of a line, not a part of the company
    assert _stated(
        "What noncurrent long-term debt did Acme carry on its balance sheet as of December 31, "
        "2023?"
    ) == pytest.approx(9000e6)
    # a size in a unit's symbol, with its decimals, the company's own where it says "our"
    assert _stated(
        "How large (in GW) was Acme's renewable generation in operation at the end of 2023?"
    ) == pytest.approx(6.5)
    # a year naming an event ("the 2018 Camp fire") is not the period of the amount
    assert _stated(
        "Under the settlement described in Acme's 2023 10-K, what aggregate value was to be "
        "provided to settle the wildfire claims?"
    ) == pytest.approx(13.5e9)


def test_dates_that_do_not_end_the_year_named_are_not_read_as_its_average(acme: None) -> None:
    out = run_json(
        "ask",
        "What was Acme's return on assets for fiscal 2023, defined as net income divided by the "
        "average of total assets at December 31, 2021 and December 31, 2022?",
    )
    assert out["headline"] is None, out["answer"]


def test_what_a_line_includes_is_read_from_the_sentence_that_says_it(acme: None) -> None:
    assert _stated(
        "How much unearned revenue was included in Acme's other long-term liabilities as of "
        "December 31, 2023?"
    ) == pytest.approx(2.0e9)


def test_the_company_named_by_its_symbol_is_the_whole(acme: None) -> None:
    assert _stated("What was ACMX's net revenue in 2023, in USD millions?") == pytest.approx(9000)


def test_amounts_and_counts_said_in_other_words(acme: None) -> None:
    # of yearly amounts that another amount follows, the year asked's
    assert _stated(
        "What was Acme's rent expense (net of sublease income) for fiscal 2022, in USD millions?"
    ) == pytest.approx(290)
    # the amount named before its verb; "will pay" is what a question of an agreement asks
    assert _stated(
        "What termination fee did Acme agree to pay Summit Semiconductor when it terminated the "
        "merger agreement in August 2023, in USD millions?"
    ) == pytest.approx(353)
    # a fee asked without its unit, the parties told as "the two companies", "how large a"
    assert _stated(
        "What termination fee did Acme agree to pay Summit Semiconductor when the two companies "
        "terminated their merger agreement in August 2023?"
    ) == pytest.approx(353e6)
    assert _stated(
        "How large a termination fee did Acme agree to pay Summit Semiconductor when it ended "
        "their merger agreement in August 2023?"
    ) == pytest.approx(353e6)
    # "ASR" in the filing is the "accelerated share repurchase (ASR)" the question spells out;
    # "Answer in millions of shares" is no word a sentence must say
    assert _stated(
        "How many shares of its common stock did Acme repurchase in total under the accelerated "
        "share repurchase (ASR) agreements it entered into in August 2023? Answer in millions "
        "of shares."
    ) == pytest.approx(203.2e6)
    # a percentage of the line the volume drove is not the volume's growth
    assert _stated(
        "By what percentage did Acme's total payment volume (TPV) increase in 2023 compared "
        "with 2022?"
    ) == pytest.approx(11)
    assert _stated(
        "According to Acme's annual report for fiscal 2023, how large (in MW) was the generation "
        "portfolio Acme owned and/or operated, excluding the generation capabilities of its "
        "integrated utilities?"
    ) == pytest.approx(29352)


def test_differences_asked_in_other_words(acme: None) -> None:
    assert _stated(
        "By how much did Acme's net revenue in 2023 exceed its cost of sales?"
    ) == pytest.approx(5000e6)
    assert _stated(
        "What was the difference between Acme's research and development and its marketing, "
        "general and administrative expenses in 2022?"
    ) == pytest.approx(100e6)
    assert _stated(
        "How much more did Acme spend on research and development than on marketing, general "
        "and administrative in 2023?"
    ) == pytest.approx(100e6)
    # one line in two years: their difference or their sum, never one year's figure
    assert _stated("How much higher was Acme's net revenue in 2023 than in 2022?") == pytest.approx(
        500e6
    )
    assert _stated("What were Acme's net revenues in 2023 and 2022 combined?") == pytest.approx(
        17500e6
    )
    # one year's line is no average of two; a balance is no change over the year
    for question, line in (
        ("What was the average of Acme's net revenue in 2022 and 2023?", 9000e6),
        ("What was the net change in Acme's cash and cash equivalents during 2023?", 2000e6),
        ("What was the year-over-year change in Acme's operating income in 2023?", 1500e6),
    ):
        _not_stated_as(question, line)
    # a metric is no difference of two figures: stated as the answer, it would be wrong
    out = run_json(
        "ask",
        "What was the difference between Acme's gross margin and its operating income in 2023?",
    )
    headline = out["headline"]
    assert headline is None or headline["value"] == pytest.approx(3500e6), out["answer"]


def test_a_region_and_a_total_of_listed_counts(acme: None) -> None:
    # a region's row of the whole line's table by geography, not of a part's ("Cloud")
    assert _stated(
        "What total revenues did Acme generate in its Asia Pacific region in 2022?"
    ) == pytest.approx(1300e6)
    assert _stated("What were Acme's Americas revenues in 2023?") == pytest.approx(5000e6)
    assert _stated(
        "How much higher were Acme's Americas revenues than its EMEA revenues in 2023?"
    ) == pytest.approx(2500e6)
    # the home country and the rest of the world by the rows such tables name them by
    assert _stated("How much revenue did Acme generate outside the U.S. in 2022?") == pytest.approx(
        2900e6
    )
    assert _stated("What was Acme's revenue in the United States in 2023?") == pytest.approx(6000e6)
    # a part's share of the whole line: its row over the line of the same period
    assert _stated(
        "What share of Acme's total revenues in 2023 came from the EMEA region?"
    ) == pytest.approx(2500 / 9000 * 100, abs=0.01)
    assert _stated(
        "What percentage of Acme's 2022 revenue was generated outside the U.S.?"
    ) == pytest.approx(2900 / 8500 * 100, abs=0.01)
    # a part's line in a place is not the whole line's row of that place, nor a row of
    # another line's table named as the place ("U.S." of income before taxes)
    for question, not_this in (
        ("What was Acme's cloud revenue in the Americas in 2023?", 5000e6),
        ("What were Acme's U.S. revenues in 2022?", 900e6),
    ):
        _not_stated_as(question, not_this)
    # a place no row names: the whole company's revenue is not its figure
    out = run_json("ask", "What revenue did Acme generate in Japan in 2023?")
    assert out["headline"] is None, out["answer"]
    # the counts a sentence lists by kind, added where the question asks their total
    assert _stated(
        "How many permanent drivers in total (full-time plus part-time) did Acme have as of "
        "December 31, 2023?"
    ) == pytest.approx(20000)
    assert _stated(
        "What was Acme's combined number of permanent full-time and permanent part-time "
        "drivers as of December 31, 2023?"
    ) == pytest.approx(20000)
    assert _stated(
        "How many permanent full-time drivers did Acme have as of December 31, 2023?"
    ) == pytest.approx(12000)
    # a count of the whole a sentence names first ("Of these employees, approximately ...")
    assert _stated(
        "Of Acme's roughly 30,000 full-time employees as of December 31, 2023, approximately "
        "how many were employed in the United States?"
    ) == pytest.approx(12000)
    assert _stated(
        "As of December 31, 2023, how many Acme employees were employed internationally?"
    ) == pytest.approx(18000)
    # the date's month is no word of what is counted
    assert _stated(
        "As of December 31, 2023, approximately how many of Acme's full-time employees were "
        "employed internationally (outside the United States)?"
    ) == pytest.approx(18000)
    # a place said "primarily" of the whole count does not make it a part's
    assert _stated("How many technicians did Acme have at the end of 2023?") == pytest.approx(5000)
    # who the question says told the figure is no word the sentence must say
    assert _stated(
        "Approximately how many Acme contractors did CEO Jane Roe say would be told their "
        "contracts were being terminated?"
    ) == pytest.approx(120)


@pytest.mark.parametrize(
    ("question", "not_this"),
    [
        # "Net revenues increased ... 7%" says net revenues, not net transaction revenues
        ("By what percentage did Acme's net transaction revenues increase in 2023?", 7),
        # the rooms revenue's increase, which REVPAR drove, and a decrease, are not REVPAR's
        ("By what percentage did REVPAR at Acme's resorts increase in 2023?", 5),
        ("By what percentage did REVPAR at Acme's resorts increase in 2023?", 8),
        # a list of amounts whose years are of another clause: not the year's amount
        ("How much of Acme's unearned revenue was recognized as revenue during 2023?", 7.9e9),
        # the part one line includes is not the whole
        ("How much was Acme's total unearned revenue as of December 31, 2023?", 2.0e9),
        # a charge that names no fire is not the fire's
        (
            "How much in pre-tax charges did Acme recognize related to the Mosquito fire in 2023?",
            40e6,
        ),
        # the list the years follow is lease cost's; sublease income's has no years of its own
        ("How much sublease income did Acme net against its lease cost in fiscal 2022?", 180e6),
        # an amount that takes in what is not asked is not the balance asked
        (
            "What was Acme's gross unrecognized income tax benefits balance as of December 31, "
            "2023, in USD millions?",
            8500,
        ),
        # an amount of one thing said of another ("of interest cost on its term debt")
        ("What was Acme's total term debt as of December 31, 2023?", 2.1e9),
        # another word inside a row's name names another thing
        ("What was Acme's operating lease expense in 2023?", 3500e6),
        # an amount of one transaction is no statement line's
        ("What cash consideration did Acme receive for the sale of The Cosmopolitan?", 9000e6),
        # a part named by its kind, or by what the revenue came from, is not the whole line
        ("What was the 2023 revenue of Acme's Datacenter and AI (DCAI) group?", 9000e6),
        ("What was Acme's revenue from cloud license and on-premise license in 2023?", 9000e6),
        # a name in capitals the whole line's label does not carry: a part's
        ("What was Acme's full-year 2023 revenue of the DCAI group, in USD millions?", 9000),
        ("What was Acme's CCG net revenue in 2023, in USD millions?", 9000),
        # balances two years apart are no average of a year
        (
            "What was Acme's asset turnover for fiscal 2023, defined as net revenue divided by the "
            "average of total assets at December 31, 2021 and December 31, 2023?",
            9000 / 19000,
        ),
        # a count the sentence says of a place the question does not name
        ("How many customers did Acme distribute power to in 2023?", 1.2e6),
        # a place the question names that the sentence does not: the whole portfolio's size
        (
            "According to Acme's annual report for fiscal 2023, how large (in MW) was the "
            "generation portfolio Acme owned and/or operated in Ruritania, excluding the "
            "generation capabilities of its integrated utilities?",
            29352,
        ),
        # a row of one service's revenue by segment is not the segment's revenue
        ("What share of Acme's 2023 net revenue came from the Enterprise segment?", 600 / 90),
        # a segment's share is not the company's
        (
            "What was Acme's operating income as a percentage of net revenue (North America "
            "segment only, 2023)?",
            1500 / 9000 * 100,
        ),
    ],
)
def test_a_figure_of_something_else_is_not_stated(
    acme: None, question: str, not_this: float
) -> None:
    _not_stated_as(question, not_this)


@pytest.mark.no_database
def test_what_a_definition_says_of_its_inputs_dates() -> None:
    question = (
        "What were Acme's days sales outstanding for fiscal year 2023? Define DSO as (average of "
        "receivables, net at May 31, 2022 and May 31, 2023) / FY2023 revenue x 365."
    )
    period = period_asked(question)
    assert period.years == (2023,) and period.end is None
    assert set(period.mentioned) == {2022, 2023}  # every year written still routes
    assert translate("(average of receivables, net at May 31, 2022 and May 31, 2023) x 365") == (
        "(average(receivables net))*365"
    )


@pytest.mark.no_database
@pytest.mark.parametrize(
    ("core", "year", "amount"),
    [
        (["internally", "developed", "software"], 2021, "$39.2 million"),
        (["amortization", "expense"], 2021, "$33.4 million"),
        # what was done (recognized) counts as much as what it was done to: no list wins
        (
            ["amortization", "expense", "internally", "developed", "software", "recognize"],
            2021,
            None,
        ),
    ],
)
def test_of_lists_of_yearly_amounts_the_one_whose_words_are_asked(
    core: list[str], year: int, amount: str | None
) -> None:
    # each list's words follow its amounts up to its "respectively"
    sentence = (
        "The Company capitalized $39.2 million and $42.0 million of internally developed "
        "software during 2021 and 2020, respectively, and recognized $33.4 million and $28.5 "
        "million of amortization expense during 2021 and 2020, respectively."
    )
    found = of_year(sentence, list(AMOUNT.finditer(sentence)), year, core)
    assert (found.group(0) if found else None) == amount


@pytest.mark.no_database
def test_lists_of_amounts_share_the_years_written_once() -> None:
    sentence = (
        "Interest expense, net of capitalized interest, was $859 million, $615 million and $517 "
        "million, and interest income was $21 million, $15 million and $8 million in 2015, 2014 "
        "and 2013, respectively."
    )
    listed = list(AMOUNT.finditer(sentence))
    expense = of_year(sentence, listed, 2014, ["interest", "expense"])
    income = of_year(sentence, listed, 2014, ["interest", "income"])
    assert expense is not None and expense.group(0) == "$615 million"
    assert income is not None and income.group(0) == "$15 million"


GLOSSARY = """# Glossary

The following terms and abbreviations appearing in the text of this report have the meanings
indicated below.
FERC Federal Energy Regulatory Commission
Utility Acme Power Company

# Item 1. Business

The Utility's electricity distribution network consists of approximately 18,500 circuit miles
of distribution lines.
Acme's seven utility businesses distribute power to 2.5 million people in three countries.
We generated approximately 38% of our net revenues from customers domiciled outside of the
U.S. in 2023 as compared to 41% in 2022.
"""
SETTLEMENT = """# Item 3. Legal Proceedings

On May 31, 2023, Acme Power Company (the “Utility”) and the Ridge County District Attorney
reached an agreement resolving the criminal charges related to the 2020 Ridge fire.
Subject to the terms and conditions of the agreement, the Utility will pay a total of $50
million, which will not be recoverable through rates.
"""


@pytest.mark.parametrize(
    ("body", "question", "value"),
    [
        # "the Utility" is the Acme Power Company the question names in full: defined in
        # parentheses, or by a glossary's line
        (
            SETTLEMENT,
            "Under Acme Holdings' May 31, 2023 agreement with the Ridge County District "
            "Attorney over the 2020 Ridge fire, how much in total will Acme Power Company pay?",
            50e6,
        ),
        (
            GLOSSARY,
            "According to Acme Holdings' 2023 Form 10-K, approximately how many circuit miles "
            "of distribution lines made up Acme Power Company's electricity distribution "
            "network?",
            18_500,
        ),
        # a count said with every other word asked: how many there are
        (
            GLOSSARY,
            "According to Acme Holdings' 2023 Form 10-K, to how many people did its utility "
            "businesses distribute power?",
            2.5e6,
        ),
        # "38% of our net revenues from customers ...": the part named after the figure, not
        # before the next one
        (
            GLOSSARY,
            "Approximately what percentage of Acme Holdings' net revenues in 2023 came from "
            "customers domiciled outside the U.S.?",
            38,
        ),
    ],
)
def test_figures_said_of_short_names_verbs_and_parts_the_question_writes(
    tmp_path: Path, body: str, question: str, value: float
) -> None:
    files = {"acme-10k-2023.md": annual_filing(2023, body, name="ACME HOLDINGS CORP")}
    ingest_files(tmp_path / "acme", files)
    assert _stated(question) == pytest.approx(value)


def test_a_share_of_another_year_in_the_same_sentence_is_not_the_years_asked(
    tmp_path: Path,
) -> None:
    files = {"acme-10k-2023.md": annual_filing(2023, GLOSSARY, name="ACME HOLDINGS CORP")}
    ingest_files(tmp_path / "acme", files)
    # "38% ... in 2023 as compared to 41% in 2022": 38% is 2023's
    _not_stated_as(
        "Approximately what percentage of Acme Holdings' net revenues in 2022 came from "
        "customers domiciled outside the U.S.?",
        38,
    )


def test_a_place_asked_is_named_in_the_figure_s_own_words() -> None:
    asked = "How large (in MW) was Acme's generation portfolio in Ruritania?"
    # the place listed after the whole figure does not make it the place's
    whole = "Acme owns 29,352 MW in 14 countries, including Ruritania and Elbonia."
    assert not place_check(asked, whole, "29,352").passed
    own = "Acme has 1,055 MW of installed capacity in Ruritania, including the 550 MW Golfo plant."
    assert place_check(asked, own, "1,055").passed
    # the place's adjective names it; two places asked are each named
    assert place_check(
        "What did Acme earn in Europe?", "European sales were $4 million.", "4"
    ).passed
    both = "What was Acme's capacity in Ruritania and Elbonia?"
    assert not place_check(both, "Ruritania plants hold 300 MW.", "300").passed
