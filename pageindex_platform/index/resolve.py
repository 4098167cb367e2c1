"""A document's metadata decided again where the corpus is known (at store time, and by
`pi docs refresh`): the signals its own pages give, plus the companies already stored that its
first pages write (a release naming Johnson & Johnson forty times is J&J's), its file name
matched against them as the last resort, the `--metadata` row and the user's correction (`pi
docs set`), which decide alone."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..db.queries import CompanyNames
from ..db.sql import Session, text
from ..names import SYMBOL, letters, short_company
from ..records import DocMetadata, DocType, PageText, TreeNode
from .metadata import FirstPages, metadata_of
from .signals import Signal, Source, plausible_company

_CORPUS_PAGES = 10
_MIN_MENTIONS = 3
_FORMS_IN_NAME = (
    (re.compile(r"10-?K|annual[\s_-]?report", re.I), DocType.FORM_10K),
    (re.compile(r"10-?Q", re.I), DocType.FORM_10Q),
    (re.compile(r"8-?K", re.I), DocType.FORM_8K),
    (re.compile(r"earnings|press[\s_-]?release", re.I), DocType.EARNINGS),
)
_YEAR_IN_NAME = re.compile(r"(?<!\d)((?:19|20)\d\d)(?:[\s_-]?Q([1-4]))?(?!\d)", re.I)
_LEADING_WORDS = re.compile(r"^[A-Za-z][A-Za-z&]*(?:[\s_-][A-Za-z&]+)*?(?=[\s_-]*(?:\d|$))")
_FILE_NAME = 0.25  # the last resort: users name files after links, UUIDs or anything
# what a user states for a field, as the stored value
STATED_FIELDS = ("company", "doc_type", "fiscal_year", "fiscal_period")


def resolved(
    metadata: DocMetadata,
    *,
    name: str,
    pages: Sequence[PageText],
    tree: Sequence[TreeNode],
    known: Sequence[CompanyNames],
    stated: Mapping[Source, Mapping[str, Any]] | None = None,
) -> DocMetadata:
    """`metadata` decided again with the corpus's evidence (`known`: the stored companies),
    the file's `name`, and what was `stated` for it (the user's correction, the `--metadata`
    row)."""
    signals = [s for s in metadata.signals if s.source not in _ADDED]
    signals += corpus_signals(pages, known)
    signals += file_name_signals(name, known)
    for source, row in (stated or {}).items():
        signals += stated_signals(row, source)
    read = FirstPages.of(pages, metadata.cover_facts)
    return metadata_of(signals, read=read, tree=tree)


_ADDED = (Source.CORPUS, Source.FILE_NAME, Source.METADATA_FILE, Source.USER)


def known_companies(session: Session, *, excluding: str | None = None) -> list[CompanyNames]:
    """The stored companies with their aliases, but for the document `excluding` (a
    document's own stored name is no evidence of itself), plausible names only."""
    rows = session.execute(
        text(
            "SELECT d.company, array_remove(array_agg(DISTINCT a.alias), NULL) FROM documents d "
            "LEFT JOIN LATERAL unnest(d.company_aliases) AS a(alias) ON TRUE "
            "WHERE d.company IS NOT NULL AND d.name IS DISTINCT FROM :name "
            "GROUP BY d.company ORDER BY d.company"
        ),
        {"name": excluding},
    )
    return [
        CompanyNames(company, tuple(sorted(aliases or ())))
        for company, aliases in rows
        if plausible_company(company)
    ]


def stated_signals(row: Mapping[str, Any], source: Source) -> list[Signal]:
    """A `--metadata` row's or a correction's fields as signals that decide alone."""
    found = []
    for field in STATED_FIELDS:
        value = row.get(field)
        if value in (None, ""):
            continue
        found.append(Signal(field, int(value) if field == "fiscal_year" else value, source, 1.0))
    return found


def _forms(known: CompanyNames) -> tuple[set[str], set[str]]:
    """A stored company's names as prose writes them — its name, short name, aliases and
    the leading words of its short name ("Harbor Light" of "Harbor Light Industries") —
    and its trading symbols."""
    symbols = {a for a in known.aliases if SYMBOL.fullmatch(a) and len(a) >= 2}
    short = short_company(known.company)
    words = short.split()
    names = {known.company, short, *(" ".join(words[:n]) for n in range(2, len(words)))}
    names |= {a for a in known.aliases if a not in symbols and len(letters(a)) >= 3}
    return names, symbols


def corpus_signals(pages: Sequence[PageText], known: Sequence[CompanyNames]) -> list[Signal]:
    """The stored company the first pages write most often (its names, and its symbols in
    capitals), weighted by how often and how far ahead of the next."""
    text = "\n".join(p.text for p in pages[:_CORPUS_PAGES])
    counts: list[tuple[int, str]] = []
    for stored in known:
        names, symbols = _forms(stored)
        said = sum(len(re.findall(_written(n), text)) for n in names)
        said += sum(len(re.findall(rf"(?<![\w.&]){re.escape(s)}(?![\w&])", text)) for s in symbols)
        if said:
            counts.append((said, stored.company))
    counts.sort(reverse=True)
    if not counts or counts[0][0] < _MIN_MENTIONS:
        return []
    top, company = counts[0]
    second = counts[1][0] if len(counts) > 1 else 0
    weight = min(0.7, 0.07 * top) * (1 - second / (2 * top))
    return [Signal("company", company, Source.CORPUS, weight, f"a stored company, {top} times")]


def _file_names(wanted: str, company: CompanyNames) -> bool:
    """Whether a file name's leading letters name `company`: a name of it run together
    ("BESTBUY", "PG_E"), its name's beginning of five letters or more ("HARBORLIGHT"), or
    one of its symbols ("aapl")."""
    names, symbols = _forms(company)
    spelled = {letters(short_company(n)) for n in names}
    return (
        wanted in spelled
        or (len(wanted) >= 5 and any(s.startswith(wanted) for s in spelled))
        or wanted.upper() in symbols
    )


def _written(name: str) -> str:
    """A name as prose writes it: as spelled, or in capitals ("Target", "TARGET"; not the
    word "target")."""
    spellings = {re.escape(name), re.escape(name.upper())}
    return rf"(?<!\w)(?:{'|'.join(sorted(spellings))})(?!\w)"


def file_name_signals(name: str, known: Sequence[CompanyNames]) -> list[Signal]:
    """What the file's name says, the last resort: a stored company its leading words or a
    symbol name, a form ("10-K", "EARNINGS"), a year and quarter ("2023Q2")."""
    stem = Path(name).stem
    found: list[Signal] = []
    why = f"the file name {stem!r}"
    lead = _LEADING_WORDS.match(stem)
    wanted = letters(lead.group(0)) if lead else ""
    named = [c for c in known if wanted and _file_names(wanted, c)] if len(wanted) >= 2 else []
    if len(named) == 1:  # one stored company, or none said
        found.append(Signal("company", named[0].company, Source.FILE_NAME, _FILE_NAME, why))
    for pattern, kind in _FORMS_IN_NAME:
        if pattern.search(stem):
            found.append(Signal("doc_type", str(kind), Source.FILE_NAME, _FILE_NAME, why))
            break
    year = _YEAR_IN_NAME.search(stem)
    if year:
        found.append(Signal("fiscal_year", int(year.group(1)), Source.FILE_NAME, _FILE_NAME, why))
        if year.group(2):
            quarter = f"Q{year.group(2)}"
            found.append(Signal("fiscal_period", quarter, Source.FILE_NAME, _FILE_NAME, why))
    return found
