"""Financial-statement awareness: statement pages recognised in real filings and cited for
questions whose figures live in a statement."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pageindex_platform.search.statements import (
    Statement,
    detect_statement,
    parse_knowledge,
    statements_for,
)
from pageindex_platform.search.vocabulary import Vocabulary

from .helpers import run_json

ROWS = "\n".join(f"Line item {i} {1000 + i:,} {900 + i:,}" for i in range(20))


@pytest.mark.no_database
def test_statement_headings_are_recognised() -> None:
    assert detect_statement(f"Table of Contents\nCONSOLIDATED BALANCE SHEETS\n{ROWS}") == (
        Statement.BALANCE
    )
    split = f"3M Company\nConsolidated Statement of Cash Flow s\n(Millions) 2018 2017\n{ROWS}"
    assert detect_statement(split) == Statement.CASH_FLOW
    assert detect_statement(f"Condensed Consolidated Statements of Earnings\n{ROWS}") == (
        Statement.INCOME
    )


@pytest.mark.no_database
def test_pages_that_only_mention_statements_are_not_statements() -> None:
    index = "\n".join(
        ["Index to Consolidated Financial Statements"]
        + [
            f"Consolidated {name} 4{i}"
            for i, name in enumerate(
                ["Statements of Operations", "Balance Sheets", "Statements of Cash Flows"]
            )
        ]
        + [f"Note {i} 5{i}" for i in range(12)]
    )
    assert detect_statement(index) is None
    prose = "Balance Sheet\n" + "\n".join(
        f"Cash at the end of quarter {i} was ${i}.5 million, up from ${i}.1 million."
        for i in range(15)
    )
    assert detect_statement(prose) is None
    guarantor = f"Condensed Consolidating Balance Sheet\n{ROWS}"
    assert detect_statement(guarantor) is None
    assert detect_statement(f"Consolidated Balance Sheets\n{'words only' * 3}") is None


@pytest.mark.no_database
def test_questions_map_to_the_statements_holding_their_figures() -> None:
    facts = Vocabulary.packaged().statement_facts
    assert statements_for("What is 3M's FY2018 capital expenditure?", facts) == [
        Statement.CASH_FLOW
    ]
    assert statements_for("Has the quick ratio of Corning improved?", facts) == [Statement.BALANCE]
    assert statements_for("Fixed asset turnover for FY2019?", facts) == [
        Statement.INCOME,
        Statement.BALANCE,
    ]
    assert statements_for("Who are Boeing's primary customers?", facts) == []


@pytest.mark.no_database
def test_knowledge_lines_in_the_user_file_are_parsed() -> None:
    facts = parse_knowledge("# comment\nstore count, stores: balance sheet\nfree-form hint\n")
    assert len(facts) == 1
    assert statements_for("How many stores did it open?", facts) == [Statement.BALANCE]


def test_capital_expenditure_question_cites_the_cash_flow_statement(corpus: Path) -> None:
    out = run_json("ask", "Best Buy Q2 FY2024 capital expenditures")
    assert out["documents"][0]["name"] == "BESTBUY_2024Q2_10Q"
    # Page 6 of the 10-Q is the condensed consolidated statement of cash flows.
    first = out["citations"][0]
    assert (first["document"], first["page"]) == ("BESTBUY_2024Q2_10Q", 6)


def test_knowledge_file_in_pi_home_extends_the_mapping(corpus: Path) -> None:
    question = "Best Buy Q2 FY2024 merchandise shrink reserve"
    before = [c["page"] for c in run_json("ask", question)["citations"][:3]]
    knowledge = Path(os.environ["PI_HOME"]) / "knowledge.txt"
    knowledge.write_text("shrink reserve: balance sheet\n", encoding="utf-8")
    try:
        after = [c["page"] for c in run_json("ask", question)["citations"][:1]]
    finally:
        knowledge.unlink()
    assert 3 not in before and 3 in after  # page 3: the condensed consolidated balance sheets
