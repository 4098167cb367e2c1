"""File → PreparedDocument: pages, tree, metadata and chunk texts. Pure (no database, no
embeddings), so it runs in a worker process while the previous file is being embedded."""

from __future__ import annotations

import hashlib
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from ..errors import InputError, UnsupportedFileError
from ..records import PageText, PreparedDocument, TaggedFact, TreeNode, TreeSource
from ..settings import Settings
from .chunking import chunk_pages, page_token_counts
from .headings import detect_headings
from .html import parse_html
from .layout import PageLayout
from .markdown import parse_markdown
from .metadata import extract_metadata
from .submission import parse_submission
from .tables import read_tables
from .toc import FlatEntry, outline_entries, toc_entries
from .tree import Splitter, check_tree, finish_tree

PDF_SUFFIXES = {".pdf"}
MARKDOWN_SUFFIXES = {".md", ".markdown"}
HTML_SUFFIXES = {".htm", ".html"}
TEXT_SUFFIXES = {".txt"}  # EDGAR full-submission files, or plain text
SUPPORTED_SUFFIXES = PDF_SUFFIXES | MARKDOWN_SUFFIXES | HTML_SUFFIXES | TEXT_SUFFIXES


@dataclass(frozen=True)
class BuildOptions:
    toc_pages: int = 20
    chunk_tokens: int = 220
    split_max_pages: int = 10
    split_max_tokens: int = 20_000
    llm_toc_check_pages: int = 20  # llm mode: the first pages checked for a TOC
    file_seconds: float = 300.0  # how long reading one file may take

    @classmethod
    def from_settings(cls, settings: Settings) -> BuildOptions:
        return cls(
            toc_pages=settings.toc_pages,
            chunk_tokens=settings.chunk_tokens,
            split_max_pages=settings.split_max_pages,
            split_max_tokens=settings.split_max_tokens,
            llm_toc_check_pages=settings.llm_toc_check_pages,
            file_seconds=settings.file_seconds,
        )


def document_name(path: Path) -> str:
    return path.stem


@dataclass
class _Read:
    """A file's pages and what its format says of its sections: a PDF's outline, an EDGAR
    filing's linked TOC, cover facts, tagged facts and exhibits, Markdown's headers."""

    pages: list[PageText]
    layouts: list[PageLayout] = field(default_factory=list)  # none for Markdown
    entries: list[FlatEntry] = field(default_factory=list)
    source: TreeSource = TreeSource.MARKDOWN
    cover_facts: dict[str, str] = field(default_factory=dict)
    facts: list[TaggedFact] = field(default_factory=list)
    appendices: list[FlatEntry] = field(default_factory=list)  # exhibits after the filing
    warnings: list[str] = field(default_factory=list)  # what reading left out


def prepare_document(path: Path, options: BuildOptions) -> PreparedDocument:
    """Everything about one file except embeddings: its pages (parse), its tree (tree), its
    metadata and chunk texts (chunk), each stage timed. Raises InputError for bad files."""
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise UnsupportedFileError(
            path,
            f"unsupported file type '{suffix or '(none)'}' "
            "(supported: .pdf, .htm, .html, .txt, .md, .markdown)",
        )
    with _time_budget(path, options.file_seconds):
        return _prepare(path, suffix, options)


class _OverBudget(BaseException):  # not caught by a reader's `except Exception`
    pass


