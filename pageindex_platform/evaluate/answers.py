"""Answer scoring (llm mode, on request): numbers must match for a numeric gold answer;
otherwise an optional model judge compares the answer with the gold one."""

from __future__ import annotations

import json
import re

from pydantic import BaseModel

from ..llm import StructuredChat, Usage

_NUMBER = re.compile(r"(?<![\w.])\(?-?\$?\d[\d,]*(?:\.\d+)?\)?%?")
REL_TOL = 0.01  # 1%: "$1,577" against "1577.00", rounding in the last shown digit


class Judgement(BaseModel):
    correct: bool
    reason: str


def numbers(text: str) -> list[float]:
    """Numbers written in a text: "$1,577.00" → 1577.0, "(3.2)" → -3.2, "12%" → 12.0."""
    out = []
    for token in _NUMBER.findall(text):
        core = token.rstrip("%")
        negative = (core.startswith("(") and core.endswith(")")) or "-" in core
        digits = re.sub(r"[^\d.]", "", token)
        try:
            value = float(digits)
        except ValueError:
            continue
        out.append(-value if negative else value)
    return out


def numbers_match(gold: str, answer: str) -> bool | None:
    """None when the gold answer has no number; else whether its first number (the headline
    figure) appears in the answer within REL_TOL, sign ignored."""
    wanted = numbers(gold)
    if not wanted:
        return None
    target = abs(wanted[0])
    return any(abs(abs(x) - target) <= REL_TOL * max(target, 1e-9) for x in numbers(answer))


def judge_answer(*, chat: StructuredChat, question: str, gold: str, answer: str) -> bool:
    """The model's verdict: does the answer state what the gold answer states?"""
    prompt = (
        "TASK: judge_answer\nDecide whether the candidate answer to the question states the "
        "same facts and figures as the reference answer (wording may differ; missing or "
        "contradicting key facts make it incorrect).\nINPUT:\n"
        + json.dumps({"question": question, "reference": gold, "candidate": answer})
    )
    messages = [
        {"role": "system", "content": "You grade answers strictly. JSON only."},
        {"role": "user", "content": prompt},
    ]
    verdict = chat.ask_sync(messages, Judgement, usage=Usage(), step="judge")
    return verdict.correct


def score_answer(
    question: str, gold: str, answer: str, *, chat: StructuredChat | None
) -> bool | None:
    """Number match for numeric gold answers; the judge (when given) for the others."""
    matched = numbers_match(gold, answer)
    if matched is not None or chat is None:
        return matched
    return judge_answer(chat=chat, question=question, gold=gold, answer=answer)
