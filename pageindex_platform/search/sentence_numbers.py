"""Which figure of a sentence is which: the numbers that may be figures (no year, no day of
a date), where a figure as written stands, and the year each figure of a sentence goes with
"respectively"."""

from __future__ import annotations

import re
from itertools import pairwise

from ..patterns import deferred
from ..periods import MONTH_NAMES
from .results import Check
from .terms import phrase_words

MONTHS = frozenset(MONTH_NAMES.lower().split("|"))
A_YEAR = deferred(r"(?:19|20)\d\d")  # a number that is a year, not a count
YEAR = deferred(r"\b(?:fiscal\s+|fy\s?)?((?:19|20)\d\d)\b", re.IGNORECASE)
# a figure in a sentence: a number not part of a date ("May 31, 2023") nor a year
_ANY_NUMBER = deferred(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.,])\d+(?:\.\d+)?")


# the year said right after a figure, before any other figure: "38% of ... in 2023"
_OWN_YEAR = deferred(
    r"[^\d$%]*?\b(?:in|for|during)\s+(?:fiscal\s+(?:year\s+)?)?((?:19|20)\d\d)\b(?!\s*(?:and|,))"
)


def respective(sentence: str, shown: str, percent: bool, year: int | None) -> Check:
    """In a sentence that gives one figure per year "respectively" ("733.8 million shares
    for $36.0 billion, 238.0 million shares ... in fiscal 2019, 2018 and 2017, respectively";
    "During 2020 and 2019, ... repurchased 4.1 million and 31.0 million shares,
    respectively"), the figure of the year asked: its figures of the kind asked (`percent`:
    percentages, else counts) — no money, no day of a date, none in parentheses — go with
    its years in order."""
    at = position(sentence, shown)
    # "12% (13% in 2019 and 12% in 2018)": the year asked's figure is in the parentheses
    aside = re.match(r"\s*\(([^()]*)\)", sentence[at + len(shown) :]) if at >= 0 else None
    if aside and year and re.search(rf"\b(?:in|for)\s+(?:fiscal\s+)?{year}\b", aside[1]):
        return Check("period", False, f"the parentheses after it give the figure of {year}")
    end = RESPECTIVELY.search(sentence)
    # "38% ... in 2023 as compared to 41% in 2022": the year its own words give
    own = _OWN_YEAR.match(sentence, at + len(shown)) if at >= 0 and end is None else None
    if own and year and int(own[1]) != year:
        return Check("period", False, f"the sentence gives this figure for {own[1]}, not {year}")
    if end is None or year is None:
        return Check("period", True, "the sentence gives the figure of one period")
    bare = _PARENTHESISED.sub(lambda m: " " * len(m.group(0)), sentence)[: end.start()]
    years = [int(y) for y in YEAR.findall(bare)]
    figures = [
        m.start()
        for m in numbers(bare)
        if not bare[: m.start()].rstrip().endswith("$")
        and percent == bare[m.end() :].lstrip().startswith("%")
    ]
    if len(years) < 2 or len(figures) != len(years):
        return Check("period", True, "the sentence gives the figure of one period")
    if at not in figures:
        return Check("period", False, "not one of the figures the sentence gives per year")
    said = years[figures.index(at)]
    if said != year:
        return Check("period", False, f"the sentence gives this figure for {said}, not {year}")
    return Check("period", True, f"the sentence gives this figure for {year}, respectively")


SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9}  # a number's scale word
# the words of a period a question writes ("in the nine months ended ..."), which the period
# checks read, not words a sentence must share
PERIOD_WORDS = frozenset("three six nine twelve month months ended ending period".split())
RESPECTIVELY = deferred(r",?\s*respectively\b", re.IGNORECASE)
# where a page's text breaks into sentences (and list items, and lines that start anew)
SENTENCE = deferred(r"(?<=[.;!?])\s+(?=[A-Z(])|\n{2,}|\n(?=[A-Z•\-])")
# a line of prose wrapped before a capitalised word ("... employees in the United" over
# "States"): a long line ending in a comma, a word that never ends a sentence ("the", "of")
# or a capitalised name's word goes on; a heading's line is shorter or in title case ("Net
# Sales of $3.2 Billion Compared to ... Quarter"), and a list's item ends in a word of its
# own ("... on an FX-Neutral basis" over "Gross Merchandise Volume ...")
_WRAPPED = deferred(
    r"^(.{60,}(?:(?:,|\b(?:the|of|and|in|to|for|by|with|a|an|at|on|from|as|or|our|its|their|"
    r"which|that|than|into|under))(?=\n[A-Z])|\b[A-Z][a-z]+(?=\n[A-Z][a-z])))\n",
    re.MULTILINE,
)


