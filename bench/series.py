"""A line item across each company's history, against the corpus the environment points at
(PI_HOME / PI_DATABASE_URL): for every company with at least three stored 10-Ks, revenue,
net income and total assets over FY2015–FY2022 asked as `pi ask` asks them (local mode),
and what the series says checked against the stored pages.

    PI_HOME=DIR python bench/series.py [--first 2015 --last 2022] [--json OUT.json] [-v]

Reported, per company and in all:
- coverage: of the company-years a stored 10-K covers (its own year and the comparative
  columns its statements show: two years before for a flow, one for a balance), the share
  the series gives a value;
- printed: the share of values whose digits are printed on the page they cite (read here
  from the stored page text, not from the series' own checks);
- cross-checked: of the company-years two or more stored filings report, the share where the
  series says whether they agree (confirmed_by or restated); and of the values called
  confirmed, the share printed on every confirming page too;
- line: the share of values whose row label is one of the line item's names (or a tagged
  concept of it);
- time: building one series in process (the series alone, from the same session), and the
  whole `Corpus.ask`, median and worst; and a ten-year series (FY2013–FY2022) built alone.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from pageindex_platform import Corpus
from pageindex_platform.db import queries
from pageindex_platform.db.queries import DocumentInfo
from pageindex_platform.index.tables import label_key
from pageindex_platform.periods.fiscal import reported
from pageindex_platform.periods.series import SeriesAsk
from pageindex_platform.records import DocType
from pageindex_platform.search.results import Series, SeriesValue
from pageindex_platform.search.series import AS_FILED, History
from pageindex_platform.search.series_answer import SeriesQuestion, build
from pageindex_platform.search.vocabulary import Vocabulary

ITEMS = ("revenue", "net income", "total assets")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def digits_printed(shown: str | None, page: str) -> bool:
    """Whether `page` prints the digits of a value as shown ("$30,274 million")."""
    found = _NUMBER.search(shown or "")
    if not found:
        return False
    number = found.group(0)
    return any(
        re.search(rf"(?<![\d.,]){re.escape(v)}(?![\d]|[.,]\d)", page)
        for v in {number, number.replace(",", "")}
    )


def covering(filings: list[DocumentInfo], year: int, balance: bool) -> list[DocumentInfo]:
    """The stored 10-Ks whose statements report `year` (a balance: at its end)."""
    months = 0 if balance else 12
    return [
        f
        for f in filings
        if f.doc_type == DocType.FORM_10K
        and any(
            s.fiscal_year == year and s.months == months and s.quarter == 4 for s in reported(f)
        )
    ]


def _companies(corpus: Corpus) -> dict[str, list[DocumentInfo]]:
    with corpus.db.session() as session:
        stored = queries.documents(session, ready=True)
    by_company: dict[str, list[DocumentInfo]] = defaultdict(list)
    for d in stored:
        if d.company:
            by_company[d.company].append(d)
    return {
        c: docs
        for c, docs in sorted(by_company.items())
        if sum(d.doc_type == DocType.FORM_10K for d in docs) >= 3
    }


def _built(corpus: Corpus, filings: list[DocumentInfo], item: str, years: range) -> float:
    """Seconds to build the line item's series alone (a fresh session, nothing cached)."""
    vocabulary = Vocabulary.load(corpus.settings.home)
    line = vocabulary.catalogue.item(item)
    assert line is not None
    asked = SeriesQuestion(SeriesAsk(tuple(years)), line, None, {}, AS_FILED)
    with corpus.db.session() as session:
        started = time.perf_counter()
        build(History(session, filings, vocabulary.catalogue), filings[0].company or "", asked)
        return time.perf_counter() - started


def _line_names(item: str) -> set[str]:
    found = Vocabulary.packaged().catalogue.item(item)
    assert found is not None
    return {label_key(n.removesuffix(" *")) for n in found.names} | set(found.concepts)


def _score(
    corpus: Corpus,
    filings: list[DocumentInfo],
    item: str,
    series: Series | None,
    years: range,
    tally: Counter[str],
    misses: list[str],
) -> None:
    values = {v.fiscal_year: v for v in series.values} if series else {}
    balance = item == "total assets"
    pages = _pages(corpus, series)
    names = _line_names(item)
    company = filings[0].company
    for year in years:
        value = values.get(year)
        covered = covering(filings, year, balance)
        if not covered:
            continue
        tally["covered"] += 1
        if value is None or value.value is None:
            misses.append(f"{company} {item} FY{year}: {value.reason if value else 'absent'}")
            continue
        tally["valued"] += 1
        _check_value(value, pages, names, tally, misses, f"{company} {item} FY{year}")
        if len(covered) >= 2:
            tally["reported twice"] += 1
            tally["said agree or not"] += bool(value.confirmed_by or value.restated)


