"""Metadata from cover pages, with the file name as a hint."""

from __future__ import annotations

from pageindex_platform.index.metadata import extract_metadata, name_hint, short_company
from pageindex_platform.records import PageText
from pageindex_platform.tokens import count_tokens, encoding_for

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
    m = extract_metadata(name="annual", pages=pages)
    assert m.doc_type == "10-K" and m.fiscal_period == "FY"
    assert m.company == "Best Buy Co., Inc."
    assert m.fiscal_year == 2018 and m.period_end == "2018-02-03"
    assert m.description and "Best Buy" in m.description


def test_quarter_from_year_to_date_columns() -> None:
    text = COVER_10K.replace("FORM 10-K", "FORM 10-Q").replace(
        "ANNUAL REPORT", "QUARTERLY REPORT").replace(
        "For the fiscal year ended February 3, 2018", "For the quarterly period ended July 29, 2023"
    )  # fmt: skip
    pages = [PageText(1, text), PageText(2, "Three Months Ended Six Months Ended fiscal 2024")]
    m = extract_metadata(name="x", pages=pages)
    assert (m.doc_type, m.fiscal_year, m.fiscal_period) == ("10-Q", 2024, "Q2")


def test_earnings_release_uses_the_file_name_hint_for_the_company() -> None:
    pages = [PageText(1, "August 24, 2023\nUlta Beauty Announces Second Quarter Fiscal 2023 "
                         "Results\nfor the thirteen-week period (\u201csecond quarter\u201d) "
                         "ended July 29, 2023 (NASDAQ: ULTA)")]  # fmt: skip
    m = extract_metadata(name="ULTABEAUTY_2024Q2_EARNINGS", pages=pages)
    assert m.doc_type == "earnings release"
    assert m.company == "Ulta Beauty" and "ULTA" in m.company_aliases
    assert (m.fiscal_year, m.fiscal_period) == (2023, "Q2")


def test_name_hint_and_short_company() -> None:
    assert name_hint("MGMRESORTS_2023_8K_dated-2023-09-12") == ("mgmresorts", 2023, None)
    assert name_hint("BESTBUY_2024Q2_10Q") == ("bestbuy", 2024, "Q2")
    assert short_company("MGM Resorts International") == "MGM Resorts"
    assert short_company("Amazon.com, Inc.") == "Amazon"


def test_token_counting_never_raises_for_unknown_models() -> None:
    assert count_tokens("hello world", model="llama3.1:8b-instruct") == 2
    assert encoding_for("gpt-4").name == "cl100k_base"  # from the seeded cache, offline
    assert count_tokens("hello world", model="gpt-4o") == 2  # o200k or the fallback
