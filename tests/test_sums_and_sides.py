"""How a question's words ask a sum of two lines, a balance's two portions or one side of a
balance sheet, read without a database: two payments or two balances asked combined are
added, never two lines of different kinds; a balance asked "(current plus noncurrent)" is its
two rows added only where the question asks that balance itself; a row that says the other
side is not the side asked; kinds listed before one noun count that noun."""

from __future__ import annotations

import pytest

from pageindex_platform.search.formulas_told import asks_term, portions
from pageindex_platform.search.line_shares import lines_added
from pageindex_platform.search.section_rows import other_side
from pageindex_platform.search.text_ask import text_ask
from pageindex_platform.search.vocabulary import Vocabulary

pytestmark = pytest.mark.no_database


def _sum(question: str) -> str:
    found = lines_added(question, Vocabulary.packaged().catalogue)
    return next(iter(found.values())).formula if found else ""


def test_two_payments_asked_combined_are_added_and_nothing_else_is() -> None:
    assert _sum(
        "How much cash did Acme return through repurchases of common stock and dividend "
        "payments combined in 2022?"
    ) == ("share repurchases + dividends paid")
    assert _sum(
        "How much cash in total did Acme return to shareholders in fiscal 2019 through stock "
        "repurchases and dividends?"
    ) == ("share repurchases + dividends paid")
    # "per the cash flow statement" says where, not a measure per something
    assert _sum(
        "How much cash did Acme use in 2021 for repurchases of common stock and payments for "
        "dividends combined, per the cash flow statement?"
    ) == ("share repurchases + dividends paid")
    for question in (
        "What were dividends paid and share repurchases combined per share in 2021?",
        "What were Acme's revenue and operating income together in 2023?",
        "What were Acme's total assets and total liabilities combined?",
        "What were Acme's gross profit and operating income together in 2023?",
        "What was the combined company's revenue and net income in 2023?",
        "What was the ratio of dividends paid and share repurchases combined to net income?",
    ):
        assert _sum(question) == "", question


def test_a_balance_asked_as_its_portions_only_where_it_is_asked_itself() -> None:
    asked = portions(
        "What were Acme's total notes payable and other borrowings (current plus non-current) "
        "as of May 31, 2017, in USD millions?"
    )
    assert asked == [
        (
            "notes payable and other borrowings",
            "current notes payable and other borrowings plus non-current notes payable and "
            "other borrowings",
        )
    ]
    for question in (
        "What was Acme's total debt (current plus noncurrent) divided by total equity?",
        "What was the ratio of Acme's total debt (current plus noncurrent) to equity?",
        "What were Acme's operating lease liabilities (current and noncurrent) as a percentage "
        "of total liabilities?",
        "What was Acme's long-term debt (current plus noncurrent portions) at year end?",
    ):
        assert portions(question) == [], question
    # a term taken is what is asked only where the question opens by asking it
    taking = "taking debt as short-term debt plus long-term debt?"
    assert asks_term(f"What was Acme's total debt at December 31, 2023, {taking}", "total debt")
    assert not asks_term(f"What was Acme's net debt at December 31, 2023, {taking}", "debt")
    assert not asks_term(f"What was Acme's debt relative to its equity, {taking}", "debt")


def test_a_row_of_the_other_side_is_not_the_side_asked() -> None:
    current = "What was Acme's current non-recourse debt at December 31, 2023?"
    assert other_side("Non-recourse debt (noncurrent)", current)
    assert not other_side("Non-recourse debt, including $273 related to VIEs", current)
    # both sides, or a portion a line includes, say no side
    both = "What was Acme's total non-recourse debt (current plus noncurrent portions)?"
    assert not other_side("Non-recourse debt (noncurrent)", both)
    assert not other_side("Long-term debt, net of current portion", current)
    assert not other_side("Current portion of long-term debt", "What was Acme's long-term debt?")


def test_kinds_listed_before_one_noun_count_that_noun() -> None:
    listed = "What was Acme's combined number of full-time and part-time employees in 2023?"
    ask = text_ask(listed, {"acme"})
    assert ask is not None and ask.noun == "employee"
    # two nouns: the first is what is counted, never the second's count
    ask = text_ask("How many stores and new restaurants did Acme open in 2023?", {"acme"})
    assert ask is not None and ask.noun == "store"
