"""EDGAR full-submission text files (the accession's `.txt`) and plain text files → pages.

A full submission is an SGML envelope: a `<SEC-HEADER>` of `KEY: value` lines (company
conformed name, CIK, submission type, period of report), then one `<DOCUMENT>` per file of
the filing, each with its `<TYPE>` and a `<TEXT>` body that is HTML (inline XBRL since 2019)
or, in older filings, plain text with `<PAGE>` marks between pages. The document whose type is
the submission's is the filing; exhibits that carry its substance (EX-99: an 8-K's press
release; EX-13: an annual report to shareholders) follow it as further pages, each a section
of the tree. Graphics, XBRL instance files and archives are left out. The header's facts are
exact and take the place of dei: facts where the document carries none.

A `.txt` file without the envelope is read as plain text: pages at form feeds, else every 60
lines.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..records import FlatEntry, PageText
from .html import ParsedHtml, page_layouts, parse_html
from .layout import Row

_ENVELOPE = re.compile(r"<(?:SEC-DOCUMENT|SEC-HEADER|IMS-HEADER|DOCUMENT)>", re.I)
_HEADER_START = re.compile(r"<(SEC-HEADER|IMS-HEADER)>", re.I)
_HEADER_END = {
    "SEC-HEADER": re.compile(r"</SEC-HEADER>", re.I),
    "IMS-HEADER": re.compile(r"</IMS-HEADER>", re.I),
}
_DOCUMENT_START = re.compile(r"<DOCUMENT>", re.I)
_DOCUMENT = re.compile(r"<DOCUMENT>(.*?)(?:</DOCUMENT>|\Z)", re.I | re.S)
_FIELD = re.compile(r"^<(TYPE|SEQUENCE|FILENAME|DESCRIPTION)>[ \t]*(.*?)\s*$", re.I | re.M)
_TEXT = re.compile(r"<TEXT>(.*?)(?:</TEXT>|\Z)", re.I | re.S)
_HTML_START = re.compile(r"^\s*(?:<\?xml[^>]*>\s*)?<(?:!doctype\s+html|html)\b", re.I)
# documents of a submission that are data, not text: pictures, archives, XBRL files
_DATA_TYPES = {"GRAPHIC", "ZIP", "EXCEL", "PDF", "XML", "JSON"}
_EXHIBITS_READ = re.compile(r"^EX-(?:99|13)(?:\.\d+)?\b", re.I)
_SGML_LINE = re.compile(r"^\s*</?(?:TABLE|CAPTION|S|C|FN|F\d+|PRE)>\s*", re.I)
_PAGE_NUMBER = re.compile(r"\d{1,3}|[ivx]{1,5}", re.I)
# header keys → the dei: names the metadata extractor reads
_COVER = {
    "COMPANY CONFORMED NAME": "dei:EntityRegistrantName",
    "CENTRAL INDEX KEY": "dei:EntityCentralIndexKey",
    "CONFORMED SUBMISSION TYPE": "dei:DocumentType",
    "CONFORMED PERIOD OF REPORT": "dei:DocumentPeriodEndDate",
}


@dataclass(frozen=True)
class SubmissionDocument:
    type: str  # "10-K", "EX-99.1", "GRAPHIC"
    description: str
    body: str  # what stands between <TEXT> and </TEXT>


def _decoded(data: bytes) -> str:
    """The file's text: UTF-8 (a byte-order mark dropped) when its bytes are UTF-8, else
    Windows-1252, the single-byte encoding of older EDGAR filings."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("windows-1252", errors="replace")


def is_submission(text: str) -> bool:
    return bool(_ENVELOPE.search(text[:4096]))


def submission_header(text: str) -> dict[str, str]:
    """The header's `KEY: value` lines, first value of each key (the filer comes first)."""
    header: dict[str, str] = {}
    for line in _header_text(text).splitlines():
        key, sep, value = line.strip().partition(":")
        if sep and value.strip():
            header.setdefault(key.strip().upper(), value.strip())
    return header


def _header_text(text: str) -> str:
    """What stands between the first `<SEC-HEADER>` and its closing mark (or the first
    document, when the mark is never closed)."""
    found = _HEADER_START.search(text)
    if found is None:
        return ""
    start = found.end()
    end = _HEADER_END[found.group(1).upper()].search(text, start) or _DOCUMENT_START.search(
        text, start
    )
    return text[start : end.start() if end else len(text)]


def submission_documents(text: str) -> Iterator[SubmissionDocument]:
    for found in _DOCUMENT.finditer(text):
        block = found.group(1)
        fields = {k.upper(): v for k, v in _FIELD.findall(block[:2000])}
        body = _TEXT.search(block)
        yield SubmissionDocument(
            type=fields.get("TYPE", "").strip().upper(),
            description=fields.get("DESCRIPTION", "").strip(),
            body=body.group(1) if body else "",
        )


def _readable(document: SubmissionDocument) -> bool:
    """Whether a document of the submission is text to read: not a graphic, an archive, a
    spreadsheet, a PDF or an XBRL/XML data file (uuencoded or not)."""
    kind = document.type
    if kind in _DATA_TYPES or kind.startswith("EX-101") or kind.endswith((".XML", ".XSD")):
        return False
    head = document.body.lstrip()[:200]
    if head.startswith("begin ") and head[6:9].isdigit():  # uuencoded binary
        return False
    return not head.lower().startswith(("<?xml", "<xbrl", "<xbrli:xbrl")) or "<html" in (
        document.body[:4096].lower()
    )


