"""A page as the filing prints it: where a PDF page prints the lines an answer used (boxes in
PDF points), the page rendered to an image, and the stored text with those lines marked
when there is no image to show.

A page is drawn only from the bytes that were ingested: the stored source path must still
be the same regular file (no link put in its place) with the stored SHA-256, checked once
per file version (device, inode, size, modification time) in a process. Rendering is bounded
in pixels (MAX_PIXELS) and in time (RENDER_SECONDS)."""

from __future__ import annotations

import errno
import hashlib
import logging
import math
import os
import re
import stat
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as RenderTimeout
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any, TypeVar

from .catalog import Page
from .errors import UnreadableFileError
from .process import import_pymupdf
from .shapes import Shape

logger = logging.getLogger(__name__)

ZOOM = 1.5  # a rendered page's pixels per PDF point, for a page of ordinary size
MAX_PIXELS = 6_000_000  # a larger page is rendered at a smaller scale
RENDER_SECONDS = 20.0  # a page that takes longer to measure or render is given up
CHANGED = "the file changed since it was ingested"
GONE = "the file is no longer where it was ingested"
_IMAGES = 64  # rendered pages kept in memory
_CHECKED = 1024  # file versions whose checksum is remembered
_PERIOD = re.compile(r"\s*\((?:[^()]*\bended\b[^()]*|as of [^()]*)\)")
T = TypeVar("T")


@dataclass(frozen=True)
class Box(Shape):
    """A highlight over a PDF page, in PDF points from its top left corner."""

    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class MarkedLine(Shape):
    """A line of a page's stored text; `marked` when it holds an evidence line."""

    text: str
    marked: bool


@dataclass(frozen=True)
class PageSheet(Shape):
    """A page as the filing prints it. With `image`, `Corpus.page_image` renders it
    (`pixel_width` x `pixel_height`) and `boxes` lie over the printed lines holding the
    evidence; without, `notice` says why (None for a filing that is not a PDF) and `text`
    is what to show: the stored text, those lines marked."""

    name: str
    page: int
    page_count: int
    section: str | None
    image: bool
    notice: str | None
    width: float  # the page in PDF points (0 without an image)
    height: float
    pixel_width: int
    pixel_height: int
    boxes: list[Box]
    text: list[MarkedLine]


def page_sheet(*, page: Page, source: str, sha256: str, lines: Sequence[str]) -> PageSheet:
    """`page` of the file ingested from `source` (with `sha256`), `lines` located on it."""
    text = marked_lines(page.text, lines)
    plain = PageSheet(
        name=page.name,
        page=page.page,
        page_count=page.page_count,
        section=page.section,
        image=False,
        notice=None,
        width=0,
        height=0,
        pixel_width=0,
        pixel_height=0,
        boxes=[],
        text=text,
    )
    if Path(source).suffix.lower() != ".pdf":
        return plain
    try:
        with ingested_file(source, sha256) as file:
            data = file.read()
        rect, pixels, found = _bounded(lambda: _measure(data, page.page, lines), source)
    except UnreadableFileError as exc:
        logger.info("%s p. %d shown as text: %s", page.name, page.page, exc)
        return replace(plain, notice=exc.detail)
    return replace(
        plain,
        image=True,
        width=rect.width,
        height=rect.height,
        pixel_width=pixels.width,
        pixel_height=pixels.height,
        boxes=found,
    )


def page_image(*, page: Page, source: str, sha256: str) -> bytes:
    """`page` of the PDF ingested from `source`, rendered as PNG (at most MAX_PIXELS pixels);
    an UnreadableFileError (its `detail` says why) when there is none to show."""
    if Path(source).suffix.lower() != ".pdf":
        raise UnreadableFileError(source, "not a PDF: no page image")
    key = (sha256, page.page)
    with ingested_file(source, sha256) as file:
        cached: bytes | None = _images.get(key)
        if cached is not None:
            return cached
        data = file.read()
    png = _bounded(lambda: _render(data, page.page), source)
    _images.put(key, png)
    return png


def scale(width: float, height: float) -> float:
    """Pixels per PDF point for a page this size: ZOOM, less for a page over MAX_PIXELS."""
    if width <= 0 or height <= 0:
        return ZOOM
    return min(ZOOM, math.sqrt(MAX_PIXELS / (width * height)))


def _measure(data: bytes, number: int, lines: Sequence[str]) -> tuple[Any, Any, list[Box]]:
    """The page's rectangle (PDF points), its image's rectangle (pixels), and the boxes."""
    pymupdf = import_pymupdf()

    with pymupdf.open(stream=data, filetype="pdf") as pdf:
        sheet = pdf[number - 1]
        return sheet.rect, (sheet.rect * _matrix(sheet)).irect, boxes(sheet, lines)


def _render(data: bytes, number: int) -> bytes:
    pymupdf = import_pymupdf()

    with pymupdf.open(stream=data, filetype="pdf") as pdf:
        sheet = pdf[number - 1]
        png: bytes = sheet.get_pixmap(matrix=_matrix(sheet), alpha=False).tobytes("png")
        return png


def _matrix(sheet: Any) -> Any:
    """The scale of a page's image: ZOOM, less for a page that would pass MAX_PIXELS (its
    pixels counted as PyMuPDF rounds them)."""
    pymupdf = import_pymupdf()

    zoom = scale(sheet.rect.width, sheet.rect.height)
    while True:
        matrix = pymupdf.Matrix(zoom, zoom)
        pixels = (sheet.rect * matrix).irect
        if pixels.width * pixels.height <= MAX_PIXELS or zoom < 0.01:
            return matrix
        zoom *= 0.99


# --- only the ingested bytes ------------------------------------------------------------


