"""Figures a filing states in its text rather than its tables: counts ("we operated 871
warehouses", "approximately 316,000 employees", "we repurchased 4.2 million shares") and
percentages ("paid memberships increased 7.6%"), found in the sentence that says them, with
its page, and checked as table figures are: the digits are on the page (they are read from
it), the sentence speaks of the period asked, and of the company rather than a segment
unless the question names one."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy.orm import Session

from ..db import queries
from ..db.queries import DocumentInfo
from ..periods.filing_words import without_source
from .headline import Stated, not_sure
from .narrowing import counted_kind, place_asked, place_check, without_place
from .results import Candidate, Check, Headline
from .sentence_checks import sentence_checks
from .sentence_numbers import (
    A_YEAR,
    MONTHS,
    PERCENT_ASKED,
    RESPECTIVELY,
    SCALES,
    SENTENCE,
    SHARE_ASKED,
    numbers,
    of_a_whole,
    position,
    respective,
    sentence_label,
)
from .share_counts import count_row, noun_row
from .terms import phrase_words, spelled_out

_COUNT = re.compile(
    r"\bhow many\s+(?!times\b)"
    r"(?:of\s+(?:the\s+)?(?:(?-i:[A-Z][\w&.-]*\s+){0,3}[\w&.-]+['’]s?\s+)?)?"
    r"(?P<a>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3})"
    r"|\b(?:total\s+)?number of\s+(?P<b>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3})",
    re.IGNORECASE,
)
# ("how many times ... cover": a ratio, not a count); the words that end the noun phrase
# counted ("how many permanent part-time employees did ...")
_PHRASE_END = frozenset(
    "did does do were was are is had has have in at of as for will would could can there on "
    "by during from and or the a an that which who work worked operate operated employ "
    "employed".split()
)
_NUMBER = r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s*(million|billion|thousand)\b)?"
_PERCENT = re.compile(r"\(?(-?\d+(?:\.\d+)?)\)?\s?(%|percent\b)", re.IGNORECASE)
_STOP = frozenset(
    "a an the of in on at for to by and or did does do was were is are has have had how many "
    "what which number total company its their it as from with during end fiscal year quarter "
    "percent percentage increase decrease change growth grow rise decline compared over than "
    "versus vs much prior previous last first second third fourth yoy roughly approximately "
    "about around nearly based located headquartered share portion proportion came be being "
    "been would will could should say says said".split()
)
_STOP = _STOP | frozenset(phrase_words(w).strip() for w in _STOP)  # as words are compared
_UP = re.compile(r"\b(?:increas\w*|grew|grow\w*|rose|ris\w*|up|higher|improv\w*)\b", re.I)
_DOWN = re.compile(r"\b(?:decreas\w*|declin\w*|fell|fall\w*|down|lower|drop\w*)\b", re.I)
# the parts listed after a whole: "136,000 employees, including 38,000 in ...", "143,000
# employees, of which 95,000 were employed internationally"
_INCLUDING = re.compile(r"\b(?:including|of (?:which|whom))\b")
# the verbs a count is said with that name no act of its own ("did Costco have|operate",
# "does the company say it has established")
_BEING = frozenset(
    "have has had be operate own report record maintain total based located say said "
    "state disclose mention indicate".split()
)
# a name or an adverb ("how many employees globally were ..."): the counted phrase ends
_ENDS_PHRASE = re.compile(r"[A-Z].*|\w+(?:ally|ately)|worldwide|overall").fullmatch
# acts said in other words: "bought back" for "repurchased"
_SAME_ACT = {s: "repurcha|buy|bought" for s in ("repurcha", "repurchas", "buy")}
_AFTER_SUBJECT = re.compile(
    r"\b(?:did|does|do|will|has|have|had)\s+(?:(?:[A-Z&][\w&.'’-]*(?<!['’]s)(?<!['’])\s+){1,5}"
    r"|(?:the\s+company|it|they)\s+)(?P<verb>[a-z]+)"
    r"|\b(?:were|was|are|is|(?:have|has|had)\s+been)\s+(?P<done>[a-z]+ed)\b"  # "were repurchased"
)
# a plural noun after the noun asked, which then only names a kind ("pharmacy stores")
_MODIFIER = re.compile(
    r"\s+(?!(?:across|was|has|is|as|its|this|plus|versus|less|us|thus)\b)[a-z]{2,}s\b"
)
# the words a sentence about employing counts people by, beside "employees"
_PEOPLE = r"people|persons|individuals|team\s+members|associates"
_NEGATED = re.compile(r"\b(?:not|excluding|other\s+than|except)\s+([a-z][\w-]+)", re.IGNORECASE)
# units a count is printed in by their symbol ("8,228 MW of renewable generation")
_SYMBOLS = {"megawatt": "MW", "gigawatt": "GW", "kilowatt": "kW", "barrel": "bbl"}
_RANGE = re.compile(r"(?:\d\s*(?:to|-|–|and)\s*)$")  # "20 to 30": a range, not a count


@dataclass(frozen=True)
class TextAsk:
    """What a question asks a sentence for: a count of `noun`, or a percentage; `terms` are
    its other words a sentence should share."""

    percent: bool
    noun: str
    terms: tuple[str, ...]
    direction: str  # "up", "down" or ""
    qualifier: str = ""  # the counted phrase's first word: "full-time" of "full-time employees"
    act: str = ""  # what was done to what is counted: "repurchase" ("did Oracle repurchase")
    within: bool = False  # "how many of Acme's employees": "7,100 of our employees" counts
    share: bool = False  # a share of a whole: "59% of our GMV", not "increased 5%"
    negated: tuple[str, ...] = ()  # "(gross, not proportional)": not "4,293 proportional MW"


def text_ask(question: str, company_words: set[str]) -> TextAsk | None:
    """The count or percentage a question asks for in text; None when it asks neither."""
    count = _COUNT.search(question)
    share = SHARE_ASKED.search(question)
    percent = PERCENT_ASKED.search(question) or share
    if not count and not percent:
        return None
    # the place asked is the place check's (`place_check`), not words a sentence must share
    plain, spelled = spelled_out(without_source(without_place(question, company_words)))
    words = [
        w for w in phrase_words(plain).split() if w not in _STOP and not w.isdigit() and len(w) > 1
    ]
    terms = tuple(w for w in words if w not in company_words and not re.match(r"^(fy|q)\d", w))
    terms += tuple(phrase_words(name).strip() for name in spelled)  # "GMV" or its name
    noun = qualifier = ""
    if count:
        written = (count.group("a") or count.group("b") or "").split()
        while len(written) > 1 and written[0][:1].isupper():
            written = written[1:]  # "how many Apple employees": the owner's name first
        # the phrase ends at a verb or a name, read as written ("employees does Apple have")
        cut = next(
            (i for i, w in enumerate(written) if w.lower() in _PHRASE_END or _ENDS_PHRASE(w)),
            len(written),
        )
        said = phrase_words(" ".join(written[:cut] or written[:1])).split() or [""]
        noun = said[-1]  # the head: "permanent part-time employees"
        first = said[0] if len(said) > 1 else ""
        qualifier = first if first not in company_words else ""
    direction = "up" if _UP.search(question) else "down" if _DOWN.search(question) else ""
    acted = _AFTER_SUBJECT.search(question) if count else None
    verb = (acted.group("verb") or acted.group("done")) if acted else ""
    act = verb if verb not in _BEING | _PHRASE_END else ""
    of_place = place_asked(question, own_words=company_words)  # "7,100 of our employees" counts
    within = bool(re.search(r"\bhow many of\b", question, re.IGNORECASE) and of_place)
    share = share if not (count or direction) else None
    negated = tuple(phrase_words(" ".join(_NEGATED.findall(question))).split())
    terms = tuple(t for t in terms if t not in negated)
    plain_percent = bool(percent) and not count
    return TextAsk(
        plain_percent, noun, terms, direction, qualifier, act, within, bool(share), negated
    )


def text_stated(
    *, session: Session, question: str, document: DocumentInfo, ask: TextAsk, year: int | None
) -> Stated:
    """The best sentence's figure, checked; candidates set aside when none passes."""
    found = _found(session, document, ask)
    names = (document.company or "", *document.company_aliases)
    aside: list[Candidate] = []
    for _, page, sentence, value, shown in found[:8]:
        checks = sentence_checks(sentence, document, year, question, page, shown)
        if not ask.percent:
            checks += [_attached(sentence, shown, ask), counted_kind(question, shown)]
        checks.append(respective(sentence, shown, ask.percent, year))
        checks.append(place_check(question, sentence, shown, names))
        failed = next((c for c in checks if not c.passed), None)
        unit = "%" if ask.percent else ask.noun
        fields = {
            "value": value,
            "shown": shown,
            "unit": unit,
            "label": sentence_label(sentence),
            "period": _period(document, year),
            "period_start": None,
            "period_end": document.period_end,
            "document": document.name,
            "page": page,
            "checks": checks,
        }
        if failed is None:
            headline = Headline(**fields, kind="text")  # type: ignore[arg-type]
            text = f"{shown} — “{headline.label}” [{document.name}, p. {page}]"
            return Stated(text, headline=headline, candidates=aside)
        aside.append(Candidate(**fields, set_aside=failed.detail))  # type: ignore[arg-type]
    words = [ask.act, *ask.terms]
    row = None if ask.percent else count_row(session, document, ask.noun, words, year)
    if row is None and not ask.percent and not aside:  # "Employees (in thousands) 131.9"
        row = noun_row(session, document, ask.noun, year)
    if row is not None:
        row.candidates = aside
        return row
    what = "the percentage asked" if ask.percent else f"the number of {ask.noun}"
    return Stated(not_sure(what, aside), candidates=aside) if aside else Stated()


