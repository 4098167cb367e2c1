"""Figures read from statement tables, stated for the line item and period asked, and
standard metrics computed with their working shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from pageindex_platform.index.tables import label_key, read_tables
from pageindex_platform.records import PageText
from pageindex_platform.search.figures import Figure, LineItem
from pageindex_platform.search.formula_words import translate
from pageindex_platform.search.formulas import FormulaError, parse_formula
from pageindex_platform.search.line_shares import line_share
from pageindex_platform.search.metric_questions import asked, defined_metrics, metric_in
from pageindex_platform.search.metrics import Catalogue, Metric
from pageindex_platform.search.vocabulary import Vocabulary
from pageindex_platform.search.working import MissingInput, Working, compute

from .helpers import run_json

INCOME = """NIKE, INC.
CONSOLIDATED STATEMENTS OF INCOME
YEAR ENDED MAY 31,
(In millions, except per share data) 2021 2020 2019
Revenues $ 44,538 $ 37,403 $ 39,117
Cost of sales 24,576 21,162 21,643
Other (income) expense, net 14 139 (78)
Earnings per common share:
Diluted $ 3.56 $ 1.60 $ 2.49
Net sales $ 3,226,773 100.0% $ 2,729,388 100.0% $ 1 100.0%
"""
BALANCE = """Consolidated Balance Sheet
December 31, December 31,
(Dollars in millions, except per share amount) 2018 2017
Property, plant and equipment 24,873 24,914
Property, plant and equipment — net 8,738 8,866
Revenue increased 12% in 2018 compared with 2017, to $ 5 and $ 4
"""


@pytest.mark.no_database
def test_rows_are_read_with_periods_scale_and_negatives() -> None:
    figures = read_tables([PageText(7, INCOME)], period_end="2021-05-31", fiscal_year=2021)
    rows = {(f.label, f.period_end): f for f in figures}
    revenue = rows[("Revenues", "2021-05-31")]
    assert revenue.value == 44_538e6 and revenue.decimals == -6 and revenue.page == 7
    assert revenue.period_start == "2020-06-01" and revenue.source == "table"
    assert rows[("Other (income) expense, net", "2019-05-31")].value == -78e6
    eps = rows[("Diluted", "2021-05-31")]
    assert eps.value == 3.56 and eps.unit.endswith("/xbrli:shares")  # per share: no scale
    assert rows[("Net sales", "2020-05-31")].value == 2_729_388e6  # the % columns left out


@pytest.mark.no_database
def test_a_dash_inside_a_label_and_prose_are_not_cells() -> None:
    figures = read_tables([PageText(58, BALANCE)], period_end="2018-12-31")
    net = [f for f in figures if f.label == "Property, plant and equipment — net"]
    assert [(f.value, f.period_end, f.period_start) for f in net] == [
        (8_738e6, "2018-12-31", None),
        (8_866e6, "2017-12-31", None),
    ]
    assert not [f for f in figures if "Revenue increased" in (f.label or "")]
    assert label_key("Total net sales") == "net sale"
    assert label_key("Property, plant and equipment — net") == "property plant and equipment net"


NOTE_COSTS = """The following table presents share-based compensation cost (in millions):
Year ended December 31, December 31,
2022 2021 2020 2022
Time-based restricted stock units $ 111 $ 94 $ 95 $ 150
Other (1) 5 8
Total share-based compensation cost (1) $ 175 $ 190 $ 207
(1) The income tax benefit realized was $16 million, $37 million and $12 million.
"""


@pytest.mark.no_database
def test_a_footnote_s_marker_after_a_label_is_no_cell() -> None:
    # "(1)" before a row's "$" cells marks a footnote: read as a cell, it shifted each figure
    # one column (-1 for 2022, 175 for 2021, 207 for the unrecognized cost); three figures
    # under four columns are not read at all
    figures = read_tables([PageText(99, NOTE_COSTS)], period_end="2022-12-31")
    assert not [f for f in figures if (f.label or "").startswith("Total")]
    rows = NOTE_COSTS.replace("2022 2021 2020 2022", "2022 2021 2020").replace(" $ 150", "")
    total = {
        f.period_end: f.value / 1e6
        for f in read_tables([PageText(99, rows)], period_end="2022-12-31")
        if f.label == "Total share-based compensation cost"  # the marker not in its label
    }
    assert total == {"2022-12-31": 175, "2021-12-31": 190, "2020-12-31": 207}


MCD_OPERATING = """OPERATING INCOME
Operating income
Increase/(decrease)
Amount Increase/(decrease) excluding currency translation
Dollars in millions 2022 2021 2020 2022 2021 2022 2021
U.S. $ 5,136 $4,755 $3,789 8 % 25 % 8 % 25 %
International Operated Markets 3,926 5,130 3,315 (23) 55 (13) 48
EMEA (1) 2,618 2,464 2,221 154 243 6 11
"""


@pytest.mark.no_database
def test_years_repeated_in_a_header_head_the_changes() -> None:
    # "2022 2021 2020 2022 2021": the second 2022 and 2021 head each year's change
    figures = read_tables([PageText(17, MCD_OPERATING)], period_end="2022-12-31")
    markets = [
        (f.period_end, f.value / 1e6)
        for f in figures
        if f.label == "International Operated Markets"
    ]
    assert markets == [("2022-12-31", 3_926), ("2021-12-31", 5_130), ("2020-12-31", 3_315)]
    # a footnote's marker after the label, no "$" after it: not the first year's figure
    emea = [f.value / 1e6 for f in figures if f.label == "EMEA"]
    assert emea == [2_618, 2_464, 2_221]


FISCAL_YEARS = """Certain Consolidated Statements of Earnings amounts are as follows:
Fiscal Year
In Millions 2022 2021 2020
Research and development expense 243.1 239.3 224.4
"""


SPLIT_SCALE = """The following tables provide a summary of the revenue for our Seller segment (in
thousands):
Year Ended December 31,
2020 2019 $ Change % Change
Net revenue $ 3,529,192 $ 3,461,988 $ 67,204 2 %
"""


@pytest.mark.no_database
def test_a_scale_said_across_two_lines_scales_the_rows() -> None:
    figures = read_tables([PageText(66, SPLIT_SCALE)], period_end="2020-12-31")
    assert [f.value for f in figures] == [3_529_192e3, 3_461_988e3]


REGION = """GREATER CHINA
% CHANGE
EXCLUDING
CURRENCY
(Dollars in millions) FISCAL 2023 FISCAL 2022 % CHANGE CHANGES FISCAL 2021 % CHANGE CHANGES
Revenues by:
Apparel $ 1,666 $ 1,938 -14 % -7 % $ 2,347 -17 % -21 %
"""


@pytest.mark.no_database
def test_columns_headed_fiscal_year_are_years_not_dates() -> None:
    # "Fiscal Year" over bare years: each column a year's flow, not a balance at its end
    figures = read_tables([PageText(87, FISCAL_YEARS)], period_end="2022-05-29")
    spans = {(f.period_start, f.period_end): f.value / 1e6 for f in figures}
    assert spans[("2021-05-30", "2022-05-29")] == pytest.approx(243.1)
    assert all(start is not None for start, _ in spans)
    # "FISCAL 2023 FISCAL 2022 % CHANGE ... CHANGES": a header of years and their changes
    figures = read_tables([PageText(43, REGION)], period_end="2023-05-31")
    assert [(f.period_start, f.value / 1e6) for f in figures] == [
        ("2022-06-01", 1_666),
        ("2021-06-01", 1_938),
        ("2020-06-01", 2_347),
    ]


ALLOWANCES = """CONSOLIDATED BALANCE SHEETS
(in millions) May 31, 2020 May 31, 2019
ASSETS
CURRENT ASSETS
Cash and cash equivalents
$ 37,239 $ 20,514
Trade receivables, net of allowances for doubtful accounts of $409 and $371 as of May 31, 2020
and May 31, 2019, respectively 5,551 5,134
Accounts receivable, net of allowance for doubtful accounts of $111 and $87, respectively
2,166 2,302
Balance at May 31, 2019 7,155
"""


@pytest.mark.no_database
def test_dates_and_amounts_a_label_says_are_not_its_cells() -> None:
    figures = read_tables([PageText(71, ALLOWANCES)], period_end="2020-05-31")
    rows: dict[str, list[float]] = {}
    for f in figures:
        rows.setdefault((f.label or "").split(",")[0], []).append(f.value / 1e6)
    assert rows == {
        "Cash and cash equivalents": [37_239, 20_514],  # under a heading in capitals
        "Trade receivables": [5_551, 5_134],
        "Accounts receivable": [2_166, 2_302],
    }  # "Balance at May 31, 2019 7,155" has one cell for two columns: no row
    # the amounts a label says it is net of are no part of its name
    assert label_key(next(f.label or "" for f in figures if "Trade" in (f.label or ""))) == (
        "trade receivable"
    )
    assert label_key("Revenues, net of interest expense") == "revenue net of interest expense"


SPLIT = """CONSOLIDATED STATEMENTS OF OPERATIONS
Years ended December 31,
(in millions) 2015 2014 2013
INCOME FROM CONTINUING OPERATIONS BEFORE TAXES 1,122 1,576 1,048
Income tax expense
(465) (419) (343)
Net equity in earnings of affiliates
105 19 25
The decrease was driven by lower results in
2014
Total 1,995
Other items, net:
12 14 16
BLOCKS
(in millions) 2015 2014 2013
Net sales
Cost of sales
Gross profit
$ 4,000 $ 3,700 $ 3,400
2,400 2,300 2,200
1,600 1,400 1,200
"""


@pytest.mark.no_database
def test_a_row_printed_below_its_label_is_read_with_it() -> None:
    figures = read_tables([PageText(141, SPLIT)], period_end="2015-12-31", fiscal_year=2015)
    rows = {(f.label, f.period_end): f.value for f in figures}
    assert rows[("Income tax expense", "2015-12-31")] == -465e6
    assert rows[("Net equity in earnings of affiliates", "2013-12-31")] == 25e6
    # prose running on to a year, a heading's colon: no row
    labels = {f.label for f in figures}
    assert not {"The decrease was driven by lower results in", "Other items, net:"} & labels
    # labels printed as a block apart from a block of figures: which is which is not sure
    assert "Gross profit" not in labels


RETAILER = """Consolidated Statements of Income
(In thousands, except per share data)
52 Weeks Ended
January 28, January 29,
2023 2022
Net sales $ 10,208,580 100.0% $ 8,630,889 100.0%
Fiscal year
2022 2021
Operating income 1,638,610 1,297,492
"""


CHANGES_BESIDE = """CONSOLIDATED RESULTS
The following table compares summary operating results (dollars in millions) for the years:
Percent
2023 2022 Change
Consolidated revenue $ 90,155 $ 93,512 (4)
Ground segment 3,140 2,642 19
The following table shows changes in revenue by reportable segment for 2023 compared to 2022:
Year-over-Year Changes
Revenue Operating Results
Ground segment 275 498
Operating results
2022 2021 2020
Increase/ Increase/
Dollars in millions Amount (decrease) Amount (decrease) Amount
Revenues from franchised restaurants 14,106 8 13,085 22 10,726
Other revenues 329 (6) 351 2 343
Operating income 9,371 (10) 10,356 41
Net income 6,177 n/m 7,545 59 4,731
Three Months Ended June 30, Six Months Ended June 30,
2023 2022 Increase/(Decrease) 2023 2022 Increase/(Decrease)
Net income (loss) per diluted share $ 0.92 $ (0.29) ** $ 1.62 $ 0.14 **
Quarters Ended June 30, 2023 2022 Inc/ (Dec)
Total revenues 6,497.5 5,718.4 779.1 14
"""


@pytest.mark.no_database
def test_columns_of_change_beside_the_periods_are_not_read_as_periods() -> None:
    """A header that names change columns ("Change", "Inc/(Dec)", "Amount (decrease)")
    says which of a row's numbers are its periods'; a row that does not fill an interleaved
    layout is not read; a table of changes after "The following table" has no periods."""
    figures = read_tables([PageText(53, CHANGES_BESIDE)], period_end="2023-12-31")
    rows: dict[str, list[tuple[float, str]]] = {}
    for f in figures:
        rows.setdefault(f.label or "", []).append((f.value, f.period_end))
    assert rows["Consolidated revenue"] == [(90_155e6, "2023-12-31"), (93_512e6, "2022-12-31")]
    assert rows["Ground segment"] == [(3_140e6, "2023-12-31"), (2_642e6, "2022-12-31")]
    assert [v for v, _ in rows["Revenues from franchised restaurants"]] == [
        14_106e6,
        13_085e6,
        10_726e6,
    ]
    assert [v for v, _ in rows["Other revenues"]] == [329e6, 351e6, 343e6]
    assert "Operating income" not in rows  # 4 numbers for an interleaved 5: not read
    assert not [k for k in rows if k.startswith("Net income 6,177")]  # a word among them
    assert [v for v, _ in rows["Net income (loss) per diluted share"]] == [0.92, -0.29, 1.62, 0.14]
    assert [v for v, _ in rows["Total revenues"]] == [6_497.5e6, 5_718.4e6]


GROUPS = """Net revenue for each period was as follows:
Years Ended (In Millions) Dec 26, 2020 Dec 28, 2019
Net revenue:
Data Center Group
Platform $ 23,056 $ 21,441
Adjacent 3,047 2,040
26,103 23,481
Mobileye 967 879
All other 522 289
31,592 27,650
Operating income:
Data Center Group 10,571 10,227
Mobileye 241 245
10,812 10,472
"""


WRAPPED = """CONSOLIDATED STATEMENTS OF OPERATIONS
(In thousands, except per share data)
Year Ended December 31,
2016 2015
Net income (loss) per share of common stock attributable to
Acme Resorts International:
Basic $ 1.93 $ (0.82)
Diluted $ 1.92 $ (0.82)
"""


@pytest.mark.no_database
def test_a_heading_wrapped_over_two_lines_says_the_rows_are_per_share() -> None:
    figures = read_tables([PageText(70, WRAPPED)], period_end="2016-12-31")
    diluted = [(f.value, f.unit) for f in figures if f.label == "Diluted"]
    assert diluted == [(1.92, "iso4217:USD/xbrli:shares"), (-0.82, "iso4217:USD/xbrli:shares")]


@pytest.mark.no_database
def test_a_group_s_unlabelled_subtotal_is_the_group_s_figure() -> None:
    figures = read_tables([PageText(87, GROUPS)], period_end="2020-12-26")
    found = {(f.label, f.value) for f in figures}
    assert ("Data Center Group", 26_103e6) in found
    # a heading directly over a figure is a label wrapped onto its own line, and a second
    # subtotal has no heading of its own: neither is a group's figure
    assert not any(v == 31_592e6 for _, v in found)
    # a section's heading ("Operating income:") over its rows is no group: its unlabelled
    # line is a partial sum, not the line item's total
    assert not any(v == 10_812e6 for _, v in found)


@pytest.mark.no_database
def test_a_year_under_its_month_and_day_is_a_calendar_date_not_a_fiscal_year() -> None:
    """A retailer's fiscal 2022 ends January 28, 2023: "January 28," over "2023" is that
    date; a bare fiscal year column ends a year later, never after the filing's period."""
    figures = read_tables([PageText(6, RETAILER)], period_end="2023-01-28", fiscal_year=2022)
    rows = {(f.label, f.period_end): f for f in figures}
    assert rows[("Net sales", "2023-01-28")].value == 10_208_580e3
    assert rows[("Net sales", "2023-01-28")].period_start == "2022-01-29"
    assert rows[("Net sales", "2022-01-29")].value == 8_630_889e3
    assert {f.period_end for f in figures if f.label == "Operating income"} == {
        "2023-01-28",
        "2022-01-28",
    }
    # "2023 2022" alone read as fiscal years would end in 2024: after the filing's period
    bare = read_tables(
        [PageText(6, RETAILER.replace("January 28, January 29,\n", ""))],
        period_end="2023-01-28",
        fiscal_year=2022,
    )
    assert max(f.period_end for f in bare) == "2023-01-28"


