"""What a question asks a line "for" where that narrows it below the whole company's line:
"capital expenditures for aircraft and related equipment", "net sales for Health Care". The
words after "for" that name no period ("for fiscal 2023", "for the three months ended"), no
whole ("for the company", "for all segments", "for common stockholders"), no owner of the
company's and nothing a question says in passing ("for example") are a part of the line; a
figure whose label says none of them is the whole line's, not the one asked."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..patterns import deferred
from ..periods import MONTH_WORDS

# "for" and up to six words after it, up to a mark or a figure
_FOR = deferred(r"\bfor\s+(?P<words>[A-Za-z][\w&'’./-]*(?:\s+[A-Za-z&][\w&'’./-]*){0,5})")
# the articles and owners' words before what the line is for
_LEADING = frozenset("the its their our his her each of".split())
# words that end what a line is for: a period, a place or a comparison begins after them
_STOP = frozenset(
    "in during at as over on from ended ending through compared versus vs vs. by to when "
    "within between against relative since until before after per is was were are which "
    "that who whom where while if or divided multiplied times plus minus less did does do has "
    "have had".split()
)
# first words of what names no part: periods, wholes, owners, filler
_NOT_A_PART = frozenset(
    "a an fiscal year years yearly annual comparable corresponding prior-year year-ago "
    "quarter quarters quarterly month months week weeks three six nine twelve first second "
    "third fourth full full-year half calendar trailing period periods interim every all both "
    "same this those these latest last most prior previous current next recent year-end "
    "year-to-date fy ttm ltm ytd qtd company company's companies consolidated whole entire "
    "total overall group business parent registrant corporation segment segments shareholders "
    "stockholders holders common investors owners it them us itself example instance decline "
    "declines increase increases decrease decreases reference comparison purposes analysis "
    "reporting reported which whom what gaap non-gaap continuing".split()
)
_HELD = deferred(r"\b(?:held|available)\s+$", re.IGNORECASE)
_MONTHS = deferred(rf"^(?:{MONTH_WORDS})$", re.IGNORECASE)


def part_for(question: str, names: Sequence[str] = ()) -> str:
    """The first part of a line the question asks it "for" ("aircraft and related
    equipment"), without the company's names (`names`); "" where it asks none."""
    own = {w.lower().strip(".,") for n in names for w in re.findall(r"[\w&'’.-]+", n)}
    for found in _FOR.finditer(question):
        if _HELD.search(question, 0, found.start()):
            continue  # "assets held for sale", "available for sale": a line's own name
        words: list[str] = []
        for word in found["words"].split():
            bare = word.lower().strip(".,;:'’")
            if not words and bare in _LEADING:
                continue
            if bare in _STOP or re.search(r"\d", bare) or _MONTHS.match(bare):
                break
            words.append(word.strip(".,;:"))
            if re.search(r"[.,;:?!)]$", word) and not re.fullmatch(r"(?:[A-Za-z]\.)+", word):
                break  # the end of a clause ("U.S." is a name)
        while words and re.sub(r"['’]s?$", "", words[-1]).lower() in own:
            words.pop()  # "for Pacific Gas and Electric Company"
        if not words or words[0].lower().strip("'’") in _NOT_A_PART:
            continue
        if all(re.sub(r"['’]s?$", "", w).lower() in own | {"and", "&"} for w in words):
            continue  # the company itself: "for Acme Corp"
        return " ".join(words)
    return ""


_NOT_NAMING = frozenset("the its their our and of a an total net".split())


def names_part(part: str, label: str, names: Sequence[str]) -> bool:
    """Whether a figure's label says a word of the part asked (not the company's name)."""
    own = {w for n in names for w in n.lower().split()}
    words = [w for w in re.findall(r"[a-z0-9&-]+", part.lower()) if w not in _NOT_NAMING | own]
    return not words or any(re.search(rf"\b{re.escape(w)}", label, re.I) for w in words)
