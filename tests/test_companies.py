"""Companies as analysts write them, against the real database: legal and short names, a
leading part of a name, symbols, initialisms, misspellings within a distance that grows
with the name's length — and the negatives: P&G is not PG&E, AMD is not AES, a common word
alone names no company, a misspelling as close to two names picks neither, and a company
that is not stored is said to be so, with no other company's figure or passage."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pageindex_platform.search.constraints import parse_constraints

from .conftest import DEV_SET, REPO
from .helpers import annual_filing, ingest_files, run_json, session_scope

BODY = """# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Years Ended December 31,
2024 2023
Revenue $ {revenue:,} $ 900
"""
# registrant, symbol, its revenue for fiscal 2024 (millions)
COMPANIES = (
    ("GIZMO WORKS INC.", "GZMO", 101),
    ("EXXON MOBIL CORPORATION", "XOM", 102),
    ("THE COCA-COLA COMPANY", "KO", 103),
    ("JOHNSON & JOHNSON", "JNJ", 104),
    ("PROCTER & GAMBLE CO", "PG", 105),
    ("PG&E CORPORATION", "PCG", 106),
    ("ADVANCED MICRO DEVICES, INC.", "AMD", 107),
    ("THE AES CORPORATION", "AES", 108),
    ("NETFLIX, INC.", "NFLX", 109),
    ("NIKE, INC.", "NKE", 110),
    ("BLOCK, INC.", "SQ", 111),
    ("TARGET CORPORATION", "TGT", 112),
    ("UNION PACIFIC CORPORATION", "UNP", 113),
    ("BANTAM FOODS CORP.", "BTF", 114),
    ("BANTOM FOODS CORP.", "BOF", 115),
    ("AMERICAN EXPRESS CO", "AXP", 116),
    ("AMERICAN WATER WORKS COMPANY, INC.", "AWK", 117),
)


@pytest.fixture
def stored(tmp_path: Path) -> None:
    ingest_files(
        tmp_path / "companies",
        {
            f"{symbol.lower()}-2024.md": annual_filing(
                2024, BODY.format(revenue=revenue), name=name, symbol=symbol
            )
            for name, symbol, revenue in COMPANIES
        },
    )


def _revenue(question: str) -> tuple[float | None, str | None]:
    out = run_json("ask", question)
    figure = out["figures"][0] if out["figures"] else None
    cited = out["citations"][0]["document"] if out["citations"] else None
    return (figure["value"] / 1e6 if figure else None), cited


@pytest.mark.parametrize(
    ("question", "revenue", "document"),
    [
        ("What was Exxon's revenue for FY2024?", 102, "xom-2024"),  # a leading part
        ("What was Coca Cola's revenue for FY2024?", 103, "ko-2024"),
        ("What was Coca-Cola's revenue for FY2024?", 103, "ko-2024"),
        ("JnJ revenue FY2024", 104, "jnj-2024"),  # an initialism with "&" as "n"
        ("P&G revenue FY2024", 105, "pg-2024"),
        ("PG&E revenue FY2024", 106, "pcg-2024"),  # never P&G
        ("AMD revenue FY2024", 107, "amd-2024"),
        ("AES revenue FY2024", 108, "aes-2024"),
        ("What was Advnced Micro Devices' revenue for FY2024?", 107, "amd-2024"),
        ("Neflix revenue FY2024", 109, "nflx-2024"),  # a letter dropped
        ("What was Netfilx's revenue for FY2024?", 109, "nflx-2024"),  # two swapped
        ("What was Nkie's revenue for FY2024?", 110, "nke-2024"),  # four letters, swapped
        ("What was Union Paicfic's revenue for FY2024?", 113, "unp-2024"),
        ("What was Block's revenue for FY2024?", 111, "sq-2024"),  # possessive: a name
        ("What was the FY2024 revenue of Target?", 112, "tgt-2024"),  # capitalized inside
    ],
)
def test_a_company_as_analysts_write_it(
    stored: None, question: str, revenue: int, document: str
) -> None:
    assert _revenue(question) == (revenue, document)


def test_common_words_alone_name_no_company(stored: None) -> None:
    """ "block", "target" and "company" in lower case are words, not Block, Target or a
    company named "Company"; the company the question names is the one answered."""
    for question in (
        "How big a block of shares did Gizmo Works buy back in FY2024 against its revenue?",
        "What was the target revenue of Gizmo Works for FY2024?",
        "Are Gizmo Works' FY2024 revenue figures those of a high growth company?",
    ):
        with session_scope() as session:
            named = parse_constraints(question, session=session).companies
        assert named == ["Gizmo Works Inc."], (question, named)


def test_a_name_two_companies_share_is_said_and_both_are_searched(stored: None) -> None:
    out = run_json("ask", "What was American's revenue for FY2024?")
    said = '"American" is a name of American Express Co and American Water Works Company, Inc.'
    assert out["answer"].startswith(said) and any(w.startswith(said) for w in out["warnings"])
    assert {d["name"] for d in out["documents"][:2]} == {"axp-2024", "awk-2024"}
    assert _revenue("What was American Water Works' revenue for FY2024?") == (117, "awk-2024")
    assert _revenue("What was AmEx's revenue for FY2024?") == (116, "axp-2024")


def test_a_misspelling_as_close_to_two_names_is_said_and_picks_neither(stored: None) -> None:
    out = run_json("ask", "What was Bantum Foods' revenue for FY2024?")
    assert out["figures"] == []
    said = '"Bantum Foods" is as close to Bantam Foods Corp. as to Bantom Foods Corp.'
    assert said in out["answer"] and any(w.startswith(said) for w in out["warnings"])


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("Tesla FY2024 revenue", "Tesla"),
        ("What was Microsoft's revenue for FY2024?", "Microsoft"),
        ("What was MSFT's revenue for the year ended December 31, 2024?", "MSFT"),
        (
            "What was Costco Wholesale Corporation's net income in the last fiscal year?",
            "Costco Wholesale",
        ),
        ("What was Pfizer revenue in 2024?", "Pfizer"),
    ],
)
def test_a_company_that_is_not_stored_is_said_and_nothing_else_answers(
    stored: None, question: str, name: str
) -> None:
    out = run_json("ask", question)
    assert out["answer"] == f"No filing of {name} is stored."
    assert out["figures"] == [] and out["citations"] == [] and out["working"] is None


def test_a_brand_its_owner_names_as_its_own_names_the_owner(stored: None, tmp_path: Path) -> None:
    """ "Gadgetron" is named throughout Alpha Holdings' filing (its brand) and once in
    another's: it names Alpha Holdings, and the answer says so; "Widgetco", a customer one
    filing names in passing, is no company stored."""
    section = (
        "# Item {i}. Part {i}\n\nOur Gadgetron devices and the Gadgetron platform grew in "
        "every region this year, as customers chose Gadgetron for its reliability, its "
        "service network and the long life of each Gadgetron device we sold.\n\n"
    )
    ingest_files(
        tmp_path / "brands",
        {
            "alpha-2024.md": annual_filing(
                2024,
                "".join(section.format(i=i) for i in range(1, 5)) + BODY.format(revenue=321),
                name="ALPHA HOLDINGS INC.",
                symbol="ALH",
            ),
            "buyers-2024.md": annual_filing(
                2024,
                "# Item 1. Business\n\nWe sell to Widgetco and compete with Gadgetron.\n\n"
                + BODY.format(revenue=7),
                name="WIDGET BUYERS INC.",
                symbol="WBY",
            ),
        },
    )
    out = run_json("ask", "What was Gadgetron's revenue for FY2024?")
    assert out["figures"][0]["document"] == "alpha-2024"
    said = 'read "Gadgetron" as Alpha Holdings Inc., whose filings name it as their own'
    assert said in out["readings"]
    missing = run_json("ask", "What was Widgetco's revenue for FY2024?")
    assert missing["answer"] == "No filing of Widgetco is stored." and missing["figures"] == []
    # a name written with a legal form is a company's, not a brand: none is stored
    legal = run_json("ask", "What was Gadgetron Corporation's revenue for FY2024?")
    assert legal["answer"] == "No filing of Gadgetron is stored." and legal["figures"] == []


def _questions() -> list[dict[str, Any]]:
    files = [DEV_SET / "questions.jsonl", *sorted((REPO / "eval").glob("*questions*.jsonl"))]
    rows = []
    for path in files:
        if path.exists():
            rows += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return rows


# the registrants of the companies the question sets ask about, as their covers write them
REGISTRANTS = (
    ("3M COMPANY", "MMM"),
    ("ACTIVISION BLIZZARD, INC.", "ATVI"),
    ("AMAZON.COM, INC.", "AMZN"),
    ("AMCOR PLC", "AMCR"),
    ("APPLE INC.", "AAPL"),
    ("BEST BUY CO., INC.", "BBY"),
    ("BLOCK, INC.", "SQ"),
    ("SQUARE, INC.", None),  # Block's name on its covers before 2021
    ("THE BOEING COMPANY", "BA"),
    ("CVS HEALTH CORPORATION", "CVS"),
    ("CORNING INCORPORATED", "GLW"),
    ("GENERAL MILLS, INC.", "GIS"),
    ("MGM RESORTS INTERNATIONAL", "MGM"),
    ("MCDONALD'S CORPORATION", "MCD"),
    ("NIKE, INC.", "NKE"),
    ("SALESFORCE, INC.", "CRM"),
    ("ULTA BEAUTY, INC.", "ULTA"),
    ("VERIZON COMMUNICATIONS INC.", "VZ"),
    ("ALPHABET INC.", "GOOGL"),
    ("THE COCA-COLA COMPANY", "KO"),
    ("INTERNATIONAL BUSINESS MACHINES CORPORATION", "IBM"),
    ("META PLATFORMS, INC.", "META"),
    ("NVIDIA CORPORATION", "NVDA"),
    ("TESLA, INC.", "TSLA"),
    ("UNION PACIFIC CORPORATION", "UNP"),
    ("VISA INC.", "V"),
    ("WALMART INC.", "WMT"),
    ("GAINSCO, INC.", "GAN"),
)


def test_real_questions_get_no_false_not_stored_notice(tmp_path: Path) -> None:
    """Every question of the dev and project question sets, over filings of the companies
    they ask about: each names a stored company (or none), never one "not stored" — no
    ordinary word, metric or month is read as a company's name."""
    questions = _questions()
    assert len(questions) > 50
    ingest_files(
        tmp_path / "registrants",
        {
            f"{(symbol or name.split(',')[0]).lower()}.md": annual_filing(
                2022, BODY.format(revenue=1), name=name, symbol=symbol)
            for name, symbol in REGISTRANTS
        },
    )  # fmt: skip
    wrong = []
    with session_scope() as session:
        for row in questions:
            constraints = parse_constraints(row["question"], session=session)
            if constraints.unknown or constraints.not_stored:
                wrong.append((row["question"], constraints.unknown))
    assert not wrong, wrong
