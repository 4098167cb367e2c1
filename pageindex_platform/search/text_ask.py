"""What a question asks of a filing's sentences (`TextAsk`): a count of a noun ("how many
permanent part-time employees did ..."), a percentage (a change, comparable sales) or a share
of a whole ("what share of Acme's GMV was generated outside the U.S."), and the words a
sentence that says it should share — less the place asked, where the answer is read ("According
to Acme's 2016 annual report"), the words it rules out ("not proportional") and the names it
spells out before their abbreviation ("gross merchandise volume (GMV)")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..patterns import deferred
from ..periods.filing_words import without_form, without_source
from .home_abroad import place_asked, without_place
from .metrics import Metric
from .sentence_numbers import MONTHS, PERCENT_ASKED, PERIOD_WORDS, SHARE_ASKED, whole_words
from .terms import phrase_words, spelled_out

_COUNT = deferred(
    r"\bhow many\s+(?!times\b)"
    r"(?:of\s+(?:the\s+)?(?:(?-i:[A-Z][\w&.-]*\s+){0,3}[\w&.-]+['’]s?\s+)?)?"
    r"(?P<a>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,6})"
    r"|\b(?:total\s+)?number of\s+(?P<b>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,6})",
    re.IGNORECASE,
)
# ("how many times ... cover": a ratio, not a count); the words that end the noun phrase
# counted ("how many permanent part-time employees did ...")
_PHRASE_END = frozenset(
    "did does do were was are is had has have in at of as for will would could can there on "
    "by during from and or the a an that which who work worked operate operated employ "
    "employed".split()
)
_STOP = (
    frozenset(
        "a an the of in on at for to by and or did does do was were is are has have had how many "
        "what which number total company its their it as from with during end fiscal year quarter "
        "percent percentage increase decrease change growth grow rise decline compared over than "
        "versus vs much prior previous last first second third fourth yoy roughly approximately "
        "about around nearly based located headquartered share portion proportion came be being "
        "been would will could should say says said into onto upon same result results".split()
    )
    | PERIOD_WORDS
)
_STOP = _STOP | frozenset(phrase_words(w).strip() for w in _STOP)  # as words are compared
_FISCAL_WORD = deferred(r"^(fy|q)\d")
UP = deferred(r"\b(?:increas\w*|grew|grow\w*|rose|ris\w*|up|higher|improv\w*)\b", re.I)
DOWN = deferred(r"\b(?:decreas\w*|declin\w*|fell|fall\w*|down|lower|drop\w*)\b", re.I)
# the verbs a count is said with that name no act of its own ("did Costco have|operate",
# "does the company say it has established")
_BEING = frozenset(
    "have has had be operate own report record maintain total based located say said "
    "state disclose mention indicate".split()
)
# a name or an adverb ("how many employees globally were ..."): the counted phrase ends
_ENDS_PHRASE = deferred(r"[A-Z].*|\w+(?:ally|ately)|worldwide|overall").fullmatch
_AFTER_SUBJECT = deferred(
    r"\b(?:did|does|do|will|has|have|had)\s+(?:(?:(?:[A-Z&]|[a-z]+[A-Z])[\w&.'’-]*(?<!['’]s)(?<!['’])\s+){1,5}"
    r"|(?:the\s+company|it|they)\s+)(?P<verb>[a-z]+)"
    r"|\b(?:were|was|are|is|(?:have|has|had)\s+been)\s+(?P<done>[a-z]+ed)\b"  # "were repurchased"
)
# a participle after a form of "be": "would be told", "were being eliminated" (not "signed
# contracts")
_PASSIVE = deferred(r"\b(?:be|been|being|were|was|are|is)\s+(?:to\s+be\s+)?([a-z]{4,}ed)\b", re.I)
# a whole the question names before asking how many of it: "Of Acme's roughly 136,000 full-time
# employees as of May 31, 2016, approximately how many were ..."
_OF_WHOLE = deferred(
    r"\W*of\s+(?:[^,?]|,(?=\d))*?\b(?P<noun>[a-z]+s)\b(?:\s+as\s+of\s+\w+\s+\d+,\s+\d{4})?,", re.I
)
_TAKEN_IN = deferred(r"\(\s*including\s+(?:its\s+|their\s+|the\s+)?([^()]*)\)", re.IGNORECASE)
_NEGATED = deferred(r"\b(?:not|excluding|other\s+than|except)\s+([a-z][\w-]+)", re.IGNORECASE)


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
    whole: tuple[str, ...] = ()  # what a share is asked of: "of eBay's GMV" → ("gmv",)
    part: tuple[str, ...] = ()  # what the share is of it: "came from cloud services" → ...
    # what a percentage asked is a change of, every word of which the figure's clause says:
    # "by what percentage did REVPAR at Acme's resorts increase" → ("revpar",)
    subject: tuple[str, ...] = ()
    # what the question says is done to what is counted, in the passive ("how many employees
    # would be told their jobs were being eliminated" → ("told", "eliminated"))
    done: tuple[str, ...] = ()

    def done_said(self, sentence: str) -> bool:
        """Whether the sentence says an act the question says is done to what is counted
        ("500 employees ... know that their jobs will be eliminated")."""
        return any(re.search(rf"\b{re.escape(d[:-2])}", sentence, re.I) for d in self.done)


# the thing whose change a percentage asks: "by what percentage did Acme's total payment
# volume (TPV) increase", "what was the percentage increase in net transaction revenues"; up
# to a place or a period said of it ("REVPAR at Acme's resorts", "... in 2023")
_MOVE_OF = deferred(
    r"\bby\s+(?:what|how\s+much)\s+(?:percent(?:age)?|%)\s+(?:points?\s+)?(?:did|does|do|has|"
    r"have|had|was|were|is|are)\s+(?P<a>.+?)\s+(?:increas|decreas|grow|grew|ris|rose|declin|fall|"
    r"fell|drop|chang|improv)\w*\b"
    r"|\bpercent(?:age)?\s+(?:increase|decrease|change|growth|decline|rise)\s+(?:in|of)\s+"
    r"(?P<b>[^?,]+)",
    re.IGNORECASE,
)
_SAID_OF = deferred(
    r"\s+(?:at|in|of|for|across|within|from|during|between|compared|over|versus|vs|year|"
    r"relative|as|on)\b.*$",
    re.IGNORECASE,
)


def _subject(question: str, company_words: set[str]) -> tuple[str, ...]:
    """The words naming what a percentage asked is a change of (`_MOVE_OF`), less its owner's
    name, a place or period said of it; () where the question does not say."""
    found = _MOVE_OF.search(question)
    if found is None:
        return ()
    # the owner named before it ("Acme Freight's", "Summit's (Acme's)") is no word of it, nor
    # "the number of" what is counted
    counted = re.sub(r"\b(?:total\s+)?number\s+of\s+", "", found["a"] or found["b"], flags=re.I)
    owned = re.sub(r"^.*['’]s?\)?\s", "", _SAID_OF.sub("", counted))
    words = spelled_out(owned)[0]
    said = [w for w in phrase_words(words).split() if w not in company_words and w not in _STOP]
    return tuple(w for w in said if len(w) > 1 and not w.isdigit() and w not in _WHOLE)


# words that say a figure is the whole company's, which a sentence need not repeat
# ("enterprise comparable sales", "global comparable sales")
_WHOLE = frozenset("enterprise consolidated overall global worldwide companywide group".split())


# a size asked in a unit counted by its symbol: "how large (in MW) was the generation
# portfolio", "what capacity, in megawatts, ..."
_IN_UNIT = deferred(
    r"\bin\s+(?:(?P<mw>MW|megawatts?)|(?P<gw>GW|gigawatts?))\b(?=[^?]*\?|\)|,)", re.IGNORECASE
)


def _counted(count: re.Match[str], company_words: set[str]) -> tuple[str, str]:
    """The noun a count asks ("permanent part-time employees": "employee") and the first word
    of its phrase ("permanent"), from `_COUNT`'s match."""
    written = (count.group("a") or count.group("b") or "").split()
    while len(written) > 1 and written[0][:1].isupper():
        written = written[1:]  # "how many Apple employees": the owner's name first
    # the phrase ends at a verb or a name, read as written ("employees does Apple have")
    cut = next((i for i, w in enumerate(written) if _ends(w)), len(written))
    said = phrase_words(" ".join(written[:cut] or written[:1])).split() or [""]
    first = said[0] if len(said) > 1 else ""
    # kinds listed before one noun ("permanent full-time and permanent part-time employees"):
    # the first kind a modifier (hyphenated, or its first word said again after "and")
    listed = written[cut + 1 :] if cut < len(written) and written[cut].lower() == "and" else []
    kinds = bool(listed) and ("-" in written[cut - 1] or listed[0].lower() == written[0].lower())
    end = next((i for i, w in enumerate(listed) if _ends(w)), len(listed)) if kinds else 0
    if end > 1:  # the noun after the list
        said = phrase_words(listed[end - 1]).split() or said
    return said[-1], first if first not in company_words else ""


