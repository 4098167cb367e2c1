"""How a question's words are compared with a company's names, without the database: one
name being another plus trailing words ("MGM Resorts" / "MGM Resorts International"), an
initialism or nickname made of the beginnings of a name's words ("IBM", "AMEX", "JnJ",
"P&G"), and a misspelling within an edit distance that grows with the name's length."""

from __future__ import annotations

import re

from ..index.text import normalize
from ..names import short_company
from ..patterns import deferred

# A token written with two or more capitals: a symbol, an initialism or a nickname
# ("JPM", "IBM", "AMEX", "JnJ", "P&G").
NICKNAME = deferred(r"(?<![\w&])[A-Za-z&]*[A-Z][A-Za-z&]*[A-Z][A-Za-z&]*(?![\w&])")
_INFLECTIONS = ("s", "es", "ed", "ing", "er", "ers")


def word_ends(name: str) -> tuple[str, set[int]]:
    """The name's letters and digits, and the offsets where its words end."""
    letters, ends = "", set()
    for word in normalize(name).split():
        letters += word
        ends.add(len(letters))
    return letters, ends


def same_entity(a: str, b: str) -> bool:
    """Whether two stored company names name one company: one is the other plus trailing
    words ("MGM Resorts" / "MGM Resorts International"), spacing aside ("MGM R Esorts I
    Nternational" from a letter-spaced PDF), or the two are one short name ("Boeing Co" /
    "The Boeing Company"). "Block" and "Blockbuster" are not."""
    if word_ends(short_company(a))[0] == word_ends(short_company(b))[0] != "":
        return True
    (short, _), (long, long_ends) = sorted((word_ends(a), word_ends(b)), key=lambda x: len(x[0]))
    if len(short) < 4 or not long.startswith(short):
        return False
    return len(short) == len(long) or len(short) in long_ends


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


def initialism_of(token: str, name: str) -> bool:
    """Whether `token` ("IBM", "JnJ", "P&G") is made of the beginnings of the words of the
    name's short form, two words at least."""
    words = [w for w in re.findall(r"[a-z0-9]+|&", short_company(name).lower())]
    return len(words) >= 2 and _spelled_by_beginnings(token.lower(), words)


def edit_distance(a: str, b: str, limit: int) -> int:
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


def typo_limit(length: int) -> int:
    """The edits a misspelt name of `length` letters may carry: one from 5 letters, two from
    8, three from 12; a 4-letter name only its letters swapped (checked apart)."""
    return 0 if length < 5 else 1 if length < 8 else 2 if length < 12 else 3


def misspelt(written: str, name: str) -> int | None:
    """The edits between `written` and `name` (letters only, lower-case) when `written` is a
    misspelling of it: the same first letter, within `typo_limit`, not a word's other form
    ("targets" is not a misspelt Target); a 4-letter name only with two letters swapped
    ("Nkie"). None otherwise (equal spellings included)."""
    if not written or not name or written == name or written[0] != name[0]:
        return None
    if any(written == name + end or name == written + end for end in _INFLECTIONS):
        return None
    if len(name) == 4 and len(written) == 4:
        swapped = [i for i in range(4) if written[i] != name[i]]
        pair = len(swapped) == 2 and swapped[1] == swapped[0] + 1
        return 1 if pair and sorted(written) == sorted(name) else None
    limit = typo_limit(len(name))
    if not limit or abs(len(written) - len(name)) > limit:
        return None
    found = edit_distance(written, name, limit)
    return found if 0 < found <= limit else None
