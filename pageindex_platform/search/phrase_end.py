"""Whether a line item's name ends, in the question, the noun phrase it is found in: "assets"
in "the asset retirement obligation rollforward" or "income tax" in "the income tax note" name
another thing than the line, which the words after the name say; a row whose label prints
none of those words is not what the question asks."""

from __future__ import annotations

from ..patterns import deferred
from .terms import phrase_words

# a word after a line item's name that ends its phrase (the question's words, `phrase_words`):
# a preposition, a conjunction, a verb, a period, a measure of the line ("margin", "growth"), a
# word for the figure itself ("balance", "line"), a time ("last"), what the line is done under
# ("program")
_PHRASE_ENDS = deferred(
    r"for|in|at|of|as|on|during|from|to|into|and|or|nor|but|than|by|per|with|without|over|"
    r"under|between|versus|v|vs|compared|relative|including|excluding|before|after|"
    r"attributable|when|where|what|which|how|who|whose|that|this|these|those|it|its|their|"
    r"the|a|an|was|were|is|are|be|been|being|did|do|doe|ha|has|have|had|will|would|could|"
    r"should|can|may|might|\w+ed|rise|rose|fall|fell|grew|grow|go|went|come|came|stood|"
    r"year|fiscal|fy\d*|q[1-4]|quarter|month|period|\d+|line|item|figure|amount|balance|"
    r"total|value|number|ratio|margin|growth|rate|turnover|yield|coverage|percentage|percent|"
    r"share|multiple|increase|decrease|change|gaap|using|according|based|less|plus|minus|"
    r"divided|time|then|also|only|alone|together|respectively|approximately|about|all|both|"
    r"each|whole|entire|usd|dollar|million|billion|thousand|answer|round|give|express|"
    r"expense|cost|net|reported|consolidated|company|corporation|inc|firm|business|last|"
    r"previous|prior|current|next|latest|recent|ago|program|plan|authorization|activity|"
    r"activitie|transaction|basis"
)


def named_beyond(question: str, at: int, length: int, label: str) -> tuple[str, str] | None:
    """What the question asks, and why the row labelled `label` is not it, where the line
    item's name at `at` is followed by words of its phrase the row does not print."""
    beyond = words_beyond(question, at, length, label)
    if not beyond:
        return None
    what = f"the {beyond} the question names"
    return what, f"the question names {beyond!r} after the line's name; the row prints none of it"


def words_beyond(question: str, at: int, length: int, label: str) -> str:
    """The words that follow a line item's name at `at` (of `length`) in the question's
    `phrase_words` and continue its noun phrase, which the row's `label` does not print
    ("retirement obligation rollforward" after "asset", beside "Total assets"); "" where the
    name ends its phrase or the label prints them. A thing the line is spent or earned on
    ("capital expenditures on aircraft") is a part of the line, said the same way."""
    after = phrase_words(question)[at + length :].split()
    if after[:1] == ["on"]:
        after = [w for w in after[1:] if w not in _DETERMINERS]
    beyond = []
    for word in after[:3]:
        if _PHRASE_ENDS.fullmatch(word):
            break
        beyond.append(word)
    beyond = [w for w in beyond if w not in _NO_PART]  # "on a GAAP basis"
    printed = set(phrase_words(label).split())
    return " ".join(beyond) if any(word not in printed for word in beyond) else ""


_DETERMINERS = frozenset("its their the a an".split())
_NO_PART = frozenset("basis gaap reported consolidated average".split())
