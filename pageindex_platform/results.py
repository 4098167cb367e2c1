"""Every type the API (`api.Corpus`) takes and returns, in one place: the typed results
(each a dataclass whose fields are its JSON shape), the progress events of an ingest, the
question's filters and route. The doors import them from `api`, which re-exports them."""

from __future__ import annotations

from .catalog import (
    DocumentList,
    FieldSource,
    Listed,
    Page,
    PageRange,
    Removed,
    Section,
    Shown,
    Tree,
)
from .index.rederive import Rederived, Refreshed
from .index.report import (
    BatchStarted,
    FileBegun,
    FileDone,
    FileOutcome,
    FileResult,
    FileStatus,
    IngestReport,
    IngestSummary,
    Preparing,
    ProgressEvent,
    WorkerStopped,
)
from .search.results import (
    Answer,
    Candidate,
    Check,
    Citation,
    ComparedFigure,
    DocumentScore,
    EvidenceLine,
    Headline,
    MetricWorking,
    NodeRef,
    SearchHit,
    SearchResult,
    Series,
    SeriesSource,
    SeriesValue,
    StatedFigure,
    WorkingInput,
)
from .search.router import Route
from .search.scope import Filters
from .settings import Mode
from .sheets import Box, MarkedLine, PageSheet

__all__ = [
    "Answer",
    "BatchStarted",
    "Box",
    "Candidate",
    "Check",
    "Citation",
    "ComparedFigure",
    "DocumentList",
    "DocumentScore",
    "EvidenceLine",
    "FieldSource",
    "FileBegun",
    "FileDone",
    "FileOutcome",
    "FileResult",
    "FileStatus",
    "Filters",
    "Headline",
    "IngestReport",
    "IngestSummary",
    "Listed",
    "MarkedLine",
    "MetricWorking",
    "Mode",
    "NodeRef",
    "Page",
    "PageRange",
    "PageSheet",
    "Preparing",
    "ProgressEvent",
    "Rederived",
    "Refreshed",
    "Removed",
    "Route",
    "SearchHit",
    "SearchResult",
    "Section",
    "Series",
    "SeriesSource",
    "SeriesValue",
    "Shown",
    "StatedFigure",
    "Tree",
    "WorkerStopped",
    "WorkingInput",
]
