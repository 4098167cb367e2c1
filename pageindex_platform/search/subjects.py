"""Where filings discuss a subject. An analyst asks about "lawsuits", "headcount" or
"guidance"; the filing's sections are "Legal Proceedings", "Human Capital" and "Outlook".
Lines of `sections.txt` (packaged, plus `$PI_HOME/sections.txt`) map what a question may call
a subject to the words of the sections that hold it; those words are added to the question's
full-text terms and to the words its section titles are matched against — never to the text
that is embedded."""

from __future__ import annotations

from functools import cache
from importlib import resources

from ..settings import get_settings
from .statements import _words


def parse_subjects(body: str) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """("called, ...: section phrase, ...") lines → (spoken forms, phrases to search)."""
    out = []
    for line in body.splitlines():
        if line.lstrip().startswith("#") or ":" not in line:
            continue
        left, right = line.rsplit(":", 1)
        spoken = tuple(_words(c) for c in left.split(",") if c.strip())
        found = tuple(w.strip() for w in right.split(",") if w.strip())
        if spoken and found:
            out.append((spoken, found))
    return out


@cache
def _packaged() -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    body = resources.files(__package__).joinpath("sections.txt").read_text(encoding="utf-8")
    return tuple(parse_subjects(body))


def _user() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    path = get_settings().home / "sections.txt"
    return parse_subjects(path.read_text(encoding="utf-8")) if path.exists() else []


def section_phrases(question: str) -> list[str]:
    """The section words and phrases for the subjects a question names."""
    words = _words(question)
    found: list[str] = []
    for spoken, where in (*_packaged(), *_user()):
        if any(s in words for s in spoken):
            found.extend(where)
    return list(dict.fromkeys(found))
