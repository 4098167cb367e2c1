"""EDGAR HTML ingest (inline XBRL or not) against the real database: pages between CSS page
breaks, no iXBRL header text, the tree from the filing's own links, dei: metadata, and
`pi docs page`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pageindex_platform.api import Corpus
from pageindex_platform.index.build import BuildOptions, prepare_document

from .conftest import REPO
from .helpers import run_cli, run_json

EDGAR = REPO.parent / "shared" / "edgar-html-dev" / "filings"
BREAK = '<hr style="page-break-after:always"/>'

IXBRL = f"""<html xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><head><title>x</title></head>
<body>
<div style="display:none"><ix:header><ix:hidden>
<ix:nonNumeric name="dei:DocumentType" contextRef="c1">10-Q</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentFiscalYearFocus" contextRef="c1">2025</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentFiscalPeriodFocus" contextRef="c1">Q3</ix:nonNumeric>
<ix:nonNumeric name="dei:TradingSymbol" contextRef="c1">ACME</ix:nonNumeric>
<ix:nonNumeric name="dei:EntityCentralIndexKey" contextRef="c1">0000123456</ix:nonNumeric>
</ix:hidden><ix:resources><xbrli:context id="c1">HIDDENCONTEXT</xbrli:context>
</ix:resources></ix:header></div>
<div><span style="font-weight:bold">FORM 10-Q</span></div>
<div>For the quarterly period ended <ix:nonNumeric name="dei:DocumentPeriodEndDate"
 contextRef="c1">June 28, 2025</ix:nonNumeric></div>
