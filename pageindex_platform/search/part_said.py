"""Whether a sentence or a row says the part of the company a question asks: a sentence's
figure of a part is not the company's, nor the company's the part's; a row that prints none of
the names the question gives besides the part's is not the line asked."""

from __future__ import annotations

import re

from ..db.queries import DocumentInfo
from .part_names import LEGAL, document_words, owner_part
from .parts_asked import Part, named_segment
from .results import Check
from .sentence_numbers import MONTHS
from .terms import phrase_words


def _subject_part(question: str, sentence: str, shown: str, document: DocumentInfo) -> str:
    """A part named after the company that the sentence says its figure `shown` of, in the
    clause before it ("FedEx Express employed approximately 245,000 employees"), where the
    question does not name it; "" where there is none."""
    at = sentence.find(shown)
    before = re.split(r"[;:]", sentence[: max(at, 0)])[-1]
    company = document_words(document) | LEGAL
    asked = set(phrase_words(question).split())
    for run in re.finditer(r"(?:[A-Z][\w&'’.-]*\s+){2,5}", before):
        part = owner_part(run[0].split(), company)
        if part and not set(phrase_words(part).split()) <= asked:
            return part
    return ""


def part_check(question: str, sentence: str, document: DocumentInfo, shown: str = "") -> Check:
    """A sentence's figure is of the segment, SBU or division the question names by name
    ("its South America SBU") only where the sentence says that name: a sentence of the whole
    company's count is not the part's; nor is a part's, said as the figure's subject ("FedEx
    Express employed ..."), the company's."""
    name = named_segment(question, document)
    subject = "" if name else _subject_part(question, sentence, shown, document)
    if subject:
        return Check("part", False, f"the sentence says {subject}'s; no part of it is asked")
    said = set(phrase_words(sentence).split())
    if not name or set(phrase_words(name).split()) <= said:
        return Check("part", True, f"the sentence names {name}" if name else "no part asked")
    return Check("part", False, f"{name} is asked; the sentence does not name it")


# capitalised words that name no thing of the line: a question's own words, a period's
_ASKING = frozenset(
    "what how which who in for per according based using round answer give fy gaap".split()
)


def names_besides(question: str, part: Part, printed: str, document: DocumentInfo) -> str:
    """The names the question gives that are neither the company's, the part's, a period's
    nor printed in `printed` (a row's label and its headings): "NIKE Direct" of "Greater
    China footwear sales through NIKE Direct", "Medicare" of "Medicare premium revenues";
    "" where it gives none."""
    known = document_words(document) | _ASKING | MONTHS
    known |= set(phrase_words(f"{part.name} {printed}").split())
    besides = []
    for found in re.finditer(r"(?<![\w-])[A-Z][\w&'’-]*", question):  # not "10-K"
        word = re.sub(r"['’]s?$", "", found[0])
        if not re.search(r"\d", word) and not set(phrase_words(word).split()) <= known:
            besides.append(word)
    return " ".join(besides)
