"""Figures a question asks where the filing that answers first does not print them, or prints
them in another shape: the quarter's earnings release beside its 10-Q, a year asked of
quarterly filings only, a metric the filing names as a line of its own, a metric of a part of
the company. Against the real database."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest

from pageindex_platform.db import queries
from pageindex_platform.db.queries import TreeInfo
from pageindex_platform.search.document_search import Found
from pageindex_platform.search.evidence import stated_of_period
from pageindex_platform.search.query import Query
from pageindex_platform.search.vocabulary import Vocabulary

from .helpers import annual_filing, cover, ingest_files, run_json, session_scope

QUARTER = """# Item 1. Financial Statements

CONDENSED CONSOLIDATED STATEMENT OF INCOME
(In millions)
Three Months Ended June 30, Six Months Ended June 30,
2025 2024 2025 2024
Net revenues $ 2,540 $ 2,422 $ 5,050 $ 4,905
Cost of net revenues 718 700 1,420 1,390
Gross profit 1,822 1,722 3,630 3,515
Operating income 600 550 1,180 1,100
Net income 400 380 790 760
"""
RELEASE = """Zeta Corp Reports Second Quarter 2025 Results
SAN JOSE, Calif., July 26, 2025 -- Zeta Corp (NASDAQ: ZETA) today announced financial results
for the second quarter ended June 30, 2025.
Revenue of $2.5 billion, up 5% on an as-reported basis. Gross margin for the second quarter
expanded on a higher mix of advertising revenue; gross margin is the measure the quarter's
outlook reaffirms.

Unaudited Condensed Consolidated Statement of Income
(In millions)
June 30, 2025 June 30, 2024
Net revenues $ 2,540 $ 2,422
Operating income 600 550
Net income 400 380
"""
YEAR_RELEASE = """Zeta Corp Reports Fourth-Quarter and Full-Year 2024 Financial Results
SAN JOSE, Calif. -- Zeta Corp (NASDAQ: ZETA) today announced financial results for its fourth
quarter and full year 2024.

Zeta Corp
Consolidated Condensed Statements of Income
Three Months Ended Twelve Months Ended
(In Millions)
Dec 31, 2024 Dec 31, 2023 Dec 31, 2024 Dec 31, 2023
Net revenue $ 2,700 $ 2,500 $ 10,200 $ 9,600
Research and development 610 560 2,380 2,150
Operating income 640 590 2,460 2,300

Zeta Corp
Supplemental Operating Segment Results
Three Months Ended Twelve Months Ended
(In Millions)
Dec 31, 2024 Dec 31, 2023 Dec 31, 2024 Dec 31, 2023
Operating segment revenue:
Marketplace $ 1,900 $ 1,800 $ 7,300 $ 7,000
Payments 800 700 2,900 2,600
Total operating segment revenue $ 2,700 $ 2,500 $ 10,200 $ 9,600
Operating income (loss):
Marketplace $ 500 $ 470 $ 1,950 $ 1,800
Payments 140 120 510 500
Total operating income $ 640 $ 590 $ 2,460 $ 2,300
"""
POWER = """# Item 7. Management's Discussion and Analysis

