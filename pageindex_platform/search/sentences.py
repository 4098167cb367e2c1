"""Figures a filing states in its text rather than its tables: counts ("we operated 871
warehouses", "approximately 316,000 employees", "we repurchased 4.2 million shares") and
percentages ("paid memberships increased 7.6%"), found in the sentence that says them, with
its page, and checked as table figures are: the digits are on the page (they are read from
it), the sentence speaks of the period asked, and of the company rather than a segment
unless the question names one."""

from __future__ import annotations

import re

from ..db import queries
from ..db.queries import DocumentInfo
from ..db.sql import Session
from ..patterns import deferred
from .defined_terms import defined_terms, named_in_full
from .headline import Stated, not_sure
from .listed_counts import total_stated
from .listed_parts import after_noun, named_alone, owner
from .narrowing import counted_kind, place_check
from .part_said import part_check
from .results import Candidate, Check
from .sentence_checks import (
    act_asked,
    act_done,
    sentence_checks,
    sentence_figure,
    sentence_period,
    stated_from,
)
from .sentence_numbers import (
    A_YEAR,
    MONTHS,
    RESPECTIVELY,
    SCALES,
    clause_at,
    clause_of,
    led_sentences,
    numbers,
    of_a_whole,
    position,
    respective,
    said_of_part,
)
from .share_counts import count_row, noun_row
from .terms import initials, phrase_words
from .text_ask import DOWN, UP, TextAsk

_NUMBER = r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s*(million|billion|thousand)\b)?"
_PERCENT = deferred(r"\(?(-?\d+(?:\.\d+)?)\)?\s?(%|percent\b)", re.IGNORECASE)
# the parts listed after a whole: "136,000 employees, including 38,000 in ...", "143,000
# employees, of which 95,000 were employed internationally"
_INCLUDING = deferred(
    r"\b(?:including|of (?:which|whom))\b|,\s+with\b(?=\s+(?:approximately\s+|about\s+)?\d)"
)
# acts said in other words: "bought back" for "repurchased"
_SAME_ACT = {s: "repurcha|buy|bought" for s in ("repurcha", "repurchas", "buy")}
# a plural noun after the noun asked, which then only names a kind ("pharmacy stores")
_MODIFIER = deferred(
    r"\s+(?:[A-Z][a-z]+\s+)?(?!(?:across|was|has|is|as|its|this|plus|versus|less|us|thus)\b)"
    r"(?:[a-z]{2,}|[A-Z][a-z]+)s\b"
)  # "15 different Employee Resource Groups": groups, not employees
# the words a sentence about employing counts people by, beside "employees"
_PEOPLE = r"people|persons|individuals|team\s+members|associates"
# a bound, not a figure: "more than 10%", "less than 5%"
_BOUND = deferred(
    r"\b(?:more|less|greater|fewer)\s+than\s+$|\b(?:over|under|at\s+least|at\s+most|up\s+to|"
    r"exceed(?:ed|ing|s)?|below|above)\s+$",
    re.IGNORECASE,
)
# the verbs a sentence says how many there are with ("we had", "employed", "were outstanding")
_HAVING = deferred(
    r"\b(?:ha[sd]|have|employ(?:s|ed|ing)?|were|was|are|is|total\w*|operat\w*|own\w*|maintain\w*|"
    r"compris\w*|consist\w*)\b"
    # a group's size: "our global workforce of 110,600 people"
    r"|\b(?:workforce|headcount|staff|fleet|portfolio|network)\s+of\s+(?:approximately\s+|about\s+)?\d",
    re.IGNORECASE,
)
_SHARE_OF_ALL = deferred(r"[\d.]*\d\s?%\s+of\s+(?:our|the|its|their|total)\b", re.IGNORECASE)
# the company speaking of its own: "we", "our" ("In 2021, we signed ..., bringing our backlog")
_FIRST_PERSON = deferred(r"(?:^\W*the\s+company|\b(?:we|our))\b", re.IGNORECASE)
# units a count is printed in by their symbol ("8,228 MW of renewable generation")
_SYMBOLS = {"megawatt": "MW", "gigawatt": "GW", "kilowatt": "kW", "barrel": "bbl"}
_RANGE = deferred(r"(?:\d\s*(?:to|-|–|and)\s*)$")  # "20 to 30": a range, not a count
_PERCENT_SHOWN = deferred(r"%|\bpercent\b", re.IGNORECASE)  # "48 percent were located"


