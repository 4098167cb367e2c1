"""A line item across a company's history, against the real database: synthetic 10-Ks of one
company whose statements show three years (two balances) each, with a year restated by the
next 10-K and a year no stored filing covers; its 10-Qs of one year (the fourth quarter
derived); a second company to compare. Each value comes from its own filing or a later
filing's comparative column, said; values two filings print are cross-checked; growth and
CAGR are on the basis the series says; every door shows the series."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote_plus, urlsplit

import anyio
import pytest
from starlette.testclient import TestClient

from pageindex_platform.api import Corpus, Series
from pageindex_platform.mcp_server import build_server
from pageindex_platform.web import create_app

from .helpers import annual_filing, cover, ingest_files, run_cli, run_json
from .test_web_app import SITE, form_token

NAME, SYMBOL = "GIZMO WORKS INC.", "GZMO"


def _annual(
    year: int,
    revenue: tuple[int, int, int],
    income: tuple[int, int, int],
    assets: tuple[int, int],
    name: str = NAME,
    symbol: str = SYMBOL,
) -> str:
    """A 10-K whose income statement shows `year` and the two years before, and whose balance
    sheet shows the year's end and the year before's."""

    def money(values: tuple[int, ...]) -> str:
        return " ".join(f"$ {v:,}" for v in values)

    body = (
        "# Item 8. Financial Statements\n\n"
        "CONSOLIDATED STATEMENTS OF OPERATIONS\n(In millions)\nYears Ended December 31,\n"
        f"{year} {year - 1} {year - 2}\n"
        f"Revenue {money(revenue)}\nNet income {' '.join(f'{v:,}' for v in income)}\n\n"
        "CONSOLIDATED BALANCE SHEETS\n(In millions)\n"
        f"December 31, {year} December 31, {year - 1}\n"
        f"Total assets {' '.join(f'{v:,}' for v in assets)}\n"
    )
    return annual_filing(year, body, name=name, symbol=symbol)


def _quarterly(
    month: str, year: int, three: tuple[int, int], to_date: tuple[int, int] | None
) -> str:
    """A 10-Q: the quarter and the same quarter a year before (and the year to date)."""
    months = {"March 31": None, "June 30": "Six", "September 30": "Nine"}[month]
    heading = "Three Months Ended" + (f" {months} Months Ended" if months else "")
    ends = f"{month}, {year} {month}, {year - 1}"
    values = [*three, *(to_date or ())]
    body = (
        "# Item 1. Financial Statements\n\n"
        "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS\n(In millions)\n"
        f"{heading}\n{ends}" + (f" {ends}" if to_date else "") + "\n"
        f"Revenue {' '.join(f'$ {v:,}' for v in values)}\n"
    )
    when = f"For the quarterly period ended {month}, {year}"
    return cover("10-Q", when, name=NAME, symbol=SYMBOL) + body


# Revenue as each 10-K prints it: FY2015 is 1,200 in the 2016 10-K and 1,250 in the 2017
# 10-K (restated); no stored 10-K covers FY2018 (the 2017 10-K ends with FY2017, the 2021
# 10-K's columns begin with FY2019).
GIZMO = {
    "gizmo-10k-2016.md": _annual(2016, (1300, 1200, 1000), (130, 120, 100), (5300, 5000)),
    "gizmo-10k-2017.md": _annual(2017, (1400, 1300, 1250), (140, 130, 125), (5600, 5300)),
    "gizmo-10k-2021.md": _annual(2021, (1900, 1800, 1700), (190, 180, 170), (6800, 6500)),
}
QUARTERS = {
    "gizmo-10q-2021q1.md": _quarterly("March 31", 2021, (450, 420), None),
    "gizmo-10q-2021q2.md": _quarterly("June 30", 2021, (470, 440), (920, 860)),
    "gizmo-10q-2021q3.md": _quarterly("September 30", 2021, (480, 450), (1400, 1310)),
}
WIDGET = {
    "widget-10k-2021.md": _annual(
        2021, (700, 650, 600), (70, 65, 60), (900, 850), name="WIDGET CORP.", symbol="WDGT"
    ),
}


@pytest.fixture
def gizmo(tmp_path: Path) -> None:
    ingest_files(tmp_path / "filings", {**GIZMO, **QUARTERS, **WIDGET})


def _series(out: dict[str, Any], kind: str, company: str = "Gizmo Works Inc.") -> dict[str, Any]:
    found = [s for s in out["series"] if s["kind"] == kind and s["company"] == company]
    assert len(found) == 1, [(s["company"], s["kind"]) for s in out["series"]]
    return dict(found[0])


def _by_year(series: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        f"{v['fiscal_period'] + ' ' if v['fiscal_period'] else ''}FY{v['fiscal_year']}": v
        for v in series["values"]
    }


def test_each_year_is_read_from_its_own_filing_else_a_later_comparative_column(
    gizmo: None,
) -> None:
    out = run_json("ask", "Gizmo Works revenue FY2014–FY2021")
    revenue = _series(out, "line item")
    assert (revenue["line_item"], revenue["unit"], revenue["scale"]) == ("revenue", "USD", 10**6)
    assert revenue["basis"] == "as filed"
    years = _by_year(revenue)
    assert list(years) == [f"FY{y}" for y in range(2014, 2022)]
    read = {
        k: (v["value"] and v["value"] / 1e6, v["document"], v["source"]) for k, v in years.items()
    }
    assert read == {
        "FY2014": (1000, "gizmo-10k-2016", "comparative"),
        "FY2015": (1200, "gizmo-10k-2016", "comparative"),
        "FY2016": (1300, "gizmo-10k-2016", "own"),
        "FY2017": (1400, "gizmo-10k-2017", "own"),
        "FY2018": (None, None, None),
        "FY2019": (1700, "gizmo-10k-2021", "comparative"),
        "FY2020": (1800, "gizmo-10k-2021", "comparative"),
        "FY2021": (1900, "gizmo-10k-2021", "own"),
    }
    assert years["FY2018"]["reason"] == "no filing stored covers it"
    # the same value printed by a later 10-K confirms it; another value is a restatement
    assert [(c["document"], c["value"]) for c in years["FY2016"]["confirmed_by"]] == [
        ("gizmo-10k-2017", 1300e6)
    ]
    assert not years["FY2016"]["restated"]
    assert [(r["document"], r["shown"]) for r in years["FY2015"]["restated"]] == [
        ("gizmo-10k-2017", "$1,250 million")
    ]
    for value in (v for v in revenue["values"] if v["value"] is not None):
        assert {"printed", "duration", "fiscal_year"} <= set(value["checks"]), value
        assert value["label"] == "Revenue" and value["period"].startswith("year ended December 31")
    # the answer's text is the table, each gap named; its pages cited first
    assert "FY2018" in out["answer"] and "no filing stored covers it" in out["answer"]
    assert "restated in gizmo-10k-2017" in out["answer"]
    cited = [(c["document"], c["page"]) for c in out["citations"][:3]]
    assert cited[0] == (years["FY2014"]["document"], years["FY2014"]["page"])
    boxed = {(e["document"], e["text"]) for e in out["evidence"] if e["kind"] == "figure"}
    assert ("gizmo-10k-2017", "Revenue: 1,250 million") in boxed


def test_growth_and_cagr_use_the_basis_the_series_says(gizmo: None) -> None:
    filed = run_json("ask", "Gizmo Works revenue CAGR FY2014 to FY2021")
    growth = _by_year(_series(filed, "growth"))
    assert growth["FY2016"]["shown"] == "+8.3%"  # 1,300 over 1,200 as filed
    assert [i["document"] for i in growth["FY2016"]["inputs"]] == ["gizmo-10k-2016"] * 2
    assert growth["FY2019"]["value"] is None and "FY2018" in growth["FY2019"]["reason"]
    cagr = _series(filed, "cagr")["values"][0]
    assert cagr["shown"] == "9.6%" and cagr["period"] == "FY2014 to FY2021"  # (1,900/1,000)^(1/7)
    assert [i["fiscal_year"] for i in cagr["inputs"]] == [2014, 2021]
    assert "CAGR FY2014 to FY2021: 9.6%" in filed["answer"]

    restated = run_json("ask", "Gizmo Works revenue FY2014 to FY2021 as restated")
    line = _by_year(_series(restated, "line item"))
    assert _series(restated, "line item")["basis"] == "as last restated"
    assert (line["FY2015"]["value"], line["FY2015"]["document"]) == (1250e6, "gizmo-10k-2017")
    assert [r["value"] for r in line["FY2015"]["restated"]] == [1200e6]
    assert _by_year(_series(restated, "growth"))["FY2016"]["shown"] == "+4.0%"  # 1,300 / 1,250


def test_a_balance_the_last_years_and_a_metric_by_year(gizmo: None) -> None:
    assets = _by_year(
        _series(run_json("ask", "Gizmo Works total assets FY2015-FY2021"), "line item")
    )
    assert {k: v["value"] and v["value"] / 1e6 for k, v in assets.items()} == {
        "FY2015": 5000, "FY2016": 5300, "FY2017": 5600, "FY2018": None, "FY2019": None,
        "FY2020": 6500, "FY2021": 6800,
    }  # fmt: skip
    assert assets["FY2016"]["period"] == "as of December 31, 2016"
    assert assets["FY2016"]["confirmed_by"][0]["document"] == "gizmo-10k-2017"

    last = run_json("ask", "Gizmo Works net income over the last three years")
    assert list(_by_year(_series(last, "line item"))) == ["FY2019", "FY2020", "FY2021"]
    said = 'read "last three years" as fiscal 2019 to fiscal 2021 (FY2021: year ended December 31'
    assert any(r.startswith(said) for r in last["readings"]), last["readings"]

    margin = _series(run_json("ask", "Gizmo Works net profit margin by year"), "metric")
    values = _by_year(margin)
    assert values["FY2021"]["shown"] == "10.0%" and values["FY2018"]["value"] is None
    assert {i["name"] for i in values["FY2021"]["inputs"]} == {"net income", "revenue"}
    assert all(i["document"] == "gizmo-10k-2021" for i in values["FY2021"]["inputs"])


def test_a_quarter_series_derives_the_fourth_quarter_from_cited_inputs(gizmo: None) -> None:
    out = run_json("ask", "Gizmo Works quarterly revenue in FY2021")
    quarters = _by_year(_series(out, "line item"))
    assert [(k, v["value"] / 1e6, v["source"]) for k, v in quarters.items()] == [
        ("Q1 FY2021", 450, "own"),
        ("Q2 FY2021", 470, "own"),
        ("Q3 FY2021", 480, "own"),
        ("Q4 FY2021", 500, "derived"),
    ]
    fourth = quarters["Q4 FY2021"]
    assert fourth["document"] is None and fourth["formula"] == "FY2021 − 9M FY2021"
    assert [(i["document"], i["value"]) for i in fourth["inputs"]] == [
        ("gizmo-10k-2021", 1900e6),
        ("gizmo-10q-2021q3", 1400e6),
    ]
    assert fourth["period"] == "three months ended December 31, 2021"
    growth = _by_year(_series(out, "growth"))  # over the same quarter a year before
    assert growth["Q1 FY2021"]["shown"] == "+7.1%"  # 450 over 420
    # Q4 FY2020 derived too: 1,800 (the 2021 10-K's column) less 1,310 (the Q3 10-Q's)
    assert growth["Q4 FY2021"]["shown"] == "+2.0%"
    assert [i["value"] / 1e6 for i in growth["Q4 FY2021"]["inputs"]] == [1800, 1310, 1900, 1400]


def test_two_companies_are_two_series(gizmo: None) -> None:
    out = run_json("ask", "Compare Gizmo Works and Widget Corp revenue 2019 to 2021")
    gizmo_values = _by_year(_series(out, "line item"))
    widget = _by_year(_series(out, "line item", "Widget Corp."))
    assert [v["value"] / 1e6 for v in gizmo_values.values()] == [1700, 1800, 1900]
    assert [v["value"] / 1e6 for v in widget.values()] == [600, 650, 700]
    assert {v["document"] for v in widget.values()} == {"widget-10k-2021"}


def test_every_door_shows_the_series(gizmo: None) -> None:
    question = "Gizmo Works revenue FY2014–FY2021"
    code, out, err = run_cli("ask", question)
    assert code == 0, err
    rows = [line for line in out.splitlines() if re.match(r"FY20\d\d\s", line)]
    assert len(rows) == 8 and "$1,000 million" in rows[0] and "comparative column" in rows[0]
    assert "no filing stored covers it" in rows[4]

    code, out, err = run_cli("ask", question, "--csv")
    assert code == 0, err
    table = list(csv.DictReader(io.StringIO(out)))
    line = [r for r in table if r["series"] == "line item"]
    assert [r["fiscal_year"] for r in line] == [str(y) for y in range(2014, 2022)]
    assert line[0]["value"] == "1000000000.0" and line[0]["document"] == "gizmo-10k-2016"
    assert line[4]["value"] == "" and line[4]["reason"] == "no filing stored covers it"
    assert "gizmo-10k-2017 p." in line[1]["restated"]

    code, _, err = run_cli("ask", "Gizmo Works revenue FY2021", "--csv")
    assert code != 0 and "not a series" in err


def test_the_web_page_draws_the_series_each_point_linked_to_its_page(gizmo: None) -> None:
    with Corpus.open() as corpus, TestClient(create_app(corpus), base_url=SITE) as browser:
        question = "Gizmo Works revenue FY2014–FY2021"
        page = browser.get("/", params={"q": question, "t": form_token(browser)})
        assert page.status_code == 200
        table = page.text.split('<table class="series">', 1)[1].split("</table>", 1)[0]
        assert "no filing stored covers it" in table and "restated in" in table
        chart = page.text.split('<svg class="chart"', 1)[1].split("</svg>", 1)[0]
        points = re.findall(r'<a class="point" href="([^"]+)"><circle', chart)
        assert len(points) == 7  # eight years, one a gap
        assert chart.count("<polyline") == 2  # the line broken at the gap
        first = points[0].replace("&amp;", "&")
        assert urlsplit(first).path == "/documents/gizmo-10k-2016/pages/2"
        assert "Revenue: 1,000 million" in [
            unquote_plus(v) for v in re.findall(r"hl=([^&]+)", first)
        ]
        view = browser.get(first)
        marked = re.findall(r"<mark>([^<]+)</mark>", view.text)
        assert any(m.startswith("Revenue $ 1,300 $ 1,200 $ 1,000") for m in marked), marked
        answer = corpus.ask(question)  # the API's typed answer carries the same series
        assert isinstance(answer.series[0], Series) and answer.series[0].values[0].page == 2


@pytest.mark.no_database
def test_the_mcp_ask_tool_declares_the_series(tmp_path: Path) -> None:
    with Corpus.open() as corpus:
        server = build_server(corpus, ingest_folders=[tmp_path], allow_writes=False)
        ask = next(t for t in anyio.run(server.list_tools) if t.name == "ask")
    schema = ask.output_schema
    assert schema is not None and "series" in schema["properties"]
    value = schema["$defs"]["SeriesValue"]["properties"]
    assert {"fiscal_year", "fiscal_period", "value", "shown", "label", "period", "document"} <= set(
        value
    )
    assert {"page", "checks", "confirmed_by", "restated", "inputs", "reason"} <= set(value)
    assert {"company", "line_item", "unit", "scale", "basis", "values"} <= set(
        schema["$defs"]["Series"]["properties"]
    )