Consolidated Operating Margin — Operating margin increased $108 million, or 4%, in 2024
compared to 2023.

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Years Ended December 31,
2024 2023 2022
Total revenue 11,141 9,660 10,189
Total cost of sales (8,322) (7,057) (7,672)
Operating margin 2,819 2,711 2,517
Net income 950 900 850
"""


@pytest.fixture
def filings(tmp_path: Path) -> None:
    ingest_files(
        tmp_path / "filings",
        {
            "zeta-10q-2025q2.md": cover(
                "10-Q", "For the quarterly period ended June 30, 2025", name="ZETA CORP"
            )
            + QUARTER,
            "zeta-release-2025q2.md": RELEASE,
            "zeta-release-2024q4.md": YEAR_RELEASE,
            "vela-10k-2024.md": annual_filing(2024, POWER, name="VELA POWER CORPORATION"),
        },
    )


def _ask(question: str) -> Any:
    return run_json("ask", question)


def test_a_metric_the_release_cannot_give_is_read_from_the_same_quarter_10q(
    filings: None,
) -> None:
    """Where the release is the best document found, the 10-Q of its quarter states the
    gross margin the release's table cannot (it prints no gross profit); a filing of another
    period is never asked in its place."""
    query = Query.parse("What was Zeta's gross margin in Q2 2025?", None, Vocabulary.packaged())
    with session_scope() as session:
        docs = {d.name: d for d in queries.documents(session, ready=True)}

        def found(*names: str) -> list[Found]:
            return [Found(docs[n], 1.0, cast(TreeInfo, None), [], []) for n in names]

        stated, document = stated_of_period(
            session, query, found("zeta-release-2025q2", "zeta-10q-2025q2"), None
        )
        assert document.name == "zeta-10q-2025q2"
        assert stated.headline is not None, stated.text
        assert stated.headline.value == pytest.approx(1822 / 2540 * 100, abs=0.05)
        alone, document = stated_of_period(
            session, query, found("zeta-release-2025q2", "vela-10k-2024"), None
        )
        assert document.name == "zeta-release-2025q2" and alone.headline is None


def test_a_year_asked_of_quarterly_filings_states_no_quarter(filings: None) -> None:
    out = _ask("What were Zeta's net revenues for fiscal 2025?")
    assert out["headline"] is None, out["answer"]
    assert not out["answer"].startswith("$2,540"), out["answer"]


def test_a_metric_the_filing_names_as_a_line_is_its_change_said(filings: None) -> None:
    out = _ask(
        "By what percentage did Vela Power's consolidated operating margin increase in 2024 "
        "compared with 2023?"
    )
    assert out["headline"] is not None, out["answer"]
    assert out["headline"]["value"] == pytest.approx(4)


def test_a_change_of_another_year_is_not_the_year_asked(filings: None) -> None:
    out = _ask(
        "By what percentage did Vela Power's operating margin change in 2023 compared with 2022?"
    )
    assert (out["headline"] or {}).get("value") != pytest.approx(4), out["answer"]


def test_a_part_s_percentage_change_is_not_the_whole_company_s(filings: None) -> None:
    out = _ask(
        "What was the percentage change in Zeta's net revenues of Marketplace from Q2 2024 "
        "to Q2 2025?"
    )
    assert (out["headline"] or {}).get("value") != pytest.approx(4.87, abs=0.05), out["answer"]


def test_a_metric_of_a_part_is_not_the_whole_company_s(filings: None) -> None:
    out = _ask("What was Zeta's marketplace revenue growth in Q2 2025?")
    assert out["headline"] is None, out["answer"]
    assert out["answer"].startswith("The question asks for marketplace"), out["answer"]
    # words after no possessive name no part: "Does Zeta have an improving gross margin"
    out = _ask("Does Zeta have an improving gross margin profile as of Q2 2025?")
    assert not out["answer"].startswith("For reference, The question asks"), out["answer"]


def test_how_much_one_figure_is_more_than_another_is_their_difference(filings: None) -> None:
    """Each side asked of the same filing and checked as any figure is; the difference with
    both cited, in the order the question asks it."""
    for question in (
        "How much higher was Zeta's gross profit than its operating income in Q2 2025?",
        "How much lower was Zeta's operating income than its gross profit in Q2 2025?",
    ):
        out = _ask(question)
        assert out["headline"] is not None, out["answer"]
        assert out["headline"]["value"] == pytest.approx(1222e6), out["answer"]
        assert out["answer"].startswith("$1,222 million"), out["answer"]
        assert {"Gross profit", "Operating income"} <= {f["label"] for f in out["figures"]}
    # both sides read as one figure, or each side of its own period: no difference stated
    for question in (
        "How much more revenue did Zeta generate from advertising than from payments in Q2 2025?",
        "How much higher was Zeta's net income in Q2 2025 than its net income in the six months "
        "ended June 30, 2025?",
    ):
        out = _ask(question)
        assert out["headline"] is None, (question, out["answer"])
    # a sum asked of two figures: each side checked the same way
    for question in (
        "What was the sum of Zeta's gross profit and its operating income in Q2 2025?",
        "What were Zeta's gross profit and operating income combined in Q2 2025?",
    ):
        out = _ask(question)
        assert (out["headline"] or {}).get("value") == pytest.approx(2422e6), out["answer"]
    # a flow and a balance, or two periods: no sum
    out = _ask("What was the sum of Zeta's net income and its total assets in Q2 2025?")
    assert out["headline"] is None, out["answer"]
    # a place outside the home country, however named: not the whole company's
    for place in ("in markets other than the U.S.", "in the rest of the world"):
        out = _ask(f"What net revenues did Zeta generate {place} in Q2 2025?")
        assert out["headline"] is None, (place, out["answer"])
    # a source of revenue named after the verb is a part: not the whole company's
    assert _ask("What revenue did Zeta generate from advertising in Q2 2025?")["headline"] is None
    # a side no figure passes for: no difference is stated
    out = _ask("How much more revenue did Zeta generate in Europe than in Asia in Q2 2025?")
    assert out["headline"] is None, out["answer"]


def test_a_full_year_asked_of_a_year_end_release_is_its_twelve_months(filings: None) -> None:
    """A fourth quarter's release prints each row for the quarter and for the year: a year
    asked is the twelve months' column, and the quarter the release is named by is not the
    year asked ("in 2023, based on its Q4 2024 earnings release")."""
    out = _ask("How much was operating income of Zeta's Marketplace segment in full-year 2024?")
    assert out["headline"] is not None, out["answer"]
    assert out["headline"]["value"] == pytest.approx(1_950e6), out["answer"]
    out = _ask("What did Zeta spend on research and development in 2023, per its Q4 2024 release?")
    assert out["headline"] is not None, out["answer"]
    assert out["headline"]["value"] == pytest.approx(2_150e6), out["answer"]
    # a quarter asked beside the release's own: the quarter asked, from the year-ago column
    out = _ask("What was Zeta's research and development in Q4 2023, per its Q4 2024 release?")
    assert out["headline"] is not None, out["answer"]
    assert out["headline"]["value"] == pytest.approx(560e6), out["answer"]
    out = _ask(
        "By how much did Zeta's research and development spending grow in full-year 2024 "
        "versus 2023, based on its Q4 2024 earnings release?"
    )
    assert out["headline"] is not None, out["answer"]
    assert out["headline"]["value"] == pytest.approx(230e6), out["answer"]
