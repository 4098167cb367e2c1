"""Figures a filing says in its text rather than in a statement's row, and the rows a table
prints over two lines: an amount of money no line item names ("remaining performance
obligations were $6.8 billion"), one amount of a list ("$750,000,000 aggregate principal
amount of 5.200% Senior Notes due 2033"), a dividend per share, a share of a whole ("59% of
our GMV"), a count in a unit's symbol ("8,228 MW"), a count the question names the source of;
a metric whose terms the question defines as equations; a row label wrapped over two lines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pageindex_platform.search.metric_questions import defined_metrics, metric_in
from pageindex_platform.search.sentence_numbers import of_a_whole
from pageindex_platform.search.terms import spelled_out
from pageindex_platform.search.vocabulary import Vocabulary

from .conftest import ingest_once
from .helpers import annual_filing, ingest_files, run_json

TEXT = """# Item 1. Business

We currently own and operate 8,228 MW (4,293 proportional MW) of renewable generation.
For 2023, approximately 59% of our GMV was generated outside the U.S.
Revenue from Europe increased 12% in 2023.
Through a bottom-up view of our organization, we have established 14 DRIVE domains.
Our utility businesses distribute power to 10.5 million people in three countries.
As of December 31, 2023, we employed approximately 9,000 people.
Of these employees, approximately 3,100 were located at our facilities in the United
States and the others at our plants in Brazil, Chile and Colombia.
Our certificate of incorporation authorizes us to issue 3.6 billion shares of common stock.

# Item 7. Management's Discussion and Analysis

The amount of revenues recognized during 2023 that were included in the opening deferred
revenues balance was approximately $2.1 billion. revenues recognized from performance
obligations satisfied in prior periods were immaterial. remaining performance obligations
represent contracted revenues that had not yet been recognized.
As of December 31, 2023, our remaining performance obligations were $6.8 billion,
approximately 45% of which we expect to recognize as revenues over the next twelve months.
As of December 31, 2023, approximately $1.2 billion remained available for future
repurchases of our common stock under our 2022 stock repurchase program.
On February 10, 2023, Summit issued $500,000,000 aggregate principal amount of 4.875% Senior
Notes due 2026 (the “2026 Notes”), $750,000,000 aggregate principal amount of 5.200% Senior
Notes due 2033 (the “2033 Notes”) and $250,000,000 aggregate principal amount of 5.600%
Senior Notes due 2053.
Cash Dividends: In fiscal 2023, we declared and paid cash dividends of $1.36 per share that
totaled $370 million.
Interest expense increased $40 million in 2023.
Total video and music expense was $1.3 billion and $1.6 billion for the year ended December
31, 2022 and 2023.
Cash dividends declared and paid totaled $0.34 and $0.32 per share for each quarter in 2023
and 2022, respectively.
Our network consists of approximately 108,000 circuit miles of distribution lines (of which
approximately 25% are underground).
We hired approximately 2,300 new employees in 2023. Our two utilities also include
generation capacity totaling 3,973 MW.

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions, except per share amounts)
Years Ended December 31,
2023 2022 2021
Total revenues $ 9,660 $ 9,100 $ 8,700
INCOME FROM CONTINUING OPERATIONS BEFORE TAXES AND EQUITY IN EARNINGS OF
AFFILIATES 488 520 610
Income tax expense (216) (200) (180)
Net income 272 320 430
BASIC EARNINGS PER SHARE:
Net income attributable to Summit Inc. common
stockholders $ 0.08 $ 0.46 $ 1.82
DILUTED EARNINGS PER SHARE:
Net income attributable to Summit Inc. common
stockholders $ 0.07 $ 0.45 $ 1.81

# Cash Flows

CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
Years Ended December 31,
2023 2022 2021
Net income 272 320 430
Depreciation and amortization 410 390 370
Changes in working capital 138 0 (170)
Net cash provided by operating activities 820 710 630
Purchases of property and equipment (300) (280) (250)
Net cash used in investing activities (300) (280) (250)
Repurchases of common stock (500) (400) (300)
Common stock dividends paid (370) (350) (330)
Net cash used in financing activities (870) (750) (630)

# Balance Sheets

CONSOLIDATED BALANCE SHEETS
(In millions)
December 31, 2023 December 31, 2022
Cash and cash equivalents 2,138 1,900
Receivables, less allowances of $80 and $69 1,018 1,186
Total current assets 3,000 2,900
Total current liabilities 2,000 1,900
Total assets 5,000 4,800
Notes payable 32 40
Current portion of long-term debt 1,709 1,674
Long-term debt 9,965 9,100
Notes payable and other borrowings, non-current 7,211 7,000
Stockholders' equity
Common stock 10 10
Retained earnings 1,890 1,700
Total stockholders' equity 1,900 1,710
$ 5,000 $ 4,800

