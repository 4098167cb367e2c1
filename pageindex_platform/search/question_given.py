"""What a question itself says that rules a figure out before any line is read: a figure
it writes ("Acme had roughly 24,000 employees. How many of them ...?": not 24,000), and a
forecast it asks ("what gross margin was Acme forecasting for Q2"), which a figure reported
for a period is not."""

from __future__ import annotations

import re

from ..patterns import deferred
from ..periods import MONTH_WORDS

# a figure a question writes: "roughly 24,000 regular employees", "$11.0 billion" — not a
# year ("2023"), nor a date's day ("May 31, 2016")
_WRITTEN_FIGURE = deferred(
    r"(?<![\w.,])(?P<dollar>\$)?(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\w-])"
    r"(?:\s*(?P<scale>thousand|million|billion|trillion)\b)?",
    re.IGNORECASE,
)
_DAY_BEFORE = deferred(rf"{MONTH_WORDS}\s*$", re.IGNORECASE)
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


def figure_given(question: str, value: float) -> str:
    """The figure the question itself writes that `value` is ("24,000"), in any scale where
    the question names none; "" where it writes none that is."""
    for found in _WRITTEN_FIGURE.finditer(question):
        written = float(found["n"].replace(",", ""))
        if re.fullmatch(r"(?:19|20)\d\d", found["n"]) or written == 0:
            continue  # a year
        if _DAY_BEFORE.search(question, 0, found.start()):
            continue  # "May 31"
        if not (found["dollar"] or found["scale"] or written >= 100):
            continue  # "to 2 decimals", "top 3": no figure
        scales = [_SCALES[found["scale"].lower()]] if found["scale"] else [1, 1e3, 1e6, 1e9]
        if any(abs(abs(value) - written * scale) <= 0.005 * written * scale for scale in scales):
            return found[0].strip()
    return ""


# a forecast asked: "was Acme forecasting", "its guidance for", "the outlook for Q2"
_FORECAST = deferred(
    r"\b(?:forecast\w*|guidance|guided|outlook|projecting|projections?)\b", re.IGNORECASE
)


def forecast_unsaid(question: str, label: str) -> str:
    """Why a figure is not the forecast the question asks, where its label (a row's, or a
    sentence) says no forecast; "" where none is asked or the label says one."""
    if _FORECAST.search(question) is None:
        return ""
    if re.search(r"\b(?:expect|anticipat|estimat|forecast|guidance|outlook|project)", label, re.I):
        return ""
    return f"a forecast is asked; {label[:80]!r} is a figure reported, not one forecast"
