"""`pi ask` in local mode on the sample filings, against the real database."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sqlalchemy import select

from pageindex_platform.db.tables import QueryLog
from pageindex_platform.index.company import trading_symbols
from pageindex_platform.periods.grammar import quarter_labels as parse_periods
from pageindex_platform.periods.grammar import years_written as parse_years
from pageindex_platform.search.constraints import parse_doc_types
from pageindex_platform.search.name_match import same_entity

from .helpers import run_cli, run_json, session_scope

KEYS = {
    "question",
    "mode",
    "route",
    "route_reason",
    "sql",
    "documents",
    "nodes",
    "citations",
    "answer",
    "figures",
    "working",
    "headline",
    "candidates",
    "compared",
    "evidence",
    "timings",
    "usage",
    "warnings",
    "readings",
    "series",
}


def test_question_naming_company_and_period_lands_on_that_filing(corpus: Path) -> None:
    out = run_json("ask", "Best Buy Q2 FY2024 revenue by category")
    assert set(out) == KEYS
    assert out["mode"] == "local" and out["route"] == "metadata" and out["sql"] is None
    assert "Best Buy" in out["route_reason"]
    assert out["documents"][0]["name"] == "BESTBUY_2024Q2_10Q"
    assert out["citations"] and all(c["document"] == "BESTBUY_2024Q2_10Q" for c in out["citations"])
    assert all(1 <= c["page"] <= 30 for c in out["citations"])
    assert out["nodes"] and {"document", "node_id", "title", "start_page", "end_page"} == set(
        out["nodes"][0]
    )
    # the quarter's revenue line is stated first, with its period and page, then the lines read
    first, _, rest = out["answer"].partition("\n\n")
    assert first.startswith("$9,583 million — Revenue, three months ended July 29, 2023")
    assert "[BESTBUY_2024Q2_10Q, p. " in first
    assert rest.startswith("Extracted text")
    assert out["figures"][0]["label"] == "Revenue" and out["figures"][0]["source"] == "table"
    assert out["usage"] == {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
    assert out["timings"]["total"] > 0


def test_fiscal_year_named_by_the_company_selects_the_right_release(corpus: Path) -> None:
    out = run_json("ask", "Ulta Beauty fourth quarter fiscal 2022 net sales")
    assert out["documents"][0]["name"] == "ULTABEAUTY_2023Q4_EARNINGS"
    cited = {c["page"] for c in out["citations"][:3]}
    assert 1 in cited  # the release's first page states the quarter's net sales


def test_question_without_company_searches_the_whole_corpus(corpus: Path) -> None:
    out = run_json("ask", "analyst notes showing Markdown files ingested like PDFs")
    assert out["route"] == "semantic" and "whole corpus" in out["route_reason"]
    assert "retail_sector_notes" in [d["name"] for d in out["documents"][:3]]
    assert any(c["document"] == "retail_sector_notes" for c in out["citations"])


def test_human_output_cites_document_page_and_section(corpus: Path) -> None:
    code, out, _ = run_cli("ask", "Amcor adjusted EBIT fiscal 2023", "--explain")
    assert code == 0
    assert "Sources:" in out and "AMCOR_2023Q4_EARNINGS · p. " in out
    assert "route: metadata" in out and "timings:" in out


def test_every_question_is_logged(corpus: Path) -> None:
    run_json("ask", "Best Buy stores")
    with session_scope() as session:
        log = session.scalars(select(QueryLog)).all()
    assert [e.question for e in log] == ["Best Buy stores"]
    assert log[0].documents and log[0].latency_ms > 0 and log[0].route == "metadata"


@pytest.mark.no_database
def test_constraint_parsing() -> None:
    assert parse_years("FY2018 vs FY22 and fiscal 2019, not $2018 million") == [2018, 2019, 2022]
    assert parse_periods("Q3 results and the second quarter") == ["Q2", "Q3"]
    assert parse_periods("short-term investments in H1 FY2023") == ["Q2"]
    assert parse_periods("sales in the first half of fiscal 2023") == ["Q2"]
    assert parse_doc_types("in its 10-K annual report and earnings release") == [
        "10-K",
        "earnings release",
    ]


@pytest.mark.parametrize(
    ("question", "years", "periods"),
    [
        ("Apple Q22023 revenue", [2023], ["Q2"]),
        ("Apple Q2'23 revenue", [2023], ["Q2"]),
        ("Apple Q2\u20192023 revenue", [2023], ["Q2"]),
        ("revenue 2021 Q1", [2021], ["Q1"]),
        ("revenue 2021Q1", [2021], ["Q1"]),
        ("revenue 2023-Q2", [2023], ["Q2"]),
        ("1Q23 margin", [2023], ["Q1"]),
        ("2Q 2023 margin", [2023], ["Q2"]),
        ("3QFY23 margin", [2023], ["Q3"]),
        ("the second fiscal quarter of 2023", [2023], ["Q2"]),
        ("fourth-quarter 2022 sales", [2022], ["Q4"]),
        ("as of FY2022", [2022], []),
        ("first nine months of 2023", [2023], ["Q3"]),
        ("Q1 10-Q filing", [], ["Q1"]),
        ("Q2 10 items", [], ["Q2"]),
    ],
)
@pytest.mark.no_database
def test_period_grammar(question: str, years: list[int], periods: list[str]) -> None:
    """Quarters and years as analysts write them, with the year written onto the quarter."""
    assert (parse_years(question), parse_periods(question)) == (years, periods)


def test_trading_symbols_from_the_cover_page_link_the_company(corpus: Path) -> None:
    """The 10-Q cover's "Trading Symbol(s)" column gives BBY and AMCR; a symbol links only as
    written, in capitals."""
    assert "BBY" in run_json("docs", "show", "BESTBUY_2024Q2_10Q")["company_aliases"]
    assert "AMCR" in run_json("docs", "show", "AMCOR_2023Q2_10Q")["company_aliases"]
    out = run_json("ask", "BBY comparable sales Q2 FY2024")
    assert out["route"] == "metadata" and out["documents"][0]["name"] == "BESTBUY_2024Q2_10Q"
    out = run_json("ask", "AMCR net sales in the quarter ended December 31, 2022")
    assert out["documents"][0]["name"].startswith("AMCOR_")
    assert "Best Buy" not in run_json("ask", "bby")["route_reason"]


@pytest.mark.no_database
def test_company_names_of_one_entity_are_linked_together() -> None:
    assert same_entity("MGM Resorts", "MGM Resorts International")
    assert same_entity("MGM Resorts", "MGM R Esorts I Nternational")  # letter-spaced PDF text
    assert same_entity("Best Buy", "Best Buy Co., Inc.")
    assert not same_entity("Block", "Blockbuster Inc")
    assert not same_entity("Apple", "Applied Materials")


def test_years_close_together_are_answered_by_the_latest_filing(corpus: Path) -> None:
    # The fiscal 2023 filing reports fiscal 2022 as a comparative. (The release of fiscal
    # 2022, which ended in January 2023, is called 2023 too; the 8-K is of fiscal 2023.)
    out = run_json("ask", "Ulta Beauty fiscal 2022 versus fiscal 2023 share repurchases")
    assert "fiscal_year in [2023]" in out["route_reason"]
    assert {d["name"] for d in out["documents"]} == {
        "ULTABEAUTY_2023_8K_dated-2023-09-18",
        "ULTABEAUTY_2023Q4_EARNINGS",
    }
    # Years further apart need each year's filing.
    out = run_json("ask", "Ulta Beauty fiscal 2019 versus fiscal 2022 net sales")
    assert "fiscal_year in [2019, 2022]" in out["route_reason"]


def test_files_named_after_download_links_get_the_same_metadata(samples: Path) -> None:
    """Company, type and period come from the content: a filing saved under its EDGAR
    accession number or a UUID is described as it is under a telling name."""
    named = {
        "BESTBUY_2024Q2_10Q": "0000764478-23-000089",
        "ULTABEAUTY_2023Q4_EARNINGS": "6f1c0f0e-3b7a-4c55-9a51-2d8e4c1b9a77",
        "AMCOR_2023Q2_10Q": "document",
    }
    renamed = samples.parent / "renamed"
    renamed.mkdir()
    for old, new in named.items():
        shutil.copy(samples / f"{old}.pdf", renamed / f"{new}.pdf")
    assert run_cli("ingest", str(samples))[0] == 0
    original = {d["name"]: d for d in run_json("docs", "list")}
    for old in named:
        assert run_cli("docs", "rm", old)[0] == 0
    assert run_cli("ingest", str(renamed))[0] == 0
    listed = {d["name"]: d for d in run_json("docs", "list")}
    best_buy = listed["0000764478-23-000089"]
    assert "Best Buy" in best_buy["company"]
    assert (best_buy["doc_type"], best_buy["fiscal_year"], best_buy["fiscal_period"]) == (
        "10-Q",
        2024,
        "Q2",
    )
    ulta = listed["6f1c0f0e-3b7a-4c55-9a51-2d8e4c1b9a77"]
    assert "Ulta Beauty" in ulta["company"] and ulta["doc_type"] == "earnings release"
    assert (ulta["fiscal_year"], ulta["fiscal_period"]) == (2022, "Q4")
    amcor = listed["document"]
    assert amcor["company"] == original["AMCOR_2023Q2_10Q"]["company"]
    assert (amcor["doc_type"], amcor["fiscal_period"]) == ("10-Q", "Q2")
    out = run_json("ask", "Best Buy Q2 FY2024 revenue by category")
    assert out["documents"][0]["name"] == "0000764478-23-000089"


def test_nicknames_misspellings_and_the_alias_file_link_companies(corpus: Path) -> None:
    # a misspelt name is still the company
    out = run_json("ask", "Amcorr adjusted EBIT fiscal 2023")
    assert "Amcor" in out["route_reason"] and out["documents"][0]["name"].startswith("AMCOR_")
    # an initialism made of the beginnings of the name's words
    out = run_json("ask", "UB net sales fourth quarter fiscal 2022")
    assert out["documents"][0]["name"].startswith("ULTABEAUTY_")
    # a name only the user knows, from $PI_HOME/aliases.txt
    from pageindex_platform.settings import get_settings

    aliases = get_settings().home / "aliases.txt"
    try:
        aliases.write_text("# company, other names\nBest Buy, Geek Squad Parent\n")
        out = run_json("ask", "Geek Squad Parent comparable sales Q2 FY2024")
        assert out["documents"][0]["name"] == "BESTBUY_2024Q2_10Q"
    finally:
        aliases.unlink()
    out = run_json("ask", "Geek Squad Parent comparable sales Q2 FY2024")
    assert "Best Buy" not in out["route_reason"]


@pytest.mark.no_database
def test_initialisms_and_misspellings_are_not_everyday_words() -> None:
    from pageindex_platform.search.name_match import initialism_of, misspelt

    assert initialism_of("AMEX", "American Express Company")
    assert initialism_of("IBM", "International Business Machines Corporation")
    assert initialism_of("JnJ", "Johnson & Johnson")
    assert initialism_of("P&G", "Procter & Gamble Co")
    assert not initialism_of("P&G", "PG&E Corporation")
    assert not initialism_of("AMEX", "Amazon.com, Inc.")
    assert not initialism_of("EPS", "Best Buy Co., Inc.")
    assert misspelt("verizn", "verizon") and misspelt("mcdonlds", "mcdonalds")
    assert misspelt("nkie", "nike") and misspelt("neflix", "netflix")
    assert misspelt("unionpaicfic", "unionpacific")
    assert not misspelt("targets", "target") and not misspelt("apple", "apple")
    assert not misspelt("nick", "nike") and not misspelt("aes", "amd")


def test_a_comparison_of_two_companies_cites_both(corpus: Path) -> None:
    out = run_json("ask", "Best Buy vs Amcor net sales in their latest quarter")
    assert out["route"] == "metadata"
    companies = {c["document"].split("_")[0] for c in out["citations"][:4]}
    assert companies == {"BESTBUY", "AMCOR"}


def test_one_company_is_stored_under_one_spelling(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text(
        "FORM 8-K\n\nCURRENT REPORT\n\nMcDONALD\u2019S CORPORATION\n\n(Exact name of "
        "registrant as specified in its charter)\n\nDate of Report: August 14, 2023\n"
    )
    (tmp_path / "b.md").write_text(
        "McDONALD'S REPORTS SECOND QUARTER 2023 RESULTS\n\nMcDonald's Corporation today "
        "announced results for the second quarter ended June 30, 2023.\n"
    )
    assert run_cli("ingest", str(tmp_path))[0] == 0
    companies = {d["company"] for d in run_json("docs", "list")}
    assert len(companies) == 1, companies


def test_a_fiscal_year_ending_in_january_is_found_by_either_year(corpus: Path) -> None:
    """Ulta's fiscal 2022 ended on January 28, 2023: "FY2023" finds it too, and its
    fourth-quarter release (which reports the full year) comes first."""
    from pageindex_platform.periods.fiscal import years_of

    assert years_of(2022, "2023-01-28") == {2022, 2023}
    assert years_of(2023, "2023-07-29") == {2023}
    assert years_of(2022, "2022-12-31") == {2022}
    out = run_json("ask", "Ulta Beauty FY2023 net sales for the full year")
    assert out["documents"][0]["name"] == "ULTABEAUTY_2023Q4_EARNINGS"
    assert not any(w.startswith("No ") for w in out["warnings"])


@pytest.mark.no_database
def test_filing_type_preferred_by_what_the_question_asks() -> None:
    from pageindex_platform.search.constraints import Constraints
    from pageindex_platform.search.priors import preferred_type

    year = Constraints(companies=["X"], years=[2023])
    quarter = Constraints(companies=["X"], years=[2023], periods=["Q2"])
    assert preferred_type("X revenue FY2023", year) == "10-K"
    assert preferred_type("X revenue Q2 2023", quarter) == "10-Q"
    assert preferred_type("X adjusted EBITDA FY2023", year) == "earnings release"
    assert preferred_type("X guidance for 2023", year) == "earnings release"
    assert preferred_type("How did X shareholders vote in 2023?", year) == "8-K"
    assert preferred_type("X revenue", Constraints(companies=["X"], doc_types=["10-Q"])) is None


def test_narrative_question_finds_its_section_not_the_certifications(tmp_path: Path) -> None:
    """A question about lawsuits lands on "Legal Proceedings" (subject vocabulary, rare
    words counting most), not on the officers' certification whose wording matches
    "reported" and "material"."""
    filler = "Revenue grew in every region as reported in the consolidated statements. " * 20
    (tmp_path / "acme.md").write_text(
        "# ACME WIDGETS CORPORATION\n\nFORM 10-K\n\nAnnual report for the fiscal year ended "
        "December 31, 2022.\n\n"
        f"# Item 1. Business\n\n{filler}\n\n"
        "# Item 3. Legal Proceedings\n\nIn March 2022 a class action was filed against the "
        "Company in the District of Delaware alleging infringement of three widget patents. "
        "The plaintiffs seek damages and an injunction. The Company believes the claims are "
        "without merit and is defending the suit vigorously; a trial is set for 2024.\n\n"
        f"# Item 7. Results\n\n{filler}\n\n"
        "# Exhibit 31.1 Certification\n\nI, Jane Roe, certify that: I have reviewed this "
        "annual report on Form 10-K; based on my knowledge, the financial statements fairly "
        "present in all material respects what was reported, pursuant to Section 302 of the "
        "Sarbanes-Oxley Act of 2002.\n"
    )
    assert run_cli("ingest", str(tmp_path))[0] == 0
    out = run_json("ask", "Has Acme reported any materially important ongoing lawsuits in 2022?")
    sections = {
        c["page"]: n["title"]
        for c in out["citations"]
        for n in out["nodes"]
        if n["node_id"] == c["node_id"]
    }
    first = out["citations"][0]
    assert "Legal Proceedings" in sections.get(first["page"], ""), out["citations"]


def test_question_naming_no_company_about_a_vote_prefers_the_8k(tmp_path: Path) -> None:
    annual = (
        "FORM 10-K\n\nANNUAL REPORT PURSUANT TO SECTION 13\n\nWIDGET HOLDINGS INC.\n\n"
        "(Exact name of registrant as specified in its charter)\n\n"
        "# Item 1. Business\n\nOur shareholders benefit from the results of our widget "
        "proposals to customers; the proposal pipeline grew. " * 2
    )
    event = (
        "FORM 8-K\n\nCURRENT REPORT\n\nGADGET CORP.\n\n(Exact name of registrant as "
        "specified in its charter)\n\nDate of Report: May 2, 2023\n\n# Item 5.07 "
        "Submission of Matters to a Vote of Security Holders\n\nAt the annual meeting, "
        "shareholders elected all nine directors and approved the say-on-pay proposal "
        "with 91% of votes cast in favour.\n"
    )
    (tmp_path / "annual.md").write_text(annual)
    (tmp_path / "event.md").write_text(event)
    assert run_cli("ingest", str(tmp_path))[0] == 0
    out = run_json("ask", "How did shareholders vote on the proposals at the annual meeting?")
    assert out["route"] == "semantic"
    assert out["documents"][0]["name"] == "event"


@pytest.mark.no_database
def test_a_preferred_series_symbol_is_not_read_as_the_company_s_own() -> None:
    # "PCG-PA": PCG's 6% preferred stock; "PA" alone would make "PE ratio" name the company
    cover = [
        "Title of each class Trading Symbol(s) Name of each exchange on which registered",
        "Common stock, no par value PCG The New York Stock Exchange",
        "First preferred stock, cumulative, par value $25 per share, 5% series A",
        "redeemable PCG-PE NYSE American LLC",
        "nonredeemable PCG-PA NYSE American LLC",
    ]
    assert trading_symbols(cover) == ["PCG"]
