"""Constraints a question puts on the documents: companies, fiscal years, quarters, filing types.

Companies are linked against the stored metadata — registrant names, the names a filing
goes by, trading symbols from the cover page — and the user's alias file
(aliases.txt, see vocabulary.py: one company per line, its names separated by commas, e.g.
"Block, Square, SQ"). A name matches as written, as an initialism or nickname made of the
beginnings of its words ("IBM", "AMEX", "JnJ"), and, when nothing matches exactly, misspelt
("Verizn"). Document file names are never consulted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date

from sqlalchemy.orm import Session

from ..db import queries
from ..db.queries import CompanyNames
from ..index.text import normalize
from ..names import SYMBOL, first_word, letters, short_company

_FY = re.compile(r"\bFY\s?'?(\d{4}|\d{2})\b", re.IGNORECASE)
_FISCAL = re.compile(r"\bfiscal(?:\s+year)?\s+(\d{4})\b", re.IGNORECASE)
_YEAR = re.compile(r"(?<![\d$.,])(19[89]\d|20[0-4]\d)(?![\d%])")
# A quarter as analysts write it, with the year when it is written onto the quarter:
# Q2, Q22023, Q2'23, 2Q23, 2Q 2023, 3QFY23, 2021Q1, 2023-Q2, second (fiscal) quarter.
_APOSTROPHE = "['\u2019]"
_QUARTER = re.compile(
    rf"\bQ(?P<q1>[1-4])(?:(?P<y1>\d{{4}})|\s*{_APOSTROPHE}\s*(?P<y2>\d{{4}}|\d{{2}}))?\b"
    rf"|\b(?P<q2>[1-4])Q(?:\s*(?:FY\s?)?{_APOSTROPHE}?(?P<y3>\d{{4}}|\d{{2}})|\s+(?P<y4>\d{{4}}))?\b"
    r"|\b(?P<y5>(?:19|20)\d{2})\s*-?\s*Q(?P<q3>[1-4])\b"
    r"|\b(?P<word>first|second|third|fourth)[\s-]+(?:fiscal[\s-]+)?quarter\b",
    re.IGNORECASE,
)
_QUARTERS = {"first": "Q1", "second": "Q2", "third": "Q3", "fourth": "Q4"}
# The first half of a fiscal year is reported with the second quarter (six months ended), the
# first nine months with the third.
_FIRST_HALF = re.compile(r"\bH1\b|\bfirst[\s-]half\b|\bsix months\b", re.IGNORECASE)
_NINE_MONTHS = re.compile(r"\bnine months\b|\b9M\b", re.IGNORECASE)
_DOC_TYPES = (
    (re.compile(r"\b10-?K\b|\bannual report\b", re.I), "10-K"),
    (re.compile(r"\b10-?Q\b|\bquarterly report\b", re.I), "10-Q"),
    (re.compile(r"\b8-?K\b|\bcurrent report\b", re.I), "8-K"),
    (
        re.compile(r"\bearnings (?:release|report|call)\b|\bpress release\b", re.I),
        "earnings release",
    ),
)
_MONTHS = {
    m[:3]: i
    for i, m in enumerate(
        (
            "january february march april may june july august september october november december"
        ).split(),
        1,
    )
}
_MONTH = r"(?P<{}>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DAY = r"(?P<{}>[0-3]?\d)(?:st|nd|rd|th)?"
# A calendar date as written in questions: "July 1, 2022", "1st July 2022", "1 Jul. 2022",
# "2022-07-01", "7/1/2022" (month first, as in SEC filings).
_DATE = re.compile(
    rf"\b{_MONTH.format('m1')}\s+{_DAY.format('d1')},?\s+(?P<y1>(?:19|20)\d\d)\b"
    rf"|\b{_DAY.format('d2')}\s+(?:of\s+)?{_MONTH.format('m2')},?\s+(?P<y2>(?:19|20)\d\d)\b"
    r"|\b(?P<y3>(?:19|20)\d\d)-(?P<m3>[01]?\d)-(?P<d3>[0-3]?\d)\b"
    r"|\b(?P<m4>[01]?\d)/(?P<d4>[0-3]?\d)/(?P<y4>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
FUZZY_SIMILARITY = 0.75
# symbols as written: a whole token ("PG&E" does not write P&G's "PG")
_CAPITALS = re.compile(rf"(?<![\w.&'’]){SYMBOL.pattern}(?![\w&]|['’](?!s\b))")


@dataclass
class Constraints:
    companies: list[str] = field(default_factory=list)  # stored company names
    years: list[int] = field(default_factory=list)
    periods: list[str] = field(default_factory=list)
    doc_types: list[str] = field(default_factory=list)
    dates: list[str] = field(default_factory=list)  # ISO calendar dates: "2022-07-01"
    fiscal_year_mentioned: bool = False  # "FY2022", "fiscal 2022", "fiscal year", "annual"
    # the question asks about the company as it is now ("latest", "last quarter", "current",
    # the status of a case): with no period named, the newest period stored answers
    newest: bool = False
    quarterly: bool = False  # ... and it asks for a quarter's figures ("last quarter")
    # names the question compares that no stored company goes by ("Compare Apple and
    # Microsoft" with no Microsoft filing stored)
    unknown: list[str] = field(default_factory=list)
    across_companies: bool = False  # "which company had the highest revenue"
    notes: list[str] = field(default_factory=list)  # how a symbol alone was read
    # `companies` grouped by the company they name (a renamed company's names together);
    # empty: grouped by their spelling alone (`entity_groups`)
    entities: list[list[str]] = field(default_factory=list)

    def groups(self) -> list[list[str]]:
        """The companies named, one list of stored names per company."""
        return self.entities or entity_groups(self.companies)

    def __bool__(self) -> bool:
        return bool(self.companies or self.years or self.periods or self.doc_types or self.dates)

    def describe(self) -> str:
        parts = []
        for label, values in (
            ("company", self.companies),
            ("year", self.years),
            ("period", self.periods),
            ("type", self.doc_types),
            ("date", self.dates),
        ):
            if values:
                parts.append(f"{label}={'|'.join(map(str, values))}")
        return ", ".join(parts) or "none"


def parse_years(question: str) -> list[int]:
    years: set[int] = set()
    for m in _FY.finditer(question):
        y = int(m.group(1))
        years.add(y + 2000 if y < 100 else y)
    years.update(int(y) for y in _FISCAL.findall(question))
    years.update(int(y) for y in _YEAR.findall(question))
    years.update(y for _, y in _quarters(question) if y is not None)
    return sorted(years)


def _quarters(question: str) -> list[tuple[str, int | None]]:
    """(quarter, the year written onto it or None) for each quarter the question names."""
    out: list[tuple[str, int | None]] = []
    for m in _QUARTER.finditer(question):
        if m.group("word"):
            out.append((_QUARTERS[m.group("word").lower()], None))
            continue
        number = m.group("q1") or m.group("q2") or m.group("q3")
        year = next((y for y in m.group("y1", "y2", "y3", "y4", "y5") if y), None)
        out.append(
            (
                f"Q{number}",
                None if year is None else int(year) + 2000 if len(year) == 2 else int(year),
            )
        )
    return out


def parse_periods(question: str) -> list[str]:
    out = {quarter for quarter, _ in _quarters(question)}
    if _FIRST_HALF.search(question):
        out.add("Q2")
    if _NINE_MONTHS.search(question):
        out.add("Q3")
    return sorted(out)


def parse_dates(question: str) -> list[str]:
    """The calendar dates a question names, as ISO strings ("the 8-K dated 1st July 2022",
    "the quarter ended December 31, 2022"); impossible dates are not dates."""
    found: set[str] = set()
    for m in _DATE.finditer(question):
        n = next(i for i in "1234" if m.group(f"y{i}"))
        month = m.group(f"m{n}")
        number = int(month) if month.isdigit() else _MONTHS[month[:3].lower()]
        try:
            found.add(date(int(m.group(f"y{n}")), number, int(m.group(f"d{n}"))).isoformat())
        except ValueError:
            continue
    return sorted(found)


def parse_doc_types(question: str) -> list[str]:
    return [kind for pattern, kind in _DOC_TYPES if pattern.search(question)]


def _forms(company: str, aliases: list[str], groups: Sequence[frozenset[str]]) -> set[str]:
    forms = {company, short_company(company), *aliases}
    for group in groups:
        if any(same_entity(f, g) or normalize(f) == normalize(g) for f in forms for g in group):
            forms |= group
    return {f for f in forms if f}


def _word_ends(name: str) -> tuple[str, set[int]]:
    """The name's letters and digits, and the offsets where its words end."""
    letters, ends = "", set()
    for word in normalize(name).split():
        letters += word
        ends.add(len(letters))
    return letters, ends