@pytest.mark.no_database
def test_a_figure_is_written_in_the_filing_own_scale() -> None:
    def shown(value: float, decimals: int | None, unit: str = "iso4217:USD") -> str:
        return Figure(
            "doc", "Revenues", value, unit, decimals, None, "2024-12-31", 3, "table"
        ).shown

    assert shown(39_000_966_000, -3) == "$39,000,966 thousand"
    assert shown(94_036e6, -6) == "$94,036 million"
    assert shown(-1_577e6, -6) == "-$1,577 million"
    assert shown(1.57, None, "iso4217:USD/xbrli:shares") == "$1.57"


ITEMS = (
    LineItem(("revenue", "net sales"), ()),
    LineItem(("cost of sales", "cogs"), (), outflow=True),
    LineItem(("inventory", "inventories"), ()),
    LineItem(("accounts payable",), ()),
    LineItem(("property plant and equipment net", "pp&e"), ()),
)
VALUES = {
    ("revenue", 2019): 200.0,
    ("revenue", 2018): 150.0,
    ("cost of sales", 2019): -120.0,
    ("inventory", 2019): 30.0,
    ("inventory", 2018): 20.0,
    ("accounts payable", 2019): 25.0,
    ("accounts payable", 2018): 15.0,
    ("property plant and equipment net", 2019): 10.0,
    ("property plant and equipment net", 2018): 6.0,
}


