"""The two questions a question of two figures is made of, where its words are freer than the
shapes of `two_figures`: one line's change between two periods ("How much did Acme's
shipping costs grow in 2019 compared with 2018?", "By how much did the backlog grow between
December 31, 2017 and December 31, 2018?", "By what percentage did net revenues decrease in
2022 compared with 2021?") and two named parts combined ("the combined 2022 net sales of
Acme's Asia Pacific and EMEA regions", "combined operating and finance lease payments").
Each side is the question itself with one period, or one of the two parts, left in."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..patterns import deferred

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
# a period a side is asked in: a (fiscal, full) year, a date, a quarter, the first months of a
# year or the months ended at a date
_PERIOD = (
    rf"(?:(?:the\s+)?(?:fiscal\s+(?:year\s+)?|fy\s?|full[-\s]year\s+)?(?:19|20)\d\d\b|"
    rf"(?:(?:the\s+)?(?:three|six|nine|twelve)\s+months\s+ended\s+)?{_MONTH}\s+\d{{1,2}},?\s+"
    r"(?:19|20)\d\d\b|(?:the\s+)?(?:q[1-4]|(?:first|second|third|fourth)\s+quarter|first\s+"
    r"(?:three|six|nine)\s+months)\s+(?:of\s+)?(?:fiscal\s+(?:year\s+)?)?(?:19|20)\d\d\b)"
)
_UP = r"increase|grow|rise|expand|climb|improve|go\s+up"
_DOWN = r"decrease|decline|fall|drop|shrink|go\s+down"
_VERB = rf"(?P<verb>{_UP}|{_DOWN}|change)"
_NOUN = r"(?P<verb>increase|growth|rise|decrease|decline|drop|fall|change)"
_HOW = r"(?:by\s+)?(?:how\s+much|(?P<percent>what\s+(?:percentage|percent|%)))"
# the two periods, the later one asked and the one it is compared with, in the ways questions
# write them
_PERIODS = (
    rf"\s+(?:(?:from|between)\s+(?P<p1>{_PERIOD})\s+(?:to|and)\s+(?P<p2>{_PERIOD})|"
    rf"(?:in|for|during|at|as\s+of)\s+(?P<q2>{_PERIOD}),?\s+(?:compared\s+(?:with|to)|versus|vs\.?|"
    rf"relative\s+to|over|from|against)\s+(?:(?:that\s+of|those\s+of|in|for|at)\s+)?"
    rf"(?P<q1>{_PERIOD})|"
    # one period, the change from the year before ("increase in 2022", "... year over year")
    rf"(?:in|for|during)\s+(?P<r2>{_PERIOD})(?:,?\s+(?:compared\s+(?:with|to)|from|over|versus|"
    r"relative\s+to)\s+the\s+(?:prior|previous|preceding)\s+(?:fiscal\s+)?year|,?\s+"
    r"year[-\s]over[-\s]year)?)"
)
# words after the periods ("..., according to its 2022 10-K?") and after the question mark
_TAIL = r"(?P<aside>,[^?]*)?\s*\?\s*(?P<after>.*)$"
_CHANGE_DID = deferred(
    rf"^(?P<lead>.*?)\b{_HOW}\s+did\s+(?P<line>.+?)\s+{_VERB}[ds]?{_PERIODS}{_TAIL}",
    re.IGNORECASE | re.DOTALL,
)
_CHANGE_OF = deferred(
    rf"^(?P<lead>.*?)\bwhat\s+(?:was|were|is)\s+the\s+(?:(?:year[-\s]over[-\s]year|dollar|absolute)\s+){{0,2}}"
    rf"(?:(?P<percent>percentage|percent)\s+)?{_NOUN}\s+in\s+(?P<line>.+?){_PERIODS}{_TAIL}",
    re.IGNORECASE | re.DOTALL,
)
_EXCEED = deferred(
    rf"^(?P<lead>.*?)\bby\s+how\s+much\s+did\s+(?P<line>.+?)\s+(?:in|for)\s+(?P<q2>{_PERIOD})\s+"
    rf"exceed\s+(?:(?:that|those)\s+(?:of|in|for)\s+|(?:in|for)\s+)?(?P<q1>{_PERIOD}){_TAIL}",
    re.IGNORECASE | re.DOTALL,
)
_IN_PERCENT = deferred(r"\bpercent(?:age)?\b|%", re.IGNORECASE)
_DOWN_WORD = deferred(rf"^(?:{_DOWN})", re.IGNORECASE)
_YEAR = deferred(r"(?:19|20)\d\d")
_DATE = deferred(_MONTH, re.IGNORECASE)


@dataclass(frozen=True)
class Sides:
    """Two side questions; `less`: the second less the first is asked; `percent`: the change
    as a percentage of the second (the earlier) side."""

    first: str
    second: str
    less: bool = False
    percent: bool = False
    # the parts each side names (of a change, the line asked, both sides)
    parts: tuple[str, str] = ("", "")


def change_sides(question: str) -> Sides | None:
    """One line asked in two periods and its change between them: the later period's question
    first, the earlier's second."""
    found = _CHANGE_DID.match(question) or _CHANGE_OF.match(question) or _EXCEED.match(question)
    if found is None or _YEAR.search(found["line"]):
        return None
    named = found.groupdict()
    later = named.get("p2") or named["q2"] or named.get("r2") or ""
    earlier = named.get("p1") or named["q1"] or _YEAR.sub(lambda y: str(int(y[0]) - 1), later)
    if _year(earlier) >= _year(later) or span_kind(earlier) != span_kind(later):
        return None  # the later period is asked of first, both of one length
    lead, after = found["lead"].strip(), found["after"].strip()
    aside = named["aside"] or ""
    percent = bool(named.get("percent")) or bool(_IN_PERCENT.search(question))
    if _IN_PERCENT.search(aside):  # ", in percent": said of the change, not of each side
        aside = ""

    # an amount asked "how much" is asked so of each side (a sentence's amount is read where
    # money is asked)
    what = "How much was" if re.search(r"how\s+much", found[0], re.IGNORECASE) else "What was"

    def side(period: str) -> str:
        at = "at" if _DATE.match(period) else "in"
        asked = f"{what} {found['line'].strip()} {at} {period.strip()}{aside}? {after}".strip()
        return f"{lead} {asked}" if lead else asked

    down = bool(_DOWN_WORD.match(named.get("verb") or ""))
    line = found["line"].strip()
    return Sides(side(later), side(earlier), less=down, percent=percent, parts=(line, line))


