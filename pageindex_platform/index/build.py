"""File → PreparedDocument: pages, tree, metadata and chunk texts. Pure (no database, no
embeddings), so it runs in a worker process while the previous file is being embedded."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError, UnsupportedFileError
from ..records import PreparedDocument, TaggedFact, TreeSource
from .chunking import chunk_pages, page_token_counts
from .headings import detect_headings
from .html import parse_html
from .markdown import parse_markdown
from .metadata import extract_metadata
from .pdf import parse_pdf, read_bytes
from .submission import parse_submission
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


def document_name(path: Path) -> str:
    return path.stem


def prepare_document(path: Path, options: BuildOptions) -> PreparedDocument:
    """Everything about one file except embeddings. Raises InputError for bad files."""
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise UnsupportedFileError(
            path,
            f"unsupported file type '{suffix or '(none)'}' "
            "(supported: .pdf, .htm, .html, .txt, .md, .markdown)",
        )
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    data = read_bytes(path)
    sha256 = hashlib.sha256(data).hexdigest()
    warnings: list[str] = []
    cover_facts: dict[str, str] = {}
    facts: list[TaggedFact] = []
    appendices: list[FlatEntry] = []
    if suffix not in MARKDOWN_SUFFIXES:
        if suffix in PDF_SUFFIXES:
            parsed_pdf = parse_pdf(path, data)
            pages, layouts = parsed_pdf.pages, parsed_pdf.layouts
            source, entries = TreeSource.OUTLINE, outline_entries(parsed_pdf.outline, len(pages))
        else:
            parsed = (
                parse_html(path, data) if suffix in HTML_SUFFIXES else parse_submission(path, data)
            )
            pages, layouts = parsed.pages, parsed.layouts
            source, entries = TreeSource.TOC, parsed.toc
            cover_facts, facts, appendices = parsed.dei, parsed.facts, parsed.appendices
        seconds["parse"] = time.perf_counter() - t0
        t1 = time.perf_counter()
        page_tokens = page_token_counts(pages)
        filing_pages = appendices[0].start_page - 1 if appendices else len(pages)
        if not entries or suffix not in PDF_SUFFIXES:
            printed = toc_entries(layouts[:filing_pages], options.toc_pages)
            # an HTML TOC that links only its Parts, not each Item: its printed lines list more
            if len(printed) >= 2 * len(entries):
                source, entries = TreeSource.TOC, printed
        if not entries:
            source, entries = TreeSource.HEADINGS, detect_headings(layouts[:filing_pages])
        if appendices:
            entries = [*entries, *appendices]
        if not entries:
            source = TreeSource.WINDOWS

        def find_sections(start: int, end: int) -> list[FlatEntry]:
            return detect_headings(layouts[start - 1 : end])

        splitter: Splitter | None = find_sections
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
        pages, entries = parse_markdown(text)
        seconds["parse"] = time.perf_counter() - t0
        t1 = time.perf_counter()
        page_tokens = page_token_counts(pages)
        source = TreeSource.MARKDOWN
        splitter = None

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
    if problems:  # never store an invalid tree: fall back to page windows
        warnings.append(f"section tree discarded ({problems[0]}); using page windows")
        source = TreeSource.WINDOWS
        tree = finish_tree([], pages, page_tokens, max_pages=max_pages, max_tokens=max_tokens)
    seconds["tree"] = time.perf_counter() - t1
    t2 = time.perf_counter()
    metadata = extract_metadata(pages=pages, tree=tree, cover_facts=cover_facts)
    chunks = chunk_pages(pages, tree, max_tokens=options.chunk_tokens)
    seconds["chunk"] = time.perf_counter() - t2
    return PreparedDocument(
        name=document_name(path),
        path=str(path),
        sha256=sha256,
        pages=pages,
        tree=tree,
        tree_source=source,
        sections=entries if source != TreeSource.WINDOWS else [],
        metadata=metadata,
        chunks=chunks,
        warnings=warnings,
        seconds=seconds,
        facts=facts,
    )


__all__ = ["BuildOptions", "prepare_document"]
