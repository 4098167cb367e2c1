"""Which amount of a sentence is the one a question asks: of several, the one the question's
words go with (before it, or what it is said to be of right after it), the one holding the
question's own figures, or the year asked's of a yearly list; never a change ("increased $40
million", and amounts listed after one), never the cause of a change, never an amount of what
a cause clause explains; per share only where a figure per share is asked."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..patterns import deferred
from .amount_lists import JOINED, of_year, says_word
from .amounts import AMOUNT
from .figures import PER_SHARE
from .sentence_checks import years_said
from .sentence_numbers import CAUSE, MOVED_BY, SCALES, TOTAL_ASKED
from .terms import phrase_words


def amount_of(
    sentence: str,
    core: Sequence[str],
    figures: Sequence[str],
    per_share: bool,
    year: int | None,
    told: Sequence[str] = (),
) -> re.Match[str] | None:
    """The amount of the sentence that the words asked go with: its only one; of several,
    the one whose words up to the next amount hold the question's own figures ("5.200%"), or
    where the question has none, the one after every word asked ("obligations were $6.8
    billion, and ..."); amounts listed with as many years, the one of the year asked, by
    their order; None when that is not one amount. Never a change ("increased $40 million",
    "an increase of $40 million"); an amount per share ("$1.36 and $1.49 per share") where
    one is asked, else never."""
    listed = list(AMOUNT.finditer(sentence))
    moved = _changes(sentence, listed)
    amounts = [
        a
        for i, a in enumerate(listed)
        if not moved[i]
        and _per_share(sentence, listed[i:]) == per_share
        and not _a_cause(sentence, a.start(), core)
        and not _explained(sentence, a.end(), core)
    ]
    years = years_said(sentence)
    if len(amounts) <= 1 and (len(listed) <= 1 or len(set(years)) <= 1):
        # a sentence of another note than the question's own figure names ("5.625%") is not it
        return amounts[0] if amounts and _holds(sentence, figures) else None
    ends = [a.start() for a in amounts[1:]] + [len(sentence)]
    # the words after an amount that say what it is of ("$3.1 billion of common stock and
    # paid $489 million"): the amount's, not the next one's
    starts = [0] + [_of_end(sentence, a) for a in amounts[:-1]]
    if figures:  # "$750,000,000 aggregate principal amount of 5.200% Senior Notes"
        fits = [
            a
            for a, end in zip(amounts, ends, strict=True)
            if _holds(sentence[a.end() : end], figures)
        ]
    elif len(set(years)) > 1 and (side := _compared_side(sentence, amounts, year)) is not None:
        return side  # "were $494 million in 2023, compared with $536 million ... in 2022"
    elif len(set(years)) > 1:  # "$76.7 billion and $83.5 billion in 2021 and 2022"
        # of several lists, by the words of what is asked and of what was done with it
        words = [*core, *told]
        return of_year(sentence, listed, year, words) if len(amounts) == len(listed) else None
    else:  # "our remaining performance obligations were $6.8 billion, and ..."
        fits = [
            a
            for a, start in zip(amounts, starts, strict=True)
            if all(says_word(w, phrase_words(sentence[start : a.start()])) for w in core)
        ]
        if not fits:  # "had access to $2.6 billion of total liquidity comprised of $107 million"
            fits = [
                a
                for a, start in zip(amounts, starts, strict=True)
                if all(says_word(w, _words_of(sentence, start, a)) for w in core)
            ]
    return fits[0] if len(fits) == 1 else None


# where a sentence turns to the figure it compares with: "..., compared with $536 million"
_COMPARED = deferred(r"\b(?:compared\s+(?:with|to)|versus|vs\.?|as\s+against)\s", re.IGNORECASE)


def _compared_side(
    sentence: str, amounts: Sequence[re.Match[str]], year: int | None
) -> re.Match[str] | None:
    """Of one amount before "compared with" and one after it, the one whose side of the
    sentence alone names the year asked; None where it is not so said."""
    turn = _COMPARED.search(sentence)
    if turn is None or year is None:
        return None
    before = [a for a in amounts if a.end() <= turn.start()]
    after = [a for a in amounts if a.start() >= turn.end()]
    if len(before) != 1 or len(after) != 1:
        return None
    first, then = set(years_said(sentence[: turn.start()])), set(years_said(sentence[turn.end() :]))
    if year in first and year not in then:
        return before[0]
    if year in then and year not in first:
        return after[0]
    return None


# what an amount is of, said right after it: "$2.6 billion of total liquidity comprised of"
_OF_AFTER = deferred(
    r"\s*of\s+(?P<what>[^,;:$()]{3,80}?)(?=\s*(?:[,;:$()]|\b(?:comprised|consisting|including|"
    r"compared|which|that|as\s+of|during|for|in|from|to)\b|$))",
    re.IGNORECASE,
)


def _of_end(sentence: str, amount: re.Match[str]) -> int:
    """Where the words after an amount that say what it is of end ("of common stock", "of
    cash used to repurchase common stock"): at the clause the next "and", comma or amount
    opens; its own end where no "of" follows it ("$0.10 per share, at a ... price of")."""
    if not _OF_AFTER.match(sentence, amount.end()):
        return amount.end()
    clause = _CLAUSE_END.search(sentence, amount.end())
    return clause.start() if clause else len(sentence)


# what ends the words an amount goes with after it: "and paid", a comma, the next amount
_CLAUSE_END = deferred(r"\s(?:and|or|but|while|whereas)\s|[,;:$]")


def _words_of(sentence: str, start: int, amount: re.Match[str]) -> str:
    """The words an amount goes with: those since the amount before it, and what it is said
    to be of right after it."""
    after = _OF_AFTER.match(sentence, amount.end())
    return phrase_words(sentence[start : amount.start()] + " " + (after["what"] if after else ""))


def _a_cause(sentence: str, at: int, core: Sequence[str]) -> bool:
    """Whether the amount at `at` is what caused a change of the thing asked, which the
    sentence names before its cause ("The decrease in transaction losses ... was primarily due
    to a $114 million loss related to ..."), not that thing's amount."""
    causes = list(CAUSE.finditer(sentence[:at]))
    if not causes:
        return False
    before = phrase_words(sentence[: causes[-1].start()])
    after = phrase_words(sentence[causes[-1].end() : at])
    return all(says_word(w, before) for w in core) and not all(says_word(w, after) for w in core)


def _changes(sentence: str, listed: Sequence[re.Match[str]]) -> list[bool]:
    """Whether each amount is a change: said after "increased by" and the like, or listed
    after one that is ("increased by $497 million, or 16%, and $963 million, or 16%, in the
    three and six months"), or followed by a change's noun ("a $76 million increase")."""
    moved: list[bool] = []
    for i, amount in enumerate(listed):
        joined = (
            i > 0
            and moved[-1]
            and _LISTED_AFTER.fullmatch(sentence[listed[i - 1].end() : amount.start()])
        )
        before = MOVED_BY.search(sentence[: amount.start()][-40:])
        moved.append(bool(before or _CHANGE_AFTER.match(sentence, amount.end()) or joined))
    return moved


_LISTED_AFTER = deferred(r"[^.;$]{0,30}?\band\s+", re.IGNORECASE)
# an amount that is a change by the noun after it: "refined by a $76 million increase"
_CHANGE_AFTER = deferred(
    r"\s+(?:net\s+)?(?:increase|decrease|reduction|decline|rise|change)s?\b", re.IGNORECASE
)


def _explained(sentence: str, end: int, core: Sequence[str]) -> bool:
    """Whether the thing asked is named only in a cause said after the amount ("Transaction
    expense increased ... $963 million ..., due primarily to the increase in TPV"): the
    amount is of what the cause explains, not of the thing asked."""
    cause = CAUSE.search(sentence, end)
    if cause is None:
        return False
    return not any(says_word(w, phrase_words(sentence[: cause.start()])) for w in core)


def _per_share(sentence: str, following: Sequence[re.Match[str]]) -> bool:
    """Whether the first of `following` (the amounts from one on) is per share: "per share"
    after it, or after the list it opens ("$1.48 and $1.49 per share")."""
    end = following[0].end()
    for after in following[1:]:
        if not JOINED.fullmatch(sentence[end : after.start()]):
            break
        end = after.end()
    # "... per share", or "EPS ... $1.19": an amount of earnings per share
    return bool(PER_SHARE.match(sentence[end:].lstrip())) or bool(
        re.search(r"\bEPS\b(?:(?!\.\s)[^;]){0,60}$", sentence[: following[0].start()])
    )


def _holds(words: str, figures: Sequence[str]) -> bool:
    """Whether `words` hold each of the question's own figures, as whole numbers."""
    return all(re.search(rf"(?<![\d.]){re.escape(f)}(?![\d])", words) for f in figures)


# a total asked of several amounts a sentence lists: "the total aggregate principal amount of
# first mortgage bonds sold", "their combined amount"
def listed_total(sentence: str, question: str) -> tuple[float, str, int] | None:
    """(sum, as written, where the list ends) of the amounts a sentence lists of one kind —
    each followed by the same words: "(i) $850,000,000 aggregate principal amount of 6.100%
    First Mortgage Bonds due 2029, (ii) $1,150,000,000 aggregate principal amount of ..." —
    where the question asks their total; None otherwise (no total asked, one amount, amounts
    of different kinds, a change among them)."""
    if not TOTAL_ASKED.search(question):
        return None
    listed = list(AMOUNT.finditer(sentence))
    heads = {" ".join(sentence[a.end() :].split()[:3]).lower() for a in listed}
    if len(listed) < 2 or len(heads) != 1 or not heads.pop()[:1].isalpha():
        return None
    if any(_changes(sentence, listed)):
        return None
    scales = {(a[2] or "").lower() for a in listed}
    if len(scales) != 1:
        return None
    scale = scales.pop()
    total = sum(float(a[1].replace(",", "")) for a in listed)
    places = max(len(a[1].partition(".")[2]) for a in listed)
    shown = f"${total:,.{places}f}{f' {scale}' if scale else ''}"
    return total * SCALES.get(scale, 1), shown, listed[-1].end()