def same_entity(a: str, b: str) -> bool:
    """Whether two stored company names name one company: one is the other plus trailing
    words ("MGM Resorts" / "MGM Resorts International"), spacing aside ("MGM R Esorts I
    Nternational" from a letter-spaced PDF). "Block" and "Blockbuster" are not."""
    (short, _), (long, long_ends) = sorted((_word_ends(a), _word_ends(b)), key=lambda x: len(x[0]))
    if len(short) < 4 or not long.startswith(short):
        return False
    return len(short) == len(long) or len(short) in long_ends


def renamed(a: CompanyNames, b: CompanyNames) -> bool:
    """Whether two stored names are one company under its former and its new name: they
    share a trading symbol, and the filings under one name all end before the other's begin
    (Square, Inc. 2015-2020, then Block, Inc., both "SQ"). Two names using one symbol at the
    same time are two companies (or a mistake), never merged."""
    if not (a.first and a.last and b.first and b.last):
        return False
    shared = {x for x in a.aliases if SYMBOL.fullmatch(x)} & set(b.aliases)
    return bool(shared) and (a.last < b.first or b.last < a.first)


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


def _one_company(stored: Sequence[CompanyNames]) -> Callable[[str, str], bool]:
    known = {c.company: c for c in stored}

    def one(a: str, b: str) -> bool:
        return same_entity(a, b) or (a in known and b in known and renamed(known[a], known[b]))

    return one