def _joined(line: re.Match[str]) -> str:
    """A wrapped line of prose joined to the next; a line in title case kept apart."""
    words = re.findall(r"\b[A-Za-z][a-z]+\b", line[1])
    capitals = sum(w[0].isupper() for w in words)
    return line[1] + ("\n" if capitals * 2 > len(words) else " ")


def sentences_of(text: str) -> list[str]:
    """A page's sentences (and list items, and lines that start anew), a wrapped line of
    prose joined to the line it goes on in."""
    return SENTENCE.split(_WRAPPED.sub(_joined, text))


# a list's item that names one part and how it moved, and leaves what moved to the sentence
# over the list ("Comparable sales increased 11.7% across all segments:" over "U.S.
# increased 10.3%", "International Operated Markets segment increased 11.9%")
_PART_MOVED = deferred(
    r"(?:[•▪◦·*–-]\s*)?(?:[A-Z][\w.&'’-]*\s+){1,6}(?:segments?\s+|regions?\s+)?"
    r"(?:increased|decreased|grew|rose|fell|declined|(?:was|were)\s+(?:up|down))\s+(?:by\s+)?"
    r"\(?-?\d[\d.,]*\)?\s?(?:%|percent\b)(?!.*\d)"  # one part, one figure
)


def led_sentences(text: str) -> list[tuple[str, str]]:
    """A page's sentences, each on one line, with the sentence over it where it is a list's
    item that leaves what moved to it (`_PART_MOVED`; "" where it is not)."""
    out: list[tuple[str, str]] = []
    lead = ""  # a sentence ending in a colon, over the list items after it
    for sentence in sentences_of(text):
        flat = " ".join(sentence.split())
        if not re.search(r"\w", flat):
            continue  # a list's bullet on a line of its own
        item = bool(lead) and bool(_PART_MOVED.match(flat))
        out.append((flat, f"{lead} " if item else ""))
        lead = flat if flat.endswith(":") else lead if item else ""
    return out


_PARENTHESISED = deferred(r"\([^()]*\)")


_MAX_LABEL = 220  # characters of a sentence shown as a figure's label


def sentence_label(sentence: str) -> str:
    """A sentence as a figure's label: cut to `_MAX_LABEL` characters."""
    return sentence if len(sentence) <= _MAX_LABEL else f"{sentence[: _MAX_LABEL - 1]}…"


def numbers(text: str) -> list[re.Match[str]]:
    """The numbers of a text that may be figures: no year, no day of a date ("May 31")."""
    return [
        m
        for m in _ANY_NUMBER.finditer(text)
        if not A_YEAR.fullmatch(m.group(0))
        and (text[: m.start()].split() or [""])[-1].lower() not in MONTHS
    ]


def position(sentence: str, shown: str) -> int:
    """Where a figure as written stands in its sentence, as a whole number ("6,000" is not
    the end of "136,000"); -1 when it is not there."""
    found = re.search(rf"(?<![\d,.]){re.escape(shown)}(?!\d)", sentence)
    return found.start() if found else -1


def own_words(sentence: str, shown: str) -> tuple[int, str, str]:
    """Where a figure stands in its sentence (`position`), its own words (from the figure
    before it to the next one) and the words before every figure (the sentence's subject)."""
    at, spans = position(sentence, shown), [m.span() for m in numbers(sentence)]
    start = max((e for _, e in spans if e <= at), default=0)
    end = min((s for s, _ in spans if s > at), default=len(sentence))
    return at, sentence[start:end], sentence[: min((s for s, _ in spans), default=0)]


