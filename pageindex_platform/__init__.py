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
    "Answer": "api",
    "Citation": "api",
    "Corpus": "api",
    "DocumentList": "api",
    "DocumentScore": "api",
    "EvidenceLine": "api",
    "Filters": "api",
    "IngestReport": "api",
    "IngestSummary": "api",
    "Listed": "api",
    "MetricWorking": "api",
    "NodeRef": "api",
    "Page": "api",
    "PageRange": "api",
    "Removed": "api",
    "SearchHit": "api",
    "SearchResult": "api",
    "Section": "api",
    "Shown": "api",
    "StatedFigure": "api",
    "Tree": "api",
    "WorkingInput": "api",
    "CorpusClosedError": "errors",
    "DatabaseError": "errors",
    "DocumentNotFoundError": "errors",
    "EmptySelectionError": "errors",
    "InputError": "errors",
    "PageIndexError": "errors",
    "PageNotFoundError": "errors",
    "QuestionError": "errors",
}
__all__ = [
    "Answer",
    "Citation",
    "Corpus",
    "CorpusClosedError",
    "DatabaseError",
    "DocumentList",
    "DocumentNotFoundError",
    "DocumentScore",
    "EmptySelectionError",
    "EvidenceLine",
    "Filters",
    "IngestReport",
    "IngestSummary",
    "InputError",
    "Listed",
    "MetricWorking",
    "NodeRef",
    "Page",
    "PageIndexError",
    "PageNotFoundError",
    "PageRange",
    "QuestionError",
    "Removed",
    "SearchHit",
    "SearchResult",
    "Section",
    "Shown",
    "StatedFigure",
    "Tree",
    "WorkingInput",
    "__version__",
]


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
