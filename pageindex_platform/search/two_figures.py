"""How much one figure is more or less than another, both named by the question: "How much
higher were Acme's Americas revenues than its EMEA revenues in fiscal 2018?", "How much more
operating income did Acme's Client Group generate than its Data Center Group in 2020?", "how
much more net revenue did Acme generate in the U.S. than in other countries?". Each side is
asked as a question of its own, of the same filing, and checked as any figure is; the
difference is stated only where both sides pass every check, in the same unit and period."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..patterns import deferred
from .headline import Stated, input_check
from .results import Check, Headline
from .sentence_numbers import SCALES
from .sides_asked import PLACE_FIRST, change_sides, combined_sides, same_line, span_kind

_MORE = r"(?P<more>more|higher|larger|greater|bigger|less|lower|smaller|fewer)"
_START = r"^(?P<lead>.*?)\b"
_HOW_MUCH = r"how\s+much\s+"
# the period and the words after the comparison: "... in fiscal 2018?", "? Answer in USD ..."
_TAIL = (
    r"(?P<tail>(?:,?\s+(?:in|for|during|as\s+of|at|over)\s+(?:the\s+)?(?:fiscal|fy|q[1-4]|first|"
    r"second|third|fourth|full|year|quarter|three|six|nine|twelve|(?:19|20)\d\d|jan|feb|mar|apr|"
    r"may|jun|jul|aug|sep|oct|nov|dec)[^?]*)?)"
    r"\?\s*(?P<after>.*)$"
)


def _question(body: str) -> re.Pattern[str]:
    """A question whose words from its start (a lead such as "In its 2019 10-K,") to its
    period and closing words (`_TAIL`) are `body`."""
    return re.compile(rf"{_START}{body}{_TAIL}", re.IGNORECASE | re.DOTALL)


# "How much higher were A than B in P?"
_WERE = _question(rf"{_HOW_MUCH}{_MORE}\s+(?P<be>was|were|is|are)\s+(?P<a>.+?)\s+than\s+(?P<b>.+?)")
# "How much more N did A generate (in X) than B (in P)?"
_DID = _question(
    rf"{_HOW_MUCH}{_MORE}\s+(?P<what>[^?]+?)\s+did\s+(?P<a>.+?)\s+(?P<verb>generate|earn|report|"
    r"record|make|produce|spend|have|bring\s+in|post|pay|incur)\b(?P<aside>[^?]*?)\s+than\s+"
    r"(?P<b>.+?)"
)


def _split_at_and(lead: str) -> tuple[re.Pattern[str], ...]:
    """A question of two sides joined by "and" after `lead`: the second side after "and its",
    "and the" where the question says so (names hold "and"), else after the first "and"."""
    return tuple(
        _question(rf"{lead}(?P<a>[^?]+?)\s+and\s+{second}(?P<b>[^?]+?)")
        for second in (r"(?=(?:its|their|the)\s)", "")
    )


def _first_match(patterns: Sequence[re.Pattern[str]], question: str) -> re.Match[str] | None:
    """The match of the first pattern that matches the question."""
    return next((m for m in (p.match(question) for p in patterns) if m is not None), None)


# "What was the sum of A and B in P?", "What were A and B combined in P?"
_SUM_OF = _split_at_and(
    r"what\s+(?P<be>was|were|is|are)\s+the\s+(?:combined\s+)?(?:sum|total)\s+of\s+"
)
# "What was the combined revenue of A and B in P?"
_COMBINED_OF = _question(
    r"what\s+(?P<be>was|were|is|are)\s+the\s+(?:combined|total)\s+(?P<what>[^?]+?)\s+of\s+"
    r"(?P<a>[^?]+?)\s+and\s+(?P<b>[^?]+?)"
)
_COMBINED = _question(
    r"what\s+(?P<be>was|were|is|are)\s+(?P<a>[^?]+?)\s+"
    r"and\s+(?P<b>[^?]+?)\s+(?:combined|together|in\s+total)"
)
# "What was the difference between A and B in P?", "By how much did A exceed B in P?"
_BETWEEN = _split_at_and(r"what\s+(?P<be>was|were|is|are)\s+the\s+difference\s+between\s+")
_EXCEED = _question(
    r"by\s+how\s+much\s+(?P<be>did|does|do)\s+(?P<a>[^?]+?)\s+exceed\s+(?P<b>[^?]+?)"
)
# "How much more did A spend on X than on Y in P?"
_SPENT = _question(
    rf"{_HOW_MUCH}{_MORE}\s+did\s+(?P<a>.+?)\s+(?P<verb>spend|invest|pay)\s+(?P<on>on|in|for)\s+"
    r"(?P<x>.+?)\s+than\s+(?:on|in|for)\s+(?P<y>.+?)"
)
# a period a side ends with: a (fiscal) year, a quarter of one, its first months
_SPAN = (
    r"(?:(?:the\s+)?(?:(?:first|second|third|fourth)\s+quarter|first\s+(?:three|six|nine)\s+"
    r"months|q[1-4])\s+(?:of\s+)?(?:fiscal\s+(?:year\s+)?)?|(?:the\s+)?fiscal\s+(?:year\s+)?|fy\s?)?"
)
# a period said at the end of the first side only ("AES's total revenue in 2021 exceed ...")
_SIDE_TAIL = deferred(
    rf"^(?P<a>.+?)(?P<tail>,?\s+(?:in|for|during)\s+{_SPAN}(?:19|20)\d\d)$", re.IGNORECASE
)
# a side that names its own period ("net income in fiscal 2022 than ... in the nine months
# ended ..."): a difference across periods, which is not this shape
_OWN_PERIOD = deferred(
    r"(?:19|20)\d\d|\b(?:q[1-4]|fy\d*|fiscal|quarter|months|year)\b", re.IGNORECASE
)
# the other side named as a part of the same owner: "its Data Center Group", "Acme's EMEA"
_NAMED_SIDE = deferred(r"^(?:its|their|the)\s|^[A-Z]")
_LESS = frozenset(("less", "lower", "smaller", "fewer"))


@dataclass(frozen=True)
class TwoAsked:
    """The two figures a difference is asked of, each as a question of its own; `less`: the
    second less the first is asked ("how much lower was A than B")."""

    first: str
    second: str
    less: bool
    added: bool = False  # the sum is asked ("the sum of A and B", "A and B combined")
    periods: bool = False  # one line in two periods ("revenue in 2019 than in 2018")
    percent: bool = False  # the difference as a percentage of the second side
    # other readings of the two sides, in order: (first, second, part named by the first,
    # by the second)
    others: tuple[tuple[str, str, str, str], ...] = ()
    parts: tuple[str, str] = ("", "")  # the parts each side names, where two parts are asked


@lru_cache(maxsize=256)  # a question's shape is read by several steps of one answer
def two_asked(question: str) -> TwoAsked | None:
    """The two questions whose figures' difference (or sum) `question` asks, or None: the
    shapes below first, then one line's change between two periods, then parts combined."""
    shaped, readings = _shaped(question), combined_sides(question)
    if readings and (shaped is None or (shaped.added and not shaped.periods)):
        # two parts combined, each reading keeping the words both share ("the combined sales
        # of Acme's A and B segments": "Acme's A segment", "Acme's B segment"), each side's
        # figure a row that names its part
        first, *others = readings
        pairs = tuple((x.first, x.second, *x.parts) for x in others)
        return TwoAsked(
            first.first, first.second, False, added=True, others=pairs, parts=first.parts
        )
    if shaped is not None:
        return shaped
    change = change_sides(question)
    if change is not None:
        return TwoAsked(
            change.first,
            change.second,
            change.less,
            periods=True,
            percent=change.percent,
            parts=change.parts,
        )
    return None


