"""What the search knows beyond a question's words, each packaged with the product and
extended by the user's file of the same name in PI_HOME:

- knowledge.txt: which primary statement holds a concept ("capital expenditure: cash flow
  statement"); other lines of the user's file are hints for the model (`notes`);
- sections.txt: where filings discuss a subject ("lawsuits: legal proceedings");
- concepts.txt: the line items a question may ask for, the names filings' table rows give
  them and the tagged (inline XBRL) concepts that state them ("revenue, net sales: Revenues");
- metrics.txt: standard metrics computed from line items ("operating margin: operating
  income / revenue %"), and which line items are outflows;
- aliases.txt (the user's only): names one company goes by ("Block, Square, SQ").

Read once per question, so an edited file counts from the next question on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from .figures import parse_line_items
from .metrics import Catalogue, parse_metrics
from .statements import Fact, parse_knowledge
from .subjects import Subject, parse_subjects


def _packaged(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _user(home: Path, name: str) -> str:
    path = home / name
    return path.read_text(encoding="utf-8") if path.exists() else ""


def parse_aliases(body: str) -> list[frozenset[str]]:
    """Groups of names from alias lines (one company per line, names separated by commas;
    '#' starts a comment)."""
    groups = []
    for line in body.splitlines():
        names = frozenset(n.strip() for n in line.split("#", 1)[0].split(",") if n.strip())
        if len(names) > 1:
            groups.append(names)
    return groups


@dataclass(frozen=True)
class Vocabulary:
    statement_facts: tuple[Fact, ...]  # packaged, then the user's
    subjects: tuple[Subject, ...]  # packaged, then the user's
    aliases: tuple[frozenset[str], ...]
    notes: str = ""  # the user's knowledge file as written, for the model
    catalogue: Catalogue = field(default_factory=lambda: Catalogue((), ()))  # the user's first

    @classmethod
    def packaged(cls) -> Vocabulary:
        """The product's own files alone."""
        return _packaged_vocabulary()

    @classmethod
    def load(cls, home: Path) -> Vocabulary:
        """The packaged files extended by the user's in `home` (PI_HOME)."""
        base = _packaged_vocabulary()
        notes = _user(home, "knowledge.txt").strip()
        return cls(
            statement_facts=(*base.statement_facts, *parse_knowledge(notes)),
            subjects=(*base.subjects, *parse_subjects(_user(home, "sections.txt"))),
            aliases=tuple(parse_aliases(_user(home, "aliases.txt"))),
            notes=notes,
            catalogue=_catalogue(
                _user(home, "concepts.txt") + "\n" + _packaged("concepts.txt"),
                _user(home, "metrics.txt") + "\n" + _packaged("metrics.txt"),
                base.statement_facts,
            ),
        )


@cache
def _packaged_vocabulary() -> Vocabulary:
    facts = tuple(parse_knowledge(_packaged("knowledge.txt")))
    return Vocabulary(
        statement_facts=facts,
        subjects=tuple(parse_subjects(_packaged("sections.txt"))),
        aliases=(),
        catalogue=_catalogue(_packaged("concepts.txt"), _packaged("metrics.txt"), facts),
    )


def _catalogue(concepts: str, metrics: str, facts: Sequence[Fact]) -> Catalogue:
    """The metrics and line items, each line item with the statements that report it."""
    defined, outflows = parse_metrics(metrics)
    return Catalogue(tuple(defined), tuple(parse_line_items(concepts, outflows, facts)))