def lookup(item: LineItem, year: int | None) -> Figure | None:
    value = VALUES.get((item.name, year or 0))
    if value is None:
        return None
    figure = Figure(
        "doc", item.name, value * 1e6, "iso4217:USD", -6, None, f"{year}-12-31", 9, "table"
    )
    return figure.positive() if item.outflow else figure


CATALOGUE = Catalogue(
    (
        Metric(("inventory turnover", "ito"), "cost of sales / average(inventory)", False),
        Metric(("revenue growth",), "revenue / previous(revenue) - 1", True),
        Metric(("gross profit",), "revenue - cost of sales", False),
    ),
    ITEMS,
)


def _compute(question: str) -> Working:
    defined = defined_metrics(question) or line_share(question, CATALOGUE)
    metric = metric_in(question, CATALOGUE, defined)
    assert metric is not None
    return compute(
        metric=metric, catalogue=CATALOGUE, defined=defined, lookup=lookup,
        ask=asked(question), own_year=2019,
    )  # fmt: skip


@pytest.mark.no_database
def test_a_metric_is_computed_with_each_input_cited() -> None:
    working = _compute("What is the FY2019 inventory turnover? Round to two decimal places.")
    assert working.shown == "4.80"  # 120 / ((30 + 20) / 2)
    assert [(n, y) for n, y, _ in working.inputs] == [
        ("cost of sales", 2019),
        ("inventory", 2019),
        ("inventory", 2018),
    ]
    assert _compute("FY2018 to FY2019 revenue growth").shown == "33.3%"
    assert _compute("FY2019 gross profit").shown == "$80 million"  # an amount, in millions