# a percentage a question asks of a sentence: a change, comparable sales, or a share
PERCENT_ASKED = deferred(
    r"\bby (?:what|how much) (?:percent|percentage|%)|\bwhat (?:was |is )?(?:the )?"
    r"percent(?:age)?(?: point)? (?:increase|decrease|change|growth|decline|rise)|"
    r"\bpercent(?:age)? (?:increase|decrease|change|growth|decline) (?:in|of)\b|"
    r"\b(?:comparable|same[- ]store|comp)\s+(?:store\s+)?sales\b|"
    r"\bhow much did\b.{1,120}\b(?:grow|increase|rise|decline|decrease|fall)\b.{0,120}"
    r"\bin (?:percent|percentage|%)",
    re.IGNORECASE,
)
# a share asked of a whole: "what share of Acme's revenues came from Europe", "approximately
# what percentage of its payment volume was generated outside the U.S."
SHARE_ASKED = deferred(
    r"\b(?:what|which)\s+(?:share|percentage|percent|portion|proportion|fraction)\s+of\b",
    re.IGNORECASE,
)
_OF_A_WHOLE = deferred(
    r"(?:\s*(?:,|and|,\s*and)\s+\(?-?\d+(?:\.\d+)?\)?\s?%)*\s+of\s+(?!(?:approximately|about|\$|\d))",
    re.IGNORECASE,
)  # "37% and 36% of TPV, respectively"


MOVED_BY = deferred(
    r"\b(?:increas|decreas|grew|grow|declin|rose|rise|fell|fall|drop|up|down|by)\w*\s+"
    r"(?:of\s+|by\s+)?(?:approximately\s+|about\s+|nearly\s+)?$",
    re.IGNORECASE,
)


def of_a_whole(sentence: str, percent: re.Match[str], whole: tuple[str, ...] = ()) -> bool:
    """Whether a percentage is said as a share of something ("59% of our GMV", "28% of
    total revenues"), not as a change ("increased 5% of ..."); where the question names its
    whole (`whole_words`), a share of that whole, not of another ("47% of cloud services
    revenues" for a share of total revenues)."""
    moved = MOVED_BY.search(sentence[max(0, percent.start() - 40) : percent.start()])
    of = _OF_A_WHOLE.match(sentence, percent.end())
    if moved or of is None:
        return False
    said = whole_words(sentence[of.end() :])
    return not whole or (bool(said) and set(said) <= set(whole))


# where the words naming a whole end: a verb, a preposition of place or time, punctuation
_WHOLE_END = deferred(
    r"\b(?:was|were|is|are|came|come|comes|generated|derived|from|in|for|during|by|"
    r"attributable|represented|respectively|did|does|do|account(?:ed)?)\b|[,;:()?]|"
    r"(?<!\b[A-Z])\.",  # not an abbreviation's letter ("U.S. employees")
    re.IGNORECASE,
)
_NOT_THE_WHOLE = frozenset("our its their the total company s of a an".split())


def whole_words(text: str) -> tuple[str, ...]:
    """The words of the whole a share is of, from the start of `text` ("our total revenues
    in 2020" → ("revenue",))."""
    end = _WHOLE_END.search(text)
    words = phrase_words(text[: end.start() if end else len(text)]).split()
    return tuple(w for w in words if w not in _NOT_THE_WHOLE and len(w) > 1)


# the words that open what caused a change a sentence reports: "primarily due to a $114
# million loss", "driven by growth in TPV"
CAUSE = deferred(
    # not a maturity: "notes due to 2031"
    r"\b(?:driven|due\s+to(?!\s+(?:19|20)\d\d\b)|attributable\s+to|because|as\s+a\s+result\s+of|reflecting|"
    r"resulting\s+from|(?:partially\s+)?offset\s+by|primarily\s+(?:by|from))\b",
    re.IGNORECASE,
)


# a total of listed figures asked: "the total aggregate principal amount", "how many permanent
# employees in total (full-time plus part-time)", "combined", "altogether"
TOTAL_ASKED = deferred(
    r"\b(?:total|combined)\s+(?:aggregate\s+)?(?:principal\s+)?amount\b|\bin\s+total\b|"
    r"\bcombined\b|\baltogether\b",
    re.IGNORECASE,
)


