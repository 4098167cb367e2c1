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
# a registrants' table row opens with its Commission File Number ("1-2348", "001-12609")
_FILE_NUMBER = deferred(r"^\d{1,3}-\d{3,6}\b")
_REGISTRANT_NOTE = deferred(r"exact\s+names?\s+of\s+registrants?", re.IGNORECASE)


def names_tried(run: str) -> list[str]:
    """The registrant's names a run of capitalised words may be, longest first: its words
    from each one on, two at least, where it ends as a company's legal name does ("Did
    Pacific Gas and Electric Company" is tried as "Pacific Gas ..."; "Common Stock" never)."""
    words = run.split()[:MOST_WORDS]
    if not words or not _LEGAL_END.fullmatch(words[-1]):
        return []
    return [" ".join(words[i:]) for i in range(len(words) - 1)]


def registered_by(session: Session, name: str, document_id: int | None = None) -> list[str]:
    """The stored companies whose filings' cover pages print `name` as a registrant: on a
    line of the registrants' table after its Commission File Number ("1-2348 PACIFIC GAS AND
    ELECTRIC COMPANY California"), or over "(Exact name of registrant as specified in its
    charter)" — not a subsidiary a glossary or a forward-looking statement names."""
    pages = queries.cover_texts(session, name, document_id)
    return sorted({company for company, text in pages if _as_registrant(text, name)})


def _as_registrant(text: str, name: str) -> bool:
    """Whether a page prints `name` as a registrant (see `registered_by`)."""
    lines = [" ".join(x.split()) for x in text.splitlines() if x.strip()]
    wanted = phrase_words(name)
    for at, line in enumerate(lines):
        if wanted not in phrase_words(line):
            continue
        if _FILE_NUMBER.match(line) or _REGISTRANT_NOTE.search(" ".join(lines[at + 1 : at + 3])):
            return True
    return False


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
        named = next((n for n in tried if registered_by(session, n, document.id)), "")
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


def not_the_registrants(text: str, asked: str) -> str | None:
    """Why a table's figure is not the registrant's asked: its page is not headed by the
    registrant's name (its own statements are: "PACIFIC GAS AND ELECTRIC COMPANY /
    CONSOLIDATED STATEMENTS OF INCOME"); None where it is."""
    if phrase_words(asked) in _head(text):
        return None
    return f"a page not headed by {asked}'s name: not its own statement"
