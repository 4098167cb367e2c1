"""Question wordings generated from inline-XBRL facts, and how each wording class is
answered: the same fact asked with one wording changed at a time (how the period is named,
how the company is named), and "not stored" probes about companies the corpus lacks.

    # generate and review the set (no corpus needed):
    python bench/phrasings.py --write /tmp/phrasings.jsonl
    # score it on a corpus of the EDGAR filings (ingested from the same folder):
    PI_HOME=/tmp/pi-edgar PYTHONPATH=$PWD python bench/phrasings.py --score \
        [--half A|B] [--sample 10] [--json /tmp/phrasings-score.json]
    # the previous code:
    PI_HOME=/tmp/pi-edgar-base PYTHONPATH=/work/base python bench/phrasings.py --score

Generation (deterministic: filings, concepts and periods in sorted order, no randomness).
From each filing with ix:nonFraction facts, the facts without dimensions (no
xbrldi:explicitMember / typedMember in the context), in USD, of six line items (the first
concept of each list that the filing tags): revenue (us-gaap:Revenues,
RevenueFromContractWithCustomerExcludingAssessedTax, ...IncludingAssessedTax,
SalesRevenueNet), net income (NetIncomeLoss, else ProfitLoss), operating income
(OperatingIncomeLoss), net cash provided by operating activities, total assets (Assets),
cash and cash equivalents (CashAndCashEquivalentsAtCarryingValue). Values have scale, sign
and format applied (bench/ixbrl_facts.py). The periods kept, all found from the filing's own
dei: facts (DocumentPeriodEndDate; the context of dei:DocumentType, whose start is the fiscal
year's first day; DocumentFiscalYearFocus names the fiscal year, DocumentFiscalPeriodFocus
the quarter, so Apple's, Walmart's or NVIDIA's fiscal years are named as they name them):
- 10-K: the fiscal year (a duration of 350-380 days ending at the period end), the prior
  year's comparative column, the balance at the period end and at the prior year end;
- 10-Q: the quarter (80-100 days ending at the period end, not year-to-date), the prior
  year's quarter, the year to date (six or nine months from the fiscal year's start), the
  balance at the period end and at the prior fiscal year end.

Wording classes (period; the company named by its short name):
  annual: fy_short "FY24", fy_full "FY2024", fiscal "fiscal 2024", fiscal_year "fiscal year
  2024", year_ended "the year ended September 28, 2024", bare_year "2024";
  quarter: q_fy "Q2 FY25", q_compact "2Q25", q_words "the second quarter of fiscal 2025",
  three_months "the three months ended June 27, 2025", quarter_ended "the quarter ended ...";
  year to date: months_ended "the six months ended ...", ytd_words "the first half of fiscal
  2025" / "the first nine months of fiscal 2025"; balances: as_of "as of <date>", at "at
  <date>"; comparative columns asked by their own year or date: prior_fiscal, prior_year_ended,
  prior_q, prior_three_months, prior_as_of; relative (per company): last_quarter,
  latest_quarter (gold: the newest quarter among the company's filings), last_fiscal_year,
  recent_fiscal_year (gold: the newest fiscal year the company's filings report; a newer
  10-Q's period is not a fiscal year).
Company classes (period in its base wording: year_ended, three_months, as_of): legal (the
filing's dei:EntityRegistrantName, all-capitals names in title case), short (the name without
"The" and corporate suffixes, spelled as the filing's text spells it most often: "Coca-Cola",
"NVIDIA"), short_alt (the short name with its hyphens as spaces: "Coca Cola"), ticker
(dei:TradingSymbol), abbreviation (the initials of a short name of 3+ words, when they are
not the ticker), misspelling (two adjacent letters swapped in the middle of the short name's
longest word of 6+ letters). Not-stored probes: a few well-known companies (those matching a
corpus company are dropped) asked the same kinds of question; gold: a notice that no filing
is stored and no figure.

Scoring (`--score`): each question is asked in process through the public API
(`Corpus.open(mode="local").ask(q).to_dict()`, the `pi ask --json` shape), or through `pi ask
--json --mode local` where the API differs. The stated figure is `headline` when the answer
has that key and it is not null, else `figures[0]`. A figure question is right when the first
citation is the gold filing (or another filing of the folder whose own facts hold the gold
value for the gold period; counted as "via other"), the stated value equals the gold within
the precision shown ("$94.0 billion" is compared to 0.05 billion), and the period matches
(the end date; for a duration the start too, so a six-month figure does not pass for a
quarter). Counted too: a right figure with another citation, a wrong figure stated, no
figure, and a false "not stored" notice (the answer or a warning says "No ... filing/10-K/
10-Q ... is stored" while the gold filing is stored). A probe is right when a notice is given
and no figure is stated. The corpus should hold the whole filings folder (a missing gold
filing is reported).

`--half A|B` keeps one half of the companies (alphabetical order of company names,
alternating A/B: bench/company_split.py's `halves`; the probes' companies are split the same
way among themselves), so that development looks at one half and reports the other.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from company_split import halves
from ixbrl_facts import Filing, NumericFact, read_filing
from metadata_accuracy import company_matches, shared_dir


class BenchError(Exception):
    """A problem the user can act on, said in one line."""


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    verb: str
    concepts: tuple[str, ...]
    balance: bool


METRICS = (
    Metric(
        "revenue",
        "revenue",
        "was",
        (
            "us-gaap:Revenues",
            "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax",
            "us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax",
            "us-gaap:SalesRevenueNet",
        ),
        False,
    ),
    Metric(
        "net_income", "net income", "was", ("us-gaap:NetIncomeLoss", "us-gaap:ProfitLoss"), False
    ),
    Metric("operating_income", "operating income", "was", ("us-gaap:OperatingIncomeLoss",), False),
    Metric(
        "operating_cash_flow",
        "net cash provided by operating activities",
        "was",
        ("us-gaap:NetCashProvidedByUsedInOperatingActivities",),
        False,
    ),
    Metric("total_assets", "total assets", "were", ("us-gaap:Assets",), True),
    Metric(
        "cash",
        "cash and cash equivalents",
        "were",
        ("us-gaap:CashAndCashEquivalentsAtCarryingValue",),
        True,
    ),
)
FLOWS_ASKED_RELATIVELY = ("revenue", "net_income", "operating_income")
# well-known companies for the "not stored" probes (dropped when the corpus has them)
PROBES = (
    ("Microsoft Corporation", "MSFT"),
    ("Netflix, Inc.", "NFLX"),
    ("JPMorgan Chase & Co.", "JPM"),
    ("Exxon Mobil Corporation", "XOM"),
    ("Pfizer Inc.", "PFE"),
    ("Costco Wholesale Corporation", "COST"),
)
PERIOD_CLASSES = (
    "fy_short",
    "fy_full",
    "fiscal",
    "fiscal_year",
    "year_ended",
    "bare_year",
    "q_fy",
    "q_compact",
    "q_words",
    "three_months",
    "quarter_ended",
    "months_ended",
    "ytd_words",
    "as_of",
    "at",
    "prior_fiscal",
    "prior_year_ended",
    "prior_q",
    "prior_three_months",
    "prior_as_of",
    "last_quarter",
    "latest_quarter",
    "last_fiscal_year",
    "recent_fiscal_year",
)
BASE_PERIODS = ("year_ended", "three_months", "as_of")
COMPANY_CLASSES = ("short", "short_alt", "legal", "ticker", "abbreviation", "misspelling")
ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth"}
SUFFIXES = {
    "inc",
    "incorporated",
    "corp",
    "corporation",
    "co",
    "company",
    "plc",
    "ltd",
    "limited",
    "llc",
    "lp",
}


# --- names ----------------------------------------------------------------------------------


def tidy(name: str) -> str:
    """An all-capitals name in title case ("AMAZON.COM, INC." → "Amazon.com, Inc."); other
    names as they are."""
    if name != name.upper():
        return name
    return " ".join(
        "-".join(part[:1].upper() + part[1:].lower() for part in word.split("-"))
        for word in name.split()
    )


def short_name(name: str) -> str:
    """The name without a leading "The" and trailing corporate suffixes and commas."""
    words = name.replace(",", " ").split()
    while words and words[0].lower() == "the":
        words = words[1:]
    while len(words) > 1 and (words[-1].lower().strip(".") in SUFFIXES or words[-1] == "&"):
        words = words[:-1]
    return " ".join(words)


def spelled_as_in_text(short: str, text: str) -> str:
    """The short name as the filing's text spells it most often (spaces or hyphens between
    its words, any case); the tidied name when the text never has it."""
    words = re.split(r"[\s\-]+", short)
    pattern = re.compile(
        r"(?<![\w])" + r"[\s\-]+".join(re.escape(w) for w in words) + r"(?![\w])", re.I
    )
    found = Counter(m.group(0) for m in pattern.finditer(text))
    if len(words) > 1 and any(s != s.upper() for s in found):
        # a name of several words in capitals is a cover's or a heading's, not prose's
        found = Counter({s: n for s, n in found.items() if s != s.upper()})
    if not found:
        return tidy(short)
    best = max(found.values())
    return sorted(s for s, n in found.items() if n == best)[0]


def misspelled(short: str) -> str | None:
    """Two adjacent letters swapped in the middle of the longest word of 6+ letters (the
    first such word on a tie), or None when no word is that long."""
    words = re.findall(r"[A-Za-z]+", short)
    longest = max((w for w in words if len(w) >= 6), key=len, default=None)
    if longest is None:
        return None
    i = len(longest) // 2 - 1
    while i + 1 < len(longest) and longest[i].lower() == longest[i + 1].lower():
        i += 1
    if i + 1 >= len(longest):
        return None
    typo = longest[:i] + longest[i + 1] + longest[i] + longest[i + 2 :]
    return short.replace(longest, typo, 1)


def abbreviation(short: str, ticker: str | None) -> str | None:
    words = [w for w in re.split(r"[\s\-]+", short) if w.isalpha()]
    if len(words) < 3:
        return None
    initials = "".join(w[0].upper() for w in words if w.lower() not in {"and", "of", "the"})
    return None if ticker and initials.lower() == ticker.lower() else initials


def possessive(company: str) -> str:
    return f"{company}'" if company.endswith("s") else f"{company}'s"


def long_date(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d:%B} {d.day}, {d.year}"


# --- the filings' facts ---------------------------------------------------------------------


@dataclass
class Source:
    """One filing with facts: its dei facts and its chosen facts per metric."""

    filing: Filing
    company: str  # dei:EntityRegistrantName
    cik: str
    ticker: str | None
    form: str
    fiscal_year: int
    fiscal_period: str  # FY, Q1..Q4
    period_end: str
    year_start: str  # the fiscal year's first day (the start of dei:DocumentType's context)
    short: str = ""
    facts: dict[str, list[NumericFact]] = field(default_factory=dict)  # metric → facts


def load_sources(folder: Path) -> list[Source]:
    sources = []
    for path in sorted(folder.glob("*.htm*")):
        filing = read_filing(path, with_text=True)
        dei = filing.dei
        if not filing.facts or not (dei.get("DocumentFiscalYearFocus") or "").isdigit():
            continue
        ctx = filing.dei_context
        period_end = dei.get("DocumentPeriodEndDate") or (ctx.end if ctx else None)
        if not period_end or ctx is None or not ctx.start:
            continue
        source = Source(
            filing=filing,
            company=dei.get("EntityRegistrantName", path.stem),
            cik=dei.get("EntityCentralIndexKey", dei.get("EntityRegistrantName", path.stem)),
            ticker=dei.get("TradingSymbol"),
            form=dei.get("DocumentType", ""),
            fiscal_year=int(dei["DocumentFiscalYearFocus"]),
            fiscal_period=(dei.get("DocumentFiscalPeriodFocus") or "FY").upper(),
            period_end=period_end,
            year_start=ctx.start,
        )
        source.short = spelled_as_in_text(short_name(source.company), filing.text)
        for metric in METRICS:
            for concept in metric.concepts:
                kept = [
                    f
                    for f in filing.facts
                    if f.concept == concept and not f.context.dimensional and f.unit == "USD"
                ]
                if kept:
                    source.facts[metric.key] = kept
                    break
        sources.append(source)
    return sources


def _days_between(a: str, b: str) -> int:
    return abs((date.fromisoformat(a) - date.fromisoformat(b)).days)


def find(facts: Iterable[NumericFact], test: Callable[[NumericFact], bool]) -> NumericFact | None:
    """The first fact that passes `test`, in (start, end) order."""
    ordered = sorted(facts, key=lambda f: (f.context.start or "", f.context.period_end))
    return next((f for f in ordered if test(f)), None)


def annual(f: NumericFact) -> bool:
    return f.context.days is not None and 350 <= f.context.days <= 380


def quarterly(f: NumericFact) -> bool:
    return f.context.days is not None and 80 <= f.context.days <= 100


def year_before(f: NumericFact, end: str) -> bool:
    return f.context.period_end < end and 350 <= _days_between(f.context.period_end, end) <= 380


# --- questions ------------------------------------------------------------------------------


@dataclass
class Question:
    id: str
    question: str
    wording: str  # the period wording class
    company_wording: str
    company: str  # the company's name for the split
    kind: str  # figure | not_stored
    gold_document: str | None = None
    gold_value: float | None = None
    gold_start: str | None = None
    gold_end: str | None = None
    unit: str | None = None
    concept: str | None = None
    metric: str | None = None
    decimals: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def ask_text(metric: Metric, company: str, period: str, wording: str) -> str:
    who = possessive(company)
    if wording == "last_quarter":
        return f"What {metric.verb} {who} {metric.label} last quarter?"
    if metric.balance:
        return f"What {metric.verb} {who} {metric.label} {period}?"
    if wording in ("latest_quarter", "last_fiscal_year", "recent_fiscal_year"):
        return f"What {metric.verb} {who} {metric.label} in {period}?"
    return f"What {metric.verb} {who} {metric.label} for {period}?"


def company_wordings(source: Source) -> dict[str, str]:
    """Company class → the name in that wording (classes without one are left out)."""
    short = source.short
    found = {"short": short, "legal": tidy(source.company)}
    if "-" in short:
        found["short_alt"] = short.replace("-", " ")
    if source.ticker:
        found["ticker"] = source.ticker
    abbr = abbreviation(short, source.ticker)
    if abbr:
        found["abbreviation"] = abbr
    typo = misspelled(short)
    if typo:
        found["misspelling"] = typo
    return found


def period_wordings(source: Source, slot: str, fact: NumericFact) -> dict[str, str]:
    """Period class → its words for a fact in `slot` (current, prior, ytd, balance...)."""
    fy, end = source.fiscal_year, fact.context.period_end
    yy = fy % 100
    if slot == "annual":
        return {
            "fy_short": f"FY{yy:02d}",
            "fy_full": f"FY{fy}",
            "fiscal": f"fiscal {fy}",
            "fiscal_year": f"fiscal year {fy}",
            "year_ended": f"the year ended {long_date(end)}",
            "bare_year": str(fy),
        }
    if slot == "annual_prior":
        return {
            "prior_fiscal": f"fiscal {fy - 1}",
            "prior_year_ended": f"the year ended {long_date(end)}",
        }
    if slot == "balance":
        return {"as_of": f"as of {long_date(end)}", "at": f"at {long_date(end)}"}
    if slot == "balance_prior":
        return {"prior_as_of": f"as of {long_date(end)}"}
    q = int(source.fiscal_period[1])
    if slot == "quarter":
        return {
            "q_fy": f"Q{q} FY{yy:02d}",
            "q_compact": f"{q}Q{yy:02d}",
            "q_words": f"the {ORDINAL[q]} quarter of fiscal {fy}",
            "three_months": f"the three months ended {long_date(end)}",
            "quarter_ended": f"the quarter ended {long_date(end)}",
        }
    if slot == "quarter_prior":
        return {
            "prior_q": f"Q{q} FY{(fy - 1) % 100:02d}",
            "prior_three_months": f"the three months ended {long_date(end)}",
        }
    if slot == "ytd":
        months = {2: "six", 3: "nine"}[q]
        words = "the first half" if q == 2 else "the first nine months"
        return {
            "months_ended": f"the {months} months ended {long_date(end)}",
            "ytd_words": f"{words} of fiscal {fy}",
        }
    raise ValueError(slot)


def slots(source: Source, metric: Metric) -> list[tuple[str, NumericFact]]:
    """The facts asked about for one metric of one filing, with their slot."""
    facts = source.facts.get(metric.key, [])
    end = source.period_end
    chosen: list[tuple[str, NumericFact | None]] = []
    if metric.balance:
        chosen.append(("balance", find(facts, lambda f: f.context.instant == end)))
        if source.form.startswith("10-K"):
            prior = find(facts, lambda f: f.context.instant is not None and year_before(f, end))
        else:
            day_before = (date.fromisoformat(source.year_start) - timedelta(days=1)).isoformat()
            prior = find(facts, lambda f: f.context.instant == day_before)
        chosen.append(("balance_prior", prior))
    elif source.form.startswith("10-K"):
        current = find(facts, lambda f: annual(f) and f.context.end == end)
        chosen.append(("annual", current))
        chosen.append(("annual_prior", find(facts, lambda f: annual(f) and year_before(f, end))))
    elif source.form.startswith("10-Q") and re.fullmatch(r"Q[1-4]", source.fiscal_period):
        chosen.append(("quarter", find(facts, lambda f: quarterly(f) and f.context.end == end)))
        chosen.append(
            ("quarter_prior", find(facts, lambda f: quarterly(f) and year_before(f, end)))
        )
        if source.fiscal_period in ("Q2", "Q3"):
            ytd = find(
                facts,
                lambda f: (
                    f.context.start == source.year_start
                    and f.context.end == end
                    and not quarterly(f)
                ),
            )
            chosen.append(("ytd", ytd))
    return [(s, f) for s, f in chosen if f is not None]


def _gold(question: Question, source: Source, metric: Metric, fact: NumericFact) -> Question:
    question.gold_document = source.filing.stem
    question.gold_value = fact.value
    question.gold_start = fact.context.start if fact.context.instant is None else None
    question.gold_end = fact.context.period_end
    question.unit = fact.unit
    question.concept = fact.concept
    question.metric = metric.key
    question.decimals = fact.decimals
    return question


def generate(folder: Path) -> list[Question]:
    sources = load_sources(folder)
    if not sources:
        raise BenchError(f"no inline-XBRL filing with facts in {folder}")
    by_cik: dict[str, list[Source]] = {}
    for source in sources:
        by_cik.setdefault(source.cik, []).append(source)
    company_of = {cik: tidy(group[0].company) for cik, group in by_cik.items()}
    questions: list[Question] = []
    for source in sources:
        names = company_wordings(source)
        who = company_of[source.cik]
        for metric in METRICS:
            for slot, fact in slots(source, metric):
                periods = period_wordings(source, slot, fact)
                for wording, words in periods.items():
                    q = Question(
                        id=f"{source.filing.stem}:{metric.key}:{slot}:{wording}:short",
                        question=ask_text(metric, names["short"], words, wording),
                        wording=wording,
                        company_wording="short",
                        company=who,
                        kind="figure",
                    )
                    questions.append(_gold(q, source, metric, fact))
                base = next((w for w in BASE_PERIODS if w in periods), None)
                if base is None:
                    continue
                for company_class, name in names.items():
                    if company_class == "short":
                        continue
                    q = Question(
                        id=f"{source.filing.stem}:{metric.key}:{slot}:{base}:{company_class}",
                        question=ask_text(metric, name, periods[base], base),
                        wording=base,
                        company_wording=company_class,
                        company=who,
                        kind="figure",
                    )
                    questions.append(_gold(q, source, metric, fact))
    questions.extend(relative_questions(by_cik, company_of))
    questions.extend(probe_questions([s.company for s in sources]))
    return questions


def relative_questions(
    by_cik: dict[str, list[Source]], company_of: dict[str, str]
) -> list[Question]:
    """ "last quarter" / "latest quarter" / "last fiscal year" / "most recent fiscal year":
    gold is the newest such period among the company's filings (the filing that reports it
    as its own period)."""
    questions: list[Question] = []
    metrics = {m.key: m for m in METRICS}
    for cik in sorted(by_cik, key=lambda c: company_of[c].lower()):
        group = by_cik[cik]
        newest = max(group, key=lambda s: (s.period_end, s.filing.stem))
        name = newest.short
        for key in FLOWS_ASKED_RELATIVELY:
            metric = metrics[key]
            for test, classes in (
                (
                    quarterly,
                    (("last_quarter", "last quarter"), ("latest_quarter", "the latest quarter")),
                ),
                (
                    annual,
                    (
                        ("last_fiscal_year", "the last fiscal year"),
                        ("recent_fiscal_year", "the most recent fiscal year"),
                    ),
                ),
            ):
                own = [
                    (s, f)
                    for s in group
                    for f in s.facts.get(key, [])
                    if test(f) and f.context.end == s.period_end
                ]
                if not own:
                    continue
                source, fact = max(own, key=lambda p: (p[1].context.period_end, p[0].filing.stem))
                for wording, words in classes:
                    q = Question(
                        id=f"{company_of[cik]}:{key}:{wording}:short",
                        question=ask_text(metric, name, words, wording),
                        wording=wording,
                        company_wording="short",
                        company=company_of[cik],
                        kind="figure",
                    )
                    questions.append(_gold(q, source, metric, fact))
    return questions


def probe_questions(corpus_companies: list[str]) -> list[Question]:
    metrics = {m.key: m for m in METRICS}
    kept = [(n, t) for n, t in PROBES if not company_matches(n, corpus_companies)]
    questions = []
    for name, ticker in kept:
        short = short_name(name)
        asks = (
            ("revenue", "fy_full", "FY2024", "short", short),
            ("revenue", "year_ended", "the year ended December 31, 2024", "short", short),
            ("revenue", "year_ended", "the year ended December 31, 2024", "legal", name),
            ("revenue", "year_ended", "the year ended December 31, 2024", "ticker", ticker),
            ("net_income", "q_fy", "Q2 FY25", "short", short),
            ("total_assets", "as_of", "as of December 31, 2024", "short", short),
            ("revenue", "last_fiscal_year", "the last fiscal year", "short", short),
        )
        for key, wording, words, company_class, who in asks:
            questions.append(
                Question(
                    id=f"probe:{short}:{key}:{wording}:{company_class}",
                    question=ask_text(metrics[key], who, words, wording),
                    wording=wording,
                    company_wording=company_class,
                    company=name,
                    kind="not_stored",
                    metric=key,
                )
            )
    return questions


def keep_half(questions: list[Question], half: str) -> list[Question]:
    corpus = halves({q.company for q in questions if q.kind == "figure"})
    probes = halves({q.company for q in questions if q.kind == "not_stored"})
    return [
        q for q in questions if (corpus if q.kind == "figure" else probes).get(q.company) == half
    ]


# --- scoring --------------------------------------------------------------------------------

NOTICE = re.compile(
    r"\bNo\b[^\n]*\b(filings?|10-K|10-Q|8-K|reports?)\b[^\n]*\b(is|are) stored"
    r"|\b(filings?|10-K|10-Q)\b[^\n]*\bnot stored",
    re.I,
)
SCALE_WORDS = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


def headline(answer: dict[str, Any]) -> dict[str, Any] | None:
    """The stated figure: `headline` when the key exists and is not null, else figures[0]."""
    if answer.get("headline") is not None:
        value = answer["headline"]
        return value if isinstance(value, dict) else None
    figures = answer.get("figures") or []
    return figures[0] if figures and isinstance(figures[0], dict) else None


def shown_precision(figure: dict[str, Any]) -> float:
    """One unit of the last digit the figure shows ("$94.0 billion" → 1e8); from its scale
    when it shows no number."""
    shown = str(figure.get("shown") or "")
    m = re.search(r"([\d,]+)(?:\.(\d+))?\s*(thousand|million|billion|trillion)?", shown, re.I)
    if m:
        decimals = len(m.group(2) or "")
        scale = SCALE_WORDS.get((m.group(3) or "").lower(), 1.0)
        if not m.group(3) and figure.get("scale"):
            scale = float(figure["scale"])
        return scale * 10.0**-decimals
    return float(figure.get("scale") or 1.0)


def value_matches(figure: dict[str, Any], gold: float) -> bool:
    try:
        value = float(figure.get("value"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return abs(value - gold) <= shown_precision(figure) / 2 + 1e-9 * abs(gold)


def period_matches(figure: dict[str, Any], q: Question) -> bool:
    if figure.get("period_end") != q.gold_end:
        return False
    return q.gold_start is None or figure.get("period_start") == q.gold_start


def holds(index: dict[str, list[NumericFact]], document: str, q: Question) -> bool:
    """Whether `document`'s own facts hold the gold value for the gold period."""
    if q.gold_value is None:
        return False
    for f in index.get(document, []):
        if f.context.dimensional or f.context.period_end != q.gold_end:
            continue
        if q.gold_start is not None and f.context.start != q.gold_start:
            continue
        if abs(f.value - q.gold_value) <= 0.5 + 1e-9 * abs(q.gold_value):
            return True
    return False