@pytest.mark.no_database
def test_a_question_own_definition_wins() -> None:
    question = (
        "What is the FY2019 DPO? DPO is defined as: 365 * (average accounts payable between "
        "FY2018 and FY2019) / (FY2019 COGS + change in inventory between FY2018 and FY2019). "
        "Round your answer to one decimal place."
    )
    assert parse_formula(defined_metrics(question)[" dpo "].formula).kind == "op"
    assert _compute(question).shown == "56.2"  # 365 * 20 / (120 + 10)
    fixed = "FY2019 fixed asset turnover, defined as revenue divided by average PP&E. Ratio."
    assert _compute(fixed.replace(", defined as", ". It is defined as")).shown == "25.00"


@pytest.mark.no_database
@pytest.mark.parametrize(
    ("question", "shown"),
    [
        # a formula the question tells, naming no metric
        (
            "How many times did sales cover inventories in 2019? Give revenue divided by inventory "
            "for the year ended December 31, 2019, rounded to two decimals.",
            "6.67",
        ),
        # the years of an average written out, a year before a name, two decimals asked "with"
        (
            "What was the 2019 turnover, computed as 2019 revenue divided by the average of "
            "inventory at the end of 2018 and 2019? Express it with two decimals.",
            "8.00",
        ),
        # one line as a percentage of another, no name given
        (
            "What was Acme's cost of sales (COGS) as a percentage of net sales in FY2019? Round "
            "to two decimal places.",
            "60.00%",
        ),
        # "how many times did A cover B": A divided by B
        ("How many times did the company's FY2019 revenue cover its inventory?", "6.67"),
        # "calculate X as ...": the metric named, defined by the question
        (
            "Calculate the FY2019 inventory turnover as revenue divided by inventory, rounded to "
            "two decimals.",
            "6.67",
        ),
        # a formula told of a rate: a percentage
        (
            "What was the FY2019 cost rate? Use cost of sales divided by revenue and round to two "
            "decimal places.",
            "60.00%",
        ),
        # the catalogue's metric by another name, defined by the question: its definition wins
        (
            "What is the FY2019 inventory turnover? ITO is defined as: revenue / inventory. "
            "Round to two decimal places.",
            "6.67",
        ),
    ],
)
def test_a_formula_the_question_tells_is_computed_as_told(question: str, shown: str) -> None:
    assert _compute(question).shown == shown


