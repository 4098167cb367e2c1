"""The question, in the one form every stage reads: checked and cleaned once, with what the
vocabulary says about it (the section phrases of its subjects, the statements its concepts
are reported in, the metrics and line items figures are stated for)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import QuestionError
from ..patterns import deferred
from .metrics import Catalogue
from .statements import Statement, statements_for
from .subjects import section_phrases
from .terms import keywords
from .vocabulary import Vocabulary

MAX_QUESTION_CHARS = 2000
_CONTROL = deferred(r"[\x00-\x1f\x7f]")


def _clean(value: str, what: str) -> str:
    """`value` with control characters and runs of spaces made single spaces; a QuestionError
    naming `what` when it is not valid UTF-8 (bytes the shell could not decode)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise QuestionError(f"{what} is not valid UTF-8 text") from None
    return " ".join(_CONTROL.sub(" ", value).split())


def checked_question(question: str) -> str:
    """The question cleaned (`_clean`); a QuestionError when nothing in it can be searched."""
    question = _clean(question, "the question")
    if not question:
        raise QuestionError("the question is empty")
    if len(question) > MAX_QUESTION_CHARS:
        raise QuestionError(
            f"the question is too long ({len(question):,} characters; "
            f"at most {MAX_QUESTION_CHARS:,})"
        )
    if not keywords(question):
        raise QuestionError(
            f"nothing to search for in {question[:80]!r}: only punctuation or "
            "common words (name a company, a figure, a period...)"
        )
    return question


@dataclass(frozen=True)
class Query:
    """A question as every stage reads it.

    `question` is what was asked (constraints, the figure and the model read it); `text` adds
    the user's `--hint` (what is embedded and searched); `lexical` adds the section phrases of
    the subjects it names (what section titles and page words are matched against)."""

    question: str
    hint: str | None
    phrases: tuple[str, ...]  # sections where filings discuss what it names (sections.txt)
    statements: tuple[Statement, ...]  # primary statements holding what it asks (knowledge.txt)
    notes: str = ""  # the user's knowledge file, for the model
    catalogue: Catalogue = field(default_factory=lambda: Catalogue((), ()))  # metrics.txt...

    @classmethod
    def parse(cls, question: str, hint: str | None, vocabulary: Vocabulary) -> Query:
        """Raises QuestionError for a question that cannot be searched."""
        question = checked_question(question)
        if hint is not None:
            hint = _clean(hint, "--hint")[:MAX_QUESTION_CHARS] or None
        text = _searched(question, hint)
        return cls(
            question=question,
            hint=hint,
            phrases=tuple(section_phrases(text, vocabulary.subjects)),
            statements=tuple(statements_for(text, vocabulary.statement_facts)),
            notes=vocabulary.notes,
            catalogue=vocabulary.catalogue,
        )

    @property
    def text(self) -> str:
        return _searched(self.question, self.hint)

    @property
    def lexical(self) -> str:
        return " ".join([self.text, *self.phrases])


def _searched(question: str, hint: str | None) -> str:
    """What is embedded and searched: the question, then the user's hint."""
    return f"{question} {hint}" if hint else question
