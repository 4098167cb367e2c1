"""PyMuPDF imported without its optional extras — a layout analyser (which opens three ONNX
models) and a Markdown converter — which take most of its import time and which nothing here
uses. Every process that reads a PDF (the `pi` command, an ingest's workers, a library
caller's process) imports it through `import_pymupdf`; a caller that imports the extras
itself afterwards still can."""

from __future__ import annotations

import sys
import threading
from typing import Any

PYMUPDF_EXTRAS = ("pymupdf.layout", "pymupdf4llm")
_IMPORTING = threading.Lock()


def import_pymupdf() -> Any:
    """The `pymupdf` module, fully imported: imported here, when nothing imported it before,
    with its extras marked missing for the time of the import alone. Threads (the web door
    renders pages in a pool) wait for the one importing."""
    with _IMPORTING:
        first = "pymupdf" not in sys.modules
        blocked = [name for name in PYMUPDF_EXTRAS if first and name not in sys.modules]
        for name in blocked:
            sys.modules[name] = None  # type: ignore[assignment]  # imports as missing
        try:
            import pymupdf  # the import system's lock: a module another thread imports is whole
        finally:
            for name in blocked:
                if name in sys.modules and sys.modules[name] is None:
                    del sys.modules[name]
    return pymupdf
