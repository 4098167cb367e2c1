"""Every figure is checked before it is stated, against the real database: synthetic filings
whose wrong candidates are ranked where a careless answer would take them — a flow "as of" a
date in a note about equity affiliates, a balance given for a period by a cash flow row, a
negative revenue in a table of changes — each set aside with its reason while the right one
is the `headline`; no headline (and the candidates listed) when none passes; a comparison's
`compared`; a metric the question defines; a count and a percentage stated in the text; two
stored documents claiming one filing that disagree; and the web page's headline box."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pageindex_platform.api import Corpus
from pageindex_platform.db import queries
from pageindex_platform.periods import parse_period
from pageindex_platform.search.checks import CheckedBook, page_check, required_statements
from pageindex_platform.search.figures import Figure, LineItem
from pageindex_platform.search.headline import metric_checks
from pageindex_platform.search.parts_asked import part_asked
from pageindex_platform.search.printed import page_lines, printed_form, row_at, table_context
from pageindex_platform.search.statements import Statement
from pageindex_platform.search.text_ask import text_ask
from pageindex_platform.search.vocabulary import Vocabulary
from pageindex_platform.search.working import Working
from pageindex_platform.web import create_app

from .conftest import ingest_once
from .helpers import annual_filing, ingest_files, run_cli, run_json, session_scope
from .test_hostile import _ixbrl_10q
from .test_web_app import SITE

CHANGES = """# Item 7. Management's Discussion and Analysis

As of December 31, 2023, we operated 871 warehouses, up from 838 a year earlier. Paid
memberships increased 7.6% in 2023. Our Outdoor segment sales increased 12.5% in 2023. We
expect to open 30 new warehouses in 2024.

As of December 31, 2023, we employed approximately 9,000 full-time and approximately 2,000
part-time employees, including approximately 1,500 in research and development. Our board
approved a $500 million share repurchase authorization in 2023. At December 31, 2023, 95
million shares of common stock were outstanding. We had 140 stores at the end of 2023
throughout our Outdoor and Indoor segments. In total, 3 million shares were repurchased
in 2023 under the authorization.

Increase (decrease) from the prior year
(In millions)
2023 2022
Net sales (40) 25

Shares repurchased
(In millions)
2023 2022
Number of shares repurchased 3.0 2.4
"""
STATEMENTS = """# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Years Ended December 31,
2023 2022 2021
Net sales $ 4,000 $ 3,600 $ 3,200
Cost of sales 2,500 2,300 2,100
Operating income 600 500 400
Net income 450 380 300

CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
Years Ended December 31,
2023 2022 2021
Net cash provided by operating activities 800 700 600
Depreciation and amortization 150 140 130
Long-term debt (300) (200) (100)
Cash dividends paid (120) (110) (100)

CONSOLIDATED BALANCE SHEETS
(In millions)
December 31, 2023 December 31, 2022
Total assets 9,000 8,500
Current portion of long-term debt 100 90
Finance lease liabilities 50 40
Long-term debt 2,000 2,100
Total shareholders' equity 5,000 4,600
"""
AFFILIATES = """# Note 7. Investments in Equity Affiliates

Summarized results of our equity affiliates
(In millions)
December 31, 2023 December 31, 2022
Gross profit 136 120

Results of our equity affiliates
(In millions)
2023 2022
Research and development 12 10

# Note 9. Segments