def _with_other_names(found: set[str], stored: Sequence[CompanyNames]) -> set[str]:
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


# A token written with two or more capitals: a symbol, an initialism or a nickname
# ("JPM", "IBM", "AMEX", "JnJ", "P&G").
_NICKNAME = re.compile(r"(?<![\w&])[A-Za-z&]*[A-Z][A-Za-z&]*[A-Z][A-Za-z&]*(?![\w&])")


def _spelled_by_beginnings(token: str, words: list[str]) -> bool:
    """Whether `token` is the beginnings of all `words` in order, each at least one letter
    ("amex" ← american express, "ibm" ← international business machines, "jnj" ← johnson
    & johnson, with "&" read as "n")."""
    if not words:
        return not token
    word, rest = words[0], words[1:]
    if word == "&":
        return any(
            token.startswith(x) and _spelled_by_beginnings(token[len(x) :], rest)
            for x in ("&", "n", "")
        ) or _spelled_by_beginnings(token, rest)
    return any(
        token.startswith(word[:n]) and _spelled_by_beginnings(token[n:], rest)
        for n in range(min(len(word), len(token)), 0, -1)
    )


def _initialism_of(token: str, name: str) -> bool:
    words = [w for w in re.findall(r"[a-z0-9]+|&", short_company(name).lower())]
    return len(words) >= 2 and _spelled_by_beginnings(token.lower(), words)


def _edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance with transpositions, stopping early past `limit`."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, previous2[j - 2] + 1)
            current.append(cost)
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


def _misspelt(word: str, form: str) -> bool:
    """'verizn' for 'verizon': one edit in a word of 5-7 letters, two from 8."""
    if len(word) < 5 or abs(len(word) - len(form)) > 2 or word[0] != form[0]:
        return False
    if any(word == form + end or form == word + end for end in ("s", "es", "ed", "ing")):
        return False  # "targets" is not a misspelt Target
    limit = 1 if len(form) < 8 else 2
    return 0 < _edit_distance(word, form, limit) <= limit