Operating data
(In millions)
December 31, 2023 December 31, 2022
Active buyers 132 129
"""


@pytest.fixture
def summit(tmp_path: Path) -> None:
    files = {"summit-10k-2023.md": annual_filing(2023, TEXT, name="SUMMIT INC.")}
    ingest_files(tmp_path / "summit", files)


@pytest.mark.parametrize(
    ("question", "value", "unit"),
    [
        # an amount of money no line item names, in the unit asked
        (
            "What were Summit's remaining performance obligations as of December 31, 2023, "
            "in USD billions?",
            6.8,
            "USD billions",
        ),
        (
            "As of December 31, 2023, how much remained available for future repurchases of "
            "Summit common stock under its 2022 repurchase program?",
            1.2e9,
            "USD",
        ),
        # of a list of amounts, the one the question's own figure (5.200%) goes with
        (
            "In the senior notes offering Summit completed on February 10, 2023, what aggregate "
            "principal amount of 5.200% Senior Notes due 2033 was issued? Answer in USD millions.",
            750,
            "USD millions",
        ),
        ("What cash dividends per share did Summit declare in fiscal 2023?", 1.36, "USD/share"),
    ],
)
def test_an_amount_said_in_a_sentence_is_stated_with_its_sentence(
    summit: None, question: str, value: float, unit: str
) -> None:
    out = run_json("ask", question)
    headline = out["headline"]
    assert headline is not None, out["answer"]
    assert headline["value"] == pytest.approx(value) and headline["unit"] == unit
    assert headline["kind"] == "text" and headline["document"] == "summit-10k-2023"


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # a share of a whole; the name spelled out in the question, abbreviated in the filing
        (
            "In 2023, approximately what share of Summit's gross merchandise volume (GMV) was "
            "generated outside the United States?",
            59,
        ),
        # the count in its unit's symbol, not the one the question rules out
        (
            "According to Summit's 2023 annual report, how many megawatts of renewable "
            "generation (gross, not proportional) did Summit own and operate?",
            8228,
        ),
        # where the question says the answer is read is no word the sentence must share
        (
            "In the stockholder letter of Summit's 2023 annual report, how many DRIVE domains "
            "does the company say it has established?",
            14,
        ),
    ],
)
def test_a_share_or_a_count_said_in_a_sentence(summit: None, question: str, value: float) -> None:
    out = run_json("ask", question)
    headline = out["headline"]
    assert headline is not None, out["answer"]
    assert headline["value"] == pytest.approx(value)


@pytest.mark.parametrize(
    "question",
    [
        # a growth rate is no share of revenue
        "What share of Summit's revenue came from Europe in 2023?",
        # a change is not the amount asked
        "How much interest expense did Summit pay on its senior notes in 2023, in USD millions?",
        # which of the listed notes is not said: no amount of the list is stated
        "In February 2023, what aggregate principal amount of Senior Notes did Summit issue?",
    ],
)
def test_no_sentence_figure_is_stated_for_what_it_does_not_say(summit: None, question: str) -> None:
    out = run_json("ask", question)
    headline = out["headline"]
    assert headline is None or headline["kind"] != "text", out["answer"]
    assert not out["answer"].startswith(("12%", "$40 million", "$500,000,000"))


def test_a_metric_whose_terms_the_question_defines_as_equations(summit: None) -> None:
    question = (
        "What was Summit's debt-to-equity ratio at December 31, 2023, where debt = long-term "
        "debt + current portion of long-term debt + notes payable, and equity = total "
        "stockholders' equity (excluding noncontrolling interests)? Round to two decimals."
    )
    out = run_json("ask", question)
    # (9,965 + 1,709 + 32) / 1,900, each input cited; not the catalogue's long-term debt alone
    assert out["headline"]["value"] == pytest.approx(6.16)
    assert "as the question defines them" in out["answer"]
    assert "in its own words" not in out["answer"]


def test_rows_printed_over_two_lines_are_read_whole(summit: None) -> None:
    # "... EQUITY IN EARNINGS OF" over "AFFILIATES 488": the pre-tax line, as the question
    # defines the rate
    question = (
        "What was Summit's effective tax rate in 2023, computed as income tax expense divided by "
        "income from continuing operations before taxes and equity in earnings of affiliates? "
        "Give a percentage to two decimal places."
    )
    assert run_json("ask", question)["headline"]["value"] == pytest.approx(44.26)
    # a label continued in lower case is a per-share row under its heading ("DILUTED
    # EARNINGS PER SHARE:"), not millions of net income
    eps = run_json(
        "ask",
        "What was Summit's diluted earnings per share (net income attributable to Summit Inc. "
        "common stockholders) for 2021?",
    )["headline"]
    assert eps is not None and eps["value"] == pytest.approx(1.81)
    # the rows under the basic heading are not the diluted figure
    diluted = run_json("ask", "What was Summit's diluted EPS in 2022?")["headline"]
    assert diluted is not None and diluted["value"] == pytest.approx(0.45)
    # "Receivables, less allowances of ..." is the receivables line of a defined DSO
    dso = run_json(
        "ask",
        "What is Summit's FY2023 days sales outstanding (DSO)? DSO is defined as: 365 * "
        "(average receivables, net between FY2022 and FY2023) / FY2023 revenue. Round your "
        "answer to two decimal places.",
    )
    assert dso["headline"]["value"] == pytest.approx(365 * (1018 + 1186) / 2 / 9660, abs=0.01)
    # the unlabelled total under the equity rows is the balance sheet's, not the equity's
    equity = run_json("ask", "What was Summit's stockholders' equity at December 31, 2023?")
    assert equity["headline"]["value"] == pytest.approx(1_900e6)


@pytest.mark.no_database
def test_what_a_question_says_of_its_terms() -> None:
    assert spelled_out("a share of Summit's gross merchandise volume (GMV) abroad") == (
        "a share of Summit's GMV  abroad",
        ["gross merchandise volume"],
    )
    assert spelled_out("revenue (USD) in 2023") == ("revenue (USD) in 2023", [])
    sentence = "approximately 37% and 36% of TPV, respectively, was generated outside the U.S."
    first, second = re.finditer(r"\d+%", sentence)
    assert of_a_whole(sentence, first) and of_a_whole(sentence, second)
    grew = "Revenue increased 5% of which most came from cloud."
    assert not of_a_whole(grew, next(re.finditer(r"\d+%", grew)))
    question = (
        "What was Summit's debt-to-equity ratio, where debt = long-term debt + notes payable, "
        "and equity = total stockholders' equity?"
    )
    defined = defined_metrics(question)
    assert set(defined) == {" debt ", " equity "}
    asked = metric_in(question, Vocabulary.packaged().catalogue, defined)
    assert asked is not None and asked.name == "debt to equity"  # not its input "debt"
    # a formula shown in parentheses is the question's, unless it restates the metric named
    shown = "Compute the equity multiplier at December 31, 2023 (total assets / total equity)."
    assert defined_metrics(shown)[" the question s formula "].formula == (
        "total assets / total equity"
    )
    restated = "What was the gross margin percentage (gross margin divided by net sales) in 2019?"
    assert defined_metrics(restated) == {}


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # a row no line item names, named whole by the question
        ("How many active buyers did Summit have at December 31, 2023?", 132e6),
        # formula terms the filing prints as rows: the row, its payment as the amount paid
        (
            "What was Summit's net debt at December 31, 2023? Net debt is defined as: notes "
            "payable and other borrowings, non-current minus cash and cash equivalents.",
            5_073e6,
        ),
        (
            "What was Summit's dividend payout ratio for 2023, measured as common stock "
            "dividends paid (from the cash flow statement) over net income? State it as a "
            "percentage with two decimals.",
            136.03,
        ),
        # who the company employs, not the people its utilities serve
        ("Approximately how many people did Summit employ at the end of 2023?", 9_000),
        # a sentence whose line is wrapped before a capitalised word ("in the United" over
        # "States") is one sentence: the place it names is read whole
        ("How many Summit employees were located in the United States at the end of 2023?", 3_100),
    ],
)
def test_rows_the_question_names_and_what_a_sentence_counts(
    summit: None, question: str, value: float
) -> None:
    out = run_json("ask", question)
    headline = out["headline"]
    assert headline is not None, out["answer"]
    assert headline["value"] == pytest.approx(value, rel=1e-3)


@pytest.mark.parametrize(
    ("question", "wrong"),
    [
        # a row of money is no count of shares
        ("How many shares of its common stock did Summit repurchase in 2023?", 500e6),
        # what the charter authorizes is not what was issued
        ("How many Summit common shares were issued and outstanding at the end of 2023?", 3.6e9),
    ],
)
def test_a_figure_of_another_kind_is_never_stated(
    summit: None, question: str, wrong: float
) -> None:
    out = run_json("ask", question)
    headline = out["headline"]
    assert headline is None or headline["value"] != pytest.approx(wrong), out["answer"]


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # amounts listed with as many years: the year asked's, by their order
        ("How much total video and music expense did Summit have in 2023?", 1.6e9),
        # one line over another, asked as a ratio; "over" divides by the rest of the clause
        (
            "What was Summit's ratio of capital expenditures to depreciation and amortization "
            "in 2023, using its cash flow statement? Round to two decimal places.",
            0.73,
        ),
        # a formula shown with its symbols after a colon
        (
            "What is Summit's FY2023 operating cash flow to current liabilities ratio? Calculate "
            "what was asked by utilizing the line items clearly shown in the cash flow statement "
            "and the balance sheet: net cash provided by operating activities / total current "
            "liabilities. Round your answer to two decimal places.",
            0.41,
        ),
        (
            "What was Summit's debt-to-capital ratio at December 31, 2023, measured as long-term "
            "debt over long-term debt plus total stockholders' equity? Round to two decimals.",
            0.84,
        ),
    ],
)
def test_amounts_of_a_year_and_ratios_told_in_words(
    summit: None, question: str, value: float
) -> None:
    headline = run_json("ask", question)["headline"]
    assert headline is not None and headline["value"] == pytest.approx(value, rel=1e-3)


@pytest.mark.parametrize(
    "question",
    [
        # each quarter's dividend is not the year's
        "What was the cash dividend per share declared by Summit in 2023?",
        # a region the question names is not the whole company's revenue
        "What total revenues did Summit generate in its Asia Pacific region in 2023?",
        # what was done is not what there is; a part's capacity is not the company's
        "How many employees did Summit have at the end of 2023?",
        "How many megawatts of generation capacity did Summit have in 2023?",
        # the number the question names is said by the sentence that answers it
        "How many people did Summit's eight utility businesses distribute power to?",
        # a figure in parentheses is not the words' own: 25% underground, not 108,000 miles
        "How many miles of distribution lines did Summit place underground in 2023?",
        # a ratio asked is never a line's amount
        "What was Summit's cash coverage ratio of current liabilities in 2023?",
    ],
)
def test_a_quarter_a_region_or_a_part_is_not_the_figure_asked(summit: None, question: str) -> None:
    out = run_json("ask", question)
    headline = out["headline"]
    stated = (0.34, 9_660e6, 2_300, 3_973, 10.5e6, 108_000, 2_138e6, 2_000e6)
    assert headline is None or headline["value"] not in stated, out["answer"]


def test_the_annual_filing_named_is_the_one_read(tmp_path: Path) -> None:
    # the later 10-K prints the earlier year recast: asked "as presented" in it, its column
    def balance(year: int, now: int, before: int) -> str:
        return f"""# Item 8. Financial Statements

