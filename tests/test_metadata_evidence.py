"""Metadata from evidence, against the real database: each field with its source and
confidence, a company found by the names the corpus knows, never a heading as a name, the
file name as the last resort, a user's correction that wins and lasts, and metadata derived
again from the stored pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from pageindex_platform.index.signals import plausible_company

from .helpers import annual_filing, ingest_files, run_cli, run_json, session_scope

NAME = "HARBOR LIGHT INDUSTRIES, INC."
BODY = "# Item 8. Financial Statements\n\nNet sales were $1,200 million.\n"
# An earnings release whose first lines are bullets and whose headline names no company:
# only its text, which names the company again and again, says whose it is.
RELEASE = """• 2023 Second-Quarter Net Sales Up 4%
• Operating Margin 11.2%
• Outlook Raised

Harbor Light reported second quarter results for the three months ended July 1, 2023.
Harbor Light's net sales grew in every region. Harbor Light opened two plants, and
Harbor Light's margin improved. Chief executive officer of Harbor Light said demand held.
Harbor Light will discuss the results on a call. Harbor Light Industries thanks its staff.
"""


def _listed(name: str) -> dict[str, Any]:
    return next(d for d in run_json("docs", "list") if d["name"] == name)


@pytest.mark.no_database
def test_a_company_name_is_a_name() -> None:
    for junk in (
        "Company",
        "The Company",
        "• 2023 Second-Quarter",
        "(Date of earliest event reported)",
        "2022 Fourth-Quarter",
        "July 29, 2023",
        "Exact name of registrant as specified in its charter",
        "",
    ):
        assert not plausible_company(junk), junk
    for name in ("3M Company", "PG&E Corporation", "eBay Inc.", "Best Buy Co., Inc.", "Intel"):
        assert plausible_company(name), name


def test_a_release_is_known_by_the_names_the_corpus_knows(tmp_path: Path) -> None:
    """Stored in one batch before the company's 10-K (its name sorts first), the release
    gets the company once the batch is stored, from the corpus: never its bullet line."""
    ingest_files(
        tmp_path / "batch",
        {
            "a_release.md": RELEASE,
            "b_annual.md": annual_filing(2022, BODY, name=NAME, symbol="HLI"),
        },
    )
    release = _listed("a_release")
    assert release["company"] == "Harbor Light Industries, Inc."
    sources = release["sources"]
    assert isinstance(sources, dict) and sources["company"]["source"] == "corpus"
    annual = _listed("b_annual")
    company = annual["sources"]["company"]
    assert company["source"] == "cover page" and company["confidence"] >= 0.9
    assert annual["unsure"] == []


def test_the_file_name_is_the_last_resort_and_says_so(tmp_path: Path) -> None:
    """A release whose text names nothing: its file name's company (one the corpus knows),
    form and quarter, each marked as coming from the file name and not sure."""
    ingest_files(tmp_path / "k", {"harbor_2022_10k.md": annual_filing(2022, BODY, name=NAME)})
    ingest_files(tmp_path / "r", {"HARBORLIGHT_2023Q2_EARNINGS.md": "# Notes\n\nok.\n"})
    found = _listed("HARBORLIGHT_2023Q2_EARNINGS")
    assert found["company"] == "Harbor Light Industries, Inc."
    assert found["doc_type"] == "earnings release" and found["fiscal_period"] == "Q2"
    sources = found["sources"]
    assert isinstance(sources, dict)
    assert {sources[f]["source"] for f in ("company", "doc_type", "fiscal_period")} == {"file name"}
    assert set(found["unsure"]) >= {"company", "doc_type"}
    table = run_cli("docs", "list")[1]
    assert "earnings release ?" in table and "not sure" in table


def test_a_correction_wins_and_lasts(tmp_path: Path) -> None:
    folder = tmp_path / "k"
    ingest_files(folder, {"annual.md": annual_filing(2022, BODY, name=NAME)})
    meta = tmp_path / "meta.csv"
    meta.write_text("name,fiscal_year,company\nannual,2021,Lantern Co.\n")
    run_json("ingest", str(folder), "--force", "--metadata", str(meta))
    assert _listed("annual")["fiscal_year"] == 2021  # the metadata file over the cover
    shown = run_json("docs", "set", "annual", "--year", "2020", "--period", "fy")
    assert shown["fiscal_year"] == 2020 and shown["company"] == "Lantern Co."
    assert shown["sources"]["fiscal_year"] == {"source": "user", "confidence": 1.0}
    assert shown["sources"]["company"]["source"] == "metadata file"
    run_json("ingest", str(folder), "--force")  # the same content again
    again = _listed("annual")
    assert again["fiscal_year"] == 2020 and again["company"] == "Lantern Co."
    code, _, err = run_cli("docs", "set", "annual", "--company", "(Date of earliest event)")
    assert code == 2 and "does not read as a company's name" in err
    code, _, err = run_cli("docs", "set", "annual")
    assert code == 2 and "nothing to set" in err


def test_refresh_derives_the_metadata_again_from_the_stored_pages(tmp_path: Path) -> None:
    ingest_files(tmp_path / "k", {"annual.md": annual_filing(2022, BODY, name=NAME)})
    with session_scope() as session:  # metadata as an older reader stored it
        session.execute(
            text(
                "UPDATE documents SET company = 'Company', fiscal_year = 2019, "
                "metadata_sources = '{}' WHERE name = 'annual'"
            )
        )
    assert _listed("annual")["company"] == "Company"
    done = run_json("docs", "refresh")
    (doc,) = done["documents"]
    assert doc["changed"]["company"] == ["Company", "Harbor Light Industries, Inc."]
    assert doc["changed"]["fiscal_year"] == [2019, 2022]
    assert _listed("annual")["sources"]["company"]["source"] == "cover page"
    code, _, err = run_cli("docs", "refresh", "annual", "nope")
    assert code == 1 and "no document named 'nope'" in err


def test_an_8k_about_the_year_that_ended_in_january_is_of_that_year(tmp_path: Path) -> None:
    release = (
        "FORM 8-K\n\nCURRENT REPORT\n\nDate of Report (Date of earliest event reported): "
        f"February 28, 2023\n\n{NAME}\n\n(Exact name of registrant as specified in its "
        "charter)\n\nItem 2.02 Results of Operations.\n\nHarbor Light Reports Fourth Quarter "
        "and Fiscal 2022 Results for the fiscal year ended January 28, 2023.\n"
    )
    ingest_files(tmp_path / "e", {"event.md": release})
    found = _listed("event")
    assert found["doc_type"] == "8-K" and found["fiscal_year"] == 2022
