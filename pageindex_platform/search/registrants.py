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
from .defined_terms import JOINED_NAME, name_defined_as
from .figures import Figure
from .terms import phrase_words

MOST_WORDS = 8  # words of a name tried at most
_LEAST_WITHOUT_ENDING = 4  # words of a name tried without a legal name's ending, at least
_JOINS = ("and", "&", "of")
# the word a company's legal name ends with
LEGAL_END = deferred(
    r"(?:Company|Corporation|Corp|Incorporated|Inc|Co|LLC|L\.?P|Ltd|Limited|plc|PLC)\.?",
    re.IGNORECASE,
)
_HEAD_LINES = 4  # the lines that head a statement's page, which name whose statement it is
_MORE_WORDS = 3  # words a heading may add to the name ("AND SUBSIDIARIES")
_NOT_BEFORE = deferred(
    r"\b(?:not|excluding|except|other\s+than|rather\s+than|exclusive\s+of)\s+$", re.IGNORECASE
)
# a short name written capitalised after "the" ("the Utility", "the Bank")
_SHORT_NAME = deferred(r"\bthe\s+([A-Z][a-z]{2,20})\b")
# a registrants' table row opens with its Commission File Number ("1-2348", "001-12609")
_FILE_NUMBER = deferred(r"^\d{1,3}-\d{3,6}\b")
_REGISTRANT_NOTE = deferred(r"exact\s+names?\s+of\s+registrants?", re.IGNORECASE)


def names_tried(run: str) -> list[str]:
    """The registrant's names a run of capitalised words may be, longest first: its words
    from each one on, two at least, where it ends as a company's legal name does ("Did
    Pacific Gas and Electric Company" is tried as "Pacific Gas ..."; "Common Stock" never),
    or four at least where it does not ("Pacific Gas and Electric's": a legal name's start,
    which the cover page prints whole)."""
    words = run.split()[:MOST_WORDS]
    least = 2 if words and LEGAL_END.fullmatch(words[-1]) else _LEAST_WITHOUT_ENDING
    starts = [i for i in range(len(words) - least + 1) if words[i].lower() not in _JOINS]
    return [" ".join(words[i:]) for i in starts]


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
    the company it is stored as (`names`: the company's names) — by its name, or by the short
    name the filing defines for it ("the Utility"); "" where it names none."""
    own = [f" {phrase_words(n).strip()} " for n in names if n]
    runs = [names_tried(r[0]) for r in JOINED_NAME.finditer(question) if not _denied(question, r)]
    # (the short name's, spelled with "and" too: "Pacific Gas & Electric Company")
    for name in _defined_names(session, document, question):
        runs.append(names_tried(re.sub(r"\s+&\s+", " and ", name)) + names_tried(name))
    for tried in runs:
        # the company's own name, written in part or with more ("In PG&E Corporation's")
        if any(o in f" {w} " or w in o for w in map(phrase_words, tried) for o in own):
            continue
        named = next((n for n in tried if registered_by(session, n, document.id)), "")
        if named:
            return named
    return ""


def _defined_names(session: Session, document: DocumentInfo, question: str) -> list[str]:
    """The names the filing defines by the short names the question writes ("the Utility":
    "Pacific Gas and Electric Company (the “Utility”)")."""
    terms = (m[1] for m in _SHORT_NAME.finditer(question) if not _denied(question, m))
    return [n for t in dict.fromkeys(terms) if (n := name_defined_as(session, document, t))]


def _denied(question: str, found: re.Match[str]) -> bool:
    """Whether the question names it to leave it out ("PG&E Corporation, not the Utility")."""
    return _NOT_BEFORE.search(question[: found.start()]) is not None


def own_first(figures: list[Figure], name: str, text_of: Callable[[int], str]) -> list[Figure]:
    """The figures on pages headed by the registrant's name first, in their order."""
    return sorted(figures, key=lambda f: not _headed(text_of(f.page), name))


def _headed(text: str, name: str) -> bool:
    """Whether a line among the first of a page is the name alone, or with a few words more
    ("PACIFIC GAS AND ELECTRIC COMPANY", "... AND SUBSIDIARIES"): not a sentence naming it."""
    said = phrase_words(name).strip()
    size = len(said.split())
    return any(
        phrase_words(line).strip().startswith(said) and len(line.split()) <= size + _MORE_WORDS
        for line in text.splitlines()[:_HEAD_LINES]
    )


def not_the_registrants(text: str, asked: str) -> str | None:
    """Why a table's figure is not the registrant's asked: its page is not headed by the
    registrant's name (its own statements are: "PACIFIC GAS AND ELECTRIC COMPANY /
    CONSOLIDATED STATEMENTS OF INCOME"); None where it is."""
    if _headed(text, asked):
        return None
    return f"a page not headed by {asked}'s name: not its own statement"
