"""The one resolver of the companies a question names, against the stored metadata —
registrant names, the names a filing goes by, trading symbols from the cover page — and the
user's alias file (aliases.txt, see vocabulary.py: one company per line, its names separated
by commas, e.g. "Block, Square, SQ").

A company is named by its legal or short name as written, a leading part of it written as a
name ("Exxon" for Exxon Mobil), its trading symbol in capitals, an initialism or nickname of
its words ("IBM", "JnJ", "P&G" — never "P&G" for PG&E), or, when nothing is written so, a
misspelling within an edit distance that grows with the name's length — never when another
stored name is as close. A common word alone ("Company", "Block", "Target") is a name only
where the question writes it as one (capitalized inside a sentence, or possessive). What the
question writes as a company's name that no stored company goes by is said
(`unknown_names`). Document file names are never consulted."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..db import queries
from ..db.queries import CompanyNames, DocumentInfo
from ..db.sql import Session
from ..index.text import normalize
from ..names import SYMBOL, letters, short_company
from ..patterns import deferred
from .defined_terms import JOINED_NAME
from .entities import entity_groups, with_other_names
from .name_match import NICKNAME, initialism_of, misspelt, same_entity
from .registrants import LEGAL_END, names_tried, registered_by
from .unknown_names import unknown_names

FUZZY_SIMILARITY = 0.75
# symbols as written: a whole token ("PG&E" does not write P&G's "PG")
_CAPITALS = deferred(rf"(?<![\w.&'’]){SYMBOL.pattern}(?![\w&]|['’](?!s\b))")
_SENTENCE_START = deferred(r"(?:^|[.?!:;]\s+|\n)\W*$")
_POSSESSIVE = deferred(r"^['’]s?\b")

Common = Callable[[str], bool]


@dataclass(frozen=True)
class Resolved:
    """The stored companies a question names (every stored name of each), grouped by
    company; notes on what was read with doubt, said first (a symbol alone, a name two
    companies share, a misspelling as close to two names); how names were read (a
    misspelling, a brand); and the names it writes that no stored company goes by."""

    companies: list[str] = field(default_factory=list)
    entities: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    readings: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)


def common_in(session: Session) -> Callable[[str], bool]:
    """Whether a phrase is words most filings use (`queries.common_words`), each phrase
    asked of the database once per session: resolving a question asks some several times."""
    known: dict[str, bool] = session.info.setdefault("common_words", {})

    def common(phrase: str) -> bool:
        if phrase not in known:
            known[phrase] = queries.common_words(session, phrase)
        return known[phrase]

    return common


def resolve_companies(
    question: str, *, session: Session, aliases: Sequence[frozenset[str]] = ()
) -> Resolved:
    """The companies `question` names (see the module); `aliases`: the user's groups of
    names for one company (aliases.txt)."""
    stored = queries.company_names(session)
    common = common_in(session)
    found, notes, readings = link(question, stored, aliases, common)
    if found:
        companies = sorted(with_other_names(found, stored))
        return Resolved(companies, entity_groups(companies, stored), notes, readings)
    if notes:  # a misspelling as close to two names: said, neither chosen
        return Resolved(notes=notes)
    unknown = unknown_names(question, common, lambda w: queries.stop_word(session, w))
    owners = {name: brand_owner(queries.mentions(session, name)) for name in unknown}
    # brands their owners' filings name as their own; a name written with a legal form
    # ("Starbucks Corporation") names a company, not a brand, however often a stored
    # filing names it (a customer's, a partner's)
    legal = _legal_named(question, unknown)
    if unknown and all(owners.values()) and not legal:
        found = {c for c in owners.values() if c}
        companies = sorted(with_other_names(found, stored))
        said = [f'read "{n}" as {c}, whose filings name it as their own' for n, c in owners.items()]
        return Resolved(companies, entity_groups(companies, stored), notes, said)
    registrant = _on_cover(session, question, unknown) if unknown else None
    if registrant is not None:  # a registrant of a combined filing ("... and Electric Company")
        name, company = registrant
        companies = sorted(with_other_names({company}, stored))
        said = [f'read "{name}" as {company}, whose filings name it on their cover page']
        return Resolved(companies, entity_groups(companies, stored), notes, said)
    if unknown:
        return Resolved(notes=notes, unknown=[n for n, c in owners.items() if legal or not c])
    similar = sorted(queries.companies_resembling(session, question, FUZZY_SIMILARITY))
    return Resolved(similar, entity_groups(similar, stored), notes, readings)


def _on_cover(session: Session, question: str, unknown: Sequence[str]) -> tuple[str, str] | None:
    """(the name as written, the company) where every name the question writes that no
    stored company goes by lies in one name of two words or more that one stored company's
    filings print on their cover page; None otherwise."""
    found: set[tuple[str, str]] = set()
    runs = [r[0] for r in JOINED_NAME.finditer(question) if any(n in r[0] for n in unknown)]
    if not runs or not all(any(n in r for r in runs) for n in unknown):
        return None
    for run in runs:
        tried = ((n, registered_by(session, n)) for n in names_tried(run))
        named = next(((n, c[0]) for n, c in tried if len(c) == 1), None)
        if named is None:
            return None
        found.add(named)
    return found.pop() if len(found) == 1 else None


def _legal_named(question: str, names: Sequence[str]) -> bool:
    """Whether the question writes one of `names` followed by a legal form ("Corporation",
    "Inc.", "Co.")."""
    return any(
        re.search(rf"\b{re.escape(n)}\W{{0,2}}\s*{LEGAL_END.pattern}(?!\w)", question, re.I)
        for n in names
    )


BRAND_SHARE = 0.8  # of the pages naming a brand, its owner's filings hold this share...
BRAND_PAGES = 0.1  # ...and name it on this share of their pages, in half its filings at least


def brand_owner(found: Sequence[queries.Mentions]) -> str | None:
    """The company whose filings name a phrase as their own: most of the corpus's pages
    naming it are its filings', which name it throughout (a brand, "Google" in Alphabet's
    10-K), not a customer or rival a filing names in passing."""
    if not found:
        return None
    top, pages = found[0], sum(m.pages for m in found)
    return (
        top.company
        if top.pages >= BRAND_SHARE * pages
        and top.pages >= 3
        and top.pages >= BRAND_PAGES * top.pages_of_naming
        and 2 * top.documents >= top.filings
        else None
    )


def link(
    question: str, stored: Sequence[CompanyNames], groups: Sequence[frozenset[str]], common: Common
) -> tuple[set[str], list[str], list[str]]:
    """The stored companies named as written, else by a leading part of a name, else
    misspelt: (names, notes, readings)."""
    found, notes = _as_written(question, stored, groups, common)
    (names, words), shared = _leading_parts(question, stored, groups, common, taken=found)
    chosen = found | names if found or names else words
    if chosen:
        notes += [
            f'"{part}" is a name of {" and ".join(sorted(cs))}: each is searched.'
            for part, cs in sorted(shared.items())
            if cs <= chosen
        ]
        return chosen, notes, []
    typos, said = _misspellings(question, stored, groups, common)
    return typos, notes + said[1], said[0]


def _forms(company: str, aliases: Sequence[str], groups: Sequence[frozenset[str]]) -> set[str]:
    """Every name a stored company goes by (its symbols aside), the user's too."""
    forms = {company, short_company(company), *aliases}
    for group in groups:
        if any(same_entity(f, g) or normalize(f) == normalize(g) for f in forms for g in group):
            forms |= group
    return {f for f in forms if f}