@dataclass(frozen=True)
class _Named:
    found: set[str]  # the stored companies named as written
    forms_of: dict[str, set[str]]  # every other company's forms (for the misspelling check)
    notes: list[str]  # symbols read with no other evidence, said


def _named(
    question: str,
    stored: Sequence[CompanyNames],
    groups: Sequence[frozenset[str]],
    common: Callable[[str], bool] = lambda word: False,
) -> _Named:
    """The stored companies the question names as written (a symbol, a name, an initialism
    or nickname). A symbol is no evidence alone where two stored companies use it at once (a
    mistake of one's cover page, a symbol reused) or where it is a `common` word ("IT",
    "ALL"): the company the question also names otherwise is kept; else the symbol's
    companies are, and a note says how the symbol was read."""
    q_norm = f" {normalize(question)} "
    q_letters = letters(question)
    q_symbols = set(_CAPITALS.findall(question))
    nicknames = {t for t in _NICKNAME.findall(question) if len(t.replace("&", "")) >= 2}
    written = q_symbols | {t.upper() for t in nicknames if "&" not in t}
    found: set[str] = set()
    by_symbol: dict[str, set[str]] = {}
    forms_of: dict[str, set[str]] = {}
    for company, aliases in ((c.company, c.aliases) for c in stored):
        # A trading symbol is matched only as written, in capitals ("MMM", "GIS"), never as a
        # word ("gis", "ba", "all"); "JnJ" is read as JNJ.
        symbols = {a for a in aliases if SYMBOL.fullmatch(a)}
        for symbol in symbols & written:
            by_symbol.setdefault(symbol, set()).add(company)
        forms = _forms(company, [a for a in aliases if a not in symbols], groups)
        forms_of[company] = forms - {first_word(company)}  # capitalized only: not misspelt
        if _names_form(question, q_norm, q_letters, nicknames, company, forms):
            found.add(company)
    notes: list[str] = []
    for symbol, companies in sorted(by_symbol.items()):
        if companies & found:
            continue  # named otherwise too
        found |= companies
        names = " and ".join(sorted(companies))
        if len(entity_groups(sorted(companies), stored)) > 1:
            notes.append(f'"{symbol}" is the trading symbol of {names}: each is searched.')
        elif common(symbol):
            notes.append(f'"{symbol}" was read as the trading symbol of {names.removesuffix(".")}.')
    return _Named(found, {c: f for c, f in forms_of.items() if c not in found}, notes)


def _names_form(
    question: str,
    q_norm: str,
    q_letters: str,
    nicknames: set[str],
    company: str,
    forms: set[str],
) -> bool:
    """Whether the question names the company by one of its forms (not its symbols)."""
    # "Verizon" for Verizon Communications: a first word alone counts capitalized only
    called = first_word(company)
    if called in forms:
        forms = forms - {called}
        if re.search(rf"\b(?:{re.escape(called)}|{re.escape(called.upper())})\b", question):
            return True
    for form in forms:
        norm = normalize(form)
        joined = norm.replace(" ", "")
        if (
            (norm and f" {norm} " in q_norm)
            or (len(joined) >= 6 and joined in q_letters)
            or any(_initialism_of(t, form) for t in nicknames)
        ):
            return True
    return False


def link_companies(
    question: str, *, session: Session, aliases: Sequence[frozenset[str]] = ()
) -> list[str]:
    """Stored company names the question mentions: as written (with every stored name of
    the same company, its former names included), else misspelt, else like a run of its
    words (trigram similarity). `aliases`: the user's groups of names for one company
    (aliases.txt)."""
    return _link(question, session, queries.company_names(session), aliases)[0]


