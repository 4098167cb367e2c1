"""Amounts a sentence lists, and which of them a question asks: the one of the year asked
where the list runs with as many years ("$283 million, $290 million and $278 million for
fiscal 2016, 2015 and 2014, respectively"), of the list whose own words say what is asked;
and whether a sentence says a word asked in another form ("issued": "issuance")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .sentence_checks import years_said
from .sentence_numbers import RESPECTIVELY
from .terms import phrase_words


def says_word(word: str, words: str) -> bool:
    """Whether a sentence's words say `word`, in another form of it ("issued": "issuance")."""
    stem = word[: max(4, len(word) - 2)] if len(word) > 5 else word
    return re.search(rf"(?<!\w){re.escape(stem)}", words) is not None


def of_year(
    sentence: str, listed: Sequence[re.Match[str]], year: int | None, core: Sequence[str] = ()
) -> re.Match[str] | None:
    """Of amounts listed with as many years (all after the amounts, or all before them),
    the one of `year`, by their order; None where the years are not so listed."""
    for words in (sentence[listed[-1].end() :], sentence[: listed[0].start()]):
        years = years_said(words)
        if len(years) == len(listed) and year in years:
            return listed[years.index(year)]
    # "Rent expense was $283 million, $290 million and $278 million for fiscal 2016, 2015 and
    # 2014, respectively, net of sublease income of approximately $45 million ...": of the
    # lists the years follow, the one whose own words say most of what is asked
    best: list[tuple[int, re.Match[str]]] = []
    for first, run in runs(sentence, listed):
        end = first + len(run)
        after = sentence[run[-1].end() : listed[end].start() if end < len(listed) else None]
        years = years_said(after)
        if len(run) < 2 or not (len(set(years)) == len(years) == len(run)) or year not in years:
            continue
        if RESPECTIVELY.search(after):
            before = phrase_words(
                sentence[listed[first - 1].end() if first else 0 : run[0].start()]
            )
            best.append((sum(says_word(w, before) for w in core), run[years.index(year)]))
    best.sort(key=lambda x: -x[0])
    if best and best[0][0] > 0 and (len(best) == 1 or best[1][0] < best[0][0]):
        return best[0][1]
    return None


def runs(sentence: str, listed: Sequence[re.Match[str]]) -> list[tuple[int, list[re.Match[str]]]]:
    """The amounts written as lists ("$283 million, $290 million and $278 million"), each with
    the index of its first amount."""
    found: list[tuple[int, list[re.Match[str]]]] = []
    for i, amount in enumerate(listed):
        joined = i and re.fullmatch(
            r"\s*(?:,|and|,\s*and)\s*", sentence[listed[i - 1].end() : amount.start()]
        )
        if found and joined:
            found[-1][1].append(amount)
        else:
            found.append((i, [amount]))
    return found