def _shaped(question: str) -> TwoAsked | None:
    """The two questions of a difference (or sum) in one of the shapes above, or None."""
    combined = _COMBINED_OF.match(question)
    if combined is not None and not _OWN_PERIOD.search(combined["a"] + combined["b"]):
        what = f"what {combined['be']} the {combined['what']} of"  # "the revenue of A"
        first, second = (_whole(combined, f"{what} {combined[x].strip()}") for x in ("a", "b"))
        return TwoAsked(first, second, False, added=True)
    added = _first_match([*_SUM_OF, _COMBINED], question)
    if added is not None:
        side_a, side_b = added["a"].strip(), added["b"].strip()
        across = _across(side_a, side_b)  # "revenues in 2020 and 2021 combined"
        if across is not None:
            first, second = (_whole(added, f"what {added['be']} {side}") for side in across)
            return TwoAsked(first, second, False, added=True, periods=True)
        noun = side_b.split()[-1]
        if side_a.split()[-1][:1].isupper():  # "Acme's Americas and EMEA revenues"
            side_a = f"{side_a} {noun}"
        first, second = (f"what {added['be']} {side}" for side in (side_a, side_b))
        if _OWN_PERIOD.search(first.removeprefix("what")) or _OWN_PERIOD.search(second):
            return None
        return TwoAsked(_whole(added, first), _whole(added, second), False, added=True)
    between = _first_match([*_BETWEEN, _EXCEED], question)
    if between is not None:
        return _between(between)
    spent = _SPENT.match(question)
    if spent is not None:  # each side: "how much did A spend on X"
        did = f"how much did {spent['a']} {spent['verb']} {spent['on']}"
        less = spent["more"].lower() in _LESS
        across = _across(spent["x"].strip(), spent["y"].strip())  # "... in 2022 than in 2021"
        if across is not None:
            first, second = (_whole(spent, f"{did} {side}") for side in across)
            return TwoAsked(first, second, less, periods=True)
        first, second = (_whole(spent, f"{did} {spent[x].strip()}") for x in ("x", "y"))
        return TwoAsked(first, second, less=less)
    found = _DID.match(question)
    if found is not None:
        what, verb, aside = found["what"], found["verb"], found["aside"]
        side_b = found["b"].strip()
        if PLACE_FIRST.match(side_b):  # "generate in the U.S. than in other countries"
            second = f"what {what} did {found['a']} {verb} {side_b}"
        elif _NAMED_SIDE.match(side_b):  # "than its Data Center Group"
            second = f"what {what} did {side_b} {verb}{aside}"
        else:
            return None  # "R&D expense ... than sales and marketing expense": another shape
        first = f"what {what} did {found['a']} {verb}{aside}"
    else:
        found = _WERE.match(question)
        if found is None:
            return None
        first = f"what {found['be']} {found['a']}"
        second = f"what {found['be']} {same_line(found['a'], found['b'].strip())}"
        across = _across(found["a"].strip(), found["b"].strip())  # "in 2019 than in 2018"
        if across is not None:
            first, second = (f"what {found['be']} {side}" for side in across)
            less = found["more"].lower() in _LESS
            return TwoAsked(_whole(found, first), _whole(found, second), less, periods=True)
    if _OWN_PERIOD.search(first.removeprefix("what")) or _OWN_PERIOD.search(second):
        return None
    less = found["more"].lower() in _LESS
    return TwoAsked(_whole(found, first), _whole(found, second), less)


