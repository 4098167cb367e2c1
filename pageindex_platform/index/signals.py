"""Metadata as evidence: each field of a filing (company, filing type, fiscal year, fiscal
period, period end) is decided from signals — what the inline XBRL cover facts, the cover
page, the text, the corpus and, as a last resort, the file name say of it — combined rather
than tried in a fixed order, and kept with the source of the value chosen and a confidence.

A signal's weight is how often that kind of evidence is right on its own. Signals agreeing
on one value add up as independent evidence (1 - Π(1 - w)); a rival value takes from the
confidence of the winner half its own. What a user states (`pi docs set`, `--metadata`)
decides alone. A field below `UNSURE` is listed as not sure (`pi docs list` marks it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..names import letters, short_company

FIELDS = ("company", "doc_type", "fiscal_year", "fiscal_period", "period_end")
UNSURE = 0.6  # a decided field whose confidence is below this is listed as not sure


class Source(StrEnum):
    """Where a metadata value came from, most reliable first."""

    USER = "user"  # `pi docs set`: a correction by name
    METADATA_FILE = "metadata file"  # `pi ingest --metadata FILE`
    XBRL = "inline XBRL"  # the filing's dei: cover facts
    COVER = "cover page"
    TEXT = "text"
    CORPUS = "corpus"  # names and symbols of companies already stored
    FILE_NAME = "file name"


_STATED = (Source.USER, Source.METADATA_FILE)


@dataclass(frozen=True)
class Signal:
    """One piece of evidence for a field's value, with its weight (0-1) and where it was
    read."""

    field: str
    value: Any
    source: Source
    weight: float
    why: str = ""


@dataclass(frozen=True)
class Decided:
    """A field's value, the source of its strongest signal, and how sure that is."""

    value: Any
    source: Source
    confidence: float

    def to_dict(self) -> dict[str, Any]:
        return {"source": str(self.source), "confidence": round(self.confidence, 2)}


def _key(field: str, value: Any) -> Any:
    """Signals agree when they name one value: a company whatever its suffix and case."""
    if field == "company" and isinstance(value, str):
        return letters(short_company(value))
    return value


def decide(signals: Iterable[Signal]) -> dict[str, Decided]:
    """Each field's value from its signals: a stated value wins; else the value whose
    agreeing signals weigh most, less half of the strongest rival's weight."""
    by_field: dict[str, list[Signal]] = {}
    for s in signals:
        if s.value is not None and s.value != "":
            by_field.setdefault(s.field, []).append(s)
    return {field: _decide(found) for field, found in by_field.items()}


def _decide(signals: Sequence[Signal]) -> Decided:
    stated = [s for s in signals if s.source in _STATED]
    if stated:
        best = min(stated, key=lambda s: _STATED.index(s.source))
        return Decided(best.value, best.source, 1.0)
    groups: dict[Any, list[Signal]] = {}
    for s in signals:
        groups.setdefault(_key(s.field, s.value), []).append(s)
    scored = sorted(
        ((_combined(group), group) for group in groups.values()),
        key=lambda x: (-x[0], -max(s.weight for s in x[1])),
    )
    score, group = scored[0]
    rival = scored[1][0] if len(scored) > 1 else 0.0
    strongest = max(group, key=lambda s: s.weight)
    return Decided(strongest.value, strongest.source, max(0.0, score - rival / 2))


def _combined(group: Sequence[Signal]) -> float:
    miss = 1.0
    for s in group:
        miss *= 1.0 - min(max(s.weight, 0.0), 0.999)
    return 1.0 - miss


# --- what a company's name looks like ------------------------------------------------------

# Words that are never a company's name alone, or that make a line a heading, a date or a
# form's caption rather than a name.
_GENERIC = frozenset(
    "company corporation registrant issuer the inc group holdings business management "
    "results report annual quarterly".split()
)
_NOT_A_NAME = re.compile(
    r"\b(?:quarter|first[\s-]half|fiscal|results|report(?:ed|s)?|announce[sd]?|earnings|"
    r"date of|earliest event|commission|exact name|state or other|jurisdiction|i\.r\.s|"
    r"employer|identification|pursuant|securities|exchange act|telephone|address|"
    r"principal executive|zip code|check mark|page \d|table of contents|forward[\s-]looking)\b",
    re.IGNORECASE,
)
_DATE_LINE = re.compile(
    r"\b(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December)\s+\d{1,2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b(?:19|20)\d\d\b",
    re.IGNORECASE,
)


def plausible_company(name: str | None) -> bool:
    """Whether `name` reads as a company's name: starts with a letter or digit, at most
    eight words, letters in it, and not a heading, a date line, a caption or a generic word
    ("Company", "• 2023 Second-Quarter", "(Date of earliest event reported)")."""
    if not name:
        return False
    text = " ".join(name.split())
    words = text.split()
    if not text[0].isalnum() or not 1 <= len(words) <= 8 or len(text) > 80:
        return False
    if sum(c.isalpha() for c in text) < 2 or _NOT_A_NAME.search(text):
        return False
    if _DATE_LINE.search(text) and not re.search(r"[A-Za-z]{3,}", _DATE_LINE.sub("", text)):
        return False
    core = [w.lower().strip(",.()") for w in words]
    return not all(w in _GENERIC or not w for w in core) and not _DATE_LINE.search(text)