Business Segment Information
Net Sales Operating Income
(In millions) 2023 2022 2023 2022
Outdoor 1,800 1,600 350 300
Indoor 2,200 2,000 250 200
"""


@pytest.fixture
def widget(tmp_path: Path) -> None:
    ingest_files(
        tmp_path / "widget",
        {
            "widget-10k-2023.md": annual_filing(
                2023, CHANGES + STATEMENTS + AFFILIATES, name="WIDGET WORKS INC.", symbol="WDGT"
            )
        },
    )


def _passed(headline: dict[str, Any]) -> list[str]:
    return [c["name"] for c in headline["checks"] if c["passed"]]


def _reasons(out: dict[str, Any]) -> dict[float, str]:
    return {c["value"]: c["set_aside"] for c in out["candidates"]}


def test_a_balance_given_for_a_period_is_set_aside_and_the_balance_sheet_stated(
    widget: None,
) -> None:
    out = run_json("ask", "What was Widget Works' long-term debt at the end of 2023?")
    headline = out["headline"]
    assert headline["value"] == 2_000e6 and headline["period_end"] == "2023-12-31"
    assert headline["period_start"] is None and headline["kind"] == "line item"
    assert {"kind", "duration", "statement", "sign", "page"} <= set(_passed(headline))
    assert "is a balance, at a date" in _reasons(out)[-300e6]
    assert out["answer"].startswith("$2,000 million — Long-term debt")


def test_a_negative_revenue_is_set_aside_and_the_statement_line_stated(
    widget: None, tmp_path: Path
) -> None:
    out = run_json("ask", "Widget Works FY2023 net sales")
    assert out["headline"]["value"] == 4_000e6
    assert "a row of the income statement" in out["headline"]["checks"][2]["detail"]
    ingest_files(
        tmp_path / "sprocket",
        {"sprocket-10k-2023.md": annual_filing(2023, CHANGES, name="SPROCKET INC.")},
    )
    changes = run_json("ask", "Sprocket FY2023 net sales")
    assert changes["headline"] is None
    assert "revenue is never negative" in _reasons(changes)[-40e6]


def test_a_segment_row_of_side_by_side_tables_is_read_under_its_own_heading(
    widget: None,
) -> None:
    out = run_json("ask", "What was Widget Works' Outdoor segment operating income in 2023?")
    headline = out["headline"]
    assert headline["value"] == 350e6 and headline["kind"] == "segment"
    assert headline["label"] == "Outdoor segment operating income"
    column = next(c for c in headline["checks"] if c["name"] == "column")
    assert column["detail"] == "the column under the heading that names operating income"
    sub_row = run_json("ask", "Widget Works FY2023 Indoor net sales")
    assert sub_row["headline"]["value"] == 2_200e6
    assert sub_row["headline"]["label"] == "Indoor revenue"
    whole = run_json("ask", "Widget Works FY2023 net sales")
    assert whole["headline"]["value"] == 4_000e6


@pytest.mark.parametrize(
    "question",
    [
        "What were net sales of Widget Works' Marine Group in 2023?",
        "What was total revenue of Widget Works' South America SBU in 2023?",
        "What were the net sales of Widget Works' marine and aviation business in 2023?",
        "What were Widget Works' Marine net sales in 2023?",
        "What natural gas net sales did Widget Works report for 2023?",
        "What were Widget Works' iWidget net sales in 2023?",
    ],
)
def test_a_part_of_the_company_not_found_never_gets_the_whole_company_s_figure(
    widget: None, question: str
) -> None:
    out = run_json("ask", question)
    assert out["headline"] is None
    assert "the whole company's figure" in _reasons(out)[4_000e6]


def test_a_part_named_by_a_group_or_a_business_is_read_as_a_segment(widget: None) -> None:
    group = run_json("ask", "What was the operating income of Widget Works' Outdoor Group in 2023?")
    assert group["headline"]["value"] == 350e6 and group["headline"]["kind"] == "segment"
    owned = run_json("ask", "What were the net sales of Widget Works' outdoor business in 2023?")
    assert owned["headline"]["value"] == 1_800e6


# a table of one brand's revenues by segment, before the segment note
BRAND = """
# Note 8. Brand revenues

