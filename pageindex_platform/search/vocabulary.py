"""What the search knows beyond a question's words, each packaged with the product and
extended by the user's file of the same name in PI_HOME:

- knowledge.txt: which primary statement holds a concept ("capital expenditure: cash flow
  statement"); other lines of the user's file are hints for the model (`notes`);
- sections.txt: where filings discuss a subject ("lawsuits: legal proceedings");
- concepts.txt: which tagged (inline XBRL) concepts state a figure ("revenue: Revenues");
- aliases.txt (the user's only): names one company goes by ("Block, Square, SQ").

Read once per question, so an edited file counts from the next question on.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

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
    concepts: tuple[Subject, ...]  # the user's first: they win over the packaged ones
    aliases: tuple[frozenset[str], ...]
    notes: str = ""  # the user's knowledge file as written, for the model

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
            concepts=(*parse_subjects(_user(home, "concepts.txt")), *base.concepts),
            aliases=tuple(parse_aliases(_user(home, "aliases.txt"))),
            notes=notes,
        )


@cache
def _packaged_vocabulary() -> Vocabulary:
    return Vocabulary(
        statement_facts=tuple(parse_knowledge(_packaged("knowledge.txt"))),
        subjects=tuple(parse_subjects(_packaged("sections.txt"))),
        concepts=tuple(parse_subjects(_packaged("concepts.txt"))),
        aliases=(),
    )
