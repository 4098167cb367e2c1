"""What a question says that narrows the figure it asks below the line it names: a place
("generated internationally", "employees outside the United States"), another measure
after the line's name ("net revenue retention rate", "revenue per shipment"), or what is
left of an amount ("how much remained available for repurchases"). A figure whose own label
or sentence does not say the same is the whole line's, not the one asked: it is set aside,
never stated."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from ..patterns import deferred
from .figures import LineItem
from .for_part import names_part, part_for
from .formulas_told import portions
from .home_abroad import company_words, other_side, place_asked
from .question_given import figure_given, forecast_unsaid
from .results import Check, Headline
from .sentence_numbers import numbers, own_words, position
from .within import inner_parts

# what is left of an amount rather than the amount ("remained available", "still unused")
_REMAINING = deferred(
    r"\bremain(?:s|ed|ing)?\s+(?:available|unused|authori[sz]ed|outstanding\s+under)\b|"
    r"\bstill\s+available\b|\bleft\s+(?:to|under)\b|\bremaining\s+(?:authori[sz]ation|capacity)\b",
    re.IGNORECASE,
)


# a region, a market or an area of the company the question names: "its Asia Pacific region"
REGION = deferred(
    r"(?:\b(?:its|the|their)|['’]s?)\s+((?:[A-Z][\w&.-]*,?\s+|&\s+){0,4}[A-Z][\w&.-]*)\s+(?:region|geograph\w*|"
    r"geographic\s+(?:area|segment)|market)\b"
)
# a difference asked: "How much more operating income did A generate than B?"
DIFFERENCE_ASKED = deferred(
    r"\bhow\s+much\s+(?:more|less|higher|lower|greater|larger|smaller|bigger)\b[^?]*\bthan\b|"
    r"\bdifference\s+between\b|\bhow\s+much\b[^?]*\bexceed|\bexceed\w*\b[^?]*\bby\s+how\s+much\b",
    re.IGNORECASE,
)


def narrowed(question: str, headline: Headline, names: Sequence[str] = ()) -> str | None:
    """Why `headline` is not the figure `question` asks, where the question narrows a line
    to a place or to what remains and the row's label does not say so; None when nothing
    narrows it, or its label says the same. `names`: the company's, which name no place
    ("Harbor International"). (A sentence's figure: `place_check`.)"""
    given = figure_given(question, headline.value)
    if given:  # "Acme had roughly 24,000 employees. How many of them were ...?"
        return f"the question itself gives {given}; it asks another figure"
    forecast = forecast_unsaid(question, headline.label)
    if forecast:  # "what gross margin was Acme forecasting for Q2": not a quarter reported
        return forecast
    if headline.kind != "metric" and DIFFERENCE_ASKED.search(question):
        return "one figure; the question asks how much one is more or less than another"
    if headline.kind == "text":
        return None
    said = headline.label
    region = REGION.search(question)
    if region and region[1].lower() not in said.lower():  # "its Asia Pacific region"
        return f"{region[0]} is asked; {said!r} does not name it"
    if headline.kind in ("line item", "segment", "row") and _TRANSACTION.search(question):
        return "the question asks an amount of one transaction; a statement line's is not it"
    included = _INCLUDED_ASKED.search(question) or _INCLUDED_BY.search(question)
    if included and not names_part(included["part"], said, names):
        return f"the {included['part'].strip()} a line includes is asked; {said!r} is the line"
    within = included["line"] if included and included.groupdict().get("line") else ""
    if within and not names_part(within, said, names):  # "did Acme record in R&D"
        return f"the part of {within.strip()} is asked; {said!r} does not name it"
    named = _unknown_name(question, said, names) if headline.kind == "line item" else None
    if named:  # "DCAI revenue": a name the whole line's label does not carry
        return f"{named} is asked; {said!r} does not name it"
    for part in (
        *inner_parts(_PART_NAMED.finditer(question), question)[:1],
        _FROM_SOURCE.search(question),
        _SOLD_TO.search(question),
    ):
        if part and not names_part(part["part"], said, names):
            return f"{part[0].strip()!r} is asked; {said!r} does not name it"
    part_of = part_for(question, names) if headline.kind == "line item" else ""  # "capex for X"
    if part_of and not names_part(part_of, said, names):
        return f"the line for {part_of} is asked; {said!r} does not name it"
    named = None if headline.kind == "text" else _place_named(question, said, names)
    if named:  # "how much revenue did Acme generate in Japan"
        return f"{named} is asked; {said!r} does not name it"
    place = place_asked(question, names)
    if place is not None and not place[0].search(said):
        return f"{place[1]} is asked; {said!r} does not say so"
    both = _BOTH_ASKED.search(question) and not (headline.kind == "metric" and portions(question))
    if both and not re.search(r"\btotal\b", said, re.IGNORECASE):
        return f"the current and non-current portions are asked together; {said!r} is one line"
    if _CASH_PAID_FOR.search(question) and not re.search(r"\b(?:paid|payments?)\b", said, re.I):
        return f"the cash paid is asked; {said!r} is not a payment"
    remaining = _REMAINING.search(question)
    if remaining:
        return f"the line's amount; the question asks what {remaining.group(0)}"
    return None


# a part of the company the question names by its kind: "the revenue of Acme's Datacenter and
# AI (DCAI) group", "its Consumer Health business"
_PART_NAMED = deferred(
    r"(?:\b(?:its|their)|['’]s?)\s+(?P<part>(?:[\w&.()/-]+\s+){1,5}?)(?:group|segment|division|"
    r"unit|business|businesses|sbu|brand|subsidiary)\b",
    re.IGNORECASE,
)
# what a line came from: "revenue from cloud license and on-premise license" (not a place, a
# period, a statement or a filing: those are read elsewhere)
_FROM_SOURCE = deferred(
    r"\b(?:revenues?|sales)\s+(?:(?:[\w&'’.-]+\s+){0,3}?(?:generated?|derived?|earned|earn|that\s+came)"
    r"\s+)?from\s+"
    r"(?!(?:the\s+)?(?:u\.\s?s|us\b|united|consolidated|income|cash|balance|statements?|10-?[kq]|"
    r"annual|quarterly|fiscal|year|period|quarter|fy|q[1-4]|\d|its\s+(?:annual|quarterly|10-?[kq])|"
    # what every revenue comes from: not a part
    r"(?:its\s+)?(?:continuing\s+)?operations|contracts?\s+with\s+customers|products\s+and\s+"
    r"services|all\s+sources))"
    r"(?P<part>[a-z][\w&/-]*(?:\s+(?!in\b|for\b|during\b|at\b|over\b|as\b)[\w&/-]+){0,6})",
    re.IGNORECASE,
)
# whom a line was sold to, of a kind: "sales to wholesale customers" (the kind's words; "sales
# to customers" names none)
_SOLD_TO = deferred(
    r"\b(?:revenues?|sales)\s+to\s+(?:its\s+|their\s+|the\s+)?(?P<part>(?:[a-z][\w&/-]*\s+){1,3}?)"
    r"(?:customers|clients|consumers|distributors|retailers|dealers|resellers)\b",
    re.IGNORECASE,
)
# an amount of one transaction a question names: "the cash consideration for the sale of The
# Cosmopolitan", "the price paid to acquire Summit", "the goodwill recognized in the purchase
# price allocation for Summit"
_TRANSACTION = deferred(
    r"\b(?:sale|sell(?:ing)?|acquisition|purchase|divestiture|disposition|merger|spin-?off)\s+of\s+"
    r"(?:the\s+|its\s+)?(?-i:[A-Z])|\bto\s+(?:acquire|buy|sell|divest)\s+(?:the\s+|its\s+)?(?-i:[A-Z])|"
    r"\b(?:purchase\s+price|consideration)\s+allocation\b|\ballocation\s+of\s+(?:the\s+)?purchase\b",
    re.IGNORECASE,
)
# what a line includes, asked: "how much unearned revenue was included in other long-term
# liabilities"
_INCLUDED_ASKED = deferred(
    r"\b(?:how\s+much|what(?:\s+amount\s+of)?)\s+(?P<part>[\w\s-]{3,60}?)\s+(?:was|were|is|are)\s+"
    r"(?:included|recorded|reported)\s+(?:with)?in\b",
    re.IGNORECASE,
)
# the same, said of the company: "how much stock-based compensation did Acme record in
# product development" (the line it is in)
_INCLUDED_BY = deferred(
    r"\b(?:how\s+much|what(?:\s+amount\s+of)?)\s+(?P<part>[\w\s&-]{3,60}?)\s+did\s+"
    r"(?:[A-Z][\w&.'’-]*\s+){1,4}(?:include|record|recogni[sz]e|book)\s+(?:with)?in\s+"
    r"(?!(?:its\s+|the\s+|their\s+)?(?:consolidated\s+)?(?:income|balance|cash|financial|"
    r"statements?|results|operations|earnings|10-?[kq])\b)(?:its\s+|the\s+)?"
    r"(?P<line>(?:(?!(?:in|during|for|fiscal|the|as)\b)[a-z&][\w&-]*\s*){1,4})",
    re.IGNORECASE,
)
# a name written in capitals ("DCAI", "AWS"): a segment, a product, a measure of its own
_CAPITALS = deferred(r"(?<![\w&.-])[A-Z]{2,6}(?![\w&-]|\.\w)")
# capitals that name no part: units, periods, statements, accounting and filing words, and
# the usual metrics
_GENERIC_CAPITALS = frozenset(
    "USD US USA FY YOY TTM LTM GAAP IFRS SEC EPS EBIT EBITDA ROA ROE ROIC ROI DSO DPO DIO CCC "
    "CEO CFO LLC INC PLC NYSE CAPEX OCF FCF COGS SGA PPE YTD QTD MM BN MW GW MD&A".split()
)


def _unknown_name(question: str, label: str, names: Sequence[str]) -> str | None:
    """A name in capitals the question writes that neither the company's names, the usual
    abbreviations nor the figure's label carry; None when there is none."""
    own = " ".join(names).lower()
    for found in _CAPITALS.finditer(question):
        token = found.group(0)
        if token in _GENERIC_CAPITALS or token.lower() in own:
            continue
        if not re.search(rf"\b{token}\b", label, re.IGNORECASE):
            return token
    return None


# a line asked with both portions: "current plus non-current", "including the non-current part"
_BOTH_ASKED = deferred(
    r"\bcurrent\s+(?:plus|and)\s+non-?current\b|\bnon-?current\s+(?:plus|and)\s+current\b|"
    r"\b(?:including|plus)\s+(?:the\s+|its\s+)?(?:non-?current|long-term)\s+portions?\b",
    re.IGNORECASE,
)
# a payment of an expense asked: "cash paid for income taxes", not the expense
_CASH_PAID_FOR = deferred(
    r"\bcash\s+(?:paid|did\s+[^?]{1,40}?\s+pay)\s+(?:during\s+the\s+\w+\s+)?for\s+(?:its\s+)?"
    r"(?:income\s+tax|tax|interest)|\bcash\s+(?:interest|(?:income\s+)?tax(?:es)?)\s+payments?\b",
    re.IGNORECASE,
)
# a place named in capitals after "in" or "from": "revenue generated in Japan", "sales in Greater
# China" (not a filing, a statement, a period or the company)
_PLACE_NAMED = deferred(
    r"\b(?:in|from|within|across|(?:attribut(?:ed|able)|allocated)\s+to)\s+(?:the\s+)?"
    r"(?P<place>[A-Z][a-z]+(?:-[a-z]+)?(?:\s+(?:of\s+|and\s+|&\s+)?[A-Z][a-z]+(?:-[a-z]+)?){0,3})"
    r"\b(?!['’])"
    # where a place's name ends (not "in Calendar 2019", "in Accordance with", "in Full-Year"):
    # a stop, a preposition or verb, or the noun it names ("in Company-operated restaurants")
    r"(?=\s*(?:[,.;:?)]|$)|\s+(?!(?:with|of|to|the|a|an)\b)[a-z]+\b)"
)
_NOT_A_PLACE = frozenset(
    "form annual quarterly report reports item note notes part management selected financial "
    "data fiscal quarter year table exhibit section schedule income balance sheet sheets "
    "flows flow operations operating results discussion analysis earnings release press letter "
    "proxy statement statements consolidated condensed total net revenue revenues sales calendar "
    "segment segments dollars millions billions thousands continuing discontinued customers "
    "adjusted comprehensive equity stockholders shareholders supplemental geographic "
    "information".split()
)


def _place_named(question: str, label: str, names: Sequence[str]) -> str | None:
    """A place the question names in capitals that the figure's label does not carry; None
    when it names none."""
    for place in places_named(question, names):
        if not re.search(rf"\b{re.escape(place.split()[0])}", label, re.IGNORECASE):
            return place
    return None


def places_named(question: str, names: Sequence[str]) -> Iterator[str]:
    """The places a text names in capitals after "in" or "from" ("in Japan")."""
    own = company_words(names)
    for found in _PLACE_NAMED.finditer(question):
        words = found["place"].lower().split()
        if any(w in _NOT_A_PLACE or _MONTH.fullmatch(w) for w in words) or set(words) <= own:
            continue  # (a place may bear the company's word: "Las Vegas Strip Resorts")
        yield found["place"]


_MONTH = deferred(
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)


def place_check(question: str, sentence: str, shown: str, names: Sequence[str] = ()) -> Check:
    """Whether a sentence says its figure `shown` is of the place the question asks, and of
    no other: in the words from the figure to the next one ("95,000 were employed
    internationally"; not "in the U.S. and Canada", nor "Domestic and International"),
    before every figure (the sentence's subject), or after the last one of figures that
    share their noun ("46,000 full-time and 18,000 part-time employees domestically")."""
    asked = place_asked(question, names)
    if asked is None:
        places = (p for x in places_named(question, names) for p in x.split(" and "))
        unsaid = next((p for p in places if not _says(sentence, shown, p)), "")
        if unsaid:  # "capacity in Mexico": not the SBU's "in five countries"
            return Check("place", False, f"{unsaid} is asked; the sentence does not name it")
        where = _figure_place(question, sentence, shown, names)
        if where:  # "located in El Salvador and distribute power to 1.4 million people"
            return Check("place", False, f"the sentence says {shown} of {where}; none is asked")
        return Check("place", True, "no place asked")
    place, side = asked
    other = other_side(place)
    at = position(sentence, shown)
    starts = [m.start() for m in numbers(sentence)]
    if at >= 0 and starts:
        following = min((s for s in starts if s > at), default=len(sentence))
        own, last = sentence[at:following], max(starts)
        between = re.sub(r"\d[\d,.]*", " ", sentence[at:last])  # "46,000": no comma of parts
        shared = at < last and not _PARTED.search(between)
        around = sentence[: min(starts)] + (sentence[last:] if shared else "")
        in_own = place.search(own)
        said = in_own or place.search(around)
        after = (own if in_own else around)[said.end() :] if said else ""
        hedged = _HEDGED.search(own) or _HEDGED.search(around)  # "most of them in the U.S."
        if said and not other.search(own) and not _ALSO.match(after) and not hedged:
            return Check("place", True, f"{side}, as asked")
    return Check("place", False, f"{side} is asked; the sentence does not say it of {shown} alone")


def _says(sentence: str, shown: str, place: str) -> bool:
    """Whether a sentence names a place (or its adjective) in the figure's words or subject."""
    at, clause, subject = own_words(sentence, shown)
    parts = [clause, subject] if at >= 0 else [sentence]
    stems = [w[:-1] if len(w) > 4 else w for w in place.split()]
    return any(
        all(re.search(rf"\b{re.escape(stem)}", part, re.IGNORECASE) for stem in stems)
        for part in parts
    )


def _figure_place(question: str, sentence: str, shown: str, names: Sequence[str]) -> str:
    """A place named in capitals in the figure's own words — from the figure before it to the
    next one — that the question does not name; "" when there is none."""
    at, clause, _ = own_words(sentence, shown)
    hedged = _MOSTLY.search(clause)  # "300,000 colleagues primarily in the United States"
    found = places_named(clause, names) if at >= 0 and not hedged else iter(())
    return next((p for p in found if p not in question), "")


_MOSTLY = deferred(
    r"\b(?:primarily|mainly|mostly|principally|largely|predominantly|substantially)\b", re.I
)


def counted_kind(question: str, shown: str) -> Check:
    """Whether a count is of the kind asked: "18,000 part-time employees" is no answer to
    how many employees a company has, only to how many part-time ones."""
    kind = _PART_OF_STAFF.search(_ALL_STAFF.sub(" ", shown))  # not "full-time and part-time"
    if kind and not re.search(re.escape(kind.group(0)), question, re.IGNORECASE):
        return Check("kind", False, f"{kind.group(0)} ones only; the question asks them all")
    asked = _PART_OF_STAFF.search(_ALL_STAFF.sub(" ", question))
    if asked and _ALL_STAFF.search(shown):
        return Check("kind", False, f"all together; the question asks the {asked[0]} ones")
    return Check("kind", True, "the count asked")


# what parts the figures of a sentence: each then has its own words
_PARTED = deferred(r"[,;:(]|\bof\s+(?:which|whom)\b|\bincluding\b|\bwith\b", re.IGNORECASE)
# another place named with the one asked ("in the U.S. and Canada")
_ALSO = deferred(r"\s*(?:and|&|or|,)\s+(?:in\s+)?(?:the\s+)?[A-Z]")
# words that make a place said of part of a figure, or of what it leaves out
_HEDGED = deferred(
    r"\b(?:most|half|majority|some|portion|part\s+of|not\s+including|excluding|except|other\s+than"
    r"|none|few)\b",
    re.IGNORECASE,
)
# a part of a workforce counted apart
_PART_OF_STAFF = deferred(r"\b(?:part-time|part time|seasonal|temporary)\b", re.IGNORECASE)
_ALL_STAFF = deferred(
    r"\bfull[- ]time\s+and\s+part[- ]time\b|\bpart[- ]time\s+and\s+full[- ]time\b", re.I
)


_SHARE_ASKED = deferred(
    r"\bwhat (?:percent|percentage|share|portion|proportion|fraction)\b|\bas an? "
    r"(?:percent|percentage|%|share|proportion)\b|\bpercent(?:age)? of\b|%\s+of\b|"
    r"\bin (?:percent|percentage)(?:\s+terms)?\b|\bin %|\bby what percent|"
    r"\b(?:give|express|state|report|provide)\b[^.?]{0,20}\bpercent(?:age)?\b|"
    # the unit said alone after the question: "... in Q1 2023? Percent, two decimals."
    r"(?:^|[.?!;]\s+|\()percent(?:age)?\b(?=\s*(?:[,.;:()\-–—]|$|rounded|to\s+(?:one|two|\d)|"
    r"with\b))",
    re.IGNORECASE,
)
_RATIO_ASKED = deferred(
    r"\b(?:ratio|multiplier|turnover|coverage)\b|\s/\s|\bdivided\s+by\b", re.IGNORECASE
)
_TIMES = deferred(r"\bhow\s+many\s+times\b", re.IGNORECASE)
_RETURN_ON = deferred(r"\breturns?\s+on\b", re.IGNORECASE)
# a rate asked ("tax rate", "growth rate", "at what rate"), not a word of another thing's name
# ("run rate", "exchange rate changes", "interest rate swaps", "floating rate notes")
RATE_ASKED = deferred(
    r"(?<!run[\s-])(?<!exchange[\s-])\brates?\b(?![\s-](?:changes?|notes?|swaps?|base|case|"
    r"caps?|locks?|hedg\w*|debt|loans?|borrowings?|securities|instruments?|contracts?)\b)",
    re.IGNORECASE,
)
_PER_SHARE = deferred(r"\bper\s+(?:[\w-]+\s+){0,2}share\b|\beps\b", re.IGNORECASE)


def percent_asked(question: str) -> bool:
    """Whether the question asks its answer as a percentage or a share ("as a percentage
    of", "in percent", "... ? Percent, two decimals.")."""
    return _SHARE_ASKED.search(question) is not None


def other_than_the_line(question: str, item: LineItem, uncomputed: str) -> tuple[str, str] | None:
    """What the question asks where the line item's figure is not its answer, and why: the
    metric it names that could not be computed, a percentage or share of the line, or a
    figure per share of a line of the company's total; None when the line is the answer."""
    if uncomputed:
        what = uncomputed.removeprefix("the ")  # "the question's formula"
        return uncomputed, f"a line of the question, not the {what} asked (not computed)"
    if _SHARE_ASKED.search(question):
        why = "an amount; the question asks for a percentage or a share of it"
        return f"{item.name} as a percentage", why
    if RATE_ASKED.search(question) and not any(RATE_ASKED.search(n) for n in item.names):
        return "the rate asked", "an amount; the question asks a rate"  # "tax rate", "growth rate"
    if _RETURN_ON.search(question):  # "return on average total assets": not the assets
        return "the return asked", "an amount; the question asks a return on it"
    if _TIMES.search(question):  # "how many times did operating income cover interest?"
        return "the ratio asked", "an amount; the question asks how many times one covers another"
    if _RATIO_ASKED.search(question):  # "the cash ratio ... Use (A + B) divided by C"
        return "the ratio asked", "an amount; the question asks a ratio of it to another"
    per_share = any(_PER_SHARE.search(name) for name in item.names)
    if _PER_SHARE.search(question) and not per_share:
        why = "the whole company's amount; the question asks a figure per share"
        return f"{item.name} per share", why
    return None


# an adjusted (non-GAAP) figure asked: the reported lines and rows are not it
ADJUSTED = deferred(
    r"\b(?:adjusted|non-gaap|organic|exclud\w*|pro forma|constant currency|underlying|core)\b",
    re.IGNORECASE,
)
