"""pageindex-platform: reasoning-based retrieval over folders of long financial filings.

The public Python API (`Corpus` and the values it returns) is imported on first use, so
that `pi --help` stays fast."""

from __future__ import annotations

import importlib
import logging
from typing import Any

__version__ = "0.1.0"

# Quiet unless a door asks for the records (`pi -v`): the library only logs.
logging.getLogger(__name__).addHandler(logging.NullHandler())

_PUBLIC = {
    "Corpus": "api",
    "PageRange": "api",
    "SearchResult": "api",
    "SearchHit": "api",
    "Answer": "search.results",
    "Filters": "search.scope",
    "IngestReport": "index.report",
    "Listed": "catalog",
    "Shown": "catalog",
    "Tree": "catalog",
    "Page": "catalog",
    "PageIndexError": "errors",
    "DocumentNotFoundError": "errors",
    "PageNotFoundError": "errors",
    "EmptySelectionError": "errors",
    "QuestionError": "errors",
}
__all__ = [
    "Answer",
    "Corpus",
    "DocumentNotFoundError",
    "EmptySelectionError",
    "Filters",
    "IngestReport",
    "Listed",
    "Page",
    "PageIndexError",
    "PageNotFoundError",
    "PageRange",
    "QuestionError",
    "SearchHit",
    "SearchResult",
    "Shown",
    "Tree",
    "__version__",
]


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