The following table provides Trailhead revenues for our two reportable segments:
(In millions)
2023 2022
Outdoor 640 600
Indoor 90 80
"""


def test_a_table_of_a_part_s_revenue_by_segment_is_not_the_segment_s(tmp_path: Path) -> None:
    ingest_files(
        tmp_path / "brand",
        {
            "widget-10k-2023.md": annual_filing(
                2023, BRAND + STATEMENTS + AFFILIATES, name="WIDGET WORKS INC.", symbol="WDGT"
            )
        },
    )
    out = run_json("ask", "What were Widget Works' Outdoor segment net sales in 2023?")
    assert out["headline"]["value"] == 1_800e6  # the segment note's, not Trailhead's 640
    assert out["headline"]["label"] == "Outdoor segment revenue"


def test_a_row_of_a_table_about_equity_affiliates_is_not_the_company(widget: None) -> None:
    out = run_json("ask", "Widget Works FY2023 research and development expense")
    assert out["headline"] is None
    assert "a row of a table about equity affiliates" in _reasons(out)[12e6]


def test_the_duration_and_page_checks_set_aside_what_does_not_fit(widget: None) -> None:
    with session_scope() as session:
        document = queries.documents_by_name(session, ["widget-10k-2023"])["widget-10k-2023"]
        book = CheckedBook(session, document, parse_period("Q4 2023"))
        year = book.candidates(_item("revenue"), 2023)
        assert year == [] or all(f.period_start != "2023-01-01" for f in year)
        annual = CheckedBook(session, document, parse_period("FY2023"))
        figure = annual.candidates(_item("revenue"), 2023)[0]
        assert annual.duration_check(figure, 2023).passed
        duration = book.duration_check(figure, 2023)
        assert not duration.passed and "it covers 12 months" in duration.detail
        text = annual.page_text(figure.page)
        assert page_check(figure, text).passed
        moved = page_check(replace(figure, value=4_123e6), text)
        assert not moved.passed and "are not printed on p." in moved.detail


def _item(name: str) -> LineItem:
    found = Vocabulary.packaged().catalogue.item(name)
    assert found is not None
    return found


def test_a_metric_whose_input_fails_every_check_is_not_stated(widget: None) -> None:
    """Gross profit is only in a note about equity affiliates, as of a date: the metric is
    not computed from it, and the answer says it is not sure, listing why."""
    out = run_json("ask", "Widget Works FY2023 gross margin")
    assert out["headline"] is None and out["working"] is None
    assert "could be stated with confidence" in out["answer"]
    assert "gross profit is a flow, over a period" in _reasons(out)[136e6]
    assert not re.search(r"^\d", out["answer"])


def test_a_computed_metric_is_the_headline_with_its_checks(widget: None) -> None:
    out = run_json("ask", "Widget Works debt to equity ratio for FY2023")
    headline = out["headline"]
    assert headline["kind"] == "metric" and headline["value"] == 0.4
    assert headline["unit"] == "ratio" and headline["period_end"] == "2023-12-31"
    assert [c["name"] for c in headline["checks"]].count("inputs") == 2
    assert all(c["passed"] for c in headline["checks"])


def test_the_question_own_definition_wins(widget: None) -> None:
    out = run_json(
        "ask",
        "What is Widget Works' FY2023 EBITDA margin? EBITDA margin is defined as (net income "
        "plus depreciation and amortization) divided by revenue. Round to two decimal places.",
    )
    headline = out["headline"]
    assert headline["label"] == "ebitda margin" and headline["value"] == 15.0
    assert headline["unit"] == "%"
    assert out["working"]["formula"].startswith("(net income + depreciation")
    taken = run_json(
        "ask",
        "What is Widget Works' FY2023 debt-to-equity ratio, taking total debt as long-term "
        "debt including the current portion and finance leases? Round to two decimal places.",
    )
    assert taken["headline"]["value"] == 0.43
    names = [i["name"] for i in taken["working"]["inputs"]]
    assert names[:3] == ["long-term debt", "current portion of long-term debt", "finance leases"]
    inline = run_json(
        "ask",
        "What was Widget Works' cost intensity in 2023, i.e. cost of sales as a percentage of "
        "net sales, rounded to one decimal?",
    )
    assert inline["headline"]["value"] == 62.5 and inline["headline"]["unit"] == "%"
    billions = run_json("ask", "Widget Works FY2023 net sales in USD billions")
    assert billions["headline"]["value"] == 4.0 and billions["headline"]["unit"] == "USD billions"
    assert billions["answer"].startswith("$4.00 billion ($4,000 million) — Net sales")


def test_a_definition_that_cannot_be_read_is_never_replaced_by_the_usual_one(
    widget: None,
) -> None:
    out = run_json(
        "ask",
        "What was Widget Works' debt-to-equity ratio at December 31, 2023, defined as (current "
        "portion of long-term debt + long-term debt) relative to total shareholders' equity "
        "measured at book value? Round to two decimals.",
    )
    assert out["headline"] is None
    assert out["answer"].startswith("The question defines the metric in its own words")


def test_a_metric_asked_is_never_answered_by_a_line_of_its_formula(widget: None) -> None:
    out = run_json(
        "ask",
        "What was Widget Works' debt to equity ratio at the end of 2023, defined as total "
        "debt divided by total equity?",
    )
    assert out["headline"] is None


def test_a_line_asked_from_one_statement_is_taken_from_it_alone(widget: None) -> None:
    """Every statement of the synthetic filing is on one page, read as its income
    statement: D&A asked "from the cash flow statement" is not found there, and said."""
    items = Vocabulary.packaged().catalogue.items
    asked = "EBITDA, using unadjusted operating income and D&A from the cash flow statement"
    assert required_statements(asked, items) == {
        "depreciation and amortization": Statement.CASH_FLOW
    }
    out = run_json("ask", f"What is Widget Works' FY2023 {asked}?")
    assert out["headline"] is None
    reason = _reasons(out)[150e6]
    assert reason.startswith("the question asks for the cash flow statement's; p. 3 is the income")
    plain = run_json("ask", "What is Widget Works' FY2023 EBITDA?")
    assert plain["headline"]["value"] == 750e6


def test_a_count_and_a_percentage_are_read_from_the_sentence_that_states_them(
    widget: None,
) -> None:
    count = run_json("ask", "How many warehouses did Widget Works operate at the end of 2023?")
    headline = count["headline"]
    assert headline["value"] == 871 and headline["kind"] == "text"
    assert "we operated 871 warehouses" in headline["label"]
    page = run_json("docs", "page", "widget-10k-2023", str(headline["page"]))["text"]
    assert "871 warehouses" in page
    assert {"page", "period", "kind", "statement", "label"} <= set(_passed(headline))
    asked = "How many part-time employees did Widget Works have at the end of 2023?"
    assert run_json("ask", asked)["headline"]["value"] == 2_000  # not the full-time 9,000
    asked = "How many full-time employees did Widget Works have at the end of 2023?"
    assert run_json("ask", asked)["headline"]["value"] == 9_000
    # a part named: the company's count is not the part's
    asked = "How many full-time employees did Widget Works have in its South America SBU in 2023?"
    assert run_json("ask", asked)["headline"] is None
    shares = run_json("ask", "How many shares did Widget Works repurchase in 2023?")
    assert shares["headline"]["value"] == 3e6  # not "$500 million share repurchase": money
    assert 95e6 not in _reasons(shares)  # outstanding, not bought: the sentence that says it
    asked = "How many shares in total were repurchased by Widget Works in 2023?"
    assert run_json("ask", asked)["headline"]["value"] == 3e6
    stores = run_json("ask", "How many stores did Widget Works operate at the end of 2023?")
    assert stores["headline"]["value"] == 140  # across its segments: the company's count
    asked = "How many of Widget Works' employees were in research and development in 2023?"
    engineers = run_json("ask", asked)
    assert engineers["headline"] is None or engineers["headline"]["value"] == 1_500
    asked = "By what percent did Widget Works' paid memberships increase in 2023?"
    percent = run_json("ask", asked)
    assert percent["headline"]["value"] == 7.6 and percent["headline"]["unit"] == "%"
    segment = run_json("ask", "By what percent did Widget Works' sales increase in 2023?")
    # the company's change, computed from its statements (4,000 over 3,600), not the
    # Outdoor segment's 12.5% that the sentences give
    assert segment["headline"]["value"] == 11.1 and segment["headline"]["kind"] == "metric"
    plan = run_json("ask", "How many new warehouses will Widget Works open in 2024?")
    assert plan["headline"] is None
    assert 30 in _reasons(plan)  # the plan a question asks is no figure of a year not stored
    planned = run_json("ask", "How many warehouses did Widget Works open in 2023?")
    assert planned["headline"] is None or planned["headline"]["value"] != 30


# sentences with a percentage about something else than what is asked
ELSEWHERE = """# Item 7. Management's Discussion and Analysis

