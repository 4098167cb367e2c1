"""What a question writes as a company's name when no stored company is named: a capitalized
run of words (or a symbol in capitals) written as a name — possessive ("Tesla's", "MSFT's"),
before a period ("Tesla FY2023 revenue"), after "for", "of", "at", "by" or a verb asking
about it ("for Tesla", "did Tesla"), a proper name inside a sentence ("What was Neflix
revenue") — that is not a word most filings use ("Company",
"Revenue", "December", "GAAP") nor a period ("FY2023", "Q2"). Such a name is said not to be
stored; nothing else is read as one."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..names import short_company
from ..patterns import deferred

_WORD = r"(?:[A-Z][\w&.'’-]*[\w&]|[A-Z]|\d+[A-Z][\w&-]*)"
_ASKED = r"(?:for|of|at|by|from|about|did|does|do|is|was|were|has|had|have)"
_PROPER = r"[A-Z][a-z][\w&.'’-]*[a-z]"
_RUN = rf"{_WORD}(?:[ \t]+(?:&[ \t]+)?{_WORD}){{0,4}}"
_PERIOD = r"(?:FY[ \t]?['’]?\d|Q[1-4]\b|[1-4]Q\d|(?:19|20)\d\d\b|fiscal\b)"
_NAMES = (
    re.compile(rf"(?P<name>{_RUN})['’]s?(?![\w])"),
    re.compile(rf"(?P<name>{_RUN})[ \t]+(?={_PERIOD})"),
    re.compile(rf"\b{_ASKED}[ \t]+(?P<name>{_RUN})(?=[ \t]*(?:[?.,;:)]|$))"),
    # a proper name (capitals and lower-case letters) asked about, before a word in lower
    # case: "What was Neflix revenue", "for Neflix net income"
    re.compile(rf"\b{_ASKED}[ \t]+(?P<name>{_PROPER}(?:[ \t]+{_PROPER}){{0,3}})(?=[ \t]+[a-z])"),
)
_SYMBOL_POSSESSIVE = deferred(r"(?<![\w&.])(?P<name>[A-Z]{2,5})['’]s?(?![\w])")
_PERIOD_WORD = deferred(rf"^{_PERIOD}|^[QH][1-4]$|^\d", re.IGNORECASE)


def unknown_names(
    question: str, common: Callable[[str], bool], stop: Callable[[str], bool]
) -> list[str]:
    """The names `question` writes as a company's (see the module), each once, in order;
    `common`: whether a word or phrase is one most stored filings use; `stop`: whether a
    word is an English stop word. A symbol written possessive in capitals ("COST's") is a
    name though the word is common, unless the question is written in capitals or it is a
    stop word ("IT's")."""
    found: list[str] = []
    if not question.isupper():
        for m in _SYMBOL_POSSESSIVE.finditer(question):
            if not stop(m.group("name")) and m.group("name") not in found:
                found.append(m.group("name"))
    for pattern in _NAMES:
        for m in pattern.finditer(question):
            words = re.sub(r"['’]s?$", "", m.group("name")).split()
            name = _trimmed(words, common)
            if name and name not in found:
                found.append(name)
    return found


def _trimmed(words: list[str], common: Callable[[str], bool]) -> str:
    """The run without the common words or periods around it ("What Tesla" → "Tesla");
    "" when nothing uncommon is left."""
    while words and (_PERIOD_WORD.match(words[0]) or common(words[0])):
        words = words[1:]
    while words and (_PERIOD_WORD.match(words[-1]) or common(words[-1])):
        words = words[:-1]
    if not words or all(_PERIOD_WORD.match(w) for w in words):
        return ""
    return short_company(" ".join(words).rstrip(".,"))
