"""Which row a question means: of several rows of one name, the one whose table's title
says the words the question gives of it; never a row other than the one it quotes."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..patterns import deferred
from .amount_lists import says_word
from .figures import Figure
from .headline import Stated, unsure
from .printed import table_context
from .terms import phrase_words

# words of a label that say nothing of what the row is
FILLER = frozenset("total net and of the in for to a an from by on at or".split())
LEAST = 2  # words of the question a row's name must say
_TITLE_WORDS = 6  # a longer line over a table is a sentence about it, not its title


def of_table_named(
    figures: list[Figure], text_of: Callable[[int], str], asked: str
) -> list[Figure]:
    """Of rows of one name that give different figures, those of the table whose title (a
    short line over its header) the question names in full ("Electricity Operating
    Statistics" over "Net plant investment per customer", where the question says "per the
    electricity operating statistics"); all of them where none is so named, or several."""
    if len({f.value for f in figures}) < 2:
        return figures
    words = phrase_words(asked)

    def named(figure: Figure) -> bool:
        lines = table_context(figure, text_of(figure.page)).splitlines()[:-1]  # not the row
        titles = [x for x in lines if len(x.split()) <= _TITLE_WORDS and not re.search(r"\d", x)]
        return any(
            len(said := [w for w in phrase_words(t).split() if w not in FILLER]) >= LEAST
            and all(says_word(w, words) for w in said)
            for t in titles
        )

    chosen = [f for f in figures if named(f)]
    return chosen if chosen and len({f.value for f in chosen}) == 1 else figures


# a row's name the question quotes: "'amortizable tax basis in intangibles'"
_QUOTED = deferred(r"(?<!\w)['‘“\"]([^'‘’“”\"?]{3,80}?)['’”\"](?!\w)")


def unquoted(stated: Stated, question: str) -> None:
    """Sets aside the line `stated` states where the question quotes the name of a row its
    label does not say ("for 'amortizable tax basis in intangibles'": not "Total assets")."""
    headline = stated.headline
    if headline is None or headline.kind == "metric":
        return
    label = set(phrase_words(headline.label).split())
    for name in _QUOTED.findall(question):
        words = {w for w in phrase_words(name).split() if w.isalpha() and w not in FILLER}
        if len(words) >= LEAST and not words <= label:
            unsure(stated, f"the question names the row {name!r}; {headline.label!r} is not it")
            return