def span_kind(period: str) -> str:
    """The length of a period as written: a quarter, a half, nine months, a date or a year;
    two periods compared are of one kind ("Q2 2023 than 2022" is not)."""
    said = period.lower()
    for kind, words in _SPANS:
        if re.search(words, said):
            return kind
    return "date" if _DATE.search(said) else "year"


_SPANS = (
    ("quarter", r"\bq[1-4]\b|\bquarter\b|\bthree\s+months\b"),
    ("half", r"\bsix\s+months\b|\bhalf\b"),
    ("nine months", r"\bnine\s+months\b"),
)


def _year(period: str) -> int:
    """The year a period is of."""
    year = _YEAR.search(period)
    return int(year.group(0)) if year else 0


# a capitalised name's words ("Europe, Middle East & Africa", "U.S. Cereal", "Las Vegas Strip")
_NAME_WORD = deferred(r"^(?:[A-Z0-9][\w.&'’-]*,?|&)$")
_JOINS = frozenset(("&", "of", "and"))
_OWNER = deferred(r"(?:'s|’s|'|’)$")
# a kind of part the two names share, written in the plural after the second
_PLURAL = {
    "regions": "region",
    "segments": "segment",
    "units": "unit",
    "groups": "group",
    "businesses": "business",
    "divisions": "division",
    "categories": "category",
    "markets": "market",
    "brands": "brand",
    "geographies": "geography",
    "areas": "area",
    "countries": "country",
    "lines": "line",
    "sbus": "sbu",
    "SBUs": "SBU",
}
_COMBINED = deferred(r"\bcombined\s+", re.IGNORECASE)
_KINDS = frozenset(("sbu", "sbus", "segment", "segments"))  # said capitalised too ("SBUs")