_PREPOSITION = deferred(r"^(?:in|for|during)\s+", re.IGNORECASE)
# a side that is only another period of the first side's line: "2021", "in fiscal 2018", "in
# the second quarter of 2022"
_ONLY_PERIOD = deferred(
    rf"^(?:(?:in|for|during)\s+)?{_SPAN}(?P<year>(?:19|20)\d\d)$", re.IGNORECASE
)


def _across(side_a: str, side_b: str) -> tuple[str, str] | None:
    """The two sides of one line asked in two periods ("eBay's net revenue in 2019" and "in
    2018"): each the line with its own period; None where the second side is not a period."""
    own, other = _SIDE_TAIL.match(side_a), _ONLY_PERIOD.match(side_b)
    if own is None or other is None or _OWN_PERIOD.search(own["a"]):
        return None
    if span_kind(own["tail"]) != span_kind(side_b):
        return None  # "in the second quarter of 2023 than in 2022": not one length
    period = _PREPOSITION.sub("", side_b)  # "in fiscal 2018": "fiscal 2018"
    return side_a, f"{own['a']} in {period}"


def _between(found: re.Match[str]) -> TwoAsked | None:
    """The two sides of "the difference between A and B" or "by how much did A exceed B", the
    period the first side ends with (where the question has none after the second) said of
    both."""
    side_a, side_b, tail = found["a"].strip(), found["b"].strip(), found["tail"]
    own = _SIDE_TAIL.match(side_a)
    if own and not tail:
        side_a, tail = own["a"], own["tail"]
    if _OWN_PERIOD.search(side_a) or _OWN_PERIOD.search(side_b):
        return None  # a difference across periods: not this shape
    lead = found["lead"].strip()
    after = f"{tail}? {found['after']}".rstrip()
    first, second = (f"{lead} What was {side}{after}".strip() for side in (side_a, side_b))
    return TwoAsked(first, second, less=False)