def outcome(
    q: Question, answer: dict[str, Any], index: dict[str, list[NumericFact]]
) -> dict[str, Any]:
    figure = headline(answer)
    said = "\n".join([str(answer.get("answer") or ""), *map(str, answer.get("warnings") or [])])
    notice = bool(NOTICE.search(said))
    citations = answer.get("citations") or []
    cited = str(citations[0].get("document")) if citations else None
    result: dict[str, Any] = {
        "figure": figure
        and {
            k: figure.get(k)
            for k in ("value", "shown", "period_start", "period_end", "document", "page")
        },
        "first_citation": cited,
        "notice": notice,
        "via_other": False,
        "false_not_stored": False,
    }
    if q.kind == "not_stored":
        result["outcome"] = "figure_stated" if figure else ("right" if notice else "no_notice")
        return result
    result["false_not_stored"] = notice
    if figure is None:
        result["outcome"] = "no_figure"
        return result
    assert q.gold_value is not None
    figure_ok = value_matches(figure, q.gold_value) and period_matches(figure, q)
    if not figure_ok:
        result["outcome"] = "wrong_figure"
    elif cited == q.gold_document:
        result["outcome"] = "right"
    elif cited is not None and holds(index, cited, q):
        result["outcome"] = "right"
        result["via_other"] = True
    else:
        result["outcome"] = "other_citation"
    return result