@contextmanager
def _time_budget(path: Path, seconds: float) -> Iterator[None]:
    """Stop reading `path` after `seconds`: one file over the limit fails alone (InputError)
    rather than holding the batch. Enforced by a timer signal where one can be set (the main
    thread of the worker process or of the command); elsewhere the file is read without one."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield
        return

    def over(signum: int, frame: FrameType | None) -> None:
        raise _OverBudget

    previous = signal.signal(signal.SIGALRM, over)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except _OverBudget:
        raise InputError(
            path,
            f"reading it took longer than {seconds:g} s, the limit per file "
            "(PI_FILE_SECONDS); not stored",
        ) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _prepare(path: Path, suffix: str, options: BuildOptions) -> PreparedDocument:
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    from .pdf import read_bytes  # here: what only plans a batch never loads the PDF reader

    data = read_bytes(path)
    read = _read(path, data, suffix)
    seconds["parse"] = time.perf_counter() - t0
    t1 = time.perf_counter()
    source, entries, splitter = _sections(read, suffix, options)
    tree, source, warnings = _tree(read.pages, entries, source, splitter, options)
    seconds["tree"] = time.perf_counter() - t1
    t2 = time.perf_counter()
    metadata = extract_metadata(pages=read.pages, tree=tree, cover_facts=read.cover_facts)
    chunks = chunk_pages(read.pages, tree, max_tokens=options.chunk_tokens)
    seconds["chunk"] = time.perf_counter() - t2
    t3 = time.perf_counter()
    figures = read_tables(
        read.pages, period_end=metadata.period_end, fiscal_year=metadata.fiscal_year
    )
    seconds["tables"] = time.perf_counter() - t3
    return PreparedDocument(
        name=document_name(path),
        path=str(path),
        sha256=hashlib.sha256(data).hexdigest(),
        pages=read.pages,
        tree=tree,
        tree_source=source,
        sections=entries if source != TreeSource.WINDOWS else [],
        metadata=metadata,
        chunks=chunks,
        warnings=[*read.warnings, *warnings],
        seconds=seconds,
        facts=[*read.facts, *figures],
    )


def _read(path: Path, data: bytes, suffix: str) -> _Read:
    if suffix in PDF_SUFFIXES:
        from .pdf import parse_pdf

        pdf = parse_pdf(path, data)
        entries = outline_entries(pdf.outline, len(pdf.pages))
        return _Read(pdf.pages, pdf.layouts, entries, TreeSource.OUTLINE, warnings=pdf.warnings)
    if suffix in MARKDOWN_SUFFIXES:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
        pages, headers = parse_markdown(text)
        return _Read(pages, entries=headers)
    parsed = parse_html(path, data) if suffix in HTML_SUFFIXES else parse_submission(path, data)
    return _Read(
        parsed.pages,
        parsed.layouts,
        parsed.toc,
        TreeSource.TOC,
        cover_facts=parsed.dei,
        facts=parsed.facts,
        appendices=parsed.appendices,
        warnings=parsed.warnings,
    )


def _sections(
    read: _Read, suffix: str, options: BuildOptions
) -> tuple[TreeSource, list[FlatEntry], Splitter | None]:
    """The section starts the tree is built from, where they came from, and how long sections
    are split (by the headings inside them; Markdown's headers are all there is): a PDF's
    outline, else a printed TOC (also over an EDGAR TOC that links only its Parts), else
    headings, else page windows; an EDGAR submission's exhibits follow the filing's."""
    if suffix in MARKDOWN_SUFFIXES:
        return TreeSource.MARKDOWN, read.entries, None
    layouts, source, entries = read.layouts, read.source, read.entries
    filing_pages = read.appendices[0].start_page - 1 if read.appendices else len(read.pages)
    if not entries or suffix not in PDF_SUFFIXES:
        printed = toc_entries(layouts[:filing_pages], options.toc_pages)
        # an HTML TOC that links only its Parts, not each Item: its printed lines list more
        if len(printed) >= 2 * len(entries):
            source, entries = TreeSource.TOC, printed
    if not entries:
        source, entries = TreeSource.HEADINGS, detect_headings(layouts[:filing_pages])
    if read.appendices:
        entries = [*entries, *read.appendices]
    if not entries:
        source = TreeSource.WINDOWS

    def find_sections(start: int, end: int) -> list[FlatEntry]:
        return detect_headings(layouts[start - 1 : end])

    return source, entries, find_sections


def _tree(
    pages: list[PageText],
    entries: list[FlatEntry],
    source: TreeSource,
    splitter: Splitter | None,
    options: BuildOptions,
) -> tuple[list[TreeNode], TreeSource, list[str]]:
    """The tree of `entries` (long sections split); an invalid one is never stored: page
    windows instead, with a warning."""
    page_tokens = page_token_counts(pages)
    max_pages, max_tokens = options.split_max_pages, options.split_max_tokens
    tree = finish_tree(
        entries,
        pages,
        page_tokens,
        max_pages=max_pages,
        max_tokens=max_tokens,
        find_sections=splitter,
    )
    problems = check_tree(tree, len(pages))
    if not problems:
        return tree, source, []
    warning = f"section tree discarded ({problems[0]}); using page windows"
    windows = finish_tree([], pages, page_tokens, max_pages=max_pages, max_tokens=max_tokens)
    return windows, TreeSource.WINDOWS, [warning]


__all__ = ["BuildOptions", "prepare_document"]
