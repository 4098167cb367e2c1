"""EDGAR HTML (with or without inline XBRL) → pages, layout rows, the filing's own table of
contents, and its dei: cover facts and tagged numbers (read by `ixbrl.py`).

A page is the content between two CSS page breaks (`page-break-before/after: always`,
`break-before/after: page`), numbered from 1, so that a citation's page is the printed page a
reader sees; a document that marks none is cut every 60 rows. Each
table row is one row of text, its cells in order. The hidden iXBRL header (`ix:header`:
hidden facts, contexts, units) never becomes page text; its `dei:` facts (registrant name,
trading symbol, document type, period end, fiscal year and period) are returned apart. The
table of contents is read from its internal links (`<a href="#id">`): each target's page is
where its anchor stands, so sections start exactly where the filing says they do.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import lxml.etree
import lxml.html

from ..errors import InputError
from ..records import PageText, TaggedFact
from .ixbrl import dei_facts, fact_key, tagged_facts
from .layout import PageLayout, Row
from .toc import FlatEntry

_SKIP = {"head", "script", "style", "title", "meta", "link", "ix:header", "noscript"}
_BLOCK = {
    "p",
    "div",
    "br",
    "hr",
    "li",
    "ul",
    "ol",
    "table",
    "tbody",
    "thead",
    "tfoot",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "center",
    "blockquote",
    "section",
    "article",
    "body",
    "pre",
    "dl",
    "dt",
    "dd",
    "page",
}
_BREAK_BEFORE = re.compile(r"(?:page-)?break-before\s*:\s*(?:always|page)", re.I)
_BREAK_AFTER = re.compile(r"(?:page-)?break-after\s*:\s*(?:always|page)", re.I)
_HIDDEN = re.compile(r"display\s*:\s*none", re.I)
_BOLD = re.compile(r"font-weight\s*:\s*(?:bold|[6-9]00)", re.I)
_SIZE = re.compile(r"font-size\s*:\s*([\d.]+)\s*(pt|px)", re.I)
ROWS_PER_PAGE = 60  # pages of a document that marks none
_PAGE_NUMBER = re.compile(r"\s+(\d{1,3})$")


_MAX_DEPTH = 2048  # how deep libxml2 reads nested elements with huge_tree


@dataclass
class ParsedHtml:
    pages: list[PageText]
    layouts: list[PageLayout]
    toc: list[FlatEntry]  # from the document's internal links; [] when it has none
    dei: dict[str, str] = field(default_factory=dict)  # "dei:DocumentType" → "10-Q"
    facts: list[TaggedFact] = field(default_factory=list)
    appendices: list[FlatEntry] = field(default_factory=list)  # exhibits after the filing
    warnings: list[str] = field(default_factory=list)  # what was read and left out


@dataclass
class _Style:
    bold: bool = False
    size: float = 10.0


@dataclass
class _Walker:
    rows: list[list[Row]] = field(default_factory=lambda: [[]])
    # element id (or an id-less fact's key) → page (1-based): an anchor or a fact belongs to
    # the page of the first text after it (filings put a section's anchor just before the
    # page break that starts it)
    placed: dict[str, int] = field(default_factory=dict)
    pending: list[str] = field(default_factory=list)  # met since the last row
    links: list[tuple[int, str, int]] = field(default_factory=list)  # (page, target, row)
    line: list[str] = field(default_factory=list)
    line_style: _Style = field(default_factory=_Style)
    line_links: list[str] = field(default_factory=list)
    breaks: int = 0

    def flush(self, last: str | None = None) -> None:
        text = " ".join(" ".join(self.line).split())
        if text:
            row = Row(
                text=text,
                x0=0.0,
                y0=float(len(self.rows[-1])),
                size=self.line_style.size,
                bold=self.line_style.bold,
                last_x0=400.0 if last else 0.0,
                last_text=last or text,
            )
            self.rows[-1].append(row)
            page = len(self.rows)
            for key in self.pending:
                self.placed.setdefault(key, page)
            self.pending = []
            self.links.extend((page, target, len(self.rows[-1]) - 1) for target in self.line_links)
        self.line, self.line_links = [], []

    def new_page(self) -> None:
        self.flush()
        self.breaks += 1
        if self.rows[-1]:
            self.rows.append([])

    def walk(self, el: lxml.html.HtmlElement, style: _Style) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        if not tag or tag in _SKIP:
            self._tail(el)
            return
        css = el.get("style") or ""
        if _HIDDEN.search(css):
            self._tail(el)
            return
        if _BREAK_BEFORE.search(css):
            self.new_page()
        for key in ("id", "name"):
            if el.get(key) and (key == "id" or tag == "a"):
                self.pending.append(el.get(key))
        size = _SIZE.search(css)
        style = _Style(
            bold=style.bold or tag in ("b", "strong") or bool(_BOLD.search(css)),
            size=(float(size.group(1)) * (0.75 if size.group(2).lower() == "px" else 1.0))
            if size
            else style.size,
        )
        if tag == "ix:nonfraction" and not el.get("id"):
            self.pending.append(fact_key(el))
        if tag == "tr":
            self._row(el, style)
        else:
            if tag in _BLOCK:
                self.flush()
            if tag == "a" and (el.get("href") or "").startswith("#"):
                self.line_links.append(el.get("href")[1:])
            if el.text and el.text.strip():
                if not self.line:
                    self.line_style = style
                self.line.append(el.text)
            for child in el:
                self.walk(child, style)
            if tag in _BLOCK:
                self.flush()
        if _BREAK_AFTER.search(css):
            self.new_page()
        self._tail(el)

    def _row(self, tr: lxml.html.HtmlElement, style: _Style) -> None:
        """A table row: its cells' texts in order, the last one apart (TOC page numbers)."""
        self.flush()
        cells = []
        for cell in tr:
            if not isinstance(cell.tag, str) or cell.tag not in ("td", "th"):
                continue
            for a in cell.iter("a"):
                if (a.get("href") or "").startswith("#"):
                    self.line_links.append(a.get("href")[1:])
            self.pending.extend(
                node.get("id")
                for node in cell.iter()
                if isinstance(node.tag, str) and node.get("id")
            )
            self.pending.extend(fact_key(f) for f in cell.iter("ix:nonfraction") if not f.get("id"))
            text = " ".join(cell.text_content().split())
            if text:
                cells.append(text)
                if _BOLD.search(
                    " ".join(n.get("style") or "" for n in cell.iter() if isinstance(n.tag, str))
                ):
                    style = _Style(bold=True, size=style.size)
        if cells:
            self.line_style = style
            self.line = [" ".join(cells)]
            self.flush(last=cells[-1] if len(cells) > 1 else None)
        self.line_links = []

    def _tail(self, el: lxml.html.HtmlElement) -> None:
        if el.tail and el.tail.strip():
            self.line.append(el.tail)