class Asker:
    """`ask(question) -> pi ask --json` through the Python API, else the CLI."""

    def __init__(self) -> None:
        self._corpus: Any = None
        try:
            package = importlib.import_module("pageindex_platform")
            self._corpus = package.Corpus.open(mode="local")
        except (ImportError, AttributeError, TypeError) as exc:
            print(f"note: the Python API differs ({exc}); asking through `pi ask`", file=sys.stderr)

    def __call__(self, question: str) -> dict[str, Any]:
        if self._corpus is not None:
            answer: dict[str, Any] = self._corpus.ask(question).to_dict()
            return answer
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pageindex_platform.cli.main",
                "ask",
                question,
                "--json",
                "--mode",
                "local",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise BenchError((done.stderr.strip().splitlines() or ["pi ask failed"])[-1])
        parsed: dict[str, Any] = json.loads(done.stdout)
        return parsed


def stored_names() -> set[str] | None:
    done = subprocess.run(
        [sys.executable, "-m", "pageindex_platform.cli.main", "docs", "list", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return None
    names = set()
    for doc in json.loads(done.stdout):
        names.add(str(doc.get("name")))
        names.update(str(c) for c in doc.get("copies") or [])
    return names


COLUMNS = (
    "right",
    "via_other",
    "other_citation",
    "wrong_figure",
    "no_figure",
    "false_not_stored",
    "error",
)


def table(title: str, label: str, groups: dict[str, list[dict[str, Any]]]) -> None:
    print(f"\n{title}")
    print(
        f"| {label} | questions | right | (via other filing) | right figure, other citation | "
        "wrong figure stated | no figure | false not-stored | errors |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, rows in groups.items():
        if not rows:
            continue
        n = len(rows)
        c = _count(rows)
        print(
            f"| {name} | {n} | {c['right']} ({100.0 * c['right'] / n:.0f}%) | {c['via_other']} | "
            f"{c['other_citation']} | {c['wrong_figure']} | {c['no_figure']} | "
            f"{c['false_not_stored']} | {c['error']} |"
        )


def _count(rows: list[dict[str, Any]]) -> dict[str, int]:
    c = dict.fromkeys(COLUMNS, 0)
    for r in rows:
        if r["outcome"] in c:
            c[r["outcome"]] += 1
        c["via_other"] += bool(r.get("via_other"))
        c["false_not_stored"] += bool(r.get("false_not_stored"))
    return c


def score(
    questions: list[Question], folder: Path, json_out: Path | None, *, misses: bool = False
) -> None:
    index = {s.filing.stem: s.filing.facts for s in load_sources(folder)}
    stored = stored_names()
    if stored is not None:
        missing = sorted({q.gold_document for q in questions if q.gold_document} - stored)
        if missing:
            print(f"note: gold filings not in the corpus: {', '.join(missing)}", file=sys.stderr)
    ask = Asker()
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    for i, q in enumerate(questions, 1):
        try:
            answer = ask(q.question)
            result = outcome(q, answer, index)
        except Exception as exc:  # one question's failure is a row, not a stop
            detail = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
            result = {
                "outcome": "error",
                "error": detail,
                "via_other": False,
                "false_not_stored": False,
            }
        rows.append({**q.to_dict(), **result})
        if i % 100 == 0:
            print(
                f"  {i}/{len(questions)} asked ({time.perf_counter() - started:.0f} s)",
                file=sys.stderr,
            )
    figures = [r for r in rows if r["kind"] == "figure"]
    probes = [r for r in rows if r["kind"] == "not_stored"]
    by_period = {
        w: [r for r in figures if r["wording"] == w and r["company_wording"] == "short"]
        for w in PERIOD_CLASSES
    }
    table("By period wording (the company named by its short name):", "period wording", by_period)
    by_company = {
        c: [r for r in figures if r["company_wording"] == c and r["wording"] in BASE_PERIODS]
        for c in COMPANY_CLASSES
    }
    table(
        "By company wording (the period in its base wording: year ended / three months ended /"
        " as of):",
        "company wording",
        by_company,
    )
    table("All figure questions:", "set", {"all": figures})
    if probes:
        c = Counter(r["outcome"] for r in probes)
        print("\nNot-stored probes:")
        print(
            "| probes | notice and no figure (right) | figure stated | no notice, no figure "
            "| errors |"
        )
        print("|---|---|---|---|---|")
        print(
            f"| {len(probes)} | {c['right']} ({100.0 * c['right'] / len(probes):.0f}%) | "
            f"{c['figure_stated']} | {c['no_notice']} | {c['error']} |"
        )
    if misses:
        print("\nMisses (outcome, question, gold → stated):")
        for r in rows:
            if r["outcome"] == "right" and not r.get("false_not_stored"):
                continue
            fig = r.get("figure") or {}
            said = (
                f"{fig.get('shown')} {fig.get('period_start')}..{fig.get('period_end')} "
                f"[{r.get('first_citation')}]"
                if fig
                else f"no figure [{r.get('first_citation')}]"
            )
            flag = " +false not-stored" if r.get("false_not_stored") else ""
            gold = (
                f"{r['gold_value']:,.0f} {r['gold_start']}..{r['gold_end']} [{r['gold_document']}]"
                if r["kind"] == "figure"
                else "not stored"
            )
            print(f"  {r['outcome']}{flag}: {r['question']}\n    gold {gold} → {said}")
    print(f"\n{len(rows)} questions in {time.perf_counter() - started:.0f} s")
    if json_out:
        try:
            json_out.write_text(json.dumps(rows, indent=1, default=str) + "\n")
        except OSError as exc:
            raise BenchError(f"cannot write {json_out}: {exc.strerror}") from None


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--filings", type=Path, help="EDGAR HTML filings folder (default: shared)")
    parser.add_argument("--write", type=Path, metavar="FILE", help="write the questions (JSONL)")
    parser.add_argument(
        "--from",
        dest="source",
        type=Path,
        metavar="FILE",
        help="read questions written by --write instead of generating",
    )
    parser.add_argument(
        "--score", action="store_true", help="ask each question of the corpus and score"
    )
    parser.add_argument("--half", choices=["A", "B"], help="only this half of the companies")
    parser.add_argument(
        "--sample",
        type=int,
        default=1,
        metavar="K",
        help="keep every K-th question (development runs)",
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="write every scored row here")
    parser.add_argument(
        "--misses", action="store_true", help="with --score: list every question not right"
    )
    args = parser.parse_args()
    try:
        folder = args.filings or shared_dir() / "edgar-html-dev" / "filings"
        if args.source:
            try:
                lines = args.source.read_text().splitlines()
            except OSError as exc:
                raise BenchError(f"cannot read {args.source}: {exc.strerror}") from None
            known = set(Question.__dataclass_fields__)
            try:
                questions = [
                    Question(**{k: v for k, v in json.loads(line).items() if k in known})
                    for line in lines
                    if line.strip()
                ]
            except (json.JSONDecodeError, TypeError) as exc:
                raise BenchError(
                    f"{args.source} is not a file written by --write ({exc})"
                ) from None
        else:
            questions = generate(folder)
        if args.half:
            questions = keep_half(questions, args.half)
        if args.sample > 1:
            questions = questions[:: args.sample]
        if args.write:
            try:
                args.write.write_text("".join(json.dumps(q.to_dict()) + "\n" for q in questions))
            except OSError as exc:
                raise BenchError(f"cannot write {args.write}: {exc.strerror}") from None
        summary = Counter((q.kind, q.wording) for q in questions)
        print(
            f"{len(questions)} questions: "
            f"{sum(q.kind == 'figure' for q in questions)} figure, "
            f"{sum(q.kind == 'not_stored' for q in questions)} not-stored probes "
            f"({len({q.company for q in questions})} companies)"
        )
        if not args.score:
            for (kind, wording), n in sorted(summary.items()):
                print(f"  {kind:10} {wording:20} {n}")
            return 0
        score(questions, folder, args.json, misses=args.misses)
        return 0
    except BenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