<div><ix:nonNumeric name="dei:EntityRegistrantName" contextRef="c1">ACME WIDGETS, INC.
</ix:nonNumeric></div><div>(Exact name of registrant as specified in its charter)</div>
{BREAK}
<table><tr><td><a href="#p1">Part I</a></td><td></td></tr>
<tr><td><a href="#i1">Item 1.</a></td><td><a href="#i1">Financial Statements</a></td>
<td><a href="#i1">1</a></td></tr>
<tr><td><a href="#i2">Item 2.</a></td><td><a href="#i2">Management's Discussion</a></td>
<td><a href="#i2">4</a></td></tr>
<tr><td><a href="#p2">Part II</a></td><td></td></tr>
<tr><td><a href="#i5">Item 1A.</a></td><td><a href="#i5">Risk Factors</a></td>
<td><a href="#i5">6</a></td></tr></table>
{BREAK}
<div id="p1">PART I</div><div id="i1" style="font-weight:bold">Item 1. Financial Statements</div>
<table><tr><td>Net sales</td><td>$</td><td>
<ix:nonFraction name="us-gaap:Revenues" contextRef="c1" unitRef="usd" decimals="-6"
 scale="6">1,234</ix:nonFraction></td></tr></table>
{BREAK}
<div>Notes to the statements. Revenue grew on widget demand.</div>
{BREAK}
<div id="i2" style="font-weight:bold">Item 2. Management's Discussion and Analysis</div>
<div>Widget demand rose in every region.</div>
{BREAK}
<div id="p2">PART II</div><div id="i5">Item 1A. Risk Factors</div><div>Competition.</div>
</body></html>"""


@pytest.mark.no_database
def test_ixbrl_html_pages_tree_and_cover_facts(tmp_path: Path) -> None:
    path = tmp_path / "0000123456-25-000042.htm"
    path.write_text(IXBRL)
    doc = prepare_document(path, BuildOptions())
    assert doc.page_count == 6
    assert all("HIDDENCONTEXT" not in p.text and "dei:" not in p.text for p in doc.pages)
    assert "Net sales $ 1,234" in doc.pages[2].text  # a table row, its cells in order
    starts = {n.title: n.start_page for n in doc.all_nodes()}
    assert starts["Item 1. Financial Statements"] == 3
    assert starts["Item 2. Management's Discussion"] == 5
    assert starts["Item 1A. Risk Factors"] == 6
    m = doc.metadata
    assert (m.company, m.doc_type, m.fiscal_year, m.fiscal_period, m.period_end) == (
        "Acme Widgets, Inc.",
        "10-Q",
        2025,
        "Q3",
        "2025-06-28",
    )
    assert "ACME" in m.company_aliases and m.cik == "0000123456"


def test_docs_page_prints_a_cited_page(tmp_path: Path) -> None:
    (tmp_path / "acme.html").write_text(IXBRL)
    assert run_cli("ingest", str(tmp_path))[0] == 0
    assert run_json("docs", "show", "acme")["cik"] == "0000123456"
    out = run_json("docs", "page", "acme", "3")
    assert out["page"] == 3 and out["page_count"] == 6
    assert out["section"] == "Item 1. Financial Statements"
    assert "Net sales $ 1,234" in out["text"]
    code, text, _ = run_cli("docs", "page", "acme", "3")
    assert code == 0 and text.startswith("acme · p. 3 of 6 · Item 1. Financial Statements")
    code, _, err = run_cli("docs", "page", "acme", "9")
    assert code == 1 and "acme has no page 9 (pages 1-6)" in err


@pytest.mark.skipif(not EDGAR.is_dir(), reason="../shared/edgar-html-dev not present")
def test_every_edgar_dev_filing_ingests_with_exact_cover_facts_and_states_its_figures() -> None:
    code, _, err = run_cli("ingest", str(EDGAR))
    assert code == 0, err
    docs = {d["name"]: d for d in run_json("docs", "list")}
    assert len(docs) == len(list(EDGAR.glob("*.htm*"))) == 26
    for name, d in docs.items():
        path = next(EDGAR.glob(f"{name}.htm*"))
        facts = dict(re.findall(r'name="(dei:\w+)"[^>]*>([^<]+)<', path.read_text(errors="ignore")))
        if "dei:DocumentFiscalYearFocus" in facts:  # else no inline XBRL: text heuristics decide
            assert d["doc_type"] == facts["dei:DocumentType"].strip(), name
            assert d["fiscal_year"] == int(facts["dei:DocumentFiscalYearFocus"]), name
            assert d["fiscal_period"] == facts["dei:DocumentFiscalPeriodFocus"].strip(), name
        if d["doc_type"] == "10-K":
            _assert_items_start_on_their_pages(name)
    noise = [
        n
        for n in docs
        if any("xbrli:" in run_json("docs", "page", n, str(p))["text"] for p in (1, 2))
    ]
    assert noise == []
    again = run_json("ingest", str(EDGAR))  # unchanged files are skipped
    assert (again["stored"], again["skipped"], again["failed"]) == (0, 26, 0)
    _figure_questions_state_the_tagged_figure_and_cite_its_page()


def _assert_items_start_on_their_pages(name: str) -> None:
    """Items 1A, 7 and 8 are tree nodes starting on the page that shows their heading (an
    Item the filing does not have, such as 1A before 2005, has no node)."""
    tree = run_json("docs", "tree", name)
    flat: list[dict[str, Any]] = []
    stack = list(tree["nodes"])
    while stack:
        node = stack.pop()
        flat.append(node)
        stack.extend(node["nodes"])
    count = tree["page_count"]
    with Corpus.open() as corpus:  # every page's text, as `pi docs page` prints it
        pages = [corpus.page(name, p).text for p in range(1, count + 1)]
    for item in ("1A", "7", "8"):
        node = next((n for n in flat if re.match(rf"item\s*{item}\b", str(n["title"]), re.I)), None)
        if node is None:
            assert not any(re.search(rf"item\s*{item}\b", p, re.I) for p in pages), (name, item)
            continue
        assert re.search(rf"item\s*{item}\.?", pages[node["start_page"] - 1], re.I), (name, item)


def _figure_questions_state_the_tagged_figure_and_cite_its_page() -> None:
    """For every inline-XBRL 10-K and 10-Q of the stored EDGAR filings: revenue, net income
    and total assets are stated with their period, and the cited page shows that number (part
    of the test above, which has ingested them)."""
    checked = 0
    skipped: list[tuple[str, str]] = []
    for d in run_json("docs", "list"):
        if d["doc_type"] not in ("10-K", "10-Q") or d["fiscal_year"] is None:
            continue
        path = next(EDGAR.glob(f"{d['name']}.htm*"))
        source = path.read_text(errors="ignore")
        if "<ix:header" not in source.lower():
            continue  # older filings: no tagged facts
        info = run_json("docs", "show", d["name"])
        period = "FY" if d["fiscal_period"] == "FY" else d["fiscal_period"]
        company = min(info["company_aliases"], key=len) if d["company"].isupper() else d["company"]
        for what, when, tag in (
            ("revenue", "months ended", r"us-gaap:Revenue(?:s|FromContractWithCustomer\w*)\b"),
            ("net income", "months ended", r"us-gaap:(?:NetIncomeLoss|ProfitLoss)\b"),
            ("total assets", "as of", r"us-gaap:Assets\b"),
        ):
            if not re.search(rf'name="{tag}"', source):
                skipped.append((d["name"], what))  # the filing does not tag it
                continue
            question = f"{company} {period} {d['fiscal_year']} {what}"
            out = run_json("ask", question)
            first = out["answer"].splitlines()[0]
            m = re.match(
                r"(-?\$[\d,.]+) (million|billion) — (.+?) \(tagged (us-gaap:\w+)\) "
                r"\[(.+), p\. (\d+)\]",
                first,
            )
            assert m, (question, first)
            assert m.group(5) == d["name"] and int(m.group(6)) == out["citations"][0]["page"]
            assert when in m.group(3) or (what != "total assets" and "year ended" in m.group(3))
            shown = m.group(1).lstrip("-$")
            page = run_json("docs", "page", d["name"], m.group(6))["text"]
            assert shown.split(".")[0] in page, (question, first)
            checked += 1
    # IBM's 10-K incorporates its statements from the annual report (an exhibit): it tags
    # no revenue, net income or total assets of its own
    assert checked + len(skipped) == 19 * 3 and len(skipped) <= 3, skipped


HOSTILE_FACTS = f"""<html><head><title>x</title></head><body>
<div style="display:none"><ix:header><ix:hidden>
<ix:nonNumeric name="dei:DocumentType" contextRef="good">10-Q</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentFiscalYearFocus" contextRef="good">99999999999</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentFiscalPeriodFocus" contextRef="good">Q3</ix:nonNumeric>
</ix:hidden><ix:resources>
<xbrli:context id="good"><xbrli:period><xbrli:startDate>2025-03-30</xbrli:startDate>
<xbrli:endDate>2025-06-28</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="good"><xbrli:period><xbrli:startDate>2019-01-01</xbrli:startDate>
<xbrli:endDate>2019-03-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="feb30"><xbrli:period><xbrli:startDate>2024-12-01</xbrli:startDate>
<xbrli:endDate>2025-02-30</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="stamp"><xbrli:period>
<xbrli:instant>2025-06-28T00:00:00</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
</ix:resources></ix:header></div>
<div>FORM 10-Q</div><div>For the quarterly period ended <ix:nonNumeric
 name="dei:DocumentPeriodEndDate" contextRef="good">June 28, 2025</ix:nonNumeric></div>
