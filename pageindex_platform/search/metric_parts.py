"""The part of the company a question asks a metric of: "eBay's first-party advertising
revenue growth" asks the growth of a product's revenue, which the company's revenue growth is
not."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..patterns import deferred
from .terms import phrase_words

# words before a metric's name that do not narrow it to a part: the owner's "s", the period,
# the basis, "total"
_NOT_A_PART = frozenset(
    "s the its their company company s total consolidated overall net gaap non reported "
    "unadjusted adjusted annual annualized year over yoy fiscal quarter quarterly full "
    "percentage percent what was is were are of for in and average mean median trailing "
    "rolling ttm twelve month months three five ten".split()
)
_PERIOD_WORD = deferred(r"^(?:fy\d{2,4}|q[1-4]|\d{1,4}|[1-4]q\d{0,4}|h[12])$")


def metric_part(question: str, names: Sequence[str], company: Sequence[str] = ()) -> str | None:
    """The part of the company the question asks a metric of, where words that are not a
    period's or a basis's come between a possessive ("Acme's") and the metric's
    ("eBay's first-party advertising revenue growth": "first party advertising"), or a
    segment it names ("the Client Computing segment"); None when nothing narrows it."""
    words = phrase_words(question)
    own = {w for name in company for w in phrase_words(name).split()}
    for name in sorted((phrase_words(n).strip() for n in names), key=len, reverse=True):
        at = words.find(f" {name} ")
        if at < 0:
            continue
        before = words[:at].split()
        part = _words_back(before, own)
        # a part is named after its owner's possessive: "eBay's first-party advertising revenue
        # growth" (not "Does Acme have an improving gross margin")
        owner = before[-len(part) - 1] if len(before) > len(part) else ""
        if part and owner == "s":
            return " ".join(part)
        if not part and before[-1:] == ["s"]:  # "FedEx Freight's operating margin"
            return _named_after(before[:-1], own) or segment_named(question, company)
        return _named_beyond(question, name, own) or segment_named(question, company)
    return segment_named(question, company)


# capitalised words right after a metric's name and "of", "for" or "at": whose metric it is
_OF_NAMED = r"\s+(?:of|for|at)\s+((?:(?:(?-i:[A-Z0-9][\w&.'’-]*,?)|and|&)\s+){1,8})"
# the words of a company's legal name that are not its name
_LEGAL = frozenset(
    "inc incorporated corp corporation co company ltd limited plc llc sa nv ag".split()
)


def _named_beyond(question: str, name: str, own: set[str]) -> str | None:
    """A part named by capitalised words after the metric's name ("the operating margin of
    Acme Global Services"): those that are neither the company's words, a period's nor a
    legal name's, after a word of the company's; None where the words name only the company
    ("of Acme Inc."), no word of it, or an entity by its legal name ("of Acme Power and
    Light Company")."""
    words = r"\s+".join(re.escape(w) for w in name.split())
    found = re.search(rf"\b{words}\w*{_OF_NAMED}", question + " ", re.IGNORECASE)
    if found is None:
        return None
    said = phrase_words(found[1]).split()
    if said[-1:] and said[-1] in _LEGAL:
        return None  # "of Pacific Gas and Electric Company": an entity, a registrant maybe
    rest = [w for w in said if w not in _LEGAL and _may_name_part(w, own)]
    # the company's own word first ("Acme Global Services"): a name of no word of the
    # company's may be the company's own under another name ("for Block (formerly Square)")
    return found[1].strip() if rest and own & set(said) else None


def _words_back(words: list[str], own: set[str]) -> list[str]:
    """The last of `words` (four at most) that are neither a basis's, a period's nor the
    company's: those that may name a part."""
    part: list[str] = []
    for word in reversed(words[-4:]):
        if not _may_name_part(word, own):
            break
        part.insert(0, word)
    return part


def _may_name_part(word: str, own: set[str]) -> bool:
    """Whether a word may name a part: neither a basis's, a period's nor the company's."""
    return not (word in _NOT_A_PART or word in own or _PERIOD_WORD.match(word))


def _named_after(words: list[str], own: set[str]) -> str | None:
    """A part an owner's possessive names after the company ("fedex freight" of "... FedEx
    Freight's"): the company's word and the words of its own after it; None where the owner
    is the company ("Best Buy's") or no word of the company's comes first among the four
    read."""
    part = _words_back(words, own)
    at = len(words) - len(part) - 1  # the word that ends the part, read where within the four
    if part and len(part) < 4 and at >= 0 and words[at] in own:
        return " ".join([words[at], *part])
    return None


# a part named as one: "the Client Computing segment", "our Products division", "segment
# Wireless" (a capitalized name beside the word, one part: "operating segment results" and
# "all Operating segments" name none); not one left out ("excluding the Health Care segment",
# "after the spin-off of its Kenvue segment")
_NAMED_PART = deferred(
    r"\b(?P<before>[A-Z][\w&.-]*\s+(?:(?:[A-Z][\w&.-]*|and|of|&|\([A-Z][\w&.-]*\))\s+){0,5})"
    r"(?:reportable\s+|operating\s+|business\s+)?(?:segment|division)\b(?!s)|"
    r"\b(?:segment|division)\s+(?P<after>[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})"
)
# what comes right before a part left out of the question ("excluding the ...")
_LEFT_OUT = deferred(
    r"\b(?:excluding|except|without|other\s+than|spin-?off\s+of)\s+(?:the\s+|its\s+)?$", re.I
)
# capitalized words that start a sentence or name no part
_NOT_A_NAME = frozenset("The What How Which Based In For Of Our Its Their Each Per By Use".split())


def segment_named(question: str, company: Sequence[str] = ()) -> str | None:
    """A segment or division the question names ("the Client Computing segment"): its name
    (less the company's own words), or None where it names none."""
    own = {w for name in company for w in phrase_words(name).split()}
    for found in _NAMED_PART.finditer(question):
        if _LEFT_OUT.search(question[: found.start()]):
            continue
        words = (found["before"] or found["after"] or "").split()
        while words and (words[0] in _NOT_A_NAME or phrase_words(words[0]).strip() in own):
            words = words[1:]
        if words and not words[0][0].isdigit():
            return " ".join(words)
    return None