def _link(
    question: str,
    session: Session,
    stored: Sequence[CompanyNames],
    aliases: Sequence[frozenset[str]],
) -> tuple[list[str], list[str]]:
    """The stored companies named, and the notes on symbols read alone (`_named`)."""
    named = _named(question, stored, aliases, lambda w: queries.common_words(session, w))
    found = named.found
    if found:
        return sorted(_with_other_names(found, stored)), named.notes
    words = set(normalize(question).split())
    for company, forms in named.forms_of.items():
        names = {w for f in forms for w in normalize(short_company(f)).split()[:1]}
        if any(_misspelt(w, n) for w in words for n in names if len(n) >= 5):
            found.add(company)
    if found:
        return sorted(found), []
    return sorted(queries.companies_resembling(session, question, FUZZY_SIMILARITY)), []


# What asks for the newest period stored: the company as it is now, or where a matter stands.
_NEWEST = re.compile(
    r"\b(?:latest|most\s+recent(?:ly)?|last|currently|now|today|to\s+date|as\s+of|still|"
    r"current(?!\s+(?:assets?|liabilit|portion|ratio|maturit|income\s+tax))|"
    r"status|pending|ongoing|outstanding\s+(?:case|lawsuit|litigation)s?)\b",
    re.IGNORECASE,
)
# Names a question compares: "Compare Apple and Microsoft", "between AAPL and MSFT",
# "Apple vs. Microsoft" (a name: up to four capitalized words).
_NAME = r"[A-Z][\w&.'’-]*(?:\s+[A-Z][\w&.'’-]*){0,3}"
_COMPARED = re.compile(
    rf"\b(?:[Cc]ompar(?:e|ing)|[Bb]etween)\s+(?P<a>{_NAME})\s+(?:and|with|to|vs\.?|versus)\s+"
    rf"(?P<b>{_NAME})|(?P<c>{_NAME})\s+(?:vs\.?|versus)\s+(?P<d>{_NAME})"
)
_ACROSS = re.compile(
    r"\bwhich\s+(?:company|companies|firm|issuer)\b|\b(?:among|across|of)\s+(?:all\s+)?"
    r"(?:the\s+)?(?:stored\s+)?companies\b",
    re.IGNORECASE,
)


def _compared_names(question: str) -> list[str]:
    """The names on either side of a comparison, possessives dropped."""
    names = []
    for m in _COMPARED.finditer(question):
        names += [re.sub(r"['’]s$", "", n) for n in m.group("a", "b", "c", "d") if n]
    return names


def _unknown(
    question: str,
    session: Session,
    stored: Sequence[CompanyNames],
    aliases: Sequence[frozenset[str]],
) -> list[str]:
    """Names the question compares that link to no stored company and are not words most
    filings use ("GAAP", "Q2", "FY2023")."""
    return [
        n
        for n in _compared_names(question)
        if not _link(n, session, stored, aliases)[0] and not queries.common_words(session, n)
    ]


_QUARTERLY = re.compile(r"\bquarter(?:ly)?\b", re.IGNORECASE)
_ANNUAL = re.compile(r"\bFY\s?'?\d{2,4}\b|\bfiscal\b|\bannual\b|\bfull[\s-]year\b", re.I)


def parse_constraints(
    question: str, *, session: Session, aliases: Sequence[frozenset[str]] = ()
) -> Constraints:
    """What the question restricts: companies linked against the stored metadata (and the
    user's `aliases`), grouped by the company they name, years, quarters, filing types,
    dates, and whether it names a fiscal year."""
    stored = queries.company_names(session)
    companies, notes = _link(question, session, stored, aliases)
    entities = entity_groups(companies, stored)
    return Constraints(
        companies=companies,
        years=parse_years(question),
        periods=parse_periods(question),
        doc_types=parse_doc_types(question),
        dates=parse_dates(question),
        fiscal_year_mentioned=bool(_ANNUAL.search(question)),
        newest=bool(_NEWEST.search(question)),
        quarterly=bool(_QUARTERLY.search(question)),
        entities=entities,
        unknown=_unknown(question, session, stored, aliases),
        notes=notes,
        across_companies=bool(_ACROSS.search(question)) and len(entities) < 2,
    )
