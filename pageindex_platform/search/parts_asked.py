"""The part of the company a question asks a line item of (`Part`): a segment, division, group,
SBU or business it names ("the Domestic segment", "Oracle's cloud and license business"), a
sub-line ("Services net sales", "natural gas operating revenues"), or a place ("its Asia
Pacific region", "in Japan", "outside the U.S.")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..db.queries import DocumentInfo
from ..patterns import deferred
from .figures import LineItem
from .for_part import part_for
from .home_abroad import HOME_SIDE, place_asked
from .narrowing import REGION, places_named
from .part_names import (
    LEGAL,
    NOT_A_PART,
    company_tail,
    document_words,
    of_company,
    other_name,
    owner_part,
)
from .terms import phrase_words
from .within import inner_parts

# the nouns a filing names a part of the company by: "the Domestic segment", "the Data Center
# Group", "the South America SBU" (strategic business unit), "our hardware business"
PART_NOUN = (
    r"(?:(?:reportable|operating|business)\s+)?(?i:segment|division|(?:strategic\s+)?business\s+unit|operating\s+unit"
    r"|SBU|business)|Group"
)
_SEGMENT = deferred(rf"((?:[A-Z0-9][\w&'’./-]*\s+(?:(?:and|&)\s+)?){{1,4}})(?:{PART_NOUN})\b")
# a name's abbreviation after it: "Commercial Airplanes (BCA) segment"
_ABBREVIATION = deferred(r"\s+\([A-Z][A-Za-z&]{1,6}\)(?=\s)")
_SEGMENT_WORD = deferred(
    r"\b(?:segments?|divisions?|(?:strategic )?business units?|SBUs?)\b", re.IGNORECASE
)
# a word of a part noun: the words before it are a part's name, not a part of the line
_PART_WORD = deferred(r"\b(?:segments?|divisions?|units?|sbus?|business(?:es)?|groups?)$")
# a part named in lower case after its owner: "Oracle's cloud and license business"
_OWNED_PART = deferred(rf"[\w&.-]+['’]s?\s+((?:[a-z][\w&'’-]*\s+){{1,4}})(?:{PART_NOUN})\b(?!['’])")
# a part as the subject that earns the line ("how much revenue did Acme's first-party
# advertising products deliver"): the words between the owner and the verb
# ("did Acme say its first-party advertising products delivered": the same part)
_PART_SUBJECT = deferred(
    r"\bdid\s+(?:the\s+)?[\w&.-]+(?:\s+[A-Z][\w&.-]*)*(?:['’]s?|\s+(?:say|state|report)\s+"
    r"(?:that\s+)?(?:its|their))\s+((?:[\w&-]+\s+){1,5}?)"
    r"(?:deliver|generate|earn|contribute|bring|produce|account)\w*\b"
)
# a part named after the company as the subject that reports the line ("what operating income
# did Amazon Web Services report"): the company's name and words of its own
_NAMED_SUBJECT = deferred(
    r"\b(?:did|does|do)\s+(?:the\s+)?((?:(?:[A-Z][\w&.'’-]*,?|&)\s+){2,7})"
    r"(?:report|record|post|generate|earn|deliver|produce|spen[dt]|incur|invest)\w*\b"
)
# a name that brings the line to the company ("how much revenue did Mobileye contribute")
_DOER = deferred(
    r"\bdid\s+((?:[A-Z][\w&.'’-]*\s+){1,4}?)(?:contribute|generate|deliver|bring|earn|add)\w*\b"
)


# words that may stand before a line item's name in a table's heading without making it a
# part's ("Total revenues", "Consolidated Net Sales", "Segment operating income")
GENERAL = frozenset(
    "total net gross operating consolidated segment segments reportable our the of and by "
    "company's annual quarterly selected".split()
)


# the articles and owners' words of what a line is asked "for" ("repurchases of its stock")
_ARTICLES = frozenset(phrase_words("the a an its it their our of and").split())


@dataclass(frozen=True)
class Part:
    """A part of the company a question asks a line item of: a segment it names ("the
    Domestic segment"), or a sub-row ("Services net sales"); `name` "" when the question
    says "segment" without naming one."""

    name: str
    segment: bool  # the question says "segment", "division" or "business unit"
    place: bool = False  # a region or a country: "its Asia Pacific region", "in Japan"
    labels: tuple[str, ...] = ()  # the rows that may name it ("U.S.", "United States")
    against: tuple[str, ...] = ()  # the rows of the rest ("International", "Other countries")
    # a part of the line asked in a place: ("apparel", "Greater China") of "Nike's apparel
    # revenues in Greater China"; of a segment, with no place: ("premiums", "") of "What
    # premiums revenue did Acme's Health segment report"; ("", "") where none is
    within: tuple[str, str] = ("", "")

    @property
    def said(self) -> str:
        return f"{self.name} segment" if self.segment and not self.place else self.name

    @property
    def sub_line(self) -> str:
        """The part of the segment's line asked ("premiums"), not in a place; "" if none."""
        sub, place = self.within
        return "" if place else sub


def part_asked(question: str, item: LineItem, document: DocumentInfo) -> Part | None:
    """The segment or sub-row a question asks `item` of, if any."""
    named = named_segment(question, document)
    owned = _OWNED_PART.search(question)
    if not named and owned:
        named = _owned_name(owned.group(1), item)
    subject = _PART_SUBJECT.search(re.sub(r"\([^)]*\)", " ", question))
    if not named and subject:  # "did Acme's first-party advertising products deliver"
        named = _owned_name(subject.group(1), item)
    named_subject = _NAMED_SUBJECT.search(re.sub(r"\s*\([^)]*\)", "", question))
    if not named and named_subject:  # "did Amazon Web Services report": a part by its name
        named = owner_part(named_subject[1].split(), document_words(document))
    doer = _DOER.search(question)
    if not named and doer:  # "how much revenue did Mobileye contribute to Acme": a part's
        named = other_name(doer[1].split(), document_words(document))
    if named or _SEGMENT_WORD.search(question):  # "Group", "business": only with a name
        return Part(named, True, within=(_segment_line(question, item, named), ""))
    names = [document.company or "", *document.company_aliases]
    region = REGION.search(question)  # "its Asia Pacific region", "the Greater China geography"
    place = region[1] if region else next(places_named(question, names), "")  # "in Japan"
    side = place_asked(question, names)
    written = side[0].search(question) if side else None
    where = place or (written[0] if written else "")
    besides = besides_place(question, item, where, names) if where else ""
    if besides:  # "hardware revenue in the Americas": a part's by place, which no row names
        said = f"{besides} {where}"
        return Part(said, True, place=True, labels=(said,), within=(besides, where))
    if place and not (side and side[0].search(f"in the {place}")):
        return Part(place, True, place=True)  # its row in a table of the line by geography
    if side is not None and not _names_a_kind(question, side[0], item):
        # "in the United States", "outside the U.S.", "internationally", "international sales"
        home = side[1] == HOME_SIDE
        (name, labels), (_, against) = (_HOME, _ABROAD) if home else (_ABROAD, _HOME)
        said = f"{place} ({name})" if place else name  # "United States (domestic)"
        return Part(said, True, place=True, labels=labels, against=against)
    after = _part_after(question, item, document)
    if after:  # "net revenues of Acme's Strip Resorts": a part named after the line
        return Part(after, True, within=(_segment_line(question, item, after), ""))
    before = _before_line(question, item, r"(?:[A-Z0-9][\w&'’.-]*,?|&)")
    part = _part_name(before.group(1), document) or _sub_line(before.group(1)) if before else ""
    if part and before and (owner := _sub_line_owner(before.group(1), part, document)):
        return Part(owner, True, within=(part, ""))  # "Acme Ground rooms revenue": Ground's
    if part:
        return Part(part, False)
    named_for = part_for(question, names)  # "net sales for Health Care": a part by its name
    for_words = set(phrase_words(named_for).split()) - _ARTICLES  # "repurchases of its stock"
    if not for_words or any(for_words <= set(phrase_words(n).split()) for n in item.names):
        return None  # "provision for income taxes", "cash used for investing activities"
    return Part(named_for, named_for[:1].isupper())


def _before_line(question: str, item: LineItem, word: str) -> re.Match[str] | None:
    """Up to five words (each as `word` matches one) right before the longest of the line
    item's names the question says; None where it says none after a word."""
    for name in sorted(item.names, key=len, reverse=True):
        said = [re.escape(w) for w in name.removesuffix(" *").split()]
        if said and said[-1].endswith("s"):  # "regulatory asset": a name said in the singular
            said[-1] = f"{said[-1]}?"
        words = r"\s+".join(said)
        found = re.search(rf"((?:{word}\s+){{1,5}}){words}\b", question, re.IGNORECASE)
        if found:
            return found
    return None


def _part_after(question: str, item: LineItem, document: DocumentInfo) -> str:
    """A part named by capitalised words right after the line item's name and "of" ("net
    revenues of Acme's Strip Resorts", "revenue of Acme China"): the words after the owner's
    name, or the company's name and words of its own; "" where they name the company ("of
    Acme Inc."), an entity by its legal name ("of Acme Gas Company") or nothing."""
    for name in sorted(item.names, key=len, reverse=True):
        words = r"\s+".join(re.escape(w) for w in name.removesuffix(" *").split())
        found = re.search(
            rf"\b{words}\w*\s+of\s+((?:(?:(?-i:[A-Z])[\w&.'’-]*|and|&)\s+){{1,7}})",
            f"{question} ",
            re.IGNORECASE,
        )
        if found:
            break
    else:
        return ""
    said = found[1].split()
    while said and said[-1] in ("and", "&"):
        said.pop()
    if not said or said[-1].strip(".,").lower() in LEGAL:
        return ""
    if any(re.search(r"['’]s?$", w) for w in said[:-1]):  # "of Acme's Strip Resorts"
        return _part_name(" ".join(said), document)
    return owner_part(said, document_words(document))


def besides_place(question: str, item: LineItem, place: str, names: list[str]) -> str:
    """The words before the line item's name, after its owner's, that name a part of the line
    besides the place asked ("hardware" of "Oracle's hardware revenue in the Americas", "Express"
    of "FedEx Express international revenue"); "" where none do."""
    own = {w.lower() for n in names for w in re.findall(r"[\w&]+", n)}
    skip = own | _WHOLE | NOT_A_PART | {w.strip(".,()") for w in place.lower().split()}
    found = _before_line(question, item, r"[\w&'’./()-]+")
    if found is None:
        return ""
    kept: list[str] = []
    for word in reversed(re.sub(r"\([^()]*\)", " ", found.group(1)).split()):
        bare = re.sub(r"['’]s?$", "", word).strip(".,()").lower()  # not "(MS&O)"
        if re.search(r"['’]s?$", word) or bare in own:
            if bare not in own:  # "FedEx Express's": a part's name as the owner
                kept.insert(0, bare)
            break  # the owner's name
        if bare not in skip and not re.search(r"\d", bare):
            kept.insert(0, bare)
    return " ".join(kept)


def _segment_line(question: str, item: LineItem, named: str) -> str:
    """A part of the line named in lower case before its name, besides the segment the
    question names ("premiums" of "What premiums revenue did Acme's Health segment report");
    "" where the words before the line are the segment's own name ("the health segment
    revenue") or name none."""
    before = _before_line(question, item, r"[\w&'’./()-]+")
    sub = _sub_line(before.group(1)) if before else ""
    words = phrase_words(sub).split()
    if not words or _PART_WORD.search(sub) or words == phrase_words(named).split():
        return ""
    return sub


def _names_a_kind(question: str, side: re.Pattern[str], item: LineItem) -> bool:
    """Whether the place's adjective names a kind of the line rather than where it was earned:
    "domestic package revenue" (a product's line), not "international revenue"."""
    said = side.search(question)
    after = question[said.end() :].split()[:1] if said else []
    line = {w for n in item.names for w in phrase_words(n).split()}
    adjective = said is not None and said[0].lower() in ("domestic", "international", "foreign")
    return adjective and bool(after) and phrase_words(after[0]).strip() not in line


# the rows a table by geography names the home country and the rest of the world by (its row
# is read only where the other side's row of its table adds up to the whole with it)
_HOME = ("domestic", ("U.S.", "United States", "US"))
_ABROAD = (
    "international",
    ("International", "Other countries", "Rest of world", "Rest of the world", "Non-U.S."),
)

# words in lower case before a line item's name that name no line of its own ("total net
# operating revenues", "the second quarter's revenue", "worldwide revenue")
_WHOLE = frozenset(
    "total net gross operating consolidated reported annual quarterly fiscal full year years "
    "quarter quarters month months first second third fourth half the its their our company "
    "what how much many was were is are did does do gaap non-gaap adjusted unadjusted basic "
    "diluted overall aggregate combined cumulative prior previous last current latest recent "
    "same yearly all entire whole worldwide global group in of for on at by to from as a an "
    "that which this these those and or with reported comparable end year-end full-year "
    "ending closing beginning period-end outstanding after-tax pre-tax sales top-line ttm "
    "trailing annualized record approximate year-over-year sequential unrestricted average "
    "total's noncurrent non-current more less higher lower greater larger smaller spend spent "
    "pay paid invest invested incur incurred earn earned generate generated record recorded "
    "receive received return returned has have had amount amounts value level".split()
)


# words of a line item's own name that may stand between a sub-line and the name
_LINE_WORDS = frozenset({"operating", "net", "gross", "total"})


def _sub_line(words: str) -> str:
    """A sub-line named in lower case just before the line item ("natural gas operating
    revenues", "casino revenue", "wireless equipment revenues"): the last words that are
    neither capitalised nor a word of the whole company's line; "" when there are none."""
    kept: list[str] = []
    said = words.split()
    while said and said[-1] in _LINE_WORDS:
        said.pop()  # "natural gas operating revenue": the line's own word before it
    for word in reversed(said):
        bare = word.strip(".,;:()").lower()
        if not kept and re.fullmatch(r"['‘\"“][\w&/-]+['’\"”]", word):
            return bare.strip("'‘’\"“”")  # "'Other' revenue": a row's name, quoted
        if word != word.lower() or re.search(r"\d|['’]s?$", word) or bare in _WHOLE:
            break  # a name ("eBay's"), an owner, a period, or words of the whole
        kept.insert(0, bare)
    return " ".join(kept)


def _sub_line_owner(words: str, sub: str, document: DocumentInfo) -> str:
    """The part named by capitalised words right before a sub-line named in lower case
    ("Las Vegas Strip Resorts" of "Las Vegas Strip Resorts rooms"); "" where `sub` is no
    sub-line of `words`, or the words before it are the company's or name no part."""
    said = words.split()
    at = len(said) - len(sub.split())
    while at > 0 and said[at - 1].lower() in _LINE_WORDS:
        at -= 1  # "Acme Ground total rooms": the line's own word before the sub-line
    if at <= 0 or " ".join(said[at:]).lower().strip(".,") != sub:
        return ""
    return _part_name(" ".join(said[:at]), document)


def _part_name(words: str, document: DocumentInfo) -> str:
    """The part's name from the capitalised words before the line item or "segment": the
    last ones that are neither a period ("Q2", "FY2024"), the company's name nor a question
    word."""
    company = document_words(document)
    said = words.split()
    owner = [i for i, w in enumerate(said) if re.search(r"['’]s?$", w)]
    if owner and owner[-1] == len(said) - 1:  # nothing after the owner's name
        return owner_part(said, company)
    if owner:  # "MGM Resorts' Las Vegas Strip Resorts": the words after the owner's name
        said = said[owner[-1] + 1 :]
    tail = 0 if owner else company_tail(said, company)
    kept: list[str] = []
    for at, word in reversed(list(enumerate(said))):
        bare = re.sub(r"['’]s?$", "", word).strip(".,").lower()
        if bare in ("and", "&") and kept and at > 0 and said[at - 1][:1].isupper():
            kept.insert(0, word)  # "Data Center and AI": one part's name
            continue
        if (
            re.search(r"\d", word)
            # after the owner's name: the part's; "Resorts" of "Las Vegas Strip Resorts"
            or (of_company(bare, company) and not owner and at < len(said) - tail)
            or bare in NOT_A_PART
            or word == word.lower()  # a product's name may start in lower case: "iPhone"
        ):
            break
        kept.insert(0, re.sub(r"['’]s$", "", word))
    while kept and kept[0].lower() in ("and", "&"):
        kept.pop(0)
    return " ".join(kept[-5:])


_FILLER = frozenset(
    "from its their our entire whole growth operations operating activities results business "
    "businesses shareholders stockholders".split()
)


def _owned_name(words: str, item: LineItem) -> str:
    """A lower-case part's name ("cloud and license"): the words before the part noun that
    are no word of the line item's names nor a question's."""
    item_words = {w for n in item.names for w in n.lower().split()} - {"and"}
    filler = item_words | (NOT_A_PART - {"and"}) | _FILLER
    said = [w for w in words.split() if w.lower() not in filler]
    while said and said[0].lower() == "and":
        said.pop(0)
    return " ".join(said)


def named_segment(question: str, document: DocumentInfo) -> str:
    """The name of the segment, division, group, SBU or business the question names by
    its name ("the Domestic segment"), the innermost where it names one within another; ""
    where it names none."""
    text = _ABBREVIATION.sub("", question)  # not "2020 segment net sales"
    segments = [s for s in _SEGMENT.finditer(text) if _part_name(s.group(1), document)]
    segments = inner_parts(segments, text)  # "Within Acme's Retail segment, ... the X unit"
    return _part_name(segments[0].group(1), document) if segments else ""