@pytest.mark.no_database
def test_two_terms_of_a_formula_are_never_read_as_one_line() -> None:
    # two names of one line: not a ratio of 1
    question = "What was the FY2019 figure? Compute it as inventory divided by inventories."
    with pytest.raises(FormulaError, match="would both be read as inventory"):
        _compute(question)
    assert translate("interest expense (net of amounts capitalized) plus tax") == (
        "interest expense  net of amounts capitalized + tax"
    )
    # the later year ends an average, whichever is written first
    assert translate("the average of inventory at the end of fiscal 2019 and 2018") == (
        "fy2019 average(inventory)"
    )
    # a term that says more than the line is not the line ("U.S. net sales")
    with pytest.raises(FormulaError, match="not the line"):
        _compute("What was the FY2019 figure? Give U.S. net sales divided by inventory.")
    # a part's possessive, two periods, a quarter: no share computed
    for question in (
        "What was Acme's Asia Pacific's revenue as a percentage of inventory in FY2019?",
        "What was Acme's FY2019 revenue as a percentage of FY2018 inventory?",
        "What was Acme's Q4 FY2019 revenue as a percentage of inventory?",
    ):
        assert line_share(question, CATALOGUE) == {}
    # a side that names more than a line is no line: no share computed
    assert line_share("What was the PP&E segment revenue as a percentage of net sales in "
                      "FY2019?", CATALOGUE) == {}  # fmt: skip
    with pytest.raises(FormulaError, match="not the line"):
        _compute(
            "What was the FY2019 adjusted figure, defined as revenue excluding special items "
            "divided by inventory?"
        )