Based on long-term economic growth projections of 2.6% in average annual gross domestic
product, we project demand for about 4,000 new widgets over the next 20 years.

In the second quarter, with sales up in every market, diluted earnings per share was $3.17,
an increase of 24%.
"""


BARE = """# Item 7. Management's Discussion and Analysis

Non-GAAP measures
(In millions, except per share data)
2023 2022
Adjusted net income per share:
Basic $ 2.40 $ 2.10
Diluted $ 2.35 $ 2.05
Share repurchases
2023 2022
Shares remaining authorized for repurchase 45 60

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF INCOME
(In millions, except per share data)
Years Ended December 31,
2023 2022
Net sales $ 4,000 $ 3,600
Net income 450 380
Earnings per share:
Basic $ 1.55 $ 1.30
Diluted $ 1.50 $ 1.25
Weighted-average shares outstanding:
Basic 290.3 292.1
Diluted 300.0 304.0
"""


def test_a_bare_diluted_row_is_the_per_share_line_under_its_heading(tmp_path: Path) -> None:
    files = {"lantern-10k-2023.md": annual_filing(2023, BARE, name="LANTERN GOODS INC.")}
    ingest_files(tmp_path / "lantern", files)
    out = run_json("ask", "What was Lantern Goods' diluted EPS in 2022?")
    assert out["headline"]["value"] == 1.25
    label = next(c for c in out["headline"]["checks"] if c["name"] == "label")
    assert label["detail"] == "the row 'Diluted' under 'Earnings per share:'"
    basic = run_json("ask", "What was Lantern Goods' basic earnings per share in 2023?")
    assert basic["headline"]["value"] == 1.55
    # the adjusted figures' rows and the shares still authorized are never the answer
    assert (
        run_json("ask", "What was Lantern Goods' diluted EPS in 2023?")["headline"]["value"] == 1.5
    )
    bought = run_json("ask", "How many shares did Lantern Goods repurchase in 2023?")
    assert bought["headline"] is None


def test_a_count_of_shares_no_sentence_states_is_read_from_its_table_row(widget: None) -> None:
    out = run_json("ask", "How many shares did Widget Works buy back in 2022?")
    assert out["headline"]["value"] == 2.4e6
    assert out["headline"]["shown"] == "2.4 million shares"
    assert out["headline"]["page"] == out["figures"][0]["page"]


def test_a_percentage_is_read_only_from_a_sentence_about_what_is_asked(tmp_path: Path) -> None:
    ingest_files(
        tmp_path / "elsewhere",
        {
            "widget-10k-2023.md": annual_filing(
                2023, ELSEWHERE, name="WIDGET WORKS INC.", symbol="WDGT"
            )
        },
    )
    asked = "By what percentage did Widget Works' total revenues grow year over year in 2023?"
    growth = run_json("ask", asked)
    stated = growth["headline"]["value"] if growth["headline"] else None
    assert stated != 2.6  # a projection is not a figure reported
    asked = "By how much did Widget Works' global comparable sales increase in the second quarter?"
    comparable = run_json("ask", asked)
    assert comparable["headline"] is None or comparable["headline"]["value"] != 24


def test_a_comparison_states_each_named_company(widget: None, tmp_path: Path) -> None:
    other = STATEMENTS.replace("600 500 400", "900 800 700")
    ingest_files(
        tmp_path / "gadget",
        {"gadget-10k-2023.md": annual_filing(2023, other, name="GADGET CORP.", symbol="GDGT")},
    )
    out = run_json("ask", "Compare Widget Works and Gadget Corp operating income in FY2023")
    assert out["headline"] is None
    stated = {c["company"]: c["headline"]["value"] for c in out["compared"] if c["headline"]}
    assert sorted(stated.values()) == [600e6, 900e6], out["compared"]
    assert "$600 million" in out["answer"] and "$900 million" in out["answer"]


def test_two_documents_claiming_one_filing_that_disagree_state_no_headline(
    tmp_path: Path,
) -> None:
    tampered, real = tmp_path / "acme-q3-copy.html", tmp_path / "acme-10q.html"
    tampered.write_text(_ixbrl_10q("1,036"))
    real.write_text(_ixbrl_10q("1,234"))
    assert run_cli("ingest", str(tampered))[0] == 0
    assert run_cli("ingest", str(real))[0] == 0
    out = run_json("ask", "ACME Q3 2025 revenue")
    assert out["headline"] is None
    reasons = {c["document"]: c["set_aside"] for c in out["candidates"]}
    assert reasons.keys() >= {"acme-q3-copy", "acme-10q"}
    assert all("claims the same filing" in r for r in reasons.values())
    assert "No figure could be stated with confidence: acme-q3-copy and acme-10q" in out["answer"]
    code, printed, _ = run_cli("ask", "ACME Q3 2025 revenue")
    assert code == 0 and "Not sure: no figure passed every check." in printed


def test_a_copy_that_agrees_is_checked_and_stated(tmp_path: Path) -> None:
    for name in ("acme-10q.html", "acme-10q-copy.html"):  # the copy differs in its bytes
        (tmp_path / name).write_text(_ixbrl_10q("1,234") + f"<!-- {name} -->")
    assert run_cli("ingest", str(tmp_path))[0] == 0
    out = run_json("ask", "ACME Q3 2025 revenue")
    assert out["headline"]["value"] in (1_234e6, 1_234)
    agreement = [c for c in out["headline"]["checks"] if c["name"] == "agreement"]
    assert agreement and agreement[0]["passed"] and "agrees" in agreement[0]["detail"]
    code, printed, _ = run_cli("ask", "ACME Q3 2025 revenue")
    assert code == 0 and "\nStated: " in printed and "(checked: kind, duration" in printed


@pytest.fixture
def client() -> Iterator[TestClient]:
    with Corpus.open() as corpus, TestClient(create_app(corpus), base_url=SITE) as browser:
        yield browser


def _token(client: TestClient) -> str:
    found = re.search(r'name="t" value="([^"]+)"', client.get("/").text)
    assert found
    return found.group(1)


def test_the_web_page_shows_the_headline_or_not_sure(widget: None, client: TestClient) -> None:
    page = client.get("/", params={"q": "Widget Works FY2023 net sales", "t": _token(client)})
    box = re.search(r'<div class="headline">(.*?)</ul>', page.text, re.S)
    assert page.status_code == 200 and box, page.text
    assert "$4,000 million" in box.group(1) and "page:" in box.group(1)
    unsure = client.get("/", params={"q": "Widget Works FY2023 gross margin", "t": _token(client)})
    assert "Not sure: no figure could be stated with confidence." in unsure.text
    assert "set aside" in unsure.text and "$136 million" in unsure.text


def test_a_total_is_never_stated_for_a_figure_asked_per_share(widget: None) -> None:
    total = run_json("ask", "What were Widget Works' cash dividends paid in 2023?")
    assert total["headline"]["value"] in (120e6, -120e6)
    per_share = run_json("ask", "What were Widget Works' cash dividends paid per share in 2023?")
    assert per_share["headline"] is None
    reasons = _reasons(per_share)
    assert total["headline"]["value"] not in reasons or "per share" in reasons[120e6]
    assert not [f for f in per_share["figures"] if abs(f["value"]) == 120e6]


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("What were Widget Works' net sales for fiscal 2022, as shown in its 2023 10-K?", 3_600e6),
        ("In its 2023 annual report, what was Widget Works' net income for the prior year?", 380e6),
        ("Widget Works' 2023 10-K: what operating income for the year before?", 500e6),
        ("What was Widget Works' operating income in 2023?", 600e6),
    ],
)
def test_a_year_that_names_the_filing_is_not_the_year_asked(
    widget: None, question: str, value: float
) -> None:
    assert run_json("ask", question)["headline"]["value"] == value


def test_an_amount_is_never_stated_for_a_figure_asked_in_percent(widget: None) -> None:
    grew = run_json("ask", "How much did Widget Works' net sales grow in 2023, in percent?")
    # the sentences give only a segment's 12.5%: computed from the statements instead
    assert (grew["headline"]["value"], grew["headline"]["unit"]) == (11.1, "%")
    amount = run_json("ask", "What were Widget Works' net sales in 2023, in percent?")
    assert amount["headline"] is None
    assert "percentage" in _reasons(amount)[4_000e6]  # the year's net sales: an amount


@pytest.mark.no_database
@pytest.mark.parametrize(
    ("question", "noun"),
    [
        ("How many employees does Apple have?", "employee"),
        ("How many Apple employees were there in 2023?", "employee"),
        ("How many stores does Target operate?", "store"),
        ("How many permanent part-time employees did FedEx have?", "employee"),
        # kinds listed before the noun: the noun after the list
        (
            "What was FedEx's combined number of permanent full-time and permanent part-time "
            "employees as of May 31, 2023?",
            "employee",
        ),
    ],
)
def test_the_noun_counted_is_the_head_of_the_phrase_asked(question: str, noun: str) -> None:
    ask = text_ask(question, {"apple", "target", "fedex"})
    assert ask is not None and ask.noun == noun


@pytest.mark.no_database
@pytest.mark.parametrize(
    ("question", "company"),
    [
        ("What was Coca-Cola revenue in 2023?", "The Coca-Cola Company"),
        ("What was Apple's year-end revenue in 2023?", "Apple Inc."),
        ("What was Apple's full-year net sales in 2022?", "Apple Inc."),
    ],
)
def test_words_of_the_company_or_of_a_whole_year_name_no_part(question: str, company: str) -> None:
    item = LineItem(names=("revenue", "revenues", "net sales"), concepts=())
    assert part_asked(question, item, _document(company)) is None


def _document(company: str) -> queries.DocumentInfo:
    return queries.DocumentInfo(
        id=1,
        name="a-10k",
        status="ready",
        page_count=1,
        company=company,
        company_aliases=(),
        doc_type="10-K",
        fiscal_year=2023,
        fiscal_period="FY",
        period_end=None,
        cik=None,
        title=None,
        description=None,
        source_path="",
        sha256="",
        tree_source="",
        embedder="",
        warnings=(),
        usage={},
        created_at=None,
    )


# an income statement whose sub-rows stand under their section's heading, per-share rows
# worded as filings word them, a pro forma table, a segment note whose group rows stand under
# "Net revenue:" or "Operating income (loss):", and a table of year-over-year changes
SECTIONS = """# Item 7. Management's Discussion and Analysis

