"""EDGAR full-submission `.txt` files and plain text files, ingested and asked against the real
database: the filing's own document with its exhibits' substance, the header's exact facts, no
graphics or certifications in the pages."""

from __future__ import annotations

from pathlib import Path

from .conftest import REPO
from .helpers import run_cli, run_json

APPLE_10Q = REPO / "examples" / "edgar" / "aapl-10-q-2025-08-01.html"

HEADER = """<SEC-DOCUMENT>{accession}.txt : 20250801
<SEC-HEADER>{accession}.hdr.sgml : 20250801
ACCESSION NUMBER:\t\t{accession}
CONFORMED SUBMISSION TYPE:\t{kind}
PUBLIC DOCUMENT COUNT:\t\t4
CONFORMED PERIOD OF REPORT:\t{period}

FILER:

\tCOMPANY DATA:\t
\t\tCOMPANY CONFORMED NAME:\t\t\t{company}
\t\tCENTRAL INDEX KEY:\t\t\t{cik}
</SEC-HEADER>
"""


def document(kind: str, body: str, description: str = "") -> str:
    return (
        f"<DOCUMENT>\n<TYPE>{kind}\n<SEQUENCE>1\n<FILENAME>f.htm\n"
        f"<DESCRIPTION>{description or kind}\n<TEXT>\n{body}\n</TEXT>\n</DOCUMENT>\n"
    )


def apple_submission(folder: Path) -> Path:
    path = folder / "0000320193-25-000073.txt"
    path.write_text(
        HEADER.format(
            accession="0000320193-25-000073",
            kind="10-Q",
            period="20250628",
            company="Apple Inc.",
            cik="0000320193",
        )
        + document("10-Q", f"<XBRL>\n{APPLE_10Q.read_text()}\n</XBRL>")
        + document("EX-31.1", "<html><body><p>CERTIFICATION I, the officer, certify</p></body>")
        + document(
            "EX-99.1",
            "<html><body><p>Apple reports third quarter results</p>"
            "<p>Services revenue reached an all-time high.</p></body>",
            "PRESS RELEASE",
        )
        + document("GRAPHIC", "begin 644 logo.jpg\nM_]C_X``02D9)1@`!`0$`8`!@``#_VP!#``(!`0(!\nend")
        + "</SEC-DOCUMENT>\n"
    )
    return path


def old_ascii_submission(folder: Path) -> Path:
    """A 1990s plain-text 10-K: <PAGE> marks, a printed TOC with page numbers, SGML tables."""
    filler = "\n".join(f"Discussion line {i} of the business and its markets." for i in range(30))
    pages = [
        "SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\nANNUAL REPORT PURSUANT TO SECTION 13\n"
        "For the fiscal year ended June 30, 1998\nWIDGETCO INDUSTRIES INC",
        "TABLE OF CONTENTS\n                                                    Page\n"
        "PART I\nItem 1.  Business                                        1\n"
        "Item 2.  Properties                                      2\n"
        "PART II\nItem 7.  Management's Discussion and Analysis          3\n"
        "Item 8.  Financial Statements and Supplementary Data     4",
        f"PART I\nItem 1.  Business\nWidgetco makes widgets.\n{filler}\n1",
        f"Item 2.  Properties\nThe company owns two plants in Ohio.\n{filler}\n2",
        f"PART II\nItem 7.  Management's Discussion and Analysis\nNet sales rose 12 percent "
        f"to $48.2 million in fiscal 1998.\n{filler}\n3",
        "Item 8.  Financial Statements and Supplementary Data\n<TABLE>\n<CAPTION>\n"
        "                         1998        1997\n<S>                    <C>         <C>\n"
        "Net sales              $48,200     $43,000\n</TABLE>\n4",
    ]
    path = folder / "0000950123-98-000001.txt"
    path.write_text(
        HEADER.format(
            accession="0000950123-98-000001",
            kind="10-K",
            period="19980630",
            company="WIDGETCO INDUSTRIES INC",
            cik="0000123987",
        )
        + document("10-K", "\n<PAGE>\n".join(pages))
        + "</SEC-DOCUMENT>\n"
    )
    return path


def test_full_submission_is_the_filing_with_its_exhibits_and_header_facts(tmp_path: Path) -> None:
    apple_submission(tmp_path)
    code, _, err = run_cli("ingest", str(tmp_path))
    assert code == 0, err
    [doc] = run_json("docs", "list")
    assert (doc["company"], doc["doc_type"], doc["fiscal_year"], doc["fiscal_period"]) == (
        "Apple Inc.",
        "10-Q",
        2025,
        "Q3",
    )
    assert run_json("docs", "show", doc["name"])["cik"] == "0000320193"
    tree = run_json("docs", "tree", doc["name"])
    titles = [n["title"] for n in tree["nodes"]]
    assert "Exhibit 99.1: PRESS RELEASE" in titles
    pages = [
        run_json("docs", "page", doc["name"], str(p))["text"]
        for p in range(1, tree["page_count"] + 1)
    ]
    assert "Services revenue reached an all-time high." in pages[-1]
    assert not any("begin 644" in p or "CERTIFICATION I, the officer" in p for p in pages)
    out = run_json("ask", "Apple Q3 FY2025 revenue")
    assert out["answer"].startswith("$94,036 million — Revenue, three months ended June 28, 2025")
    assert "94,036" in pages[out["citations"][0]["page"] - 1]


def test_old_plain_text_submission_pages_tree_and_metadata(tmp_path: Path) -> None:
    old_ascii_submission(tmp_path)
    code, _, err = run_cli("ingest", str(tmp_path))
    assert code == 0, err
    [doc] = run_json("docs", "list")
    assert (doc["company"], doc["doc_type"], doc["fiscal_year"]) == (
        "Widgetco Industries Inc",
        "10-K",
        1998,
    )
    tree = run_json("docs", "tree", doc["name"])
    assert tree["page_count"] == 6
    starts = {}
    stack = list(tree["nodes"])
    while stack:
        node = stack.pop()
        starts[node["title"]] = node["start_page"]
        stack.extend(node["nodes"])
    assert starts["Item 7. Management's Discussion and Analysis"] == 5
    assert starts["Item 8. Financial Statements and Supplementary Data"] == 6
    page = run_json("docs", "page", doc["name"], "6")["text"]
    assert "Net sales $48,200 $43,000" in page and "<TABLE>" not in page and "<S>" not in page
    out = run_json("ask", "Widgetco fiscal 1998 net sales discussion")
    assert {c["page"] for c in out["citations"]} & {5, 6}


def test_plain_text_named_on_the_command_line_and_a_binary_txt(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("Meeting notes on supplier risk\n\nLead times doubled.\n")
    blob = tmp_path / "blob.txt"
    blob.write_bytes(b"\x00\x01\x02binary" * 100)
    apple_submission(tmp_path)
    code, _, err = run_cli("ingest", str(tmp_path))  # a folder: only the submission is a filing
    assert code == 0 and "ignored 2 file(s)" in err, err
    code, _, err = run_cli("ingest", str(notes), str(blob))  # named: read as plain text
    assert code == 1
    assert [line for line in err.splitlines() if "blob.txt" in line] == [
        f"Error: {blob}: not a text file (binary content)"
    ]
    assert sorted(d["name"] for d in run_json("docs", "list")) == ["0000320193-25-000073", "notes"]
    assert "Lead times doubled." in run_json("docs", "page", "notes", "1")["text"]
