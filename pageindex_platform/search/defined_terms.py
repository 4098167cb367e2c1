"""The short names a filing defines for the names a question writes: "Pacific Gas and Electric
Company (the “Utility”)", or a glossary's line "Utility Pacific Gas and Electric Company" — a
sentence that says "the Utility" speaks of the company the question names in full."""

from __future__ import annotations

import re

from ..db import queries
from ..db.queries import DocumentInfo
from ..db.sql import Session
from ..patterns import deferred
from .terms import phrase_words

# a name of two words or more, capitalised ("Pacific Gas and Electric Company")
_NAME = deferred(r"\b[A-Z][\w&.'’-]*(?:\s+(?:(?:and|of|&)\s+)?[A-Z][\w&.'’-]*){1,6}")
# the short name a filing gives right after a name, in parentheses and quotation marks
_SHORT = r"\s*\(\s*(?:the\s+)?[“\"]([A-Z][\w&.' -]{0,30}?)[”\"]\s*\)"
# a page of defined terms: each line a term, then what it means
_GLOSSARY = deferred(r"\bglossary\b|\bmeanings?\s+indicated\b|\bdefined\s+terms\b", re.I)
_MOST_NAMES = 4  # names of a question looked up at most
# a name of capitalised words that may join words by "and", "&" or "of" ("Pacific Gas and
# Electric Company"), less a possessive's ending
JOINED_NAME = deferred(r"[A-Z][\w.&-]*(?:\s+(?:(?:and|&|of)\s+)?[A-Z][\w.&-]*)+")
_DEFINING_PAGES = 20  # pages read for the name a short name stands for


def defined_terms(session: Session, document: DocumentInfo, question: str) -> dict[str, str]:
    """Each short name the document defines for a name the question writes, with the name's
    words: {"utility": "pacific gas and electric company"}."""
    out: dict[str, str] = {}
    names = list(dict.fromkeys(filter(None, map(_as_named, _NAME.finditer(question)))))
    for name in names[:_MOST_NAMES]:
        words = name.split()
        spelled = r"\s+".join(map(re.escape, words))
        defined = re.compile(spelled + _SHORT)
        # "Utility Pacific Gas and Electric Company": a glossary's line
        listed = re.compile(
            rf"(?m)^[ \t]*([A-Z][\w&.-]*(?:[ \t]+[A-Z][\w&.-]*)?)[ \t]+{spelled}[ \t]*$"
        )
        for page in queries.pages_mentioning(session, document, words, ranked=True):
            found = defined.search(page.text)
            if found is None and _GLOSSARY.search(page.text):
                found = listed.search(page.text)
            if found is not None:
                short = phrase_words(found[1]).strip()
                if short and short != phrase_words(name).strip():
                    out[short] = phrase_words(name).strip()
                break
    return out


def name_defined_as(session: Session, document: DocumentInfo, short: str) -> str:
    """The name the document defines by a short name ("Utility": "Pacific Gas & Electric
    Company", from "Pacific Gas & Electric Company (the “Utility”)"); "" where none."""
    quoted = [f"“{short}”", f'"{short}"']  # the pages that define it
    defining = re.compile(rf"({JOINED_NAME.pattern}){_SHORT}")
    for page in queries.pages_mentioning(session, document, quoted, limit=_DEFINING_PAGES):
        found = next((m for m in defining.finditer(page.text) if m[2] == short), None)
        if found is not None:
            return " ".join(found[1].split())
    return ""


def named_in_full(question: str, defined: dict[str, str]) -> str:
    """`question` with the short names of the names it writes in full said after it ("...
    (utility)"): a sentence's figure of "the Utility" is then of a part the question names."""
    return question + "".join(f" ({short})" for short in defined)


# capitalised words that open a question, not a name ("Under Acme Holdings' ...")
_OPENING = frozenset(
    "Under According Based As At By Did Does During For From How In Of On Per The To Using "
    "What When Which Who Why With Within".split()
)


def _as_named(found: re.Match[str]) -> str:
    """A name as written, less a question's opening word, its possessive and a full stop
    ("Under Acme Holdings'": "Acme Holdings"); "" where one word or none is left."""
    words = found[0].split()
    while words and words[0] in _OPENING:
        words = words[1:]
    name = re.sub(r"(?:['’]s?|\.)$", "", " ".join(words))
    return name if len(name.split()) >= 2 else ""
