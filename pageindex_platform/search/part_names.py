"""Whether capitalised words name the company or a part of it: the company's own words
(`document_words`), a part named after the company ("MGM China" of MGM Resorts,
`owner_part`), a name of its own ("Mobileye", `other_name`), and the words of a legal name
or a question that name no part."""

from __future__ import annotations

import re

from ..db.queries import DocumentInfo

# capitalised words of a question that name no part of a company
NOT_A_PART = frozenset(
    "what how which who did does do was were is are compare find give tell show report the "
    "in for of and please calculate total net gross operating consolidated reported gaap "
    "annual quarterly fiscal company's company full year use using take taking treat divide "
    "count counting based according per from with as include including exclude excluding "
    "add subtract multiply".split()
)

# words of a company's legal name that name no part of it ("FedEx Corporation")
LEGAL = frozenset(
    "inc incorporated corp corporation company co ltd limited plc llc lp holdings group the".split()
)


def company_tail(said: list[str], company: set[str]) -> int:
    """How many of the last words are the company's and end a part's name of its own
    ("Resorts" of "Las Vegas Strip Resorts" of Acme Resorts): 0 where no capitalised word of
    no name of the company's comes right before them, or they are legal words ("Gas Company")."""
    bare = [re.sub(r"['’]s?$", "", w).strip(".,").lower() for w in said]
    tail = 0
    while tail < len(bare) and of_company(bare[-1 - tail], company):
        tail += 1
    if not tail or tail == len(bare) or set(bare[-tail:]) <= LEGAL:
        return 0
    word, before = said[-1 - tail], bare[-1 - tail]
    named = word[:1].isupper() and before not in NOT_A_PART and not re.search(r"\d", before)
    return tail if named else 0


def document_words(document: DocumentInfo) -> set[str]:
    """The words of the company's names, in lower case ("amazon", "com", "inc")."""
    names = " ".join([document.company or "", *document.company_aliases]).lower()
    return set(re.findall(r"[a-z0-9]+", names))


def owner_part(said: list[str], company: set[str]) -> str:
    """An owner that is a part named after the company ("MGM China's net revenues" of MGM
    Resorts): the company's name and words of its own; "" where the owner is the company."""
    bare = [re.sub(r"['’]s?$", "", w).strip(".,") for w in said]
    while bare and (bare[0].lower() in NOT_A_PART or not bare[0][:1].isupper()):
        bare.pop(0)  # "How much was", "What were": no word of the owner's name
    if len(bare) < 2 or not of_company(bare[0].lower(), company):
        return ""
    own = [w for w in bare[1:] if not of_company(w.lower(), company)]
    if not own or any(re.search(r"\d", w) or w.lower() in NOT_A_PART for w in own):
        return ""
    return " ".join(bare)


def other_name(said: list[str], company: set[str]) -> str:
    """A name of no word of the company's nor a question's ("Mobileye"); "" otherwise."""
    bare = [re.sub(r"['’]s?$", "", w).strip(".,") for w in said]
    if any(of_company(w.lower(), company) or w.lower() in NOT_A_PART for w in bare):
        return ""
    return " ".join(bare)


def of_company(word: str, company: set[str]) -> bool:
    """Whether a word is the company's: each of its pieces is in its names ("Coca-Cola")."""
    pieces = re.findall(r"[a-z0-9]+", word)
    return bool(pieces) and all(p in company for p in pieces)
