"""A company's whole filing history, against the real database: a company's former name, the
same filing downloaded twice, the newest period when the question asks for it, comparisons
naming a company that is not stored, and symbols that are no evidence alone."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from .helpers import annual_filing, cover, ingest_files, run_cli, run_json


def _annual(name: str, symbol: str, year: int, body: str, month: str = "December 31") -> str:
    return annual_filing(year, body, name=name, symbol=symbol, month=month)


def _quarterly(name: str, symbol: str, when: str, body: str) -> str:
    return cover("10-Q", f"For the quarterly period ended {when}", name=name, symbol=symbol) + body


def _names(answer: dict[str, Any]) -> list[str]:
    return [d["name"] for d in answer["documents"]]


def test_a_renamed_company_is_one_company_under_both_names(tmp_path: Path) -> None:
    """Square Peg Inc. renamed itself Round Hole Inc. (one symbol, SQP, its filings under one
    name all before the other's): a question naming the new name and an old year gets the old
    name's filing of that year, not the new name's only filing. A company using another
    symbol stays apart."""
    body = "# Item 8. Financial Statements\n\nTotal current assets were {a} million.\n"
    ingest_files(
        tmp_path / "renamed",
        {
            "sqp2016.md": _annual("SQUARE PEG INC.", "SQP", 2016, body.format(a="1,200")),
            "sqp2017.md": _annual("SQUARE PEG INC.", "SQP", 2017, body.format(a="1,300")),
            "rh2021.md": _annual("ROUND HOLE INC.", "SQP", 2021, body.format(a="9,900")),
            "other2016.md": _annual("PEGBOARD INC.", "PGB", 2016, body.format(a="50")),
        },
    )
    out = run_json("ask", "Round Hole FY2016 total current assets")
    assert _names(out) == ["sqp2016"], out["route_reason"]
    assert "Square Peg Inc." in out["route_reason"] and "Pegboard" not in out["route_reason"]
    assert not any(w.startswith("No ") for w in out["warnings"])
    assert _names(run_json("ask", "Square Peg FY2021 total current assets")) == ["rh2021"]


def test_two_companies_using_one_symbol_at_once_are_not_merged(tmp_path: Path) -> None:
    """Two registrants whose covers give one symbol in the same years are two companies: the
    symbol alone names both (neither is chosen silently), and the name decides."""
    body = "# Item 7. Results\n\nRevenue was {a} million.\n"
    ingest_files(
        tmp_path / "clash",
        {
            "alpha2022.md": _annual("ALPHA MINING CORP.", "ZZ", 2022, body.format(a="21")),
            "beta2022.md": _annual("BETA FOODS CORP.", "ZZ", 2022, body.format(a="80")),
        },
    )
    both = run_json("ask", "ZZ revenue FY2022")
    assert set(_names(both)[:2]) == {"alpha2022", "beta2022"}
    said = '"ZZ" is the trading symbol of Alpha Mining Corp. and Beta Foods Corp.'
    assert any(w.startswith(said) for w in both["warnings"]) and said in both["answer"]
    named = run_json("ask", "Alpha Mining (ZZ) revenue FY2022")
    assert _names(named) == ["alpha2022"]


def test_a_symbol_inside_a_longer_token_names_no_company(tmp_path: Path) -> None:
    """ "PG&E" is not the symbol "PG" written: the company it names is linked by its name."""
    ingest_files(
        tmp_path / "amp",
        {
            "pg2022.md": _annual("PLAIN GOODS CORP.", "PG", 2022, "# Item 7\n\nWildfire.\n"),
            "pge2022.md": _annual("PG&E CORPORATION", "PCG", 2022, "# Item 7\n\nWildfire.\n"),
        },
    )
    out = run_json("ask", "PG&E wildfire liabilities in FY2022")
    assert _names(out) == ["pge2022"], out["route_reason"]


def test_a_symbol_that_is_a_common_word_is_read_and_said(tmp_path: Path) -> None:
    """A company whose symbol is "IT": a question writing "IT" and nothing else of the company
    gets its filing, and the answer says how "IT" was read; naming the company says nothing."""
    ingest_files(
        tmp_path / "word",
        {"it2022.md": _annual("GARNET RESEARCH INC.", "IT", 2022, "# Item 7\n\nIT budgets.\n")},
    )
    alone = run_json("ask", "IT revenue FY2022")
    said = '"IT" was read as the trading symbol of Garnet Research Inc.'
    assert _names(alone) == ["it2022"] and any(w.startswith(said) for w in alone["warnings"])
    named = run_json("ask", "Garnet Research (IT) revenue FY2022")
    assert _names(named) == ["it2022"] and not named["warnings"]


def test_the_same_file_under_two_names_is_stored_once_and_linked(
    tmp_path: Path, small_pdf: Path
) -> None:
    """A filing downloaded twice: the second name is linked to the stored document ("same
    content as"), in the same batch and in a later one; `pi docs` shows the link, the copy's
    name opens the document, and removing the copy's name removes the link alone."""
    folder = tmp_path / "twice"
    folder.mkdir()
    shutil.copy(small_pdf, folder / "a_first.pdf")
    shutil.copy(small_pdf, folder / "b_again.pdf")
    report = run_json("ingest", str(folder))
    assert (report["stored"], report["skipped"], report["failed"]) == (1, 1, 0)
    copy = next(f for f in report["files"] if f["name"] == "b_again")
    assert copy["status"] == "skipped" and "same content as a_first" in copy["error"]

    later = tmp_path / "later"
    later.mkdir()
    shutil.copy(small_pdf, later / "c_third.pdf")
    code, out, err = run_cli("ingest", str(later))
    assert code == 0 and "same content as a_first" in out + err
    listed = run_json("docs", "list")
    assert [(d["name"], d["copies"]) for d in listed] == [("a_first", ["b_again", "c_third"])]
    assert run_json("docs", "show", "c_third")["name"] == "a_first"

    again = run_json("ingest", str(folder), str(later))  # nothing new: nothing stored
    assert (again["stored"], again["failed"]) == (0, 0)
    code, out, _ = run_cli("docs", "rm", "c_third")
    assert code == 0 and "unlinked c_third (same content as a_first" in out
    assert run_json("docs", "show", "a_first")["copies"] == ["b_again"]
    answer = run_json("ask", "Ulta Beauty 8-K September 2023")
    assert {d["name"] for d in answer["documents"]} == {"a_first"}


def test_the_newest_period_answers_latest_and_status_questions(tmp_path: Path) -> None:
    """With a 10-K for fiscal 2024 and the 10-Q of the third quarter of fiscal 2025 stored,
    "last quarter", "latest" and a case's status come from the 10-Q; a question naming no
    period and no recency is answered by the annual report, as before."""
    name, symbol = "GIZMO WORKS INC.", "GZMO"
    ingest_files(
        tmp_path / "recent",
        {
            "k2024.md": _annual(
                name,
                symbol,
                2024,
                "# Item 3. Legal Proceedings\n\nThe Acme lawsuit against the company is "
                "pending; the company intends to defend it.\n\n# Item 7. Results\n\n"
                "Net sales were $391 billion for the fiscal year; net sales by segment "
                "and net sales by product follow.\n",
                month="September 28",
            ),
            "q2025q3.md": _quarterly(
                name,
                symbol,
                "June 28, 2025",
                "# Item 1. Legal Proceedings\n\nThe Acme lawsuit was dismissed.\n\n# Item 2. "
                "Results\n\nNet sales were $94 billion for the quarter.\n",
            ),
        },
    )
    for question in (
        "GZMO net sales last quarter",
        "What are Gizmo Works' latest net sales?",
        "What is the status of the Acme lawsuit against Gizmo Works?",
    ):
        assert _names(run_json("ask", question))[0] == "q2025q3", question
    assert _names(run_json("ask", "Gizmo Works net sales by segment"))[0] == "k2024"


def test_a_compared_company_that_is_not_stored_is_said(tmp_path: Path) -> None:
    """ "Compare Gizmo Works and Widgetco": no Widgetco filing is stored, and the answer and
    its warnings say so instead of answering for Gizmo Works alone as if it were the
    comparison. A question over every company says it is answered from one filing."""
    ingest_files(
        tmp_path / "one",
        {
            "k2024.md": _annual(
                "GIZMO WORKS INC.", "GZMO", 2024, "# Item 7\n\nGross margin was 46%.\n"
            ),
        },
    )
    out = run_json("ask", "Compare Gizmo Works and Widgetco gross margin in FY2024")
    said = "No filing of Widgetco is stored"
    assert any(said in w for w in out["warnings"]) and said in out["answer"]
    plain = run_json("ask", "Gizmo Works gross margin in FY2024")
    assert not any("No filing of" in w for w in plain["warnings"])
    across = run_json("ask", "Which company had the highest gross margin in FY2024?")
    assert any("not a ranking of the stored companies" in w for w in across["warnings"])
