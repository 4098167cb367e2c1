"""The checks a value of a series passes before it is shown, each a function of the figure,
the filing it is read from and the period asked: its digits printed on the page it cites,
the duration asked (twelve months, three, a balance), and the period's fiscal year on the
company's calendar. A check that fails rules the figure out; one that cannot tell (a column
headed by its date alone) is left unsaid. Two filings' figures agree when they are equal at
the coarser of their two scales."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from ..db.queries import DocumentInfo
from ..patterns import deferred
from ..periods.fiscal import fiscal_of
from ..periods.series import SeriesPeriod
from .figures import Figure, months_of

PRINTED = "printed"  # the value's digits are printed on the page it cites
DURATION = "duration"  # the figure spans the months asked (or is a balance at the end asked)
FISCAL_YEAR = "fiscal_year"  # its period is the fiscal year (and quarter) asked
_NUMBER = deferred(r"\d[\d,]*(?:\.\d+)?")


@dataclass(frozen=True)
class Checked:
    """What the checks said of a figure: those it passed, and the first it failed."""

    passed: tuple[str, ...]
    failed: str | None = None  # why it is ruled out, in words


Check = Callable[[Figure, DocumentInfo, SeriesPeriod, bool, str], "bool | None"]


def digits(figure: Figure) -> str:
    """The figure's digits as the filing writes them: "94,036" of "$94,036 million"."""
    found = _NUMBER.search(figure.shown)
    return found.group(0) if found else ""


def printed_digits(figure: Figure, page: str) -> str | None:
    """The figure's digits as the page prints them: as shown, or with the one or two
    decimals the page gives ("16,865.2" of a figure shown as "$16,865 million"), with or
    without their commas; None when the page does not print them."""
    shown = digits(figure)
    if not shown:
        return None
    candidates = [shown]
    if "/" not in figure.unit:
        power = min(12, -(-figure.exponent // 3) * 3) if figure.exponent > 0 else 0
        amount = abs(figure.value) / 10.0**power
        candidates += [f"{amount:,.{places}f}" for places in (1, 2)]
    for number in candidates:
        for variant in dict.fromkeys((number, number.replace(",", ""))):
            if re.search(rf"(?<![\d.,]){re.escape(variant)}(?![\d]|[.,]\d)", page):
                return variant
    return None


def printed(
    figure: Figure, filing: DocumentInfo, at: SeriesPeriod, balance: bool, page: str
) -> bool:
    """Whether the page prints the figure's digits."""
    return printed_digits(figure, page) is not None


def duration(
    figure: Figure, filing: DocumentInfo, at: SeriesPeriod, balance: bool, page: str
) -> bool | None:
    """Whether the figure spans the months asked: a balance has no start; a year twelve
    months, a quarter three. None when a flow's column gives its end alone."""
    if figure.period_start is None:
        return True if balance else None
    if balance:
        return False
    return months_of(figure) == at.span_months


def fiscal_year(
    figure: Figure, filing: DocumentInfo, at: SeriesPeriod, balance: bool, page: str
) -> bool | None:
    """Whether the figure's end closes the fiscal year (and quarter) asked on the filing's
    calendar; None when the filing has no place on a calendar."""
    named = fiscal_of(filing, date.fromisoformat(figure.period_end))
    if named is None:
        return None
    return named == (at.fiscal_year, at.quarter or 4)


CHECKS: tuple[tuple[str, Check, str], ...] = (
    (PRINTED, printed, "its digits are not printed on p. {page}"),
    (DURATION, duration, "it is not of the duration asked ({period})"),
    (FISCAL_YEAR, fiscal_year, "it is not of {label} on the company's calendar ({period})"),
)


def check(
    figure: Figure, filing: DocumentInfo, at: SeriesPeriod, *, balance: bool, page: str
) -> Checked:
    """The checks `figure` (read from `filing` for the period `at`) passes, `page` the text
    of the page it cites; the first it fails, said."""
    passed: list[str] = []
    for name, test, failure in CHECKS:
        result = test(figure, filing, at, balance, page)
        if result is False:
            said = failure.format(page=figure.page, period=figure.period, label=at.label)
            return Checked(tuple(passed), f"{figure.document} p. {figure.page}: {said}")
        if result:
            passed.append(name)
    return Checked(tuple(passed))


def agree(a: Figure, b: Figure) -> bool:
    """Whether two filings print the same value: equal at the coarser of their scales (a
    figure in thousands agrees with the same figure in millions)."""
    unit = 10.0 ** max(a.exponent, b.exponent, 0)
    tolerance = unit / 2 if unit > 1 else 0.005
    return abs(a.value - b.value) <= tolerance + 1e-9 * max(abs(a.value), abs(b.value))


def unscaled(figure: Figure, against: Figure) -> bool:
    """Whether `figure` is `against` printed without its scale: the same digits, written
    in units where the other is in thousands or more (a table whose "in millions" was not
    read)."""
    return (
        figure.unit == against.unit
        and "/" not in figure.unit
        and figure.exponent < against.exponent
        and digits(figure) == digits(against)
        and abs(figure.value) * 10 < abs(against.value)
    )


def scale_failure(figure: Figure, scale: int) -> str | None:
    """Why a figure written in units has no place in a series written in thousands or more
    (10**`scale`): its table's scale was not read; None when it fits."""
    if "/" in figure.unit or figure.exponent > 0 or scale < 3 or figure.decimals == 0:
        return None
    if abs(figure.value) >= 10**scale:
        return None
    return f"{figure.document} p. {figure.page}: its scale is not read ({digits(figure)} in units)"