def _whole(found: re.Match[str], asked: str) -> str:
    """A side's question with the original's lead, period and closing words."""
    lead = found["lead"].strip()
    text = f"{lead} {asked}" if lead else asked[:1].upper() + asked[1:]
    return f"{text}{found['tail']}? {found['after']}".strip()


def difference(
    two: TwoAsked, stated_of: Callable[[str], Stated], own: frozenset[str] = frozenset()
) -> Stated | None:
    """The difference (or sum) of the two figures `stated_of` states for each side's
    question, of the first reading of the two sides where both state one, in the same unit and
    period; None where no reading does."""
    for first_asked, second_asked, *parts in ((two.first, two.second, *two.parts), *two.others):
        first, second = stated_of(first_asked), stated_of(second_asked)
        a, b = first.headline, second.headline
        if (
            a is not None
            and b is not None
            and _one_pair(two, a, b)
            and all(_names(x.label, part, own) for x, part in zip((a, b), parts, strict=True))
        ):
            return _worked(two, first, second, a, b)
    return None


def _names(label: str, part: str, own: frozenset[str]) -> bool:
    """Whether a figure's label names the part its side asks ("" asks none): a word of a
    part's name ("Segment net revenues" is no "Activision" segment's), and of a line's, each
    capitalised word that is not the company's ("EMEA" of "Oracle's EMEA hardware revenues":
    not the row "Hardware")."""
    if not part:
        return True
    words = [w for w in re.findall(r"[A-Za-z0-9]+", part) if len(w) > 2 or w.isupper()]
    said = [w for w in words if re.search(rf"\b{re.escape(w)}", label, re.IGNORECASE)]
    named = [
        w
        for w in re.findall(r"\b[A-Z][\w&-]*", re.sub(r"['’]s?\b", "", part))
        if w.lower() not in own | _KIND_WORDS
    ]
    # the name said right before its kind is named even where it is the company's word
    # ("Activision Blizzard's Blizzard segment": not the row "Segment net revenues")
    named += re.findall(rf"\b([A-Z][\w&-]*)\s+(?i:{'|'.join(_KIND_WORDS)})\b", part)
    return bool(said) and all(_said_in(w, label) for w in named)


def _said_in(word: str, label: str) -> bool:
    """Whether a label says a word, or, of an abbreviation, the words it shortens ("R&D":
    "Research and development", "AWS": "Amazon Web Services")."""
    if re.search(rf"\b{re.escape(word)}", label, re.IGNORECASE):
        return True
    letters = re.sub(r"[^A-Z]", "", word)
    initials = "".join(w[0] for w in re.findall(r"[A-Za-z]+", label)).upper()
    return len(letters) >= 2 and re.search(".*".join(letters), initials) is not None


# a kind of part a row need not repeat ("Data Center Group": the row "Data Center")
_KIND_WORDS = frozenset("group groups segment segments division business unit sbu".split())


_NO_AMOUNT = frozenset(("%", "percent", "ratio", "x", "times", ""))  # units of no amount