def _names_of(company: CompanyNames, groups: Sequence[frozenset[str]]) -> tuple[set[str], set[str]]:
    """(the company's symbols, its other names)."""
    symbols = {a for a in company.aliases if SYMBOL.fullmatch(a)}
    return symbols, _forms(
        company.company, [a for a in company.aliases if a not in symbols], groups
    )


def _as_written(
    question: str, stored: Sequence[CompanyNames], groups: Sequence[frozenset[str]], common: Common
) -> tuple[set[str], list[str]]:
    """The stored companies named by a whole name, a symbol in capitals, an initialism or
    nickname. A symbol is no evidence alone where two stored companies use it at once or
    where it is a `common` word ("IT", "ALL"): the company the question also names otherwise
    is kept; else the symbol's companies are, and a note says how it was read."""
    q_norm, q_letters = f" {normalize(question)} ", letters(question)
    nicknames = {t for t in NICKNAME.findall(question) if len(t.replace("&", "")) >= 2}
    written = set(_CAPITALS.findall(question)) | {t.upper() for t in nicknames if "&" not in t}
    found: set[str] = set()
    by_symbol: dict[str, set[str]] = {}
    for company in stored:
        symbols, forms = _names_of(company, groups)
        for symbol in symbols & written:
            by_symbol.setdefault(symbol, set()).add(company.company)
        for form in forms:
            norm = normalize(form)
            joined = norm.replace(" ", "")
            if (
                (norm and f" {norm} " in q_norm and not _generic(form, question, common))
                or (len(joined) >= 6 and " " in norm and joined in q_letters)
                or any(initialism_of(t, form) for t in nicknames)
            ):
                found.add(company.company)
                break
    return found, _symbols_read(by_symbol, found, stored, common)


