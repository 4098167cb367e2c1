"""What a sentence or a table's heading says of a figure's scale and its part, as an analyst
reads it: a sentence's amount whose scale word the page prints on the next line ("$15" over
"billion as discussed ... December 31, 2023.") is stated in that scale; a row the scale line
excepts ("(dollars in millions, except ARPA)") is stated as printed; and a part whose name
holds a comma or "&" ("Wren Defense, Space & Security", "Asia Pacific & Latin America"), or
that the question names as the subject that spends, is asked, not the whole company."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ingest_once
from .helpers import cover, run_json, stated_value

# a sentence as a page prints it over two lines: the amount's scale word opens the second,
# which ends in a date
LIQUIDITY = (
    "The bridge loan facility expired on July 20, 2023 upon the Company's issuance of "
    "unsecured senior notes with an aggregate principal of $15\nbillion as discussed below. "
    "The bridge loan facility fees were fully amortized during the year ended December 31, 2023."
)
COVER = cover("10-K", "For the fiscal year ended December 31, 2023", name="WREN AVIONICS CORP.")
ANNUAL = f"""{COVER}
# Item 7. Management's Discussion and Analysis

Wren reports three segments: Commercial Aircraft; Defense, Space & Security; and Global
Services.

Earnings from Operations by Segment
(Dollars in millions)
Years ended December 31, 2023 2022
Commercial Aircraft $ 2,010 $ 1,870
Defense, Space & Security 1,594 2,193
Global Services 2,522 2,246

Research and Development Expense by Segment
(Dollars in millions)
Years ended December 31, 2023 2022
Commercial Aircraft $ 2,188 $ 2,247
Defense, Space & Security 788 834
Global Services 161 140

Revenues by Geography
(Dollars in millions)
Years ended December 31, 2023 2022
North America $ 14,484 $ 15,902
Asia Pacific & Latin America 5,028 5,254
Europe 7,611 7,340

Operating Statistics
(dollars in millions, except ARPA)
Years ended December 31, 2023 2022
Service revenue $ 19,396 $ 20,630
Retail ARPA $ 159.86 $ 160.25

## Liquidity

{LIQUIDITY}

In May 2023, we issued senior notes of $2.5 billion aggregate principal amount, which
consisted of $750 million of 1.400% fixed rate notes due 2026, $750 million of 2.600% fixed
rate notes due to 2031 and $1.0 billion of 3.650% fixed rate notes due 2053.

During 2023, the following senior notes were issued:
• $500 million 4.625% senior notes, due 2028 issued by us;
• $1.05 billion 5.625% senior notes, due 2030 issued by Wren Capital.

2024 divestitures: As discussed in Note 3, in December 2023, Wren agreed to sell
substantially all of its drug delivery business for approximately $650 million in
consideration, subject to closing and other adjustments. 5G programs are not part of the sale;
their revenue was $400 million in 2023.

On May 1, 2023, the Company announced the Board of Directors had authorized a program to
repurchase up to $10 billion of the Company's common stock.

## Capital Expenditures by Segment

Years ended December 31, 2023 2022
Commercial Aircraft 411 380
Defense, Space & Security 202 199

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Years ended December 31, 2023 2022
Revenues 27,123 28,492
Research and development expense 3,269 3,179
Earnings from operations 11,987 10,278
Net earnings 9,414 8,197

CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
Years ended December 31, 2023 2022
Net cash provided by operating activities 13,311 12,002
Repurchases of common stock (7,274) (6,000)
"""


@pytest.fixture
def wren(tmp_path: Path) -> None:
    ingest_once("wren", tmp_path / "wren", {"wren-10k-2023.md": ANNUAL})


def _headline(question: str) -> dict[str, object]:
    out = run_json("ask", question)
    assert out["headline"] is not None, out["answer"]
    headline: dict[str, object] = out["headline"]
    return headline


def test_a_scale_word_on_the_next_line_is_the_amount_s(wren: None) -> None:
    question = (
        "What was the aggregate principal of the unsecured senior notes Wren issued on "
        "July 20, 2023?"
    )
    assert stated_value(question) == pytest.approx(15_000_000_000)  # not "$15"


def test_a_row_the_scale_line_excepts_is_stated_as_printed(wren: None) -> None:
    headline = _headline("What was Wren's retail ARPA in 2023?")
    assert headline["value"] == pytest.approx(159.86)  # not $159.86 million
    assert "million" not in str(headline["shown"])


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("What were Wren Defense, Space & Security's earnings from operations in 2023?", 1_594),
        ("How much did Wren Global Services spend on research and development in 2023?", 161),
        ("What were Wren's revenues in Asia Pacific & Latin America in 2023?", 5_028),
    ],
)
def test_a_part_named_with_a_comma_or_ampersand_is_asked(
    wren: None, question: str, value: int
) -> None:
    headline = _headline(question)
    assert headline["value"] == pytest.approx(value * 1_000_000)  # not the company's


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("How much of the 3.650% notes due 2053 did Wren issue in May 2023?", 1_000_000_000),
        (
            "How much of the 5.625% senior notes due 2030 were issued in 2023, per Wren's 10-K?",
            1_050_000_000,
        ),
    ],
)
def test_the_amount_of_the_note_the_question_names(wren: None, question: str, value: int) -> None:
    # "due to 2031" is a note's maturity, not a cause; a sentence of another note is not it
    assert stated_value(question) == pytest.approx(value)


def test_a_program_s_size_is_not_what_was_spent(wren: None) -> None:
    out = run_json("ask", "How big a share repurchase program did Wren announce on May 1, 2023?")
    headline = out["headline"]
    # never the cash flow statement's repurchases of the year
    assert headline is None or headline["value"] == pytest.approx(10_000_000_000), out["answer"]


def test_a_part_s_metric_is_not_the_company_s(wren: None) -> None:
    out = run_json("ask", "What was Wren Commercial Aircraft's operating margin in 2023?")
    headline = out["headline"]
    # never the whole company's 11,987 / 27,123 = 44.2%
    assert headline is None or headline["value"] != pytest.approx(44.19, abs=0.1), out["answer"]


def test_a_sentence_may_start_with_a_name_that_starts_with_a_digit(wren: None) -> None:
    # "... adjustments. 5G programs ... $400 million": another sentence's amount
    question = "For roughly how much did Wren say it agreed to sell its drug delivery business?"
    assert stated_value(question) == pytest.approx(650_000_000)


def test_a_table_s_whole_dollars_with_no_scale_are_not_stated(wren: None) -> None:
    out = run_json(
        "ask", "What were Wren's Commercial Aircraft segment capital expenditures in 2023?"
    )
    headline = out["headline"]
    assert headline is None or headline["value"] == pytest.approx(411_000_000), out["answer"]