def _cover_facts(header: dict[str, str]) -> dict[str, str]:
    facts = {dei: header[key] for key, dei in _COVER.items() if header.get(key)}
    end = facts.get("dei:DocumentPeriodEndDate", "")
    if re.fullmatch(r"\d{8}", end):  # 20250628 → 2025-06-28
        facts["dei:DocumentPeriodEndDate"] = f"{end[:4]}-{end[4:6]}-{end[6:]}"
    return facts


def parse_submission(path: Path, data: bytes) -> ParsedHtml:
    """The filing of a full-submission file (or a plain text file) as pages, layouts, TOC,
    cover facts and tagged facts. Raises InputError subclasses."""
    text = _decoded(data)
    if "\x00" in text[:8192]:
        raise InputError(path, "not a text file (binary content)")
    if not is_submission(text):
        return parse_plain_text(path, text)
    header = submission_header(text)
    every = [d for d in submission_documents(text) if d.body.strip()]
    documents = [d for d in every if _readable(d)]
    if not documents:
        left = f" (only {', '.join(sorted({d.type or '?' for d in every}))} data)" if every else ""
        raise InputError(path, f"EDGAR submission without any document text{left}")
    kind = header.get("CONFORMED SUBMISSION TYPE", "").upper()
    main = next((d for d in documents if d.type == kind), documents[0])
    parsed = _parse_body(path, main.body)
    for exhibit in documents:
        if exhibit is main or not _EXHIBITS_READ.match(exhibit.type):
            continue
        try:
            part = _parse_body(path, exhibit.body)
        except InputError:  # an empty or unreadable exhibit does not cost the filing
            continue
        title = f"Exhibit {exhibit.type.removeprefix('EX-')}"
        if exhibit.description and exhibit.description.upper() != exhibit.type:
            title += f": {exhibit.description}"
        parsed = _appended(parsed, part, title)
    parsed.dei = {**_cover_facts(header), **parsed.dei}
    return parsed


def _parse_body(path: Path, body: str) -> ParsedHtml:
    body = _unwrapped_xbrl(body)
    if _HTML_START.match(body) or re.search(r"<(?:html|body|div|p|table)\b", body[:4096], re.I):
        return parse_html(path, body.encode("utf-8"), encoding="utf-8")
    return parse_plain_text(path, body)


def _unwrapped_xbrl(body: str) -> str:
    """An `<XBRL>` wrapper's content (inline XBRL documents come wrapped in one)."""
    stripped = body.strip()
    if stripped[:6].upper() != "<XBRL>":
        return body
    inner = stripped[6:]
    if inner[-7:].upper() == "</XBRL>":
        inner = inner[:-7]
    return inner.strip()


def _is_page_mark(line: str) -> bool:
    """`<PAGE>` alone on its line, or with the page's number."""
    stripped = line.strip()
    return stripped[:6].upper() == "<PAGE>" and (not stripped[6:] or stripped[6:].strip().isdigit())


def _trailing_number(line: str) -> str | None:
    """A page number at the end of a line after a gap of two or more spaces (a table of
    contents row), found without a regular expression that backtracks over the gap."""
    stripped = line.rstrip()
    last = stripped.rsplit(None, 1)[-1] if stripped.strip() else ""
    before = stripped[: len(stripped) - len(last)]
    if len(before) < 2 or not before[-2:].isspace() or not _PAGE_NUMBER.fullmatch(last):
        return None
    return last


def parse_plain_text(path: Path, text: str) -> ParsedHtml:
    """Pages of a plain text: at `<PAGE>` marks or form feeds, else every 60 lines. SGML
    table marks of old filings (<TABLE>, <S>, <C>) are dropped; a line ending in a page
    number after a wide gap keeps it apart (a table of contents row)."""
    pages_rows: list[list[Row]] = [[]]
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        pieces = raw.split("\f")
        for i, piece in enumerate(pieces):
            mark = _is_page_mark(piece)
            if i > 0 or mark:
                if pages_rows[-1]:
                    pages_rows.append([])
                if mark:
                    continue
            line = _SGML_LINE.sub("", piece)
            words = " ".join(line.split())
            if not words:
                continue
            number = _trailing_number(line)
            rows = pages_rows[-1]
            rows.append(
                Row(
                    text=words,
                    x0=float(len(line) - len(line.lstrip())),
                    y0=float(len(rows)),
                    size=10.0,
                    bold=words.isupper(),
                    last_x0=400.0 if number else 0.0,
                    last_text=number or words,
                )
            )
    pages_rows = [rows for rows in pages_rows if rows]
    if not pages_rows:
        raise InputError(path, "no text in this file")
    layouts = page_layouts(pages_rows, marked=len(pages_rows) > 1)  # one page: no marks
    return ParsedHtml(
        pages=[PageText(layout.page, layout.text) for layout in layouts], layouts=layouts, toc=[]
    )


def _appended(first: ParsedHtml, second: ParsedHtml, title: str) -> ParsedHtml:
    """`second`'s pages after `first`'s, as one appendix section titled `title`."""
    shift = len(first.pages)
    return ParsedHtml(
        pages=[*first.pages, *(PageText(p.page + shift, p.text) for p in second.pages)],
        layouts=[
            *first.layouts,
            *(dataclasses.replace(lay, page=lay.page + shift) for lay in second.layouts),
        ],
        toc=first.toc,
        dei={**second.dei, **first.dei},
        facts=[
            *first.facts,
            *(
                dataclasses.replace(f, page=f.page + shift if f.page else None)
                for f in second.facts
            ),
        ],
        appendices=[
            *first.appendices,
            FlatEntry(1, title[:200], shift + 1),
            *(FlatEntry(e.level + 1, e.title, e.start_page + shift) for e in second.toc),
        ],
        warnings=[*first.warnings, *second.warnings],
    )