def text_stated(
    *, session: Session, question: str, document: DocumentInfo, ask: TextAsk, year: int | None
) -> Stated:
    """The best sentence's figure, checked; candidates set aside when none passes."""
    found = _found(session, document, ask)
    names = (document.company or "", *document.company_aliases)
    aside: list[Candidate] = []
    found = [f for f in found if ask.percent or not _PERCENT_SHOWN.search(f[4])]  # a share
    # the figures of the first eight sentences (a long list of parts fills no more than its own)
    kept = list(dict.fromkeys(f[2] for f in found))[:8]
    found = [f for f in found if f[2] in kept][:16]
    page_of = {sentence: page for _, page, sentence, _, _ in found}  # each sentence read once
    listed = [(page, sentence, _figures(sentence, ask)) for sentence, page in page_of.items()]
    total = total_stated(
        question=question, found=listed, ask=ask, document=document, year=year, aside=aside
    )
    if total is not None:
        return total
    checked_as = named_in_full(question, defined_terms(session, document, question))
    for _, page, sentence, value, shown in found:
        checks = sentence_checks(sentence, document, year, checked_as, page, shown)
        if not ask.percent:
            checks += [_attached(sentence, shown, ask), counted_kind(question, shown)]
        checks.append(respective(sentence, shown, ask.percent, year))
        checks.append(place_check(question, sentence, shown, names))
        checks.append(part_check(question, sentence, document, shown))  # "its South America SBU"
        figure = sentence_figure(
            value=value,
            shown=shown,
            unit="%" if ask.percent else ask.noun,
            sentence=sentence,
            period=sentence_period(document, year),
            document=document,
            page=page,
            checks=checks,
        )
        stated = stated_from(figure, aside)
        if stated is not None:
            return stated
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
    # a noun of one who is done to ("employee") by its verb's stem: "93,516 people ... employed"
    keys = (
        [ask.noun.removesuffix("ee") if ask.noun.endswith("ee") else ask.noun] if ask.noun else []
    )
    keys = keys or list(ask.terms)
    keys = [k for k in keys if len(k) > 2] + ([_SYMBOLS[ask.noun]] if ask.noun in _SYMBOLS else [])
    pages = queries.pages_mentioning(session, document, keys, ranked=True)
    out: list[tuple[int, int, str, float, str]] = []
    for page in pages:
        for flat, said in led_sentences(page.text):
            for value, shown in _figures(flat, ask):
                clause = said + clause_of(flat, shown)
                if ask.subject and _score(clause, ask, ask.subject) < len(ask.subject):
                    continue  # "rooms revenue increased 5%, due to ... REVPAR": not REVPAR's
                if (ask.subject or ask.direction) and _SHARE_OF_ALL.match(flat[flat.find(shown) :]):
                    continue  # "35% of our total workforce": a share, not the change asked
                out.append((_score(clause, ask), page.page, flat, value, shown))
    out.sort(key=lambda x: (-x[0], x[1]))
    # a sentence names at least half of what is asked ("global comparable sales": two of the
    # three words), or it speaks of something else; a percentage, two words at least where
    # two are asked (one word shared is no sign of what a percentage is of), and every word
    # where three at most are asked ("net revenues increased 19%" is no change of net
    # transaction revenues)
    least = (len(ask.terms) if len(ask.terms) <= 3 else 2) if ask.percent else 1
    return [x for x in out if x[0] >= max(least, (len(ask.terms) + 1) // 2)]


def _score(text: str, ask: TextAsk, of: tuple[str, ...] = ()) -> int:
    """How many of the words asked (`of`, else all its terms) `text` says: a word in another
    form ("owned": "own"), the noun by its stem ("employed" speaks of employees); a name and
    its abbreviation ("accelerated share repurchase", "asr") are one thing asked, said either
    way."""
    words = phrase_words(text)
    terms = tuple(dict.fromkeys((*ask.terms, *of)))
    said = {
        t
        for t in terms
        if f" {t} " in words
        or re.search(rf"\b(?:{_noun(t) if t == ask.noun else _root(t)})", text, re.I)
    }
    return sum(t in said or _spelled(t, terms) & said != set() for t in of or ask.terms)


def _moves(sentence: str, at: int, direction: str) -> bool:
    """Whether the percentage at `at` moves the way asked ("up", "down"; "" asks none): the
    word of a move nearest before it in its clause, else the first after it ("casino revenue
    decreased 8%, ... due to a 4% increase in REVPAR": 8% is a decrease)."""
    if not direction:
        return True
    clause, here = clause_at(sentence, at)
    moves = sorted(
        [(m.start(), "up") for m in UP.finditer(clause)]
        + [(m.start(), "down") for m in DOWN.finditer(clause)]
    )
    before = [way for start, way in moves if start < here]
    after = [way for start, way in moves if start > here]
    said = before[-1] if before else after[0] if after else ""
    return said == direction


def _spelled(term: str, terms: tuple[str, ...]) -> set[str]:
    """The abbreviation a spelled-out name among `terms` has there, or the names an
    abbreviation spells out ("asr" and "accelerated share repurchase")."""

    if " " in term:
        return {t for t in terms if " " not in t and t == initials(term, _UNSPELLED)}
    return {t for t in terms if " " in t and initials(t, _UNSPELLED) == term}


_UNSPELLED = frozenset({"and", "of", "the", "for", "to"})  # words an abbreviation skips


def _figures(sentence: str, ask: TextAsk) -> list[tuple[float, str]]:
    """The figures of the kind asked in a sentence: a number before the noun asked, or a
    percentage in a sentence moving the way asked."""
    if ask.percent:
        joined = sentence.replace("-", "")  # "Wal-Mart" says "walmart"
        kept = [
            m
            for m in _PERCENT.finditer(sentence)
            if _moves(sentence, m.start(), ask.direction)
            and not _BOUND.search(sentence[: m.start()][-25:])
            and all(re.search(rf"\b{_root(w)}", joined, re.I) for w in ask.part)
        ]
        shares = [m for m in kept if not ask.share or of_a_whole(sentence, m, ask.whole)]
        return [
            (_signed(float(m.group(1)), m.group(0), sentence[: m.start()], ask), m.group(0))
            for m in said_of_part(sentence, kept, shares, ask.part)
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
            if "." in m.group(1) and not m.group(2) and ask.noun not in _SYMBOLS:
                continue  # "2.31 Employee ...": a section's number; a count is whole
            if before.rstrip().endswith(("$", "€", "£")):
                continue  # "$2.0 billion share repurchase program": money, not a count
            if not set(phrase_words(m.group(0)).split()) & set(ask.negated):
                found.setdefault(m.start(), (_value(m), m.group(0)))
        for m in after_noun(sentence, noun, _NUMBER):  # "active accounts of 431 million"
            found.setdefault(m.start(), (_value(m), m.group(0)))
        # "Of these employees, approximately 51,000 were employed in the United States and
        # approximately 85,000 were employed internationally": each counts the noun
        lead = re.match(
            rf"\W*of\s+(?:these|those|our|its|their|the)\s+(?:{noun})\w*,", sentence, re.I
        )
        start = lead.end() if lead else len(sentence)
        for m in re.finditer(rf"{_NUMBER}(?=\s+(?:were|are)\b)", sentence[start:]):
            found.setdefault(start + m.start(), (_value(m), m.group(0)))
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
    ups = [m.end() for m in UP.finditer(before)]
    downs = [m.end() for m in DOWN.finditer(before)]
    return -value if downs and max(downs) > max(ups, default=-1) else value


def _attached(sentence: str, shown: str, ask: TextAsk) -> Check:
    """Whether the sentence says what the question asks of this figure: the act asked
    ("repurchase") is in it, and the question's words in it go with this figure — a word
    with its figure (`owner`; a word before every figure is the subject, every figure's),
    what follows a shared noun with each figure of the phrase ("46,000 full-time and 18,000
    part-time employees domestically"); of parts listed after "including", the one the
    question's words name (`named_alone`)."""
    stem = ask.act[: max(4, len(ask.act) - 2)]
    if ask.act and not re.search(rf"\b(?:{_SAME_ACT.get(stem, stem)})", sentence, re.I):
        return Check("label", False, f"the sentence does not say {ask.act!r}")
    at = position(sentence, shown)
    other = _another_count(sentence, at, ask)
    if other is not None:
        return other
    # a figure in parentheses restates the one before it ("8,228 MW (4,293 proportional MW)
    # of renewable generation"): the words after go with that one
    asides = [
        m.span()
        for m in re.finditer(r"\([^()]*\)", sentence)
        if re.search(r"\d[\d,.]*\s*[A-Za-z]{0,4}\s*$", sentence[: m.start()])  # after a figure
    ]
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
        owners = [owner(spans, spot, sentence) for spot in spots]
        if part_of is not None and any(owner < part_of for owner in owners):
            continue  # "136,000 full-time employees, including 38,000 in ...": a part's too
        if part_of is not None and spots:
            listed = {o for s, o in zip(spots, owners, strict=True) if s > part_of}
            parts.append(named_alone(sentence, spans, listed, (*ask.terms, ask.noun)))
        if spots and not any(
            owner == at or (spot >= shared_from and at <= owner < shared_from)
            for spot, owner in zip(spots, owners, strict=True)
        ):
            return Check("label", False, f"the sentence gives {term!r} another figure")
    if parts and {at} not in parts:  # "10,000 in product support, 5,000 in hardware support"
        return Check("label", False, "the question's words go with several of the parts listed")
    return Check("label", True, "the question's words in the sentence go with this figure")


def _another_count(sentence: str, at: int, ask: TextAsk) -> Check | None:
    """Why the figure at `at` counts something else than what the question asks (None when
    it does not): what was done ("hired 23,000 new employees") where what there is is asked,
    those who do something ("9,000 employees leverage these programs"), a part of the whole
    ("50,000 employees, which constitute 32% of our workforce"), a capacity in a unit's
    symbol not said as the company's own ("Acme Southland ... 3,611 MW"); a sentence that says
    every other word of what is asked says how many of it there are."""
    done = act_done(sentence, at) if not ask.act else ""
    if done and not act_asked(done, ask.terms):  # "projects with signed contracts"
        return Check("label", False, f"the sentence says what was {done}")
    said = [t for t in ask.terms if t != ask.noun]  # "... distribute power to 9.4 million people"
    every = len(said) >= 2 and _score(sentence, ask, tuple(said)) == len(said)
    if not ask.act and not _HAVING.search(sentence) and not ask.done_said(sentence) and not every:
        return Check("label", False, "the sentence does not say how many there are")
    if _SHARE_OF_ALL.search(sentence[at:]):
        return Check("label", False, "the sentence gives a part of the whole count")
    if ask.noun in _SYMBOLS and not _FIRST_PERSON.search(sentence[: max(at, 0)]):
        return Check("label", False, "the sentence does not say the company's own")
    return None