<div><ix:nonNumeric name="dei:EntityRegistrantName" contextRef="good">ODD FACTS INC.
</ix:nonNumeric></div><div>(Exact name of registrant as specified in its charter)</div>
{BREAK}
<div style="font-weight:bold">Item 1. Financial Statements</div>
<table>
<tr><td>Total net sales</td><td><ix:nonFraction name="us-gaap:Revenues" contextRef="good"
 unitRef="usd" decimals="-6" scale="6">94,036</ix:nonFraction></td></tr>
<tr><td>Other revenue</td><td><ix:nonFraction name="us-gaap:OtherIncome" contextRef="feb30"
 unitRef="usd" decimals="-6" scale="6">12</ix:nonFraction></td></tr>
<tr><td>Huge</td><td><ix:nonFraction name="us-gaap:Liabilities" contextRef="stamp"
 unitRef="usd" decimals="99999999999" scale="6">1e400</ix:nonFraction></td></tr>
<tr><td>Total assets</td><td><ix:nonFraction name="us-gaap:Assets" contextRef="stamp"
 unitRef="usd" decimals="99999999999" scale="6">331,233</ix:nonFraction></td></tr>
</table></body></html>"""


def test_invalid_ixbrl_values_are_left_out_with_a_warning_not_the_filing(tmp_path: Path) -> None:
    """An impossible date (2025-02-30), a second context of one id, a dateTime instant, a
    number written 1e400, decimals and a fiscal year above 2^31: the filing is stored, what
    cannot be stored is left out and said in its warnings, and figure questions answer."""
    path = tmp_path / "odd.htm"
    path.write_text(HOSTILE_FACTS)
    code, _, err = run_cli("ingest", str(path))
    assert code == 0, err
    shown = run_json("docs", "show", "odd")
    warned = " ".join(shown["warnings"])
    assert "1 context with an invalid date left out" in warned
    assert "1 second context of one id left out" in warned
    assert "2 tagged number unreadable or of no valid context left out" in warned
    assert shown["fiscal_year"] != 99999999999
    revenue = run_json("ask", "Odd Facts Q3 total net sales")
    assert revenue["answer"].startswith(
        "$94,036 million — Revenue, three months ended June 28, 2025 (tagged us-gaap:Revenues)"
    )
    assets = run_json("ask", "Odd Facts total assets")
    assert "$331,233 million" in assets["answer"] and "inf" not in assets["answer"].lower()


@pytest.mark.parametrize(("depth", "complete"), [(300, True), (5000, False)])
def test_deeply_nested_html_is_read_or_said_to_be_cut(
    tmp_path: Path, depth: int, complete: bool
) -> None:
    """Elements nested 300 deep are read to the end (the page after them, its tagged fact);
    past what the parser reads (2048 levels) the document is stored with a warning that the
    rest was not read, never as if it were complete."""
    nest = "<div>" * depth + "Deep words." + "</div>" * depth
    path = tmp_path / "nested.htm"
    path.write_text(
        IXBRL.replace("<div>Notes to the statements.", nest + "<div>Notes to the statements.")
    )
    code, _, err = run_cli("ingest", str(path))
    assert code == 0, err
    shown = run_json("docs", "show", "nested")
    pages = [
        run_json("docs", "page", "nested", str(n))["text"]
        for n in range(1, shown["page_count"] + 1)
    ]
    read_on = any("Widget demand rose" in text for text in pages)
    cut = [w for w in shown["warnings"] if "nested deeper than 2048 levels" in w]
    assert (read_on, bool(cut)) == (complete, not complete), shown["warnings"]


@pytest.mark.no_database
def test_numbers_written_in_words_are_read_and_nothing_else_is_guessed() -> None:
    """ixt-sec:numwordsen facts ("two", "none", "twenty-one") are read as their numbers; a
    number in any other form than plain digits is left out and counted, never misread."""
    from collections import Counter

    from pageindex_platform.index.ixbrl import tagged_facts as _facts

    cells = "".join(
        f'<ix:nonFraction name="x:N{i}" contextRef="c" unitRef="u" {fmt}>{text}</ix:nonFraction>'
        for i, (fmt, text) in enumerate(
            [
                ('format="ixt-sec:numwordsen"', "two"),
                ('format="ixt-sec:numwordsen"', "none"),
                ('format="ixt-sec:numwordsen"', "Twenty-one"),
                ('format="ixt-sec:numwordsen"', "a few"),
                ("", "1e400"),
                ("", "1,234.5"),
            ]
        )
    )
    html = (
        '<html><body><xbrli:context id="c"><xbrli:period><xbrli:instant>2024-12-31'
        f"</xbrli:instant></xbrli:period></xbrli:context>{cells}</body></html>"
    )
    import lxml.html

    skipped: Counter[str] = Counter()
    found = {f.concept: f.value for f in _facts(lxml.html.document_fromstring(html), {}, skipped)}
    assert found == {"x:N0": 2.0, "x:N1": 0.0, "x:N2": 21.0, "x:N5": 1234.5}
    assert sum(skipped.values()) == 2
