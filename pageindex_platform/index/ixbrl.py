"""Inline XBRL in an EDGAR HTML filing: its `dei:` cover facts (registrant, symbol, document
type, period) and its tagged numbers (`ix:nonFraction`), each with its context's period and
dimensions, its unit, scale and sign, and the page it is shown on. A tagged number that cannot
be read exactly is left out and counted, never guessed."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date

import lxml.html

from ..records import TaggedFact


def dei_facts(root: lxml.html.HtmlElement) -> dict[str, str]:
    """The dei: facts (ix:nonNumeric), hidden or shown, first value of each."""
    facts: dict[str, str] = {}
    for el in root.iter("ix:nonnumeric"):
        name = el.get("name") or ""
        if name.startswith("dei:") and name not in facts:
            value = " ".join(el.text_content().split())
            if value:
                facts[name] = value
    return facts


def fact_key(el: lxml.html.HtmlElement) -> str:
    return el.get("id") or f"{el.get('name')}|{el.get('contextref')}|{el.sourceline}"


_Context = tuple[str | None, str, tuple[tuple[str, str], ...]]


def _contexts(root: lxml.html.HtmlElement, skipped: Counter[str]) -> dict[str, _Context]:
    """Context id → (start, end or instant, explicit dimension members). A context whose
    dates are not dates, or whose id an earlier one has, is left out (counted in `skipped`)."""
    out: dict[str, _Context] = {}
    for ctx in root.iter("xbrli:context"):
        start = _iso_date(ctx.findtext(".//xbrli:startdate"))
        end = _iso_date(ctx.findtext(".//xbrli:enddate") or ctx.findtext(".//xbrli:instant"))
        key = ctx.get("id") or ""
        if not end or start == "":
            skipped["context with an invalid date"] += 1
            continue
        if key in out:
            skipped["second context of one id"] += 1
            continue
        members = tuple(
            sorted(
                (m.get("dimension") or "", " ".join(m.text_content().split()))
                for m in ctx.iter("xbrldi:explicitmember", "xbrldi:typedmember")
            )
        )
        out[key] = (start, end, members)
    return out


def _iso_date(value: str | None) -> str | None:
    """An xs:date or xs:dateTime as an ISO date; "" for a value that is no real date, None
    for none."""
    if value is None or not value.strip():
        return None
    text = value.strip()[:10]
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        return ""


def _units(root: lxml.html.HtmlElement) -> dict[str, str]:
    out = {}
    for unit in root.iter("xbrli:unit"):
        measures = [" ".join(m.text_content().split()) for m in unit.iter("xbrli:measure")]
        out[unit.get("id") or ""] = "/".join(measures)
    return out


def _number(el: lxml.html.HtmlElement) -> float | None:
    """The shown number with its scale and sign, per the ixt: format."""
    fmt = (el.get("format") or "").lower()
    text = el.text_content().strip()
    if fmt.endswith("fixed-zero") or (not fmt and text in ("-", "—", "–")):
        value = 0.0
    elif fmt.endswith("numwordsen"):  # "two", "none", "twenty-one"
        words = _number_words(text)
        if words is None:
            return None
        value = float(words)
    else:
        if "comma-decimal" in fmt or "numcommadecimal" in fmt:
            text = text.replace(".", "").replace(" ", "").replace(",", ".")
        digits = re.sub(r"[\s,$€£¥()\-–—]", "", text)
        if not re.fullmatch(r"\d{1,18}(?:\.\d{1,18})?", digits):
            return None  # not a plain number (or one of more digits than any figure has)
        value = float(digits)
    scale = el.get("scale") or "0"
    if not re.fullmatch(r"-?\d{1,2}", scale):
        return None
    value = value * 10.0 ** int(scale)
    return -value if el.get("sign") == "-" else value


_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_WORDS = {w: n for n, w in enumerate(_UNITS)} | {w: 20 + 10 * n for n, w in enumerate(_TENS)}


def _number_words(text: str) -> int | None:
    """A number written in English words, as ixt-sec:numwordsen allows ("no", "none",
    "three", "twenty-one"); None for anything longer or else."""
    words = text.lower().replace("-", " ").split()
    if words in (["no"], ["none"]):
        return 0
    if not words or len(words) > 2 or any(w not in _WORDS for w in words):
        return None
    return sum(_WORDS[w] for w in words)


def tagged_facts(
    root: lxml.html.HtmlElement, pages: dict[str, int], skipped: Counter[str]
) -> list[TaggedFact]:
    """The tagged numbers, each valid one (a known context, a finite number of sane size);
    the others counted in `skipped`."""
    contexts, units = _contexts(root, skipped), _units(root)
    out = []
    for el in root.iter("ix:nonfraction"):
        context = contexts.get(el.get("contextref") or "")
        nil = el.get("xsi:nil") == "true"  # a fact stated as having no value
        value = None if nil else _number(el)
        if context is None or value is None or not el.get("name"):
            if not nil and el.get("name"):
                skipped["tagged number unreadable or of no valid context"] += 1
            continue
        decimals = el.get("decimals") or ""
        if not re.fullmatch(r"-?\d{1,3}", decimals):
            decimals = ""  # INF, or no sane precision
        out.append(
            TaggedFact(
                concept=el.get("name"),
                value=value,
                unit=units.get(el.get("unitref") or "", ""),
                decimals=int(decimals) if decimals else None,
                period_start=context[0],
                period_end=context[1],
                dimensions=context[2],
                page=pages.get(fact_key(el)),
            )
        )
    return out
