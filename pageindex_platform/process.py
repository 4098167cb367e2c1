"""What a process of our own (the `pi` command, an ingest's worker) sets up before it works:
PyMuPDF imported without its optional extras — a layout analyser and a Markdown converter,
which take most of its import time and which nothing here uses. A library caller's process
is left as it is."""

from __future__ import annotations

import sys

PYMUPDF_EXTRAS = ("pymupdf.layout", "pymupdf4llm")


def without_pymupdf_extras() -> None:
    """PyMuPDF imported, when it is, without its optional extras (they import as missing)."""
    for name in PYMUPDF_EXTRAS:
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]