CONSOLIDATED BALANCE SHEETS
(In millions)
December 31, {year} December 31, {year - 1}
Goodwill {now:,} {before:,}
Total assets 9,000 8,500
"""

    files = {
        "summit-10k-2021.md": annual_filing(2021, balance(2021, 4_100, 4_285), name="SUMMIT INC."),
        "summit-10k-2020.md": annual_filing(2020, balance(2020, 4_675, 4_500), name="SUMMIT INC."),
    }
    ingest_files(tmp_path / "years", files)
    question = (
        "As presented in the balance sheet of Summit's 2021 Form 10-K, what was goodwill at "
        "December 31, 2020?"
    )
    headline = run_json("ask", question)["headline"]
    assert headline is not None and headline["value"] == 4_285e6
    assert headline["document"] == "summit-10k-2021"


GRILL = """# Item 1. Business

During 2023, over 1,200 new restaurants were opened.
The increase in closures in 2023 was primarily due to the closure of 640 restaurants in
Russia.
As of December 31, 2023, Harbor Express employed approximately 45,000 employees.
As of December 31, 2023, we employed approximately 60,000 full-time and part-time employees.

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Years Ended December 31,
2023 2022 2021
Total revenues $ 4,000 $ 3,700 $ 3,400
Net income 450 380 300
"""


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # restaurants opened or closed are not how many there are
        ("How many restaurants did Harbor Grill have at year-end 2023?", None),
        ("How many new restaurants did Harbor Grill open in 2023?", 1_200),
        ("How many restaurants did Harbor Grill open in 2023?", 1_200),
        # a part's count said as its subject is not the company's; all staff are not a part
        ("How many employees did Harbor Grill have at the end of 2023?", 60_000),
        ("How many part-time employees did Harbor Grill have at the end of 2023?", None),
        ("How many employees did Harbor Express have at the end of 2023?", 45_000),
    ],
)
def test_what_a_sentence_counts_is_the_count_asked(
    tmp_path: Path, question: str, value: float | None
) -> None:
    files = {"grill-10k-2023.md": annual_filing(2023, GRILL, name="HARBOR GRILL INC.")}
    ingest_once("grill", tmp_path / "grill", files)
    out = run_json("ask", question)
    headline = out["headline"]
    if value is None:
        assert headline is None, out["answer"]
    else:
        assert headline is not None and headline["value"] == value, out["answer"]
