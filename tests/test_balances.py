"""A balance a note's roll-forward closes with ("Balance at December 31, $ 2,355"): read where
the table's own heading and the sentence that introduces it name what is asked, at the date
asked; never the balance the year opened with, nor another roll-forward's."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ingest_once
from .helpers import annual_filing, run_json

TEXT = """# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF INCOME
(In millions)
Years Ended December 31,
2023 2022 2021
Total revenues 9,000 8,500 8,000
Net income 1,200 1,000 1,100

# Note 12. Income Taxes

Unrecognized Tax Benefits
A reconciliation of the beginning and ending balance of unrecognized tax benefits is as follows:
(dollars in millions)
2023 2022 2021
Balance at January 1, $ 1,902 $ 1,635 $ 1,823
Additions based on tax positions related to the current year 219 338 194
Reductions for tax positions of prior years (419) (153) (412)
Balance at December 31, $ 1,702 $ 1,902 $ 1,635

Asset Retirement Obligations
The following table reconciles our asset retirement obligations (in millions):
Years Ended December 31,
2023 2022
Beginning balance $ 410 $ 395
Accretion expense 21 20
Ending balance $ 431 $ 410
"""


@pytest.fixture
def kestrel(tmp_path: Path) -> None:
    files = {"kestrel-10k-2023.md": annual_filing(2023, TEXT, name="KESTREL ENERGY INC.")}
    ingest_once("kestrel", tmp_path / "kestrel", files)


CLOSING = [
    (
        "What was the balance of Kestrel's unrecognized tax benefits at December 31, 2023?",
        1_702e6,
    ),
    ("What were Kestrel's unrecognized tax benefits as of December 31, 2022?", 1_902e6),
    # a table whose columns are years ended: the row's figure is the balance at the end
    ("What were Kestrel's asset retirement obligations at the end of 2023?", 431e6),
]


def test_a_roll_forward_s_closing_row_gives_the_balance(kestrel: None) -> None:
    for question, value in CLOSING:
        out = run_json("ask", question)
        headline = out["headline"]
        assert headline is not None, out["answer"]
        assert headline["value"] == pytest.approx(value), question
        assert headline["period_start"] is None, question  # a balance at a date


def test_neither_the_opening_balance_nor_another_table_s(kestrel: None) -> None:
    # no roll-forward of deferred revenue: neither table's closing row is its balance
    out = run_json("ask", "What was Kestrel's deferred revenue balance at December 31, 2023?")
    assert out["headline"] is None or out["headline"]["value"] not in (1_702e6, 431e6)
    # "Balance at January 1" opens the year: never read as its end
    out = run_json("ask", "What were Kestrel's unrecognized tax benefits at December 31, 2021?")
    assert out["headline"] is not None and out["headline"]["value"] == pytest.approx(1_635e6)
