"""Metadata from cover pages and first pages, never from the file name."""

from __future__ import annotations

import pytest

from pageindex_platform.index.metadata import extract_metadata
from pageindex_platform.names import short_company
from pageindex_platform.records import PageText
from pageindex_platform.tokens import count_tokens, encoding_for

pytestmark = pytest.mark.no_database  # pure: no database is started

COVER_10K = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
FORM 10-K
ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended February 3, 2018
BEST BUY CO., INC.
(Exact name of registrant as specified in its charter)
"""


def test_10k_cover_with_fiscal_year_named_by_the_company() -> None:
    pages = [PageText(1, COVER_10K), PageText(2, "Fiscal 2018 included 53 weeks. fiscal 2018")]
    m = extract_metadata(pages=pages)
    assert m.doc_type == "10-K" and m.fiscal_period == "FY"
    assert m.company == "Best Buy Co., Inc."
    assert m.fiscal_year == 2018 and m.period_end == "2018-02-03"
    assert m.description and "Best Buy" in m.description


def test_quarter_from_year_to_date_columns() -> None:
    text = (
        COVER_10K.replace("FORM 10-K", "FORM 10-Q")
        .replace("ANNUAL REPORT", "QUARTERLY REPORT")
        .replace(
            "For the fiscal year ended February 3, 2018",
            "For the quarterly period ended July 29, 2023",
        )
    )
    pages = [PageText(1, text), PageText(2, "Three Months Ended Six Months Ended fiscal 2024")]
    m = extract_metadata(pages=pages)
    assert (m.doc_type, m.fiscal_year, m.fiscal_period) == ("10-Q", 2024, "Q2")


def test_a_release_headline_naming_the_quarter_and_the_full_year_gives_their_year() -> None:
    # released in January 2023, with an outlook for the first quarter of 2023
    text = (
        "News Release\nAcme Reports Fourth-Quarter and Full-Year 2022 Financial Results\n"
        "Fourth-quarter revenue was $14.0 billion. Forecasting first-quarter 2023 revenue of "
        "$10.5 billion.\nSANTA CLARA, Calif., Jan. 26, 2023 -- Acme Corporation today reported "
        "fourth-quarter and full-year 2022 financial results."
    )
    m = extract_metadata(pages=[PageText(1, text)])
    assert (m.doc_type, m.fiscal_year, m.fiscal_period) == ("earnings release", 2022, "Q4")


def test_earnings_release_company_from_its_own_text() -> None:
    pages = [
        PageText(
            1,
            "August 24, 2023\nUlta Beauty Announces Second Quarter Fiscal 2023 "
            "Results\nUlta Beauty, Inc. (NASDAQ: ULTA) today announced financial "
            "results for the thirteen-week period (\u201csecond quarter\u201d) "
            "ended July 29, 2023",
        )
    ]
    m = extract_metadata(pages=pages)
    assert m.doc_type == "earnings release"
    assert m.company == "Ulta Beauty, Inc." and {"ULTA", "Ulta Beauty"} <= set(m.company_aliases)
    assert (m.fiscal_year, m.fiscal_period) == (2023, "Q2")


def test_release_headline_in_capitals_and_legal_name_in_the_text() -> None:
    pages = [
        PageText(
            1,
            "Exhibit 99.1\nFOR IMMEDIATE RELEASE\nMcDONALD'S REPORTS SECOND "
            "QUARTER 2023 RESULTS\nCHICAGO, IL - McDonald's Corporation today "
            "announced results for the second quarter ended June 30, 2023.",
        )
    ]
    m = extract_metadata(pages=pages)
    assert m.company == "McDonald's Corporation" and "McDONALD'S" in m.company_aliases
    assert (m.doc_type, m.fiscal_year, m.fiscal_period) == ("earnings release", 2023, "Q2")


def test_older_cover_without_the_exact_name_line() -> None:
    cover = (
        "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\nANNUAL REPORT "
        "PURSUANT TO SECTION 13 OR 15(d)\nFor the fiscal year ended December 31, 2018\n"
        "Commission file number 1-3285\n3M COMPANY\nState of Incorporation: Delaware\n"
        "Indicate by check mark if the Registrant is a well-known seasoned issuer"
    )
    m = extract_metadata(pages=[PageText(1, cover)])
    assert (m.company, m.doc_type, m.fiscal_year) == ("3M Company", "10-K", 2018)


def test_transition_period_line_is_not_the_registrant() -> None:
    cover = COVER_10K.replace(
        "BEST BUY CO., INC.\n",
        "BEST BUY CO., INC.\nFor the transition period from ______ to ______\n",
    )
    assert extract_metadata(pages=[PageText(1, cover)]).company == "Best Buy Co., Inc."


def test_52_53_week_year_ending_in_early_january_is_the_year_before() -> None:
    cover = COVER_10K.replace("February 3, 2018", "January 1, 2023")
    pages = [PageText(1, cover), PageText(2, "fiscal 2023 outlook; fiscal 2023 plans")]
    assert extract_metadata(pages=pages).fiscal_year == 2022


def test_a_sentence_naming_form_10_q_does_not_make_a_release_a_10_q() -> None:
    text = (
        "Acme Corp. Reports Third Quarter 2023 Results\nAcme Corp. today reported results."
        " Further details are in our Quarterly Report on\nForm 10-Q for the quarter ended "
        "September 30, 2023."
    )
    m = extract_metadata(pages=[PageText(1, text)])
    assert m.doc_type == "earnings release" and m.company == "Acme Corp."


def test_short_company() -> None:
    assert short_company("MGM Resorts International") == "MGM Resorts"
    assert short_company("Amazon.com, Inc.") == "Amazon"


def test_token_counting_never_raises_for_unknown_models() -> None:
    assert count_tokens("hello world", model="llama3.1:8b-instruct") == 2
    assert encoding_for("gpt-4").name == "cl100k_base"  # from the seeded cache, offline
    assert count_tokens("hello world", model="gpt-4o") == 2  # o200k or the fallback


def test_called_by_its_first_word_only_when_that_is_no_ordinary_word() -> None:
    cover = COVER_10K.replace("BEST BUY CO., INC.", "VERIZON COMMUNICATIONS INC.")
    body = "Verizon serves customers. " * 6 + "See www.verizon.com for more."
    m = extract_metadata(pages=[PageText(1, cover), PageText(2, body)])
    assert "Verizon" in m.company_aliases
    body = "Best Buy sells electronics. " * 6 + "We use our best efforts."
    m = extract_metadata(pages=[PageText(1, COVER_10K), PageText(2, body)])
    assert "Best" not in m.company_aliases and "Best Buy" in m.company_aliases


def test_letter_spaced_registrant_name_is_joined_again() -> None:
    cover = COVER_10K.replace("BEST BUY CO., INC.", "MGM R Esorts I Nternational")
    body = "MGM Resorts International operates resorts. International travel recovered."
    m = extract_metadata(pages=[PageText(1, cover), PageText(2, body)])
    assert m.company == "MGM Resorts International" and "MGM Resorts" in m.company_aliases


def test_full_text_terms_split_hyphens_and_keep_phrases() -> None:
    from pageindex_platform.search.subjects import section_phrases as phrases_in
    from pageindex_platform.search.terms import terms as _terms
    from pageindex_platform.search.vocabulary import Vocabulary

    def section_phrases(question: str) -> list[str]:
        return phrases_in(question, Vocabulary.packaged().subjects)

    assert _terms("full-time employees") == ["full", "time", "employees"]
    phrases = section_phrases("What lawsuits is Boeing facing?")
    assert "legal proceedings" in phrases
    assert "(legal <-> proceedings)" in _terms("lawsuits", phrases)
    assert section_phrases("What was revenue in 2022?") == []


def test_notes_that_mention_a_company_are_not_its_filing() -> None:
    text = (
        "Retail sector notes\nBest Buy reports on a fiscal year that ends on the Saturday "
        "closest to the end of January. Its Form 10-Q for the second quarter of fiscal 2024 "
        "covers the quarter ended July 29, 2023."
    )
    m = extract_metadata(pages=[PageText(1, text)])
    assert m.company is None and m.doc_type == "other"
