"""The parts a sentence lists with their figures ("137,000 full-time employees, including
approximately 39,000 in sales and marketing, approximately 18,000 in our cloud services and
license support operations, approximately 24,000 in services, ..."): the figure a word goes
with, and of several parts a word goes with, the one named by the question's words alone; a
count written after its noun ("We had active accounts of 431 million and 429 million as of
June 30, 2023 and 2022, respectively")."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from .amount_lists import says_word
from .terms import phrase_words

# words that name no part: "approximately 24,000 in our services positions"
_FILLER = frozenset(
    "a an the in of our its their and at for approximately about roughly nearly some over "
    "positions roles functions employees people staff".split()
)


def owner(spans: list[tuple[int, int]], spot: int, sentence: str) -> int:
    """The figure a word of the sentence goes with (its start): the one before it, unless a
    comma or the like parts them and the next figure follows close, unparted ("..., for a
    total of 203.2 million shares")."""
    before = [span for span in spans if span[0] < spot]
    after = [span for span in spans if span[0] > spot]
    if not before:
        return after[0][0] if after else spans[0][0]
    if after and re.search(r"[,;:(]", sentence[before[-1][1] : spot]):
        start = after[0][0]
        if start - spot <= 40 and not re.search(r"[,;:()]", sentence[spot:start]):
            return start
    return before[-1][0]


def named_alone(
    sentence: str, spans: Sequence[tuple[int, int]], listed: Collection[int], asked: Sequence[str]
) -> set[int]:
    """Of the parts `listed` (their figures' starts) that a word of the question goes with, the
    one whose own words are all the question's ("24,000 in services" for "how many worked in
    services", not "18,000 in our cloud services and license support operations"); all of
    them where not exactly one is so named."""
    said = " ".join(asked)
    alone = set()
    for start in listed:
        ends = [s for s, _ in spans if s > start]
        end = next((e for s, e in spans if s == start), start)
        label = re.split(r"[,;]", sentence[end : ends[0] if ends else len(sentence)])[0]
        words = [w for w in phrase_words(label).split() if w not in _FILLER and len(w) > 2]
        if words and all(says_word(w, said) for w in words):
            alone.add(start)
    return alone if len(alone) == 1 else set(listed)


def after_noun(sentence: str, noun: str, number: str) -> list[re.Match[str]]:
    """The counts `sentence` writes right after the noun counted and "of" ("active accounts of
    431 million"): the first of each such list, not a year, not a percentage."""
    found = []
    for said in re.finditer(
        rf"\b(?:{noun})\w*\s+of\s+(?:approximately\s+|about\s+)?", sentence, re.I
    ):
        count = re.compile(number, re.IGNORECASE).match(sentence, said.end())
        if count is None or re.fullmatch(r"(?:19|20)\d\d", count.group(1)):
            continue
        after = sentence[count.end() :]
        # not a share, a threshold ("units of 62,500 or greater") nor a name ("737 MAX")
        if not re.match(
            r"\s*(?:%|percent\b|or\s+(?:greater|more|less|fewer|higher|lower)\b|"
            r"[A-Z]{2,}\b)",
            after,
        ):
            found.append(count)
    return found