class _Memory:
    """A bounded map, the most recently used kept, safe across threads."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[Any, Any] = OrderedDict()

    def get(self, key: Any) -> Any:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        return None

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            while len(self._items) > self._size:
                self._items.popitem(last=False)


_images = _Memory(_IMAGES)
_checked = _Memory(_CHECKED)


@contextmanager
def ingested_file(source: str, sha256: str) -> Iterator[IO[bytes]]:
    """The file at `source`, open at its start, when it is still the one ingested: the same
    regular file reached without a link, with the stored checksum. Otherwise an
    UnreadableFileError whose `detail` is CHANGED, GONE, or why it cannot be read."""
    if not os.path.isabs(source) or os.path.realpath(source) != os.path.normpath(source):
        raise UnreadableFileError(source, CHANGED)  # a link now stands on the way
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(source, flags)
    except FileNotFoundError:
        raise UnreadableFileError(source, GONE) from None
    except OSError as exc:
        detail = CHANGED if exc.errno == errno.ELOOP else f"cannot be read ({exc.strerror})"
        raise UnreadableFileError(source, detail) from None
    with os.fdopen(descriptor, "rb") as file:
        found = os.fstat(descriptor)
        if not stat.S_ISREG(found.st_mode):
            raise UnreadableFileError(source, CHANGED)
        version = (source, sha256, found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns)
        same = _checked.get(version)
        if same is None:
            digest = hashlib.sha256()
            for block in iter(lambda: file.read(1 << 20), b""):
                digest.update(block)
            same = digest.hexdigest() == sha256
            _checked.put(version, same)
            file.seek(0)
        if not same:
            raise UnreadableFileError(source, CHANGED)
        yield file


_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="pi-page")


def _bounded(work: Callable[[], T], source: str) -> T:
    """`work` (reading a PDF page) on the page workers, given up after RENDER_SECONDS; a
    failure to read the page is an UnreadableFileError."""
    future = _pool.submit(work)
    try:
        return future.result(timeout=RENDER_SECONDS)
    except RenderTimeout:
        future.cancel()
        raise UnreadableFileError(
            source, f"the page takes over {RENDER_SECONDS:.0f} s to render"
        ) from None
    except Exception as exc:  # a page PyMuPDF cannot read (its errors have no common base)
        logger.warning("%s: page not read: %s", source, exc)
        raise UnreadableFileError(source, "the page could not be rendered") from None


# --- where the lines are printed ---------------------------------------------------------


def boxes(sheet: Any, lines: Sequence[str]) -> list[Box]:
    """Boxes over the printed lines of a PyMuPDF page that hold each of `lines`: a table row
    found by its label on the same printed line as its first number, other lines by their
    words; each widened to its whole printed line, in the page's (rotated) coordinates."""
    found: list[Box] = []
    words = sheet.get_text("words") if lines else []
    for line in lines:
        row = _row(sheet, line)
        if row is not None:
            found.append(_widen(row, words))
            continue
        for probe in _probes(line):
            rects = sheet.search_for(probe)
            if rects:
                found.extend(_widen(r, words) for r in rects[:3])
                break
    if sheet.rotation:
        found = [_rotated(b, sheet.rotation_matrix) for b in found]
    return list(dict.fromkeys(found))


def _rotated(box: Box, matrix: Any) -> Box:
    pymupdf = import_pymupdf()

    r = pymupdf.Rect(box.x0, box.y0, box.x1, box.y1) * matrix
    return Box(r.x0, r.y0, r.x1, r.y1)


def _row(sheet: Any, line: str) -> Any:
    """The label of a table row ("Revenue: 9,583 million", "Comparable sales % change:
    (6.3)% (...)") where the same printed line also holds its first number; None when the
    line is not a row or no such line is printed."""
    text = _PERIOD.sub("", line).strip()
    if ": " not in text:
        return None
    label, cells = (part.strip() for part in text.split(": ", 1))
    number = re.search(r"\(?\d[\d,.]*\)?%?", cells)
    if not label or number is None:
        return None
    values = sheet.search_for(number.group(0))
    for found in sheet.search_for(label):
        middle = (found.y0 + found.y1) / 2
        if any(v.y0 <= middle <= v.y1 for v in values):
            return found
    return None


def _probes(line: str) -> list[str]:
    """What to look for on the page for an evidence line, most precise first: a row's label
    ("Comparable sales % change: (6.3)% (three months ...)" → "Comparable sales % change"),
    its first cell, the line's first words."""
    text = _PERIOD.sub("", line).strip()
    probes = []
    if ": " in text:
        label, cells = text.split(": ", 1)
        probes.append(label.strip())
        first = cells.split(";")[0].strip()
        if first:
            probes.append(first)
    words = text.split()
    probes.extend(" ".join(words[:n]) for n in (8, 4) if len(words) >= n)
    if words:
        probes.append(words[0])
    return [p for p in dict.fromkeys(probes) if len(p) >= 3]


def _widen(rect: Any, words: list[tuple[Any, ...]]) -> Box:
    """The rectangle widened to the words printed on its line."""
    middle = (rect.y0 + rect.y1) / 2
    same = [w for w in words if w[1] <= middle <= w[3]]
    if not same:
        return Box(rect.x0, rect.y0, rect.x1, rect.y1)
    return Box(
        min(w[0] for w in same),
        min(min(w[1] for w in same), rect.y0),
        max(w[2] for w in same),
        max(max(w[3] for w in same), rect.y1),
    )


def marked_lines(text: str, lines: Sequence[str]) -> list[MarkedLine]:
    """The stored page text line by line, those holding an evidence line (by its most
    precise probe) marked."""
    probes = [p for line in lines for p in _probes(line)[:1]]
    return [MarkedLine(row, any(p in row for p in probes)) for row in text.splitlines()]