We repurchased 12.5 million shares for $600 million (including 0.5 million shares that were
not settled), 10.0 million shares for $450 million and 8.2 million shares for $300 million in
2023, 2022 and 2021, respectively, under the stock repurchase program. As of December 31,
2023, we employed approximately 11,000 full-time employees, including approximately 1,200 in
sales, approximately 800 in research and development, approximately 1,000 in product support
and approximately 300 in hardware support.

The following table shows changes in revenue and operating results by reportable segment for
2023 compared to 2022 (in millions):
Year-over-Year Changes
Revenue Operating Results
Ridge Group 275 498
Harbor Group 90 40

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions, except per share amounts)
Years Ended December 31,
2023 2022 2021
Operating revenues
Electric 3,000 2,800 2,600
Natural gas 1,000 900 800
Total operating revenues 4,000 3,700 3,400
Cost of sales 2,500 2,300 2,100
Selling, general and administrative expenses 700 650 600
Operating income 800 750 700
Net income 450 380 300
Net income (loss) per share - diluted 2.10 1.90 1.70
Cash dividends declared per common share 0.80 0.75 0.70

# Note 4. Acquisitions

Had the acquisition taken place at the beginning of 2022, the results would have been as
below. The unaudited pro forma financial information was as follows:
Years Ended December 31,
(In millions, except per share data) 2023 2022
Total revenues 4,400 4,100
Diluted earnings per share 2.30 2.05