def _ends(word: str) -> bool:
    """Whether a word ends the phrase counted: a verb, a preposition, a name."""
    return word.lower() in _PHRASE_END or bool(_ENDS_PHRASE(word))


def text_ask(question: str, company_words: set[str]) -> TextAsk | None:
    """The count or percentage a question asks for in text; None when it asks neither."""
    count = _COUNT.search(question)
    moved = _MOVE_OF.search(question)
    if count and moved and moved.start() < count.start():
        count = None  # "by what percentage did the number of transactions increase": a change
    unit = None if count else _IN_UNIT.search(question)
    share = SHARE_ASKED.search(question)
    percent = PERCENT_ASKED.search(question) or share
    if not count and not percent and not unit:
        return None
    # the place asked is the place check's (`place_check`), not words a sentence must share
    plain = without_form(without_source(without_place(question, company_words)))
    plain, spelled = spelled_out(plain)
    # (a date's month, "As of May 31, 2018", is no word of what is counted)
    unsaid = _STOP | company_words | (MONTHS if count else frozenset())
    words = [w for w in phrase_words(plain).split() if w not in unsaid and not w.isdigit()]
    terms = tuple(w for w in words if len(w) > 1 and not _FISCAL_WORD.match(w))
    terms += tuple(phrase_words(name).strip() for name in spelled)  # "GMV" or its name
    noun, qualifier = _counted(count, company_words) if count else ("", "")
    lead = _OF_WHOLE.match(question) if noun in _PHRASE_END else None
    if lead:  # "Of Acme's roughly 136,000 full-time employees ..., how many were ...": employee
        noun, qualifier = phrase_words(lead["noun"]).strip(), ""
        said = set(phrase_words(lead[0]).split()) - {noun}  # "Of these employees," says them
        terms = tuple(t for t in terms if t not in said)
    if unit:  # "8,228 MW": a count of megawatts
        noun = "megawatt" if unit["mw"] else "gigawatt"
        percent = None
    direction = "up" if UP.search(question) else "down" if DOWN.search(question) else ""
    acted = _AFTER_SUBJECT.search(question) if count else None
    verb = (acted.group("verb") or acted.group("done")) if acted else ""
    act = verb if verb not in _BEING | _PHRASE_END else ""
    of_place = place_asked(question, own_words=company_words)  # "7,100 of our employees" counts
    within = bool(re.search(r"\bhow many of\b", question, re.IGNORECASE) and of_place)
    share = share if not (count or direction) else None
    rest, names = spelled_out(question[share.end() :]) if share else ("", [])
    whole = whole_words(rest) + tuple(phrase_words(" ".join(names)).split())
    whole = tuple(w for w in whole if w not in company_words)  # "GMV" or its name
    # "(including its watershed lands)": what the total asked takes in, not what is asked
    negated = tuple(phrase_words(" ".join(_NEGATED.findall(question))).split())
    negated += tuple(phrase_words(" ".join(_TAKEN_IN.findall(question))).split())
    terms = tuple(t for t in terms if t not in negated)
    plain_percent = bool(percent) and not count
    besides = {*whole, *_NOT_THE_PART, *MONTHS}  # a share's part: no date's month ("June 30")
    part = tuple(t for t in terms if " " not in t and t not in besides) if share else ()
    return TextAsk(
        plain_percent,
        noun,
        terms,
        direction,
        qualifier,
        act,
        within,
        bool(share),
        negated,
        whole,
        part,
        _subject(question, company_words) if plain_percent else (),
        done=tuple(m.lower() for m in _PASSIVE.findall(question)) if count else (),
    )


# words of a share's part a sentence need not say: its kind ("the Flexibles segment":
# "Flexibles accounted for 76%") and the verb asked ("did Dell account for")
_NOT_THE_PART = frozenset(
    "segment business division unit group region category account represent contribute".split()
)


def in_sentences(asked: TextAsk, metric: Metric | None, defined: dict[str, Metric]) -> bool:
    """Whether a figure asked in words is looked for in sentences: no metric is asked, or a
    count or an amount beside one the catalogue names; a formula the question writes is
    computed instead."""
    return metric is None or (not asked.percent and metric not in defined.values())
