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
_HEADER = re.compile(r"<(SEC-HEADER|IMS-HEADER)>(.*?)</\1>", re.I | re.S)
_DOCUMENT = re.compile(r"<DOCUMENT>(.*?)(?:</DOCUMENT>|\Z)", re.I | re.S)
_FIELD = re.compile(r"^<(TYPE|SEQUENCE|FILENAME|DESCRIPTION)>[ \t]*(.*?)\s*$", re.I | re.M)
_TEXT = re.compile(r"<TEXT>(.*?)(?:</TEXT>|\Z)", re.I | re.S)
_XBRL = re.compile(r"^\s*<XBRL>\s*(.*?)\s*(?:</XBRL>\s*)?$", re.I | re.S)
_HTML_START = re.compile(r"^\s*(?:<\?xml[^>]*>\s*)?<(?:!doctype\s+html|html)\b", re.I)
_EXHIBITS_READ = re.compile(r"^EX-(?:99|13)(?:\.\d+)?\b", re.I)
_PAGE_MARK = re.compile(r"^\s*<PAGE>\s*\d*\s*$", re.I)
_SGML_LINE = re.compile(r"^\s*</?(?:TABLE|CAPTION|S|C|FN|F\d+|PRE)>\s*", re.I)
_TRAILING_NUMBER = re.compile(r"\s{2,}(\d{1,3}|[ivx]{1,5})\s*$", re.I)
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


def is_submission(text: str) -> bool:
    return bool(_ENVELOPE.search(text[:4096]))


def submission_header(text: str) -> dict[str, str]:
    """The header's `KEY: value` lines, first value of each key (the filer comes first)."""
    found = _HEADER.search(text)
    header: dict[str, str] = {}
    for line in (found.group(2) if found else "").splitlines():
        key, sep, value = line.strip().partition(":")
        if sep and value.strip():
            header.setdefault(key.strip().upper(), value.strip())
    return header


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


def _cover_facts(header: dict[str, str]) -> dict[str, str]:
    facts = {dei: header[key] for key, dei in _COVER.items() if header.get(key)}
    end = facts.get("dei:DocumentPeriodEndDate", "")
    if re.fullmatch(r"\d{8}", end):  # 20250628 → 2025-06-28
        facts["dei:DocumentPeriodEndDate"] = f"{end[:4]}-{end[4:6]}-{end[6:]}"
    return facts


def parse_submission(path: Path, data: bytes) -> ParsedHtml:
    """The filing of a full-submission file (or a plain text file) as pages, layouts, TOC,
    cover facts and tagged facts. Raises InputError subclasses."""
    text = data.decode("utf-8", errors="replace")
    if "\x00" in text[:8192]:
        raise InputError(path, "not a text file (binary content)")
    if not is_submission(text):
        return parse_plain_text(path, text)
    header = submission_header(text)
    documents = [d for d in submission_documents(text) if d.body.strip()]
    if not documents:
        raise InputError(path, "EDGAR submission without any document text")
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
    xbrl = _XBRL.match(body)
    body = xbrl.group(1) if xbrl else body
    if _HTML_START.match(body) or re.search(r"<(?:html|body|div|p|table)\b", body[:4096], re.I):
        return parse_html(path, body.encode("utf-8"))
    return parse_plain_text(path, body)


def parse_plain_text(path: Path, text: str) -> ParsedHtml:
    """Pages of a plain text: at `<PAGE>` marks or form feeds, else every 60 lines. SGML
    table marks of old filings (<TABLE>, <S>, <C>) are dropped; a line ending in a page
    number after a wide gap keeps it apart (a table of contents row)."""
    pages_rows: list[list[Row]] = [[]]
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        pieces = raw.split("\f")
        for i, piece in enumerate(pieces):
            if i > 0 or _PAGE_MARK.match(piece):
                if pages_rows[-1]:
                    pages_rows.append([])
                if _PAGE_MARK.match(piece):
                    continue
            line = _SGML_LINE.sub("", piece)
            words = " ".join(line.split())
            if not words:
                continue
            number = _TRAILING_NUMBER.search(line)
            rows = pages_rows[-1]
            rows.append(
                Row(
                    text=words,
                    x0=float(len(line) - len(line.lstrip())),
                    y0=float(len(rows)),
                    size=10.0,
                    bold=words.isupper(),
                    last_x0=400.0 if number else 0.0,
                    last_text=number.group(1) if number else words,
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