def _one_pair(two: TwoAsked, a: Headline, b: Headline) -> bool:
    """Whether two sides' figures are two figures of one unit and filing, of one period (or,
    of one line, two periods); a computed one only an amount ("free cash flow") of one span."""
    computed = a.kind == "metric" or b.kind == "metric"
    if computed and (a.unit in _NO_AMOUNT or b.unit in _NO_AMOUNT or two.periods or two.percent):
        return False  # a ratio's difference, or a metric's change: not two amounts
    spans = (a.period_start, a.period_end) != (b.period_start, b.period_end)
    apart = spans if computed else a.period != b.period
    if a.unit != b.unit or a.document != b.document or apart != two.periods:
        return False  # one period asked of both sides (or, of one line, two periods)
    if two.percent and not b.value:
        return False
    if two.periods and (a.label, a.page) != (b.label, b.page):
        return False  # one line in two periods: one row of one table, read in two columns
    # both sides read as one figure: neither side's own is known
    return not ((a.label == b.label and not two.periods) or (a.page, a.value) == (b.page, b.value))


def _worked(two: TwoAsked, first: Stated, second: Stated, a: Headline, b: Headline) -> Stated:
    """The two figures' difference (or sum, or change in percent), with its working."""
    value = b.value - a.value if two.less else a.value - b.value
    if two.added:
        value = a.value + b.value
    shown = _shown_like(a.shown, value, a.value)
    larger, smaller = (b, a) if two.less else (a, b)
    label = f"{larger.label} {'plus' if two.added else 'less'} {smaller.label}"
    if two.periods:  # "Net revenues, 2019 less 2018"
        label = f"{a.label}, {larger.period} {'plus' if two.added else 'less'} {smaller.period}"
    unit = a.unit
    if two.percent:  # "by what percentage did A decrease in 2022 compared with 2021"
        value, unit = round(value / abs(b.value) * 100, 1), "%"  # as a change is written
        shown = f"{value:.1f}%"
        label = f"{a.label}, {'decrease' if two.less else 'change'} from {b.period} to {a.period}"
    checks = [*a.checks, *b.checks, input_check(a), input_check(b)]
    both = f"of {a.period} and of {b.period}, as asked" if two.periods else f"both of {a.period}"
    checks.append(Check("period", True, both))
    headline = Headline(
        value=value,
        shown=shown,
        unit=unit,
        label=label,
        period=a.period,
        period_start=a.period_start,
        period_end=a.period_end,
        document=a.document,
        page=a.page,
        checks=checks,
        kind="metric",
    )
    sign = "+" if two.added else "−"
    working = f"({larger.shown} {sign} {smaller.shown})"
    if two.percent:
        working = f"(({a.shown} − {b.shown}) / {b.shown})"
    text = "\n".join(
        [
            f"{shown} — {label} {working}, {a.period}",
            "Working:",
            *(f"- {x.label}: {x.shown} [{x.document}, p. {x.page}]" for x in (larger, smaller)),
        ]
    )
    return Stated(
        text,
        [*first.figures, *second.figures],
        readings=list(dict.fromkeys([*first.readings, *second.readings])),
        headline=headline,
    )


def _shown_like(shown: str, value: float, like: float) -> str:
    """`value` written as `shown` writes its figure `like` ("$18,410 million" → "$10,678
    million"): in the factor that figure's value has to its written number (1e6 where the
    value is in dollars, 1 where it is already in the millions asked)."""
    number = re.search(r"\d[\d,]*(?:\.(\d+))?", shown)
    if number is None:
        return f"{value:,.2f}"
    places = len(number.group(1) or "")
    written_as = float(number.group(0).replace(",", ""))
    factor = abs(like) / written_as if written_as and like else _scale(shown)
    written = f"{abs(value) / factor:,.{places}f}"
    before = shown[: number.start()].replace("-", "").replace("(", "")
    after = shown[number.end() :].replace(")", "")
    after = re.sub(r"\s*\(.*$", "", after)  # not the figure's own other writing
    return f"{'-' if value < 0 else ''}{before}{written}{after}"


def _scale(shown: str) -> float:
    """The factor `shown`'s number is written in (1e6 for "$18,410 million")."""
    return next((f for word, f in SCALES.items() if word in shown.lower()), 1.0)
