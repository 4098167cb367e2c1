"""A metric as an analyst words it: a definition after "using" ("using short-term plus
long-term debt over total stockholders' equity") is computed as written, its sum over the
divisor, never the long-term debt alone and never a debt added to a ratio; "return on
average total assets" is the return, not the assets' balance; a line "reported for fiscal
2023" is the line; "spend repurchasing its common stock" is the repurchases; and a sentence's
amount "in 2023, compared with ... in 2022" is the first one."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ingest_once
from .helpers import cover, run_json

COVER = cover("10-K", "For the fiscal year ended December 31, 2023", name="TERN NETWORKS INC.")
ANNUAL = f"""{COVER}
# Item 7. Management's Discussion and Analysis

## Results

Tern's core earnings, which exclude non-core items, were $494 million, or $0.23 per diluted
share, in 2023, compared with $536 million, or $0.25 per diluted share, in 2022.

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF INCOME
(In millions)
Years ended December 31, 2023 2022
Net revenues 10,271 9,927
Operating income 2,100 1,950
Income before income taxes 1,850 1,700
Provision for income taxes 350 330
Net income 1,500 1,370

CONSOLIDATED BALANCE SHEETS
(In millions)
December 31, 2023 December 31, 2022
Total current assets 9,000 8,500
Total assets 26,000 24,000
Short-term debt 781 1,000
Total current liabilities 4,100 4,000
Long-term debt 9,234 8,900
Total liabilities 17,937 16,800
Total stockholders' equity 8,063 7,200
Total liabilities and stockholders' equity 26,000 24,000

CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
Years ended December 31, 2023 2022
Net cash provided by operating activities 2,600 2,400
Repurchases of common stock (1,502) (1,200)
Net cash used in financing activities (1,900) (1,500)
"""

_MILLION = 1_000_000


@pytest.fixture
def tern(tmp_path: Path) -> None:
    ingest_once("tern", tmp_path / "tern", {"tern-10k-2023.md": ANNUAL})


@pytest.mark.parametrize(
    "question",
    [
        "What was Tern's debt-to-equity ratio at the end of 2023, using short-term plus "
        "long-term debt over total stockholders' equity?",
        "What was Tern's debt-to-equity ratio at the end of 2023, defined as short-term debt "
        "plus long-term debt divided by total stockholders' equity?",
    ],
)
def test_a_sum_over_a_divisor_is_computed_as_written(tern: None, question: str) -> None:
    out = run_json("ask", question)
    headline = out["headline"]
    assert headline is not None, out["answer"]
    # (781 + 9,234) / 8,063: not 9,234 / 8,063 = 1.15, nor 781 million + 1.15
    assert headline["value"] == pytest.approx(1.24, abs=0.005)


def test_a_return_on_assets_is_not_the_assets(tern: None) -> None:
    out = run_json("ask", "What was Tern's return on average total assets for fiscal 2023?")
    headline = out["headline"]
    assert headline is not None, out["answer"]
    # 1,500 / ((26,000 + 24,000) / 2) = 6.0%: never the balance of $26,000 million
    assert headline["value"] == pytest.approx(6.0, abs=0.05)
    assert headline["unit"] != "USD"


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("What provision for income taxes did Tern report for fiscal 2023?", 350),
        ("How much did Tern spend repurchasing its common stock in 2023?", 1_502),
        ("What were Tern's core earnings in 2023?", 494),
    ],
)
def test_a_line_as_analysts_word_it(tern: None, question: str, value: int) -> None:
    out = run_json("ask", question)
    headline = out["headline"]
    assert headline is not None, out["answer"]
    assert headline["value"] == pytest.approx(value * _MILLION)
