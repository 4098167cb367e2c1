"""A part's share of the whole company's line, asked as "what share of Acme's total revenues
came from the EMEA region": the part's row over the whole line of the same period, each read
and checked as the figure it is, both cited in the working."""

from __future__ import annotations

from dataclasses import replace

from .figures import Figure
from .headline import Stated, candidate, figure_headline, input_check, not_sure
from .results import Check


def share_stated(part: Figure, whole: Figure, checks: list[Check], label: str) -> Stated:
    """The share `part` is of `whole` in percent; where the two are not of one period, or the
    whole is no larger than the part, no headline: the part's figure a candidate set aside."""
    said = f"{label} as a percentage of {whole.label}"
    if (part.period_start, part.period_end) != (whole.period_start, whole.period_end):
        why = f"the whole line {whole.shown} is of {whole.period}; the part is of {part.period}"
    elif not 0 < part.value < whole.value:
        why = f"{part.shown} is no part of {whole.shown}"
    else:
        value = part.value / whole.value * 100
        inputs = [input_check(part), input_check(whole)]
        headline = figure_headline(part, [*checks, *inputs], kind="metric", label=said)
        headline = replace(headline, value=value, shown=f"{value:.2f}%", unit="%")
        text = "\n".join(
            [
                f"{value:.2f}% — {said} ({part.shown} / {whole.shown}), {part.period}",
                "Working:",
                *(f"- {x.label}: {x.shown} — {x.cited}" for x in (part, whole)),
            ]
        )
        return Stated(text, [part, whole], headline=headline)
    aside = [candidate(part, why, checks)]
    return Stated(not_sure(said, aside), candidates=aside)
