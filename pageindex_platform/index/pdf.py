"""PDF → pages (text per physical page) and their layout rows, with clear errors for bad files."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import (
    CorruptPdfError,
    EmptyFileError,
    EncryptedPdfError,
    NotAPdfError,
    NoTextLayerError,
    UnreadableFileError,
)
from ..process import import_pymupdf
from ..records import PageText
from .layout import PageLayout, rows_from_dict

pymupdf = import_pymupdf()
pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)

# get_text("dict")'s flags without its images: rows are made of text spans alone, and
# decoding each image into the dict cost time for nothing
_TEXT_FLAGS = pymupdf.TEXTFLAGS_DICT & ~pymupdf.TEXT_PRESERVE_IMAGES


@dataclass
class ParsedPdf:
    pages: list[PageText]
    layouts: list[PageLayout]
    outline: list[tuple[int, str, int]]  # (level, title, 1-based page) from the PDF bookmarks
    warnings: list[str] = field(default_factory=list)  # what reading the file left out


def read_bytes(path: Path) -> bytes:
    """Read a file, mapping OS errors to one-line input errors."""
    if not path.exists() and not path.is_symlink():
        raise UnreadableFileError(path, "no such file")
    if not path.is_file():
        raise UnreadableFileError(path, "not a regular file (broken link or special file)")
    try:
        data = path.read_bytes()
    except PermissionError as exc:
        raise UnreadableFileError(path, "permission denied") from exc
    except OSError as exc:
        raise UnreadableFileError(path, f"cannot be read ({exc.strerror or exc})") from exc
    if not data:
        raise EmptyFileError(path)
    return data


def parse_pdf(path: Path, data: bytes) -> ParsedPdf:
    if b"%PDF-" not in data[:1024]:
        raise NotAPdfError(path)
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:
        raise CorruptPdfError(path, f"corrupt or truncated PDF ({exc})") from exc
    with doc:
        if doc.needs_pass and not doc.authenticate(""):
            raise EncryptedPdfError(path)
        if doc.page_count == 0:
            raise CorruptPdfError(path, "corrupt or truncated PDF (no pages could be read)")
        # a file cut short (a download that stopped): its pages before the cut are read,
        # and said to be all there is
        truncated = b"%%EOF" not in data[-2048:] and doc.is_repaired
        pages: list[PageText] = []
        layouts: list[PageLayout] = []
        try:
            for index, page in enumerate(doc):
                rows = rows_from_dict(page.get_text("dict", sort=False, flags=_TEXT_FLAGS))
                layout = PageLayout(index + 1, page.rect.width, page.rect.height, rows)
                layouts.append(layout)
                pages.append(PageText(index + 1, layout.text))
            outline = [(lvl, title, pg) for lvl, title, pg, *_ in doc.get_toc(simple=True)]
        except Exception as exc:
            raise CorruptPdfError(path, f"corrupt or truncated PDF ({exc})") from exc
    if sum(len(p.text.strip()) for p in pages) < 20 * len(pages) and not any(
        len(p.text.strip()) > 200 for p in pages
    ):
        if truncated:
            raise CorruptPdfError(path, "corrupt or truncated PDF (file ends before %%EOF)")
        raise NoTextLayerError(path)
    warnings = (
        [f"the file ends before %%EOF (cut short): {len(pages)} pages recovered, any after the "
         "cut are missing"]
        if truncated
        else []
    )  # fmt: skip
    return ParsedPdf(pages=pages, layouts=layouts, outline=outline, warnings=warnings)
