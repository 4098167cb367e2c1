"""A filing's company from its first pages: the registrant named above "(Exact name of
registrant as specified in its charter)", an older cover's name in capitals, or the company
that "today announced" its results; the other names it goes by (its short name, the name it
is called by, its trading symbols from the cover page)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..names import SYMBOL, display_name, first_word, letters, short_company
from ..records import PageText
from .signals import Signal, Source, plausible_company

_REGISTRANT = re.compile(r"^\(?\s*exact name of (?:the )?registrant", re.IGNORECASE)
_TICKER = re.compile(r"\((?:NYSE|NASDAQ|Nasdaq|NYSE American|ASX)\s*:\s*([A-Z.]{1,6})\)")
# The cover page's "Securities registered pursuant to Section 12(b)" table: a trading symbol
# is a row (or a cell) of capitals next to the name of its exchange.
_SYMBOL_HEADER = re.compile(r"trading\s+symbol", re.IGNORECASE)
_EXCHANGE = re.compile(r"exchange|nasdaq|nyse|market", re.IGNORECASE)
# (not the series letters of a preferred stock's symbol: "PA" of "PCG-PA")
_SYMBOL_INLINE = re.compile(
    rf"(?<![\w$.,/-])({SYMBOL.pattern})\s+(?:The\s+)?(?:New York Stock Exchange|NYSE|Nasdaq|"
    r"NASDAQ)"
)
_NOT_SYMBOLS = {"NYSE", "NASDAQ", "LLC", "INC", "THE", "NONE", "N", "A", "I", "II"}
# Rows of a cover page that are never the registrant's name.
_NOT_A_NAME = re.compile(
    r"transition period|pursuant|commission|file number|securities|exchange act|washington|"
    r"fiscal year|quarterly period|^\W*(?:or|form\b.*)\W*$|^[\W\d_]*$",
    re.IGNORECASE,
)
_LEGAL_SUFFIX = re.compile(
    r"(?:\b(?:inc|incorporated|corp|corporation|company|co|plc|ltd|limited|llc|n\.?v|s\.?a|ag)"
    r"\.?|\bholdings)$",
    re.IGNORECASE,
)
_CHECK_MARK = re.compile(r"indicate by check mark", re.IGNORECASE)
_NAME_WORD = r"(?:[A-Z0-9][\w'’.&-]*|&|and|of|the)"
# "McDonald's Corporation today announced", "Ulta Beauty, Inc. (NASDAQ: ULTA) today reported"
_ANNOUNCER = re.compile(
    rf"([A-Z][\w'’.&-]*(?:,?[ \t]+{_NAME_WORD}){{0,5}}?,?[ \t]+"
    r"(?:Inc|Corporation|Company|Corp|Co|plc|Ltd|Limited|Incorporated)\.?)\s*(?:\([^)]{0,40}\)\s*)?,?\s*(?:today\s+)?"
    r"(?:announced|reported|reports|announces)\b"
)
_HEADLINE = re.compile(r"^\s*(.{2,60}?)\s+(?:reports|announces|reported|announced)\b", re.I | re.M)


def trading_symbols(rows: Sequence[str]) -> list[str]:
    """The trading symbols a cover page lists for the registrant's securities (common stock
    first; notes, whose symbols carry digits, are left out)."""
    header = next((i for i, r in enumerate(rows) if _SYMBOL_HEADER.search(r)), None)
    if header is None:
        return []
    window = [r.strip() for r in rows[max(0, header - 8) : header + 25]]
    found: list[str] = []
    for i, row in enumerate(window):
        following = next((r for r in window[i + 1 : i + 4] if r), "")
        if SYMBOL.fullmatch(row) and _EXCHANGE.search(following):
            found.append(row)
        found.extend(m.group(1) for m in _SYMBOL_INLINE.finditer(row))
    return [s for s in dict.fromkeys(found) if s not in _NOT_SYMBOLS]


def _registrant(rows: Sequence[str]) -> str | None:
    """The row above "(Exact name of registrant as specified in its charter)"."""
    for i, row in enumerate(rows):
        if _REGISTRANT.match(row.strip()):
            for prev in reversed(rows[max(0, i - 3) : i]):
                if sum(c.isalpha() for c in prev) >= 2 and not _NOT_A_NAME.search(prev.strip()):
                    return display_name(prev)
    return None


def _cover_name(rows: Sequence[str]) -> str | None:
    """Older covers print no "(Exact name of registrant ...)" line: the first row in capitals
    ending in a legal suffix ("3M COMPANY") before the check-mark questions."""
    for row in rows:
        row = row.strip()
        if _CHECK_MARK.search(row):
            break
        letters = [c for c in row if c.isalpha()]
        if (
            2 <= len(letters) <= 60
            and all(c.isupper() for c in letters)
            and _LEGAL_SUFFIX.search(row.rstrip(" ,."))
            and not _NOT_A_NAME.search(row)
        ):
            return display_name(row)
    return None


def _announcer(text: str) -> tuple[str | None, str | None]:
    """An earnings release's company: the legal name that "today announced" and the
    headline's name ("McDONALD'S REPORTS SECOND QUARTER 2023 RESULTS")."""
    legal = _ANNOUNCER.search(text[:4000])
    headline = _HEADLINE.search(text[:2000])
    return (
        display_name(legal.group(1)) if legal else None,
        display_name(headline.group(1)) if headline else None,
    )


