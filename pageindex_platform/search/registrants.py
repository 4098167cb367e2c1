"""A registrant of a combined filing that a question names: "Pacific Gas and Electric Company",
printed on the cover page of PG&E Corporation's 10-K beside it. Its figures are those of its
own statements (headed by its name), never those headed by the company the filing is stored
as."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..db import queries
from ..db.queries import DocumentInfo
from ..db.sql import Session
from ..patterns import deferred
from .figures import Figure
from .terms import phrase_words

# a name of capitalised words that may join words by "and", "&" or "of" ("Pacific Gas and
# Electric Company"), less a possessive's ending
JOINED_NAME = deferred(r"[A-Z][\w.&-]*(?:\s+(?:(?:and|&|of)\s+)?[A-Z][\w.&-]*)+")
MOST_WORDS = 8  # words of a name tried at most
# the word a company's legal name ends with
_LEGAL_END = deferred(
    r"(?:Company|Corporation|Corp|Incorporated|Inc|Co|LLC|L\.?P|Ltd|Limited|plc|PLC)\.?",
    re.IGNORECASE,
)
_HEAD_LINES = 4  # the lines that head a statement's page, which name whose statement it is


def names_tried(run: str) -> list[str]:
    """The registrant's names a run of capitalised words may be, longest first: its words
    from each one on, two at least, where it ends as a company's legal name does ("Did
    Pacific Gas and Electric Company" is tried as "Pacific Gas ..."; "Common Stock" never)."""
    words = run.split()[:MOST_WORDS]
    if not words or not _LEGAL_END.fullmatch(words[-1]):
        return []
    return [" ".join(words[i:]) for i in range(len(words) - 1)]


def registrant_asked(
    session: Session, document: DocumentInfo, question: str, names: Sequence[str]
) -> str:
    """The registrant the question names that `document`'s cover page prints and that is not
    the company it is stored as (`names`: the company's names); "" where it names none."""
    own = [f" {phrase_words(n).strip()} " for n in names if n]
    for run in JOINED_NAME.finditer(question):
        tried = names_tried(run[0])
        # the company's own name, written in part or with more ("In PG&E Corporation's")
        if any(o in f" {w} " or w in o for w in map(phrase_words, tried) for o in own):
            continue
        named = next((n for n in tried if queries.cover_mentions(session, n, document.id)), "")
        if named:
            return named
    return ""


def own_first(figures: list[Figure], name: str, text_of: Callable[[int], str]) -> list[Figure]:
    """The figures on pages headed by the registrant's name first, in their order."""
    said = phrase_words(name)
    return sorted(figures, key=lambda f: said not in _head(text_of(f.page)))


def _head(text: str) -> str:
    """The words of the lines that head a page."""
    return phrase_words(" ".join(text.splitlines()[:_HEAD_LINES]))


def other_registrant(text: str, asked: str, company: str) -> str | None:
    """Why a page's figure is not the registrant's asked: the page is headed by the
    company's name, not the registrant's ("PG&E CORPORATION / CONSOLIDATED STATEMENTS OF
    INCOME" where Pacific Gas and Electric Company's is asked); None otherwise."""
    head = _head(text)
    if phrase_words(asked) in head or not company or phrase_words(company) not in head:
        return None
    return f"a statement of {company}; {asked}'s is asked"
