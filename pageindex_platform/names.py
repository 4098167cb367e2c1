"""How companies are named: one company's names compared whatever their case and punctuation
(`letters`), its short name, its first word, a trading symbol's shape, a registrant name in
capitals as a reader writes it. Ingest stores names with these; search links a question's
names with them."""

from __future__ import annotations

import re

SYMBOL = re.compile(r"[A-Z]{1,5}(?:\.[A-Z])?")  # a trading symbol: MMM, GIS, BRK.B
_SUFFIXES = {
    "inc",
    "incorporated",
    "corp",
    "corporation",
    "co",
    "company",
    "plc",
    "ltd",
    "limited",
    "llc",
    "lp",
    "sa",
    "nv",
    "ag",
    "the",
    "com",
    "holdings",
    "group",
    "international",
}


def short_company(company: str) -> str:
    """'MGM Resorts International' -> 'MGM Resorts'; 'Amazon.com, Inc.' -> 'Amazon'."""
    company = re.sub(r"\s+\.", ".", company)  # "NIKE, Inc ."
    words = re.split(r"[\s,]+", company.replace(".com", " com"))
    while words and words[-1].lower().strip(".") in _SUFFIXES:
        words.pop()
    while words and words[0].lower() == "the":
        words.pop(0)
    return " ".join(words).strip(" ,.") or company


def display_name(name: str) -> str:
    """'MGM RESORTS INTERNATIONAL' -> 'MGM Resorts International': a short first word is
    taken for an acronym (MGM, CVS, 3M) and keeps its capitals."""
    name = re.sub(r"\s+([.,])", r"\1", " ".join(name.split())).strip(" ,")  # "Inc ." -> "Inc."
    if name.isupper() and len(name) > 4:
        words = name.split()
        bare = words[0].strip(".,")
        acronym = len(bare) <= 3 and bare.lower() not in _SUFFIXES
        first = words[0] if acronym else words[0].capitalize()
        return " ".join([first, *(w.capitalize() for w in words[1:])])
    return name


def letters(name: str) -> str:
    """A name's letters and digits, lower-case: one company whatever its case or punctuation."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def first_word(company: str) -> str | None:
    """The first word of a name of several words ("Verizon" of "Verizon Communications")."""
    words = short_company(company).split()
    return words[0].strip(",.") if len(words) > 1 and words[0].isalpha() else None