# A legal entity's name as prose writes it: capitalized words and a legal suffix
# ("Pacific Gas and Electric Company", "FedEx Corporation", "eBay Inc.").
_LEGAL_NAME = re.compile(
    rf"(?<![\w&'’.-])((?:[A-Z0-9][\w'’.&-]*|[a-z][A-Z][\w'’.&-]*)(?:,?[ \t]+{_NAME_WORD}){{0,5}}?"
    r",?[ \t]+(?:Inc|Corporation|Company|Corp|plc|Ltd|Limited|Incorporated|N\.V|S\.A)\.?)"
    r"(?![\w])"
)
_MENTIONS_PAGES = 6  # the first pages where a filing names its company most often


def company_signals(
    pages: Sequence[PageText], rows: Sequence[str], first: str, doc_type: str
) -> list[Signal]:
    """Evidence of the filing's company, each a plausible name: the registrant above
    "(Exact name of registrant ...)", an older cover's name in capitals, the company that
    "today announced" its results, a release's headline, and the legal name the first pages
    write most often (a glossy annual report, a release whose first lines are bullets)."""
    found: list[Signal] = []

    def add(name: str | None, source: Source, weight: float, why: str) -> None:
        if name and plausible_company(name):
            found.append(Signal("company", name, source, weight, why))

    add(_registrant(rows[:200]), Source.COVER, 0.9, "the registrant's row on the cover")
    add(_cover_name(rows[:120]), Source.COVER, 0.7, "the cover's name in capitals")
    legal, headline = _announcer(first)
    add(legal, Source.TEXT, 0.75, "the company that announced the results")
    if headline and not (legal and letters(legal).startswith(letters(headline))):
        add(headline, Source.TEXT, 0.35, "the headline's name")
    elif headline:
        add(headline, Source.TEXT, 0.2, "the headline's name")
    name, weight, why = _most_written(pages)
    add(name, Source.TEXT, weight, why)
    return found


def _most_written(pages: Sequence[PageText]) -> tuple[str | None, float, str]:
    """The legal name the first pages write most often, weighted by how often (and how much
    more often than the next): a filing names its own company far more than any other."""
    text = "\n".join(p.text for p in pages[:_MENTIONS_PAGES])
    counts: dict[str, list[str]] = {}
    for m in _LEGAL_NAME.finditer(text):
        name = display_name(m.group(1))
        counts.setdefault(letters(short_company(name)), []).append(name)
    ranked = sorted(counts.values(), key=len, reverse=True)
    if not ranked or len(ranked[0]) < 2:
        return None, 0.0, ""
    top, second = len(ranked[0]), len(ranked[1]) if len(ranked) > 1 else 0
    weight = min(0.6, 0.1 * top) * (1.0 - second / (2 * top))
    name = max(set(ranked[0]), key=ranked[0].count)
    return name, weight, f"the legal name written most often ({top} times)"


def aliases_of(
    company: str, pages: Sequence[PageText], rows: Sequence[str], first: str
) -> set[str]:
    """The other names a filing's company goes by on its pages: its short name, its
    release headline's name, the trading symbols of its cover page and its name's first
    word where the filing calls it so."""
    aliases = {short_company(company)}
    _, headline = _announcer(first)
    if headline and letters(company).startswith(letters(headline)):
        aliases.add(headline)
    ticker = _TICKER.search(first)
    if ticker:
        aliases.add(ticker.group(1))
    aliases.update(trading_symbols(rows[:400]))
    called = _called_by_first_word(company, pages)
    if called:
        aliases.add(called)
    aliases.discard(company)
    return aliases


def _unspaced(name: str, text: str) -> str:
    """Words a PDF split after their first letter ("MGM R Esorts I Nternational") joined
    again when the joined word is written in the filing ("Resorts", "International")."""

    def join(m: re.Match[str]) -> str:
        word = m.group(1) + m.group(2).lower()
        return word if re.search(rf"\b{word}\b", text) else m.group(0)

    return re.sub(r"\b([A-Z]) ([A-Z][a-z]+)\b", join, name)


def _called_by_first_word(company: str, pages: Sequence[PageText]) -> str | None:
    """A company of several words is called by its first alone ("Verizon", "Activision")
    when the filing writes that word capitalized nearly always: "General" (general and
    administrative) and "Best" (best efforts) are ordinary words, "Verizon" is not."""
    word = first_word(company)
    if word is None or len(word) < 4:
        return None
    text = "\n".join(p.text for p in pages[:60])
    # words, not web or e-mail addresses ("www.verizon.com")
    found = re.findall(rf"(?<![\w./@]){re.escape(word)}\b(?!\.(?:com|net|org)\b)", text, re.I)
    return word.capitalize() if len(found) >= 5 and not any(w.islower() for w in found) else None


def joined_again(company: str, pages: Sequence[PageText]) -> str:
    """The company's name with the letter-spaced words of some PDFs joined again ("MGM R
    Esorts I Nternational" → "MGM Resorts International")."""
    if re.search(r"\b[A-Z] [A-Z][a-z]", company):
        return _unspaced(company, "\n".join(p.text for p in pages[:60]))
    return company
