"""Where filings discuss a subject. An analyst asks about "lawsuits", "headcount" or
"guidance"; the filing's sections are "Legal Proceedings", "Human Capital" and "Outlook".
Lines of `sections.txt` (see vocabulary.py) map what a question may call a subject to the
words of the sections that hold it; those words are added to the question's full-text terms
and to the words its section titles are matched against — never to the text that is
embedded. `concepts.txt` has the same form: what a question calls a figure, and the tagged
concepts that state it."""

from __future__ import annotations

from collections.abc import Sequence

from .terms import phrase_words

Subject = tuple[tuple[str, ...], tuple[str, ...]]  # (spoken forms, what they stand for)


def parse_subjects(body: str) -> list[Subject]:
    """("called, ...: section phrase, ...") lines → (spoken forms, phrases to search)."""
    out = []
    for line in body.splitlines():
        if line.lstrip().startswith("#") or ":" not in line:
            continue
        left, right = line.rsplit(":", 1)
        spoken = tuple(phrase_words(c) for c in left.split(",") if c.strip())
        found = tuple(w.strip() for w in right.split(",") if w.strip())
        if spoken and found:
            out.append((spoken, found))
    return out


def section_phrases(question: str, subjects: Sequence[Subject]) -> list[str]:
    """The section words and phrases for the subjects a question names."""
    words = phrase_words(question)
    found: list[str] = []
    for spoken, where in subjects:
        if any(s in words for s in spoken):
            found.extend(where)
    return list(dict.fromkeys(found))
