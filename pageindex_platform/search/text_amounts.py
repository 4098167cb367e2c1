"""An amount of money a question asks that no line item names, as a filing says it in a
sentence: "What were Acme's remaining performance obligations as of May 31, 2023?" ("As of May
31, 2023, our remaining performance obligations were $67.9 billion"), "how much remained
available for future repurchases" ("$12.9 billion remained available for future repurchases
of our common stock"), "what aggregate principal amount of 5.200% Senior Notes due 2033 was
issued" (the amount of a list that those words follow).

What the question asks (the words after "how much" or "what", less its period, its unit and
the company's name) must all be said in the sentence; of several amounts in it, the one those
words go with; an amount said as a change ("increased $50 million") is not the amount asked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..db import queries
from ..db.queries import DocumentInfo
from ..db.sql import Session
from ..patterns import deferred
from ..periods.filing_words import without_form, without_source
from .amount_lists import says_word
from .amount_of import amount_of, listed_total
from .defined_terms import defined_terms, named_in_full
from .figures import PER_SHARE
from .headline import Stated, not_sure
from .home_abroad import without_place
from .narrowing import DIFFERENCE_ASKED, place_check
from .results import Candidate, Check
from .sentence_checks import change_check, sentence_checks, sentence_figure, stated_from
from .sentence_numbers import (
    MONTHS,
    PERCENT_ASKED,
    PERIOD_WORDS,
    SCALES,
)
from .terms import abbreviations, name_words, phrase_words

# an amount asked: "how much ...", "what (total) amount / value / cost / fee ...", "in USD
# millions" (a percentage or a count is asked in other words: sentences.py)
# words that ask what kind or part of an amount, or a count, share or rating, not the amount
_FILLER = (
    r"(?!(?:of|kind|type|form|fraction|currency|share|percentage|number|headcount|rating|"
    r"employees?|customers?|stores?)\b)"
)
# an amount of money named as asked: "what termination fee", "how large a settlement payment"
_MONEY_ASKED = deferred(
    r"\bhow\s+much\b|\b(?:what|how\s+(?:large|big)\s+an?)\s+(?:was\s+|were\s+|is\s+|are\s+)?(?:the\s+)?"
    # (words naming the amount, not what kind of one: "what type of fee" asks no amount)
    rf"(?:{_FILLER}[a-z][\w-]*\s+){{0,3}}?"
    r"(?:amount|value|cost|price|fee|payment|principal|program|authorization)s?\b|\bin\s+(?:usd|us\$|\$|dollars)\b|"
    # "what were its remaining performance obligations as of ...": a balance a sentence says
    rf"^\s*what\s+(?:was|were)\s+(?:the\s+)?[\w&.-]+['’]s?\s+(?:{_FILLER}[a-z][\w-]*\s+){{1,4}}"
    r"(?:as\s+of|at)\b|"
    # "what were Acme Corp's non-GAAP core earnings in the second quarter": an amount earned
    r"^\s*what\s+(?:was|were)\s+(?:the\s+)?(?:[\w&.-]+\s+){0,2}[\w&.-]+['’]s\s+(?:[\w-]+\s+){0,4}"
    r"(?:earnings|profits?|proceeds)\s+(?:in|for|during)\b|"
    r"\bin\s+(?:usd\s+)?(?:millions|billions|thousands)\s+of\s+dollars\b|\bper\s+share\b",
    re.IGNORECASE,
)
_COMPUTED = deferred(
    r"\b(?:compute|calculate|defined?|computed|calculated|divided\s+by|minus|plus|average)\b|=",
    re.IGNORECASE,
)
_NOT_MONEY = deferred(
    r"\b(?:what|which)\s+(?:percent|percentage|share|portion|proportion|fraction)\b|\bin\s+percent|"
    r"\bas\s+an?\s+(?:percent|percentage|share)\b|\bhow\s+many\b|\bratio\b|"
    r"\bmargin\b|\brate\b|\btimes\b",
    re.IGNORECASE,
)
# where the words of what is asked start: after "how much", "how large a" or "what"
_ASKED = deferred(
    r"\b(?:how\s+much|how\s+(?:large|big)\s+an?|what)\b(?P<asked>[^?]*)", re.IGNORECASE
)
# what an amount takes in beside the thing named: "$8.5 billion of gross unrecognized income
# tax benefits, including related interest and penalties" (not "including $1.2 billion of
# ...", a part of it with its own amount)
_TAKES_IN = deferred(
    r"^[^.;$]{0,80}?,?\s+(?:including|inclusive\s+of|together\s+with)\s+(?!\$|\d|approximately|"
    r"about)(?P<what>[a-z][\w\s&-]{2,50}?)(?=[,.;)]|$)",
    re.IGNORECASE,
)


# what an amount is "of", then what that is of: "$2.8 billion, $3.2 billion and $3.0 billion
# of interest cost on its term debt" (the amounts listed with it skipped)
_OF_ON = deferred(
    r"^(?:\s*,?\s*(?:and\s+)?\$\s?[\d.,]+(?:\s*(?:million|billion|thousand))?)*\s+of\s+"
    r"(?P<what>[a-z][\w\s-]{2,40}?)\s+on\s+"
    r"(?P<tail>[^.;]{2,80})",
    re.IGNORECASE,
)


def _included_check(after: str, question: str, core: Sequence[str], score: int) -> Check:
    """The sentence names the amount asked, the amount is of it (not "of interest cost on
    its term debt" where term debt is asked), and it takes in nothing the question does not
    ask ("including related interest and penalties")."""
    of = _OF_ON.match(after)
    if of and core:
        what, tail = phrase_words(of["what"]), phrase_words(of["tail"])
        if all(says_word(w, tail) for w in core) and not all(says_word(w, what) for w in core):
            return Check("kind", False, f"the amount is of {of['what'].strip()}, not what is asked")
    taken = _TAKES_IN.match(after)
    if taken:
        words = [w for w in phrase_words(taken["what"]).split() if w not in _NOT_ASKED]
        asked = phrase_words(question)
        if words and not all(says_word(w, asked) for w in words):
            return Check("kind", False, f"the amount includes {taken['what'].strip()}")
    return Check("kind", True, f"the sentence says {' '.join(core)} ({score} words asked)")


_QUARTERLY = deferred(r"\b(?:each|every|per|a)\s+quarter\b|\bquarterly\b", re.IGNORECASE)
# a part of the year a sentence's amount is of: "During the three months ended December 31"
_PART_OF_YEAR = deferred(
    r"\b(?:three|six|nine|3|6|9)[\s-]+months?\s+(?:ended|ending|period)\b|"
    r"\b(?:first|second|third|fourth)\s+quarter\b|\bquarter\s+ended\b|\bq[1-4]\b",
    re.IGNORECASE,
)
# the year said right after an amount ("$15.0 billion of senior notes in fiscal 2021")
_YEAR_AFTER = deferred(
    r"(?:\s+of\s+[\w%.-]+(?:\s+[\w%.-]+){0,3})?\s+(?:in|for|during)\s+(?:fiscal\s+(?:year\s+)?)?"
    r"((?:19|20)\d\d)\b(?!,?\s+(?:and\s+)?(?:19|20)\d\d)",  # not "in 2023 and 2022", a list's
    re.IGNORECASE,
)
# a page's sentences as prose runs on over its lines ("... issued $1,500,000,000 of 4.875%
# Senior Notes due 2026 (the “2026\nNotes”), $1,750,000,000 ..."); a table's row or a
# heading is a line of its own
_SENTENCE_END = deferred(
    r"(?<=[.;!?])\s+(?=[A-Z(“\"]|\d[A-Z])"  # a name may start with a digit: "3M expects"
    # a sentence the page prints starting in lower case ("... $8.3 billion. revenues
    # recognized ..."), after a word of three letters at least that abbreviates nothing
    r"|(?<=[a-z]{3}\.)(?<!orp\.)(?<!prox\.)(?<!etc\.)(?<!inc\.)(?<!ltd\.)\s+(?=[a-z]{2,}\s)"
)
_ROW_END = deferred(r"(?:\s+\(?\$?\s?[\d,.]+\s?\)?%?){2,}\s*$|^.{0,60}[\d)%]\s*$")
_HEADING = 30  # characters: a shorter line is a heading or a label, not prose
# the question's own figures that name what is asked ("5.200% Senior Notes"): not a year, not
# a day of a date
_OWN_FIGURE = deferred(r"(?<![\w.,])\d+(?:\.\d+)?(?=\s*%)|(?<![\w.,$])\d+\.\d+(?![\d,])")
_NOT_ASKED = frozenset(
    "a an the of in on at for to by and or did does do was were is are has have had what how "
    "much many its their it as from with during end fiscal year quarter total as of usd us "
    "dollar million billion thousand answer round approximately about roughly amount value "
    "be been being will would could should company per under over which that this".split()
)


def money_asked(question: str) -> bool:
    """Whether the question asks an amount of money (and not a percentage, a count, or a
    figure it tells how to compute)."""
    if _NOT_MONEY.search(question) or PERCENT_ASKED.search(question):
        return False
    if _COMPUTED.search(question) or DIFFERENCE_ASKED.search(question):
        return False  # "Compute it as notes payable ... minus cash": a formula, not a sentence
    return bool(_MONEY_ASKED.search(question))


def amount_in_text(
    *,
    session: Session,
    question: str,
    document: DocumentInfo,
    year: int | None,
    company_words: set[str],
) -> Stated:
    """The amount a sentence of the document says of what the question asks, checked; the
    sentences' amounts set aside (with why) when none passes; empty when none says it."""
    plain = without_form(without_source(without_place(question, company_words)))
    asked = _ASKED.search(plain)
    if asked is None:
        return Stated()
    core, told, told_text = _core(asked["asked"], company_words)
    context = [w for w in _words(plain[: asked.start()], company_words) if w not in core]
    figures = _OWN_FIGURE.findall(asked["asked"])
    per_share = bool(PER_SHARE.search(plain))
    if len(core) < 2:
        return Stated()  # "how much did it pay": too little to know a sentence by
    aside: list[Candidate] = []
    # "total payment volume (TPV)" the question spells; "the Utility" the filing defines
    defined = defined_terms(session, document, question)
    spelled = {**abbreviations(question), **defined}
    checked_as = named_in_full(question, defined)
    found = _sentences(session, document, core, context, told, spelled)
    named = [x for x in found if not told or _names_said(told_text, x[2], company_words)]
    for score, page, sentence in named[:8]:
        # "the total aggregate principal amount of the bonds (due 2029, 2033 and 2053) sold":
        # the list's total, not the amount of the last one the years are said after
        # (one figure of the question's names one item of the list: its amount first)
        total = listed_total(sentence, question)
        first = total is None or len(figures) == 1
        amount = amount_of(sentence, core, figures, per_share, year, told) if first else None
        if amount is not None:
            scale = SCALES.get((amount[2] or "").lower(), 1)
            value, shown, end = float(amount[1].replace(",", "")) * scale, amount[0], amount.end()
        elif total is not None:
            value, shown, end = total  # "the total aggregate principal amount of the bonds sold"
        else:
            continue
        checks = _amount_checks(sentence, end, shown, checked_as, core, score, document, year, page)
        figure = sentence_figure(
            value=value,
            shown=shown,
            unit="USD/share" if per_share else "USD",
            sentence=sentence,
            period=f"FY{year}" if year else "",
            document=document,
            page=page,
            checks=checks,
        )
        stated = stated_from(figure, aside)
        if stated is not None:
            return stated
    return Stated(not_sure("the amount asked", aside), candidates=aside) if aside else Stated()


def _amount_checks(
    sentence: str,
    end: int,
    shown: str,
    question: str,
    core: Sequence[str],
    score: int,
    document: DocumentInfo,
    year: int | None,
    page: int,
) -> list[Check]:
    """The checks of the amount `shown` a sentence says (ending at `end`): what it takes in,
    the sentence's, the year said right after it, each quarter's, the place asked."""
    names = (document.company or "", *document.company_aliases)
    said = _YEAR_AFTER.match(sentence, end)
    return [
        _included_check(sentence[end:], question, core, score),
        *sentence_checks(sentence, document, year, question, page, shown),
        Check(
            "period",
            not (said and year and int(said[1]) != year),
            f"the sentence gives this amount for {said[1] if said else 'the period asked'}",
        ),
        Check(
            "duration",
            not (_QUARTERLY.search(sentence) and not _QUARTERLY.search(question))
            and not (_PART_OF_YEAR.search(sentence[:end]) and not _PART_OF_YEAR.search(question)),
            "the amount of the period asked, not each quarter's or a part of the year's",
        ),
        place_check(question, sentence, shown, names),
        change_check(sentence, core, question),
    ]


# the verb after the thing asked ("what termination fee did Acme agree to pay ..."): the words
# before it name the amount; those after say what was done with it
_VERB_AFTER = deferred(
    r"\s(?:did|does|do|was|were|is|are|has|have|had|will|would|could|can)\s", re.IGNORECASE
)


def _core(asked: str, company_words: set[str]) -> tuple[list[str], list[str], str]:
    """The words that name the amount asked, every one of which a sentence must say, the
    words told of it after its verb, at least half of which a sentence must say, and those
    words as written: "what termination fee did Acme agree to pay Summit ..." → (termination,
    fee), (agree, pay, summit, ...); all of them the first where fewer than two words come
    before a verb."""
    verb = _VERB_AFTER.search(asked)
    head = _words(asked[: verb.start()], company_words) if verb else []
    if len(head) < 2 or verb is None:
        return [w for w in _words(asked, company_words) if w not in _TELLING], [], ""
    told = _words(asked[verb.end() :], company_words)
    words = [w for w in told if w not in head and w not in PERIOD_WORDS and w not in _TELLING]
    return head, words, asked[verb.end() :]


# words of the question about the filing's telling ("did Acme say ... when it announced"), not
# about the amount: a sentence need not say them
_TELLING = frozenset(
    phrase_words(
        "say says said state states stated announce announces announced disclose discloses "
        "disclosed when while it they"
    ).split()
)


# a name told after the verb ("the 2022 Mosquito fire", "Summit Semiconductor"): a sentence
# that says none of its words speaks of something else
_NAMED = deferred(r"\b[A-Z][\w&-]*(?:\s+[A-Z][\w&-]*)*")


def _names_said(told: str, sentence: str, company_words: set[str]) -> bool:
    """Whether `sentence` says a word of each name `told` gives (not the company's, a month)."""
    said = phrase_words(sentence)
    for name in _NAMED.findall(told):
        words = [w for w in _words(name, company_words) if w not in PERIOD_WORDS]
        if words and not any(says_word(w, said) for w in words):
            return False
    return True


def _words(text: str, company_words: set[str]) -> list[str]:
    """The words of `text` that say what is asked: no period, unit, number or company name."""
    words = phrase_words(re.sub(r"\d[\d,.%]*", " ", text)).split()
    return list(
        dict.fromkeys(
            w
            for w in words
            if w not in _NOT_ASKED and w not in MONTHS and w not in company_words and len(w) > 1
        )
    )


def _sentences(
    session: Session,
    document: DocumentInfo,
    core: Sequence[str],
    context: Sequence[str],
    told: Sequence[str] = (),
    spelled: dict[str, str] | None = None,
) -> list[tuple[int, int, str]]:
    """(words of the question said, page, sentence) of each sentence that says every word of
    what is asked (a name the question spells out said by its abbreviation: "TPV was ..."), at
    least half of what is told of it, and an amount, best first; no table's row."""
    found = []
    named = [max(core, key=len), *(spelled or {})]
    for page in queries.pages_mentioning(session, document, named):
        for sentence in _prose(page.text):
            flat = " ".join(sentence.split())
            if "$" not in flat or _ROW_END.search(flat):
                continue  # a table's row: its scale and columns are the table's heading's
            words = phrase_words(flat)
            words += "".join(f" {n}" for a, n in (spelled or {}).items() if a in words.split())
            if not all(says_word(w, words) for w in core):
                continue
            said = sum(says_word(w, words) for w in told)
            if said * 2 >= len(told):
                score = len(core) + said + sum(says_word(w, words) for w in context)
                found.append((score, page.page, flat))
    found.sort(key=lambda x: (-x[0], x[1]))
    return found


def or_in_text(
    stated: Stated,
    *,
    session: Session,
    question: str,
    document: DocumentInfo,
    year: int | None,
) -> Stated:
    """`stated` where it states a figure, computed a metric or the question asks no amount of
    money; else the amount a sentence says (the figures `stated` set aside kept with it)."""
    if stated.headline is not None or stated.working is not None or not money_asked(question):
        return stated
    own = name_words(document.company)
    said = amount_in_text(
        session=session, question=question, document=document, year=year, company_words=own
    )
    if said.headline is None and not said.candidates:
        return stated
    said.candidates = [*said.candidates, *stated.candidates]
    return said


def _prose(text: str) -> list[str]:
    """A page's sentences, each joined over the lines it runs on; a table's row (numbers at
    its end) or a short line (a heading) on its own."""
    paragraphs: list[str] = []
    run: list[str] = []
    lines = [x.strip() for x in text.splitlines()]
    if not lines:  # an empty page
        return []
    for line, after in zip(lines, [*lines[1:], ""], strict=True):
        goes_on = after[:1].islower()  # "... As of January 28, 2023, $1.1" over "billion remained"
        # a short line ends the sentence the run leaves open ("... the year ended December"
        # over "31, 2022 and 2023."), else it is a heading
        open_run = bool(run) and not run[-1].endswith((".", ":", "?", "!"))
        # a line that goes on with the open sentence in lower case is prose, even where it
        # ends in figures ("... of $15" over "billion as discussed ... December 31, 2015.")
        prose = goes_on or (open_run and line[:1].islower()) or not _ROW_END.search(line)
        if line and prose and (len(line) >= _HEADING or open_run):
            run.append(line)
            continue
        paragraphs.append(" ".join(run))
        run = []
        paragraphs.append(line)
    paragraphs.append(" ".join(run))
    # a bullet starts a statement of its own ("• First-quarter revenue of $11.7 billion ... •
    # Non-GAAP EPS of ...")
    return [b for p in paragraphs if p for s in _SENTENCE_END.split(p) for b in _BULLET.split(s)]


_BULLET = deferred(r"\s*[•▪●◦]\s*")
