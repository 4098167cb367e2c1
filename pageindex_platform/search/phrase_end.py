"""Whether a line item's name ends, in the question, the noun phrase it is found in: "assets"
in "the asset retirement obligation rollforward" or "income tax" in "the income tax note" name
another thing than the line, which the words after the name say; a row whose label prints
none of those words is not what the question asks. A word right after the name may also make
it another measure than the line: a "rate", a "retention", a repurchase "program" whose size
is asked."""

from __future__ import annotations

import re

from ..patterns import deferred
from .sentence_numbers import MONTHS
from .terms import phrase_words

# a word after a line item's name that ends its phrase: a preposition, a conjunction, a verb, a
# time or a period, a measure of the line ("margin", "growth"), a word for the figure itself
# ("balance", "level", "position"), what the line is done under ("program"); each as
# `phrase_words` writes it ("this" → "thi")
_WORDS_ENDING = (
    "for in at of as on during from to into and or nor but than by per with without "
    "over under between versus v vs compared relative including excluding before "
    "after attributable when where what which how who whose that this these those it "
    "its their the a an was were is are be been being did do does has have had will "
    "would could should can may might rise rose fall fell grew grow go went come came "
    "stood year years fiscal quarter month months period line item figure amount "
    "balance total value number ratio margin growth rate turnover yield coverage "
    "percentage percent share multiple increase decrease change gaap using according "
    "based less plus minus divided times time then also only alone together "
    "respectively approximately about all both each whole entire usd dollar dollars "
    "million billion thousand answer round give express please provide expense cost "
    "net reported consolidated company corporation inc firm business last previous "
    "prior current next latest recent ago program activity activities transaction "
    "basis outstanding through within across since until hand position level levels "
    "spending spend payment payments holding holdings carrying ending ended end "
    "beginning"
)
_ENDS = frozenset(phrase_words(_WORDS_ENDING).split()) | MONTHS
# words that end a phrase by their form: a verb's past ("recorded"), a fiscal year or quarter
# ("fy2023", "q2"), a number
_ENDS_BY_FORM = deferred(r"\w+ed|fy\d*|q[1-4]|\d+")
# the question's words and its punctuation, a word joined to the one before by a hyphen marked
_TOKENS = deferred(r"(-?)([a-z0-9&]+)|([?.!;:,()])")
_DETERMINERS = frozenset("its their the a an".split())
# words after "on" that say where or how a line is read, not a part of it ("on the cash flow
# statement", "on December 31", "on a GAAP basis", "on hand")
_ON_NO_PART = (
    frozenset(phrase_words("statement statements sheet sheets basis gaap hand average").split())
    | MONTHS
)


# words right after a line item's name that make it another measure
_OTHER_AFTER = frozenset(
    phrase_words(word).strip()  # as the question's words are compared ("plus": "plu")
    for word in "rate retention growth yield per mix multiple guidance outlook target forecast "
    "backlog run-rate run amortization impairment writedown write-off payable receivable plus "
    "minus".split()
)
# words right after a line item's name that ask a program's size ("share repurchase program"),
# not what was done under it in the year, unless the question says so ("spend ... under")
_PROGRAM_AFTER = frozenset({"program", "programme", "authorization"})
_DONE = deferred(r"\b(?:spen[dt]|spending|paid|pay|used|repurchased|bought|returned)\b", re.I)


def another_measure(words_after: str, question: str) -> bool:
    """Whether the word right after a line item's name ("retention" rate, a repurchase
    "program" whose size is asked) makes it another measure than the line ("revenue of
    Target" does not)."""
    first = set(words_after.split()[:1])
    return bool(first & _OTHER_AFTER or (first & _PROGRAM_AFTER and not _DONE.search(question)))


def named_beyond(question: str, at: int, length: int, label: str) -> tuple[str, str] | None:
    """What the question asks, and why the row labelled `label` is not it, where the line
    item's name at `at` is followed by words of its phrase the row does not print."""
    beyond = words_beyond(question, at, length, label)
    if not beyond:
        return None
    what = f"the {beyond} the question names"
    return what, f"the question names {beyond!r} after the line's name; the row prints none of it"


def words_beyond(question: str, at: int, length: int, label: str) -> str:
    """The question's words that follow a line item's name at `at` (of `length`, in its
    `phrase_words`) in the same phrase and sentence, which the row's `label` does not print
    ("retirement obligation rollforward" after "asset", beside "Total assets"); "" where the
    name ends its phrase or the label prints them. A thing the line is spent or earned on
    ("capital expenditures on aircraft") is a part of the line, said the same way."""
    after = _words_after(question, len(phrase_words(question)[: at + length].split()))
    if after[:1] and after[0][0] == "on":
        after = [w for w in after[1:] if w[0] not in _DETERMINERS]
        if any(w[0] in _ON_NO_PART for w in after[:3]):
            return ""
    beyond = []
    for word, joined, shown in after[:3]:
        if not joined and (word in _ENDS or _ENDS_BY_FORM.fullmatch(word)):
            break
        beyond.append((word, shown))
    printed = set(phrase_words(label).split())
    if all(word in printed for word, _ in beyond):
        return ""
    return " ".join(shown for _, shown in beyond)


def _words_after(question: str, count: int) -> list[tuple[str, bool, str]]:
    """The words after the question's first `count` words, up to the end of their clause
    (a punctuation mark): each as `phrase_words` writes it, whether a hyphen joins it to the
    word before ("asset-backed"), and as the question writes it."""
    words: list[tuple[str, bool, str]] = []
    seen = 0
    for found in _TOKENS.finditer(question.lower()):
        if found[3]:  # punctuation: the clause ends, once the name has been passed
            if seen >= count:
                break
            continue
        seen += 1
        if seen > count:
            word = phrase_words(found[2]).strip()
            words.append((word, bool(found[1]) and found.start() > 0, found[2]))
    return words