@pytest.mark.no_database
def test_a_missing_input_is_named() -> None:
    with pytest.raises(MissingInput, match="cost of sales for FY2018"):
        _compute("What is the FY2018 inventory turnover?")


def test_figures_are_stated_from_a_pdf_statement_table(corpus: Path) -> None:
    out = run_json("ask", "Ulta Beauty FY2023 net sales")
    figure = out["figures"][0]
    assert out["answer"].startswith(
        "$10,208,580 thousand — Net sales, year ended January 28, 2023 (table row)"
    )
    # the filing is fiscal 2022's; the question names the year it ends in, and is told so
    assert "FY2023 read as the fiscal year ending in that year: fiscal 2022" in out["answer"]
    assert (figure["value"], figure["source"], figure["scale"]) == (10_208_580_000, "table", 1000)
    assert out["citations"][0] == {
        "document": figure["document"],
        "page": figure["page"],
        "node_id": out["citations"][0]["node_id"],
    }
    margin = run_json("ask", "Ulta Beauty FY2023 operating margin")
    assert margin["answer"].startswith("16.1% — operating margin, FY2022")
    assert [i["name"] for i in margin["working"]["inputs"]] == ["operating income", "revenue"]


def test_a_segment_or_adjusted_figure_is_never_stated_as_the_total(corpus: Path) -> None:
    out = run_json("ask", "Best Buy Q2 FY2024 Domestic segment revenue")
    assert out["answer"].startswith("$8,890 million — Domestic, three months ended July 29, 2023")
    assert [f["label"] for f in out["figures"]] == ["Domestic"]
    page = run_json("docs", "page", "BESTBUY_2024Q2_10Q", str(out["figures"][0]["page"]))["text"]
    assert "Revenue by reportable segment" in page
    missing = run_json("ask", "Best Buy Q2 FY2024 Canada segment revenue")
    assert missing["answer"].startswith("No revenue of Canada for Q2 FY2024 was found")
    assert "$9,583 million" in missing["answer"] and "not the segment's" in missing["answer"]
    # a company the corpus does not hold: no other company's figure is stated for it
    other = run_json("ask", "Costco FY2022 net sales")
    assert other["figures"] == [] and "$10,208,580" not in other["answer"]
    # the line after "net of" is what is taken away, not the line asked
    net = run_json("ask", "Ulta Beauty FY2022 operating income net of income tax expense")
    assert [f["label"] for f in net["figures"]] == ["Operating income"]
    comparable = run_json("ask", "Best Buy comparable sales in the second quarter of fiscal 2024")
    assert comparable["figures"] == [] and "$9,583" not in comparable["answer"]
    adjusted = run_json("ask", "What was Best Buy's adjusted operating income in Q2 FY2024?")
    assert adjusted["answer"].startswith("The question asks for an adjusted (non-GAAP) figure")


@pytest.mark.no_database
def test_a_name_that_names_every_owner_is_its_line_whole() -> None:
    catalogue = Vocabulary.packaged().catalogue
    values = {"dividends paid": 120.0, "net income attributable to shareholders": 480.0}

    def book(item: LineItem, year: int | None) -> Figure | None:
        value = values.get(item.name)
        return Figure("doc", item.name, value * 1e6, "iso4217:USD", -6, None, "2019-12-31", 9,
                      "table") if value is not None else None  # fmt: skip

    question = (
        "What is the FY2019 payout? Payout is defined as: dividends paid / net income "
        "attributable to Acme Corp. Round to two decimal places (percentage)."
    )
    defined = defined_metrics(question)
    metric = metric_in(question, catalogue, defined)
    assert metric is not None
    working = compute(
        metric=metric, catalogue=catalogue, defined=defined, lookup=book, ask=asked(question),
        own_year=2019,
    )  # fmt: skip
    assert working.shown == "25.00%"