def _symbols_read(
    by_symbol: dict[str, set[str]], found: set[str], stored: Sequence[CompanyNames], common: Common
) -> list[str]:
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
    return notes


def _generic(form: str, question: str, common: Common) -> bool:
    """Whether a one-word name is written in the question as a word, not as a name: all in
    lower case ("block", "target", "company"), or, being a common word, neither inside a
    sentence nor possessive (see `written_as_name`)."""
    words = normalize(form).split()
    if len(words) != 1 or not words[0].isalpha():  # "3M" is a name, not a word
        return False
    if not any(m.group(0) != m.group(0).lower() for m in spans_of(question, words)):
        return True
    return common(form) and not written_as_name(question, words)


def spans_of(question: str, words: Sequence[str]) -> list[re.Match[str]]:
    """Where the question writes `words` in a row, any case and punctuation between them
    ("Coca Cola" and "Coca-Cola"; "and" and "&")."""
    parts = [r"(?:and|&)" if w == "and" else re.escape(w) for w in words]
    return list(re.finditer(r"(?<![\w&])" + r"[\W_]*".join(parts) + r"(?![\w&])", question, re.I))


def written_as_name(question: str, words: Sequence[str]) -> bool:
    """Whether `words` are written as a name: capitalized, and inside a sentence or
    possessive ("Target's", "at Target"; not "Target margins rose" alone, nor "target")."""
    for m in spans_of(question, words):
        if m.group(0) == m.group(0).lower():
            continue
        if _POSSESSIVE.match(question[m.end() :]) or not _SENTENCE_START.search(
            question[: m.start()]
        ):
            return True
    return False


