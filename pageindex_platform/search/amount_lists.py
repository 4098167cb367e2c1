"""Amounts a sentence lists, and which of them a question asks: the one of the year asked
where the list runs with as many years ("$283 million, $290 million and $278 million for
fiscal 2016, 2015 and 2014, respectively"), of the list whose own words say what is asked;
and whether a sentence says a word asked in another form ("issued": "issuance")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..patterns import deferred
from .sentence_checks import years_said
from .sentence_numbers import RESPECTIVELY
from .terms import phrase_words

# verbs whose other forms share no stem: "sold" is said as "the sale of"
_IRREGULAR = {
    **dict.fromkeys(("sold", "sell"), "sold|sale|sell"),
    **dict.fromkeys(("paid", "pay"), "paid|pay"),
    **dict.fromkeys(("bought", "buy"), "bought|buy|purchas"),
    **dict.fromkeys(("spent", "spend"), "spent|spend"),
    **dict.fromkeys(("grew", "grow"), "grew|grow"),
    **dict.fromkeys(("rose", "rise"), "rose|rise|rising"),
    **dict.fromkeys(("fell", "fall"), "fell|fall"),
}


def says_word(word: str, words: str) -> bool:
    """Whether a sentence's words say `word`, in another form of it ("issued": "issuance",
    "sold": "the sale of")."""
    stem = word[: max(4, len(word) - 2)] if len(word) > 5 else word
    forms = _IRREGULAR.get(word, re.escape(stem))
    return re.search(rf"(?<!\w)(?:{forms})", words) is not None


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
    # lists the years go with, the one whose own words say most of what is asked
    lists = [run for run in runs(sentence, listed) if len(run) > 1]
    if not RESPECTIVELY.search(sentence) or not lists:
        return None
    own = [_years_after(sentence, run, listed) for run in lists]
    best: list[tuple[int, re.Match[str]]] = []
    for k, (run, words) in enumerate(zip(lists, _spans(sentence, lists), strict=True)):
        # a list with no years of its own shares those of the nearest list as long
        years = own[k] or next(
            (
                own[m]
                for m in sorted(range(len(lists)), key=lambda m: abs(m - k))
                if len(own[m]) == len(run)
            ),
            [],
        )
        if year in years and len(years) == len(run):
            said = sum(says_word(w, phrase_words(words)) for w in core)
            best.append((said, run[years.index(year)]))
    best.sort(key=lambda x: -x[0])
    if best and best[0][0] > 0 and (len(best) == 1 or best[1][0] < best[0][0]):
        return best[0][1]
    return None


def _years_after(
    sentence: str, run: list[re.Match[str]], listed: Sequence[re.Match[str]]
) -> list[int]:
    """The years written right after a list of amounts, up to the next amount: as many as the
    list has, each once; [] otherwise."""
    later = [a.start() for a in listed if a.start() > run[-1].end()]
    years = years_said(sentence[run[-1].end() : later[0] if later else None])
    return years if len(set(years)) == len(years) == len(run) else []


# where one list's words end and the next one's begin: "..., respectively, and recognized
# ...", "..., and interest income was ..."
_NEXT_LIST = deferred(r"\brespectively\b,?|,\s*(?:and|while|whereas)\s|;", re.IGNORECASE)


def _spans(sentence: str, lists: list[list[re.Match[str]]]) -> list[str]:
    """Each list's own words: from where the list before it ends to where it ends itself (its
    "respectively", or the clause that opens the next list)."""
    spans, start = [], 0
    for k, run in enumerate(lists):
        stop = lists[k + 1][0].start() if k + 1 < len(lists) else len(sentence)
        found = _NEXT_LIST.search(sentence, run[-1].end(), stop)
        end = found.end() if found else stop
        spans.append(sentence[start:end])
        start = end
    return spans


# what stands between two amounts of one list: "$283 million, $290 million and $278 million"
JOINED = deferred(r"\s*(?:,|and|,\s*and)\s*")


def runs(sentence: str, listed: Sequence[re.Match[str]]) -> list[list[re.Match[str]]]:
    """The amounts of a sentence grouped as it writes them in lists ("$283 million, $290
    million and $278 million"), in order; an amount alone is a list of one."""
    found: list[list[re.Match[str]]] = []
    for before, amount in zip([None, *listed], listed, strict=False):
        if before is not None and JOINED.fullmatch(sentence[before.end() : amount.start()]):
            found[-1].append(amount)
        else:
            found.append([amount])
    return found