def _check_value(
    value: SeriesValue,
    pages: dict[tuple[str, int], str],
    names: set[str],
    tally: Counter[str],
    misses: list[str],
    what: str,
) -> None:
    page = pages.get((value.document or "", value.page or 0), "")
    printed = digits_printed(value.shown, page)
    tally["printed"] += printed
    if not printed:
        misses.append(f"{what}: {value.shown} not printed on {value.document} p. {value.page}")
    label = label_key(value.label or "")
    tally["line"] += label in names or any(label.startswith(n) for n in names if n)
    if value.confirmed_by:
        tally["confirmed"] += 1
        tally["confirmed printed"] += all(
            digits_printed(s.shown, pages.get((s.document, s.page), "")) for s in value.confirmed_by
        )


def _pages(corpus: Corpus, series: Series | None) -> dict[tuple[str, int], str]:
    if series is None:
        return {}
    wanted = {
        (s.document, s.page) for v in series.values for s in [*v.confirmed_by, *v.restated]
    } | {(v.document, v.page) for v in series.values if v.document and v.page}
    with corpus.db.session() as session:
        found = queries.page_texts(session, sorted(wanted))
    return {(p.document, p.page): p.text for p in found}


def run(args: argparse.Namespace) -> dict[str, Any]:
    corpus = Corpus.open(mode="local")
    tally: Counter[str] = Counter()
    per_company: dict[str, Counter[str]] = {}
    misses: list[str] = []
    asks: list[float] = []
    builds: list[float] = []
    years = range(args.first, args.last + 1)
    for company, filings in _companies(corpus).items():
        counts: Counter[str] = Counter()
        for item in ITEMS:
            question = f"{company} {item} FY{args.first}–FY{args.last}"
            started = time.perf_counter()
            answer = corpus.ask(question)
            asks.append(time.perf_counter() - started)
            line = next((s for s in answer.series if s.kind == "line item"), None)
            builds.append(_built(corpus, filings, item, years))
            _score(corpus, filings, item, line, years, counts, misses)
        per_company[company] = counts
        tally.update(counts)
    ten = [
        _built(corpus, filings, "revenue", range(args.last - 9, args.last + 1))
        for filings in _companies(corpus).values()
    ]
    corpus.close()
    return {
        "companies": {c: dict(v) for c, v in per_company.items()},
        "total": dict(tally),
        "ask_seconds": _times(asks),
        "build_seconds": _times(builds),
        "ten_year_build_seconds": _times(ten),
        "misses": misses,
    }


def _times(values: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), 3) if values else 0.0,
        "max": round(max(values), 3) if values else 0.0,
        "n": len(values),
    }


def _share(a: int, b: int) -> str:
    return f"{a}/{b} ({100 * a / b:.1f}%)" if b else "0/0"


def report(result: dict[str, Any], verbose: bool) -> None:
    print(f"{'company':32} {'valued':>16} {'printed':>16} {'said':>16}")
    for company, c in result["companies"].items():
        print(
            f"{company[:32]:32} {_share(c.get('valued', 0), c.get('covered', 0)):>16} "
            f"{_share(c.get('printed', 0), c.get('valued', 0)):>16} "
            f"{_share(c.get('said agree or not', 0), c.get('reported twice', 0)):>16}"
        )
    t = result["total"]
    print(
        "\ncompany-years a stored 10-K covers with a value: "
        f"{_share(t.get('valued', 0), t.get('covered', 0))}"
    )
    print(
        f"values printed on the page they cite: {_share(t.get('printed', 0), t.get('valued', 0))}"
    )
    print(
        "years two filings report, agreement said: "
        f"{_share(t.get('said agree or not', 0), t.get('reported twice', 0))}"
    )
    print(
        "values called confirmed, printed on every confirming page: "
        f"{_share(t.get('confirmed printed', 0), t.get('confirmed', 0))}"
    )
    print(f"values whose row is the line item's: {_share(t.get('line', 0), t.get('valued', 0))}")
    for key in ("build_seconds", "ten_year_build_seconds", "ask_seconds"):
        print(f"{key}: {result[key]}")
    if verbose:
        print("\n".join(result["misses"]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=2015)
    parser.add_argument("--last", type=int, default=2022)
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("-v", "--verbose", action="store_true", help="list gaps and misses")
    args = parser.parse_args()
    result = run(args)
    report(result, args.verbose)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