def _leading_parts(
    question: str,
    stored: Sequence[CompanyNames],
    groups: Sequence[frozenset[str]],
    common: Common,
    taken: set[str],
) -> tuple[tuple[set[str], set[str]], dict[str, set[str]]]:
    """Companies named by a leading part of their short name written capitalized ("Exxon"
    of Exxon Mobil), outside the names already found: (those whose part is a name of its
    own, those whose part is a common word written as a name — "Union's" of Union Pacific,
    evidence only where nothing else names a company), and the parts two companies share
    (both are kept, and said)."""
    taken_spans = [
        m.span()
        for c in stored
        if c.company in taken
        for f in _names_of(c, groups)[1]
        for m in spans_of(question, normalize(f).split())
    ]
    by_part: dict[str, set[str]] = {}
    ordinary: set[str] = set()
    for company in stored:
        if company.company in taken:
            continue
        for form in _names_of(company, groups)[1]:
            words = normalize(short_company(form)).split()
            for k in range(1, len(words)):
                part = _written_part(question, words[:k], taken_spans)
                if len("".join(words[:k])) < 3 or not part:
                    continue
                if common(part):
                    if not written_as_name(question, words[:k]):
                        continue
                    ordinary.add(part)
                by_part.setdefault(part, set()).add(company.company)
    names = {c for p, cs in by_part.items() if p not in ordinary for c in cs}
    words_only = {c for p, cs in by_part.items() if p in ordinary for c in cs}
    shared = {p: cs for p, cs in by_part.items() if len(entity_groups(sorted(cs), stored)) > 1}
    return (names, words_only), shared


def _written_part(question: str, part: Sequence[str], taken: Sequence[tuple[int, int]]) -> str:
    """How the question writes `part` capitalized, outside a name already found ("" where it
    does not)."""
    for m in spans_of(question, part):
        inside = any(a <= m.start() and m.end() <= b for a, b in taken)
        if m.group(0)[:1].isupper() and not inside:
            return m.group(0)
    return ""


def _misspellings(
    question: str, stored: Sequence[CompanyNames], groups: Sequence[frozenset[str]], common: Common
) -> tuple[set[str], tuple[list[str], list[str]]]:
    """Companies whose name the question misspells (runs of its words beginning with a
    capital against each leading part of each name, short or legal, letters only:
    `misspelt`), the closest only; none where two companies are as close. Returns
    (companies, (readings, notes))."""
    runs = _capitalized_runs(question)
    best: dict[str, tuple[int, int, str]] = {}  # the fewest edits, the longest run
    for company in stored:
        for name in _spellings(_names_of(company, groups)[1]):
            for run, written in runs:
                edits = misspelt(written, name)
                if edits is None or common(run):
                    continue
                if (edits, -len(run)) < best.get(company.company, (99, 0, ""))[:2]:
                    best[company.company] = (edits, -len(run), run)
    if not best:
        return set(), ([], [])
    closest = min(e for e, _, _ in best.values())
    chosen = sorted(c for c, (e, _, _) in best.items() if e == closest)
    run = best[chosen[0]][2]
    if len(entity_groups(chosen)) > 1:
        said = f'"{run}" is as close to {" as to ".join(chosen)}: name the company to choose.'
        return set(), ([], [said])
    return set(chosen), ([f'read "{run}" as {chosen[0]}'], [])


def _spellings(forms: set[str]) -> set[str]:
    """Each leading part of each name, short or legal, as letters ("coca", "cocacola",
    "amazon", "amazoncom")."""
    found: set[str] = set()
    for form in forms:
        for words in (normalize(short_company(form)).split(), normalize(form).split()):
            found.update("".join(words[:n]) for n in range(1, len(words) + 1))
    return found


def _capitalized_runs(question: str) -> list[tuple[str, str]]:
    """Runs of 1-4 words of the question that begin with a capital, with their letters."""
    words = re.findall(r"[A-Za-z0-9][\w&.-]*", question)
    runs = []
    for i, word in enumerate(words):
        if word[:1].isupper():
            for n in range(1, 5):
                if i + n <= len(words):
                    run = " ".join(words[i : i + n]).rstrip(".")
                    runs.append((run, letters(run)))
    return runs


def names_of(session: Session, document: DocumentInfo) -> tuple[str, ...]:
    """The company's name and every alias its stored filings give it (a ticker one filing's
    cover prints)."""
    aliases = set(document.company_aliases) | {
        alias
        for held in queries.company_names(session)
        if held.company == document.company
        for alias in held.aliases
    }
    return (document.company or "", *sorted(aliases))