def said_of_part(
    sentence: str, found: list[re.Match[str]], shares: list[re.Match[str]], part: tuple[str, ...]
) -> list[re.Match[str]]:
    """Of a sentence's percentages (`found`; `shares`: those said as shares of the whole
    asked), the ones said of the part asked, where the sentence gives a share of the whole:
    the figure whose words since the figure before name every word of the part, and those in
    parentheses right after it ("three largest customers accounted for 39% of our net revenue,
    with Dell Inc. accounting for 17% (17% in 2019 ...)": Dell's are 17% and 17%); of parts
    listed before figures said "respectively", the one in the part's place; else, or where
    none names it, the shares."""
    if not part or not found or not shares:
        return shares
    listed = _in_its_place(sentence, found, part)
    if listed is not None:
        return listed
    # "42% of our net revenues from customers domiciled outside of the U.S. ... as compared to
    # 43% ...": the share whose own words after it name the part, and the figures after it
    ends = [*(m.start() for m in found[1:]), len(sentence)]
    of_part = [
        m
        for m, end in zip(found, ends, strict=True)
        if m in shares and _names_all(sentence[m.end() : end], part, of=True)
    ]
    starts = [0, *(m.end() for m in found[:-1])]
    named = of_part or [
        m
        for m, start in zip(found, starts, strict=True)
        if _names_all(sentence[start : m.start()], part)
    ]
    # the part's figures go on until a figure that names another ("..., Lenovo ... 12%"),
    # through its parentheses ("17% (17% in 2019 ...)") and its list ("20 percent of our
    # consolidated net sales and 29 percent of net sales of our North America Retail segment")
    kept: list[re.Match[str]] = []
    for i, (m, start) in enumerate(zip(found, starts, strict=True)):
        if m in named or (
            i > 0
            and kept
            and kept[-1] is found[i - 1]
            and not _NAME.search(re.sub(r"\([^()]*\)", "", sentence[start : m.start()]))
        ):
            kept.append(m)
    return [m for m in kept if m in shares] or kept or shares


_NAME = deferred(r"\b[A-Z][a-z]")  # a capitalised word: a name another figure is said of


def _names_all(words: str, part: tuple[str, ...], *, of: bool = False) -> bool:
    """Whether `words` say every word of the part (`of`: as what a share is "of", right after
    its figure)."""
    if of and not re.match(r"\s*of\b", words, re.IGNORECASE):
        return False
    if of:  # up to its clause's end: not "39% of our net revenue, with Northwind ..."
        words = re.split(r"[,;]|\s(?:with|while|whereas|and)\s", words)[0]
    joined = words.replace("-", "")
    return all(re.search(rf"\b{re.escape(w)}", joined, re.IGNORECASE) for w in part)


def _in_its_place(
    sentence: str, found: list[re.Match[str]], part: tuple[str, ...]
) -> list[re.Match[str]] | None:
    """The figure in the part's place among names listed before figures said "respectively"
    ("Sony and Microsoft accounted for 12% and 10%, respectively": Microsoft's is 10%)."""
    said = RESPECTIVELY.search(sentence)
    if said is None or said.start() < found[-1].end():
        return None
    figures = [m for m in found if m.end() <= said.start()]
    chunks = re.split(r",\s*(?:and\s+)?|\s+and\s+", sentence[: found[0].start()])
    names = [  # the names listed, in order: capitalised, no sentence's opening word
        n for n in chunks if re.match(r"\s*[A-Z]", n) and n.split()[0].lower() not in _OPENERS
    ][-len(figures) :]
    at = [
        i
        for i, n in enumerate(names)
        if any(re.search(rf"\b{re.escape(w)}\b", n, re.I) for w in part)
    ]
    if len(at) != 1 or len(names) != len(figures) or len(figures) < 2:
        return None
    return [figures[at[0]]]


_OPENERS = frozenset("we in our the during for as at its their".split())


# where a sentence turns to what caused its figure: "Net revenues increased 7% ..., driven
# primarily by growth in total payment volume" speaks of net revenues, not of the volume
def clause_of(sentence: str, shown: str) -> str:
    """The part of `sentence` between the causes it names that holds the figure `shown`."""
    return clause_at(sentence, position(sentence, shown))[0]


def clause_at(sentence: str, at: int) -> tuple[str, int]:
    """The part of `sentence` between the causes it names that holds position `at`, and where
    that position is in it."""
    if at < 0:
        return sentence, at
    cuts = [0, *(m.start() for m in CAUSE.finditer(sentence)), len(sentence)]
    start, end = next((a, b) for a, b in pairwise(cuts) if a <= at < b)
    return sentence[start:end], at - start