def _toc_from_links(walker: _Walker, layouts: list[PageLayout]) -> list[FlatEntry]:
    """Sections from the table of contents' internal links, in reading order."""
    seen: set[str] = set()
    out: list[FlatEntry] = []
    for page, target, row_index in walker.links:
        if target in seen or target not in walker.placed or page > 10:
            continue
        seen.add(target)
        title = _PAGE_NUMBER.sub("", layouts[page - 1].rows[row_index].text).strip()
        start = max(1, walker.placed[target])
        if not title or (out and start < out[-1].start_page):
            continue
        level = (
            2
            if out
            and re.match(r"item\b", title, re.I)
            and any(re.match(r"part\b", e.title, re.I) for e in out)
            else 1
        )
        out.append(FlatEntry(level, title[:200], start))
    return out if len(out) >= 3 else []


_DECLARED = re.compile(rb"<meta[^>]{0,200}charset|<\?xml[^>]{0,100}encoding", re.IGNORECASE)
_TAG = re.compile(
    rb"<\s*(?:!doctype\s+html|html|head|body|div|p|table|span|font|center|pre)\b", re.IGNORECASE
)


def page_layouts(pages_rows: list[list[Row]], *, marked: bool) -> list[PageLayout]:
    """Layouts of pages given as rows, numbered from 1; the rows of a document that marks no
    pages are cut every ROWS_PER_PAGE."""
    if not marked:
        flat = [row for page in pages_rows for row in page]
        pages_rows = [flat[i : i + ROWS_PER_PAGE] for i in range(0, len(flat), ROWS_PER_PAGE)]
    return [
        PageLayout(page=i, width=612.0, height=792.0, rows=rows)
        for i, rows in enumerate(pages_rows, 1)
    ]


def _encoding(data: bytes) -> str | None:
    """How to decode an HTML file: as its byte-order mark says, else as it declares (None:
    lxml reads the declaration), else UTF-8 when its bytes are UTF-8, else Windows-1252."""
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8"
    if _DECLARED.search(data[:4096]):
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "windows-1252"
    return "utf-8"


def parse_html(path: Path, data: bytes, *, encoding: str | None = None) -> ParsedHtml:
    """Pages, rows, TOC and dei facts of an HTML filing (`encoding`: what the text is known
    to be in, else as `_encoding` finds). Raises InputError subclasses."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 with a byte-order mark
        data, encoding = data.decode("utf-16", errors="replace").encode("utf-8"), "utf-8"
    if not _TAG.search(data[:8192]) or b"\x00" in data[:8192]:
        raise InputError(path, "not an HTML document (no HTML tags at its start)")
    # huge_tree: elements nested up to 2048 deep are read (libxml2 stops at 256 otherwise)
    parser = lxml.html.HTMLParser(huge_tree=True, encoding=encoding or _encoding(data))
    try:
        root = lxml.html.document_fromstring(data, parser=parser)
    except (lxml.etree.ParserError, ValueError) as exc:
        raise InputError(path, f"unreadable HTML ({exc})") from exc
    cut = [e.message for e in parser.error_log if e.type_name == "ERR_RESOURCE_LIMIT"]
    dei = dei_facts(root)
    walker = _Walker()
    body = root.find("body")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 3 * _MAX_DEPTH + 1000))  # the walk recurses per level
    try:
        walker.walk(body if body is not None else root, _Style())
    finally:
        sys.setrecursionlimit(limit)
    walker.flush()
    pages_rows = walker.rows[:-1] if not walker.rows[-1] else walker.rows
    marked = walker.breaks > 0
    layouts = page_layouts(pages_rows, marked=marked)
    if not any(layout.rows for layout in layouts):
        raise InputError(path, "no text in this HTML document")
    pages = [PageText(layout.page, layout.text) for layout in layouts]
    toc = _toc_from_links(walker, layouts) if marked else []
    skipped: Counter[str] = Counter()
    facts = tagged_facts(root, walker.placed if marked else {}, skipped)
    warnings = [f"iXBRL: {n} {what} left out" for what, n in sorted(skipped.items())]
    if cut:  # the parser stopped reading deeper elements
        warnings.append(
            f"HTML nested deeper than {_MAX_DEPTH} levels: the parser stopped there, and "
            f"the text from that point on was not read ({cut[0].strip()[:120]})"
        )
    return ParsedHtml(
        pages=pages, layouts=layouts, toc=toc, dei=dei, facts=facts, warnings=warnings
    )