def _found(
    session: Session, document: DocumentInfo, ask: TextAsk
) -> list[tuple[int, int, str, float, str]]:
    """(score, page, sentence, value, as written) for each figure of the kind asked, best
    first: the sentences sharing most of the question's words."""
    keys = [ask.noun] if ask.noun else list(ask.terms)
    keys = [k for k in keys if len(k) > 2] + ([_SYMBOLS[ask.noun]] if ask.noun in _SYMBOLS else [])
    pages = queries.pages_mentioning(session, document, keys)
    out: list[tuple[int, int, str, float, str]] = []
    for page in pages:
        for sentence in SENTENCE.split(page.text):
            flat = " ".join(sentence.split())
            words = phrase_words(flat)
            # a word in another form ("owned": "own"), the noun by its stem ("employed"
            # speaks of employees)
            score = sum(
                f" {t} " in words
                or bool(re.search(rf"\b(?:{_noun(t) if t == ask.noun else _root(t)})", flat, re.I))
                for t in ask.terms
            )
            for value, shown in _figures(flat, ask):
                out.append((score, page.page, flat, value, shown))
    out.sort(key=lambda x: (-x[0], x[1]))
    # a sentence names at least half of what is asked ("global comparable sales": two of the
    # three words), or it speaks of something else; a percentage, two words at least where
    # two are asked (one word shared is no sign of what a percentage is of)
    least = min(len(ask.terms), 2) if ask.percent else 1
    return [x for x in out if x[0] >= max(least, (len(ask.terms) + 1) // 2)]


def _figures(sentence: str, ask: TextAsk) -> list[tuple[float, str]]:
    """The figures of the kind asked in a sentence: a number before the noun asked, or a
    percentage in a sentence moving the way asked."""
    if ask.percent:
        if ask.direction == "up" and not _UP.search(sentence):
            return []
        if ask.direction == "down" and not _DOWN.search(sentence):
            return []
        return [
            (_signed(float(m.group(1)), m.group(0), sentence[: m.start()], ask), m.group(0))
            for m in _PERCENT.finditer(sentence)
            if not ask.share or of_a_whole(sentence, m)
        ]
    # "871 warehouses", "4.2 million shares of common stock"; not "10,000 of our employees";
    # "46,000 full-time and 18,000 part-time employees": the first by its qualifier
    found: dict[int, tuple[float, str]] = {}
    # "46,000 full-time and ...", "328,000 permanent full-time and ..."
    shared = rf"[\w-]*(?:\s+[\w-]+){{0,2}}?\s+(?:and|or)\b[^;.]{{0,80}}?\b{_stem(ask.noun)}"
    ours = r"(?:of\s+(?:our|its|their)\s+)?" if ask.within else ""  # "7,100 of our employees"
    qualified = _stem(ask.qualifier) if ask.qualifier else None
    nouns = [n for n in (_noun(ask.noun), qualified) if n]
    if ask.noun.startswith("employ") and re.search(r"\bemploy", sentence, re.IGNORECASE):
        nouns.append(_PEOPLE)  # "we employed approximately 14,000 people"
    for noun in nouns:
        # not "Missouri 17 Total Domestic store count": a table's next row
        pattern = rf"{_NUMBER}\s+{ours}(?:(?!of\b|total\b)[A-Za-z-]+\s+){{0,3}}?(?:{noun})\w*"
        for m in re.finditer(pattern, sentence, re.IGNORECASE):
            if noun == qualified and not re.match(shared, sentence[m.end() :], re.IGNORECASE):
                continue  # by its qualifier only where the noun asked follows, shared
            if _MODIFIER.match(sentence[m.end() :]):
                continue  # "23 retail specialty pharmacy stores": the noun asked names a kind
            before = sentence[: m.start()]
            if A_YEAR.fullmatch(m.group(1)) or _RANGE.search(before):
                continue  # a year or a range's end, not a count
            if before.rstrip().endswith(("$", "€", "£")):
                continue  # "$2.0 billion share repurchase program": money, not a count
            if not set(phrase_words(m.group(0)).split()) & set(ask.negated):
                found.setdefault(m.start(), (_value(m), m.group(0)))
    including = _INCLUDING.search(sentence) if found else None
    if including and including.start() > min(found):
        # "136,000 employees, including approximately 38,000 in research and development":
        # the parts of the count (`_attached` tells which the question's words go with)
        for m in re.finditer(rf"{_NUMBER}\s+(?=in|at|for|within)\b", sentence[including.end() :]):
            found.setdefault(including.end() + m.start(), (_value(m), m.group(0).strip()))
    return [found[at] for at in sorted(found)]


def _value(number: re.Match[str]) -> float:
    """A `_NUMBER` match's value, its scale word applied ("4.2 million")."""
    scale = SCALES.get((number.group(2) or "").lower(), 1)
    return float(number.group(1).replace(",", "")) * scale


def _noun(noun: str) -> str:
    """A pattern of the noun counted: its stem, or the symbol of a unit ("MW" of megawatts)."""
    symbol = _SYMBOLS.get(noun)
    return f"{_stem(noun)}|{symbol}(?![a-z])" if symbol else _stem(noun)


def _root(word: str) -> str:
    """A word less its ending, as a pattern ("operated": "operat", "owned": "own"), where
    four letters or more remain (three for "owned"); else the word whole."""
    root = re.sub(r"(?:ing|ed|es|s)$", "", word)
    return re.escape(root if len(root) >= 3 and len(word) - len(root) <= 3 else word) + (
        r"\b" if len(root) < 4 else ""
    )


def _stem(noun: str) -> str:
    return re.escape(noun.rstrip("s")[:-1] if len(noun) > 4 else noun)


def _signed(value: float, shown: str, before: str, ask: TextAsk) -> float:
    """A percentage the sentence says fell ("comparable sales declined 6.2%", or "(6.2)%" as
    accounts print a negative) is a change of -6.2 — unless the question asks how much it
    fell, whose answer is the fall itself."""
    value = abs(value)
    if ask.direction:
        return value
    if shown.startswith("(") and ")" in shown:
        return -value
    ups = [m.end() for m in _UP.finditer(before)]
    downs = [m.end() for m in _DOWN.finditer(before)]
    return -value if downs and max(downs) > max(ups, default=-1) else value


def _attached(sentence: str, shown: str, ask: TextAsk) -> Check:
    """Whether the sentence says what the question asks of this figure: the act asked
    ("repurchase") is in it, and the question's words in it go with this figure — a word
    with its figure (`_owner`; a word before every figure is the subject, every figure's),
    what follows a shared noun with each figure of the phrase ("46,000 full-time and 18,000
    part-time employees domestically"). In "328,000 full-time and 201,000 part-time
    employees", "part-time" goes with 201,000; in "136,000 employees, including 38,000 in
    research and development", "research" with 38,000."""
    stem = ask.act[: max(4, len(ask.act) - 2)]
    if ask.act and not re.search(rf"\b(?:{_SAME_ACT.get(stem, stem)})", sentence, re.I):
        return Check("label", False, f"the sentence does not say {ask.act!r}")
    at = position(sentence, shown)
    # a figure in parentheses restates the one before it ("8,228 MW (4,293 proportional MW)
    # of renewable generation"): the words after go with that one
    asides = [m.span() for m in re.finditer(r"\([^()]*\)", sentence)]
    spans = [
        m.span()
        for m in numbers(sentence)
        if m.start() == at or not any(a < m.start() < b for a, b in asides)
    ]
    figures = [start for start, _ in spans]
    if at < 0 or at not in figures:
        return Check("label", True, "the sentence gives one figure of the kind asked")
    head = re.search(rf"\b{_stem(ask.noun)}\w*", sentence[at:], re.IGNORECASE)
    shared = head is not None and bool(
        re.search(r"\b(?:and|or)\b", sentence[at : at + head.start()])
    )
    shared_from = at + head.end() if head is not None and shared else len(sentence) + 1
    # a figure listed after "including" is a part of the one before it, and has its words
    including = _INCLUDING.search(sentence)
    part_of = including.start() if including and figures[0] < including.start() < at else None
    respectively = RESPECTIVELY.search(sentence)
    parts: list[set[int]] = []  # the parts each of the question's words goes with
    for term in ask.terms:
        if len(term) < 3 or term in MONTHS or term == ask.noun:
            continue
        spots = [m.start() for m in re.finditer(rf"\b{re.escape(term)}", sentence, re.I)]
        if respectively and spots and all(spot > respectively.start() for spot in spots):
            continue  # "..., respectively, under the stock repurchase program": every figure's
        if any(spot < figures[0] for spot in spots):
            continue  # a word before every figure is the sentence's subject, every figure's
        owners = [_owner(spans, spot, sentence) for spot in spots]
        if part_of is not None and any(owner < part_of for owner in owners):
            continue  # "136,000 full-time employees, including 38,000 in ...": a part's too
        if part_of is not None and spots:
            parts.append({o for s, o in zip(spots, owners, strict=True) if s > part_of})
        if spots and not any(
            owner == at or (spot >= shared_from and at <= owner < shared_from)
            for spot, owner in zip(spots, owners, strict=True)
        ):
            return Check("label", False, f"the sentence gives {term!r} another figure")
    if parts and {at} not in parts:  # "10,000 in product support, 5,000 in hardware support"
        return Check("label", False, "the question's words go with several of the parts listed")
    return Check("label", True, "the question's words in the sentence go with this figure")


def _owner(spans: list[tuple[int, int]], spot: int, sentence: str) -> int:
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


def _period(document: DocumentInfo, year: int | None) -> str:
    """The period a sentence's figure is of: the quarter of a quarter's filing, else the
    fiscal year asked, else the filing's period end."""
    if year is None:
        return str(document.period_end or "")
    quarter = document.fiscal_period if document.fiscal_period in ("Q1", "Q2", "Q3", "Q4") else ""
    return f"{quarter} FY{year}".strip() if document.fiscal_year == year else f"FY{year}"
