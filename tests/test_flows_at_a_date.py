"""A balance asked at a date is not read from what changed it: a cash flow statement's row
read at a date (its columns headed by dates alone) is a misread of a change over the year,
and a sentence's "change in unearned revenue of $1.7 billion" is a change, not the balance.
Nor is a year's amount a quarter's ("During the three months ended ..."), or the next
amount of its sentence ("$3.1 billion of common stock and paid dividends ... of $489
million")."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ingest_once
from .helpers import cover, run_json

COVER = cover("10-K", "For the fiscal year ended January 31, 2024", name="EGRET SOFTWARE CORP.")
ANNUAL = f"""{COVER}
# Item 7. Management's Discussion and Analysis

## Liquidity

Cash provided by operating activities during fiscal 2024 was further benefited by the change
in unearned revenue of $1.7 billion, partially offset by higher income tax payments.

During the three months ended January 31, 2024 we repurchased approximately $0.3 billion of
our common stock under our stock repurchase programs.

## Capital Return

In fiscal 2024, we repurchased $3.1 billion of common stock and paid dividends and dividend
equivalents of $489 million.


# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
January 31, 2024 January 31, 2023
Net income 4,136 208
Changes in assets and liabilities:
Unearned revenue 1,744 1,352
Net cash provided by operating activities 10,234 7,111
"""


@pytest.fixture
def egret(tmp_path: Path) -> None:
    ingest_once("egret", tmp_path / "egret", {"egret-10k-2024.md": ANNUAL})


def test_a_balance_is_not_a_change_in_it(egret: None) -> None:
    out = run_json("ask", "What was Egret's unearned revenue as of January 31, 2024?")
    # neither the cash flow row (a change, misread at a date) nor the sentence's change
    assert out["headline"] is None, out["answer"]
    assert "1,744" in out["answer"] or "1.7 billion" in out["answer"]  # shown, set aside


def test_a_year_s_amount_is_not_a_quarter_s_nor_the_next_amount(egret: None) -> None:
    out = run_json("ask", "How much of its common stock did Egret repurchase in fiscal 2024?")
    headline = out["headline"]
    assert headline is not None, out["answer"]
    assert headline["value"] == pytest.approx(3_100_000_000)  # not $0.3 billion, not $489 million


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # the second amount of "repurchased $3.1 billion of common stock and paid dividends ..."
        (
            "How much did Egret pay in dividends and dividend equivalents in fiscal 2024?",
            489_000_000,
        ),
    ],
)
def test_each_amount_of_a_sentence_is_its_own(egret: None, question: str, value: int) -> None:
    out = run_json("ask", question)
    headline = out["headline"]
    assert headline is not None, out["answer"]
    assert headline["value"] == pytest.approx(value)
