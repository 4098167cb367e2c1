"""Stored company names grouped by the company they name: spellings of one name
(`same_entity`), and a company's former and new names (`renamed`: one trading symbol, the
filings under one name all before the other's)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..db.queries import CompanyNames
from ..names import SYMBOL
from .name_match import same_entity


def renamed(a: CompanyNames, b: CompanyNames) -> bool:
    """Whether two stored names are one company under its former and its new name: they
    share a trading symbol, and the filings under one name all end before the other's begin
    (Square, Inc. 2015-2020, then Block, Inc., both "SQ"). Two names using one symbol at the
    same time are two companies (or a mistake), never merged."""
    if not (a.first and a.last and b.first and b.last):
        return False
    shared = {x for x in a.aliases if SYMBOL.fullmatch(x)} & set(b.aliases)
    return bool(shared) and (a.last < b.first or b.last < a.first)


def _one_company(stored: Sequence[CompanyNames]) -> Callable[[str, str], bool]:
    known = {c.company: c for c in stored}

    def one(a: str, b: str) -> bool:
        return same_entity(a, b) or (a in known and b in known and renamed(known[a], known[b]))

    return one


def entity_groups(companies: Sequence[str], stored: Sequence[CompanyNames] = ()) -> list[list[str]]:
    """Stored company names grouped by the company they name: `same_entity` spellings, and
    with `stored` (their aliases and filing spans), a company's former names (`renamed`)."""
    one = _one_company(stored)
    groups: list[list[str]] = []
    for company in companies:
        joined = [g for g in groups if any(one(company, c) for c in g)]
        merged = [c for g in joined for c in g] + [company]
        groups = [g for g in groups if g not in joined] + [merged]
    return sorted(groups, key=lambda g: companies.index(g[0]))


def with_other_names(found: set[str], stored: Sequence[CompanyNames]) -> set[str]:
    """`found` and every stored name of the same companies (former names included)."""
    one = _one_company(stored)
    names = set(found)
    while True:
        more = {
            c.company
            for c in stored
            if c.company not in names and any(one(c.company, n) for n in names)
        }
        if not more:
            return names
        names |= more