def combined_sides(question: str) -> list[Sides]:
    """The ways `question` may name two parts combined ("the combined X of A and B"), each as
    the question of part A and the question of part B, the word "combined" left out; the
    first reading whose two sides are both found is the one meant."""
    combined = _COMBINED.search(question)
    if combined is None:
        return []
    text = question[: combined.start()] + question[combined.end() :]
    words = [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"[^\s?]+", text)]
    out: list[Sides] = []
    for at, (start, _, word) in enumerate(words):
        if word.lower() != "and" or start < combined.start():
            continue
        for a, b in _readings(words, at):
            if _YEAR.search(text[words[a][0] : words[b][1]]):
                continue  # two periods, not two parts
            before, rest = text[: words[a][0]], _singular(text[words[b][1] :])
            part_a = text[words[a][0] : words[at][0]].rstrip()
            part_b = text[words[at + 1][0] : words[b][1]]
            sides = (before + part_a + rest, before + part_b + rest)
            out.append(Sides(*sides, parts=(part_a, part_b)))
    return out


def _readings(words: list[tuple[int, int, str]], at: int) -> list[tuple[int, int]]:
    """The first word of part A and the last word of part B around the "and" at `at`: two
    capitalised names, or two single lower-case words ("operating and finance lease")."""
    if at == 0 or at + 1 >= len(words):
        return []
    a = at
    while a > 0 and _in_name(words, a - 1, backward=True):
        a -= 1
    b = at
    while b + 1 < len(words) and _in_name(words, b + 1, backward=False):
        b += 1
    if a < at and b > at:
        return [(a, b)]
    before, after = words[at - 1][2], words[at + 1][2]
    if before.isalpha() and before.islower() and after.isalpha() and after.islower():
        return [(at - 1, at + 1)]
    return []


def _in_name(words: list[tuple[int, int, str]], i: int, *, backward: bool) -> bool:
    """Whether word `i` goes on a capitalised name (a joining word only between two of its
    words; an owner's name, "Acme's", is not the part)."""
    word = words[i][2]
    if _OWNER.search(word) or word.lower() in _KINDS:
        return False  # an owner's name; a kind of part ("SBUs", "Segments")
    if word.lower() in _JOINS and word != "&":
        near = i - 1 if backward else i + 1
        return (
            0 <= near < len(words)
            and bool(_NAME_WORD.match(words[near][2]))
            and not (_OWNER.search(words[near][2]))
        )
    return bool(_NAME_WORD.match(word))


def _singular(rest: str) -> str:
    """The kind of part after a side's name in the singular ("... Display Technologies
    segment"), within the next two words."""
    for m in list(re.finditer(r"[A-Za-z]+", rest))[:2]:
        if m.group(0) in _PLURAL:
            return rest[: m.start()] + _PLURAL[m.group(0)] + rest[m.end() :]
    return rest


# a side that begins with a place ("from EMEA", "in Japan")
PLACE_FIRST = deferred(r"^(?:in|from|at|within|outside|across)\b", re.IGNORECASE)


def same_line(side_a: str, side_b: str) -> str:
    """The second side of one line asked of two places, where the first side ends with its
    place's name: "Acme's revenues from EMEA" of "... from the Americas than from EMEA"."""
    place = PLACE_FIRST.match(side_b)
    at = side_a.lower().rfind(f" {place[0].strip().lower()} ") if place else -1
    named = at > 0 and re.fullmatch(r"\s\w+\s+(?:the\s+)?(?:[A-Z][\w&.-]*\s?)+", side_a[at:])
    return f"{side_a[:at]} {side_b}" if named else side_b