# Note 9. Segments

Net revenue and operating income (loss) for each period were as follows:
(In millions)
Years Ended December 31,
2023 2022 2021
Net revenue:
Harbor Group
Platform 1,500 1,400 1,300
Adjacent 500 400 300
2,000 1,800 1,600
Ridge Group 2,000 1,900 1,800
Total net revenue 4,000 3,700 3,400
Operating income (loss):
Harbor Group 700 650 600
Ridge Group 100 100 100
Coast Group 50 40 30
Total operating income 850 790 730
"""


@pytest.fixture
def sections(tmp_path: Path) -> None:
    files = {"harbor-10k-2023.md": annual_filing(2023, SECTIONS, name="HARBOR RIDGE INC.")}
    ingest_once("harbor_sections", tmp_path / "harbor", files)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("What natural gas operating revenues did Harbor Ridge report for 2022?", 900e6),
        ("What was Harbor Ridge's natural gas operating revenue in 2021?", 800e6),
        ("What was the operating income of Harbor Ridge's Harbor Group in 2023?", 700e6),
        ("What was the net revenue of Harbor Ridge's Ridge Group in 2023?", 2_000e6),
        ("What was Harbor Ridge's diluted net income per share in 2022?", 1.90),
        ("What diluted earnings per share did Harbor Ridge report for 2023?", 2.10),
        ("What cash dividends declared per common share did Harbor Ridge report for 2021?", 0.70),
        ("What were Harbor Ridge's selling, general and administrative expenses in 2023?", 700e6),
        ("How many shares of its common stock did Harbor Ridge repurchase in 2022?", 10e6),
        ("How many shares did Harbor Ridge repurchase in 2023?", 12.5e6),
        ("How many of Harbor Ridge's full-time employees were in research and development?", 800),
        ("How many full-time employees did Harbor Ridge have at the end of 2023?", 11000),
        ("What was Harbor Ridge's net income in the last fiscal year, i.e. 2023?", 450e6),
    ],
)
def test_a_row_is_read_under_the_heading_it_stands_under(
    sections: None, question: str, value: float
) -> None:
    headline = run_json("ask", question)["headline"]
    assert headline is not None and headline["value"] == pytest.approx(value)


def test_a_part_of_a_count_is_the_one_the_question_s_words_go_with(sections: None) -> None:
    # "support" goes with two parts, and "1,000" is also the end of "11,000": never 1,000
    out = run_json("ask", "How many Harbor Ridge employees worked in hardware support in 2023?")
    assert out["headline"] is None or out["headline"]["value"] == 300


def test_a_part_s_row_under_another_line_item_s_heading_is_not_stated(sections: None) -> None:
    # Coast Group's only row is its operating income, under "Operating income (loss):"
    out = run_json("ask", "What was the net revenue of Harbor Ridge's Coast Group in 2023?")
    assert out["headline"] is None
    assert "$50 million" not in out["answer"].split("\n")[0]
    # Harbor Group's revenue is its rows' unlabelled subtotal under its heading, not its
    # operating income nor the change a table of year-over-year changes gives (90)
    group = run_json("ask", "What was the net revenue of Harbor Ridge's Harbor Group in 2023?")
    assert group["headline"]["value"] == 2_000e6


@pytest.mark.no_database
def test_a_metric_whose_amounts_are_read_a_million_apart_is_set_aside() -> None:
    def row(label: str, value: float, decimals: int | None) -> Figure:
        return Figure(
            "acme-10k", label, value, "iso4217:USD", decimals, None, "2023-12-31", 4, "table"
        )

    debt, equity = row("Total debt", 20_463e6, -6), row("Total equity", 5_700, None)
    working = Working(
        "debt to equity", "debt / equity", debt.value / equity.value, False, 2, [2023]
    )
    working.inputs = [("total debt", 2023, debt), ("total equity", 2023, equity)]
    # "$5,700" read where the balance sheet prints millions: a scale missed, not a ratio
    assert [c.passed for c in metric_checks(working, {}) if c.name == "sign"] == [False]
    working.inputs[1] = ("total equity", 2023, row("Total equity", 5_700e6, -6))
    working.value = debt.value / 5_700e6  # 3.59: read at one scale
    assert [c.passed for c in metric_checks(working, {}) if c.name == "sign"] == [True]
    # the same inputs' ratio as 3.59 million (an amount added to a ratio): no ratio of amounts
    working.value = 3_590_000.0
    assert [c.passed for c in metric_checks(working, {}) if c.name == "sign"] == [False]


SEGMENT_TABLES = """The following table presents revenue by unit (in millions):
Total Revenue Intersegment External Revenue
Revenue
2023 2022 2023 2022 2023 2022
Northern Unit
1,800 1,700 (3) (2) 1,797 1,698
Total Revenue $ 9,000 $ 8,500 $ (40) $ (30) $ 8,960 $ 8,470
Total Segment Earnings Intersegment External Segment Earnings
Segment Earnings
2023 2022 2023 2022 2023 2022
Northern Unit
240 230 12 11 252 241
Bank loans
— 120
Bank loans
4,100 4,000
"""


@pytest.mark.no_database
def test_a_rows_line_its_digits_and_its_tables_words() -> None:
    def row(label: str, value: float) -> Figure:
        return Figure("acme-10k", label, value, "iso4217:USD", -6, None, "2023-12-31", 9, "table")

    lines = page_lines(SEGMENT_TABLES)
    # a label on its own line, its digits on the next: the line whose next holds them, not
    # the first line so labelled
    earnings, revenue = row("Northern Unit", 240e6), row("Northern Unit", 1_800e6)
    assert row_at(earnings, lines) > row_at(revenue, lines)
    assert lines[row_at(earnings, lines) - 1] == "2023 2022 2023 2022 2023 2022"
    assert row_at(row("Bank loans", 4_100e6), lines) == len(lines) - 2
    # the words over the second table are its own, not the first table's total row
    context = table_context(earnings, SEGMENT_TABLES)
    assert "Segment Earnings" in context and "Total Revenue $" not in context
    # a whole number printed with its tenths ("8,297.0"), not the start of "8,297.5"
    assert printed_form(row("West", 8_297e6), "West 8,297.0 9,219.8") == "8,297"
    assert printed_form(row("West", 8_297e6), "West 8,297.5 9,219.8") == ""
