"""Metadata of a stored corpus against gold, per field (company, doc_type, fiscal_year,
fiscal_period, period_end) and per group of filings, and the stored company names that are
not plausible company names ("junk").

    PI_HOME=/tmp/pi-dev PYTHONPATH=$PWD python bench/metadata_accuracy.py [-v] \
        [--group dev|more|edgar] [--names A,B] [--json out.json]
    # the previous code's corpus:
    PI_HOME=/work/homes/baseall PYTHONPATH=/work/base python bench/metadata_accuracy.py

The corpus is the one the environment points at (PI_HOME / PI_DATABASE_URL). It is read
through what every version has: `pi db status --json` names the database (the embedded
server is started with `pi docs list` when it is not running) and the `documents` table is
read with SQLAlchemy (name, company, doc_type, fiscal_year, fiscal_period, period_end;
`copies` where the version has it; any other column a version adds is printed in `-v`).

Gold, by group:
- dev (150): FinanceBench's documents.jsonl + history.jsonl rows (pdfs/ and history/);
- more (48): more.jsonl (the 7 companies the project never tuned on);
- edgar (26): each inline-XBRL filing's own dei: facts (EntityRegistrantName, DocumentType,
  DocumentFiscalYearFocus, DocumentFiscalPeriodFocus, DocumentPeriodEndDate); for the HTML
  filings without dei: facts, eval/edgar_metadata_gold.jsonl, read off each filing's cover
  page by hand (it has a row for all 7 older filings; where a filing has dei: facts those
  win, and a disagreement with the hand row is printed).
FinanceBench's fields become gold as follows: company is FinanceBench's name; doc_type 10k →
10-K, 10q → 10-Q, 8k → 8-K, Earnings → earnings release, 10k_annualreport → 10-K; doc_period
is the fiscal year for 10-K and 10-Q only (for 8-Ks and releases it is a year label, not
gold); fiscal_period is FY for a 10-K and the quarter in the file name ("..._2023Q2_10Q")
for a 10-Q or a release. A field without gold (the 5 history rows with only a company, an
8-K's fiscal year) is skipped. FinanceBench labels that the filing's own cover contradicts are
corrected by eval/financebench_metadata_corrections.jsonl (each row quotes the cover;
`--raw-labels` scores FinanceBench's labels as they are).

Matching: company is a normalized containment match (case, punctuation, apostrophes, a
leading "The" and corporate suffixes such as Inc./Corp./Company/plc ignored; either name
must be a leading part of the other, word-aligned, spaces optional: "Verizon" ~ "Verizon
Communications Inc.", "McDonalds" ~ "McDONALD'S CORPORATION", "Coca Cola Co" ~
"The Coca-Cola Company"), or an acronym of the other's words ("PG&E" ~ "Pacific Gas and
Electric Company", the co-registrant of PG&E's combined filings). The gold company is the
filer the file is about, as its cover names it. doc_type, fiscal_year, fiscal_period and
period_end must be equal. A gold document that the corpus does not hold (by name or as a
linked copy) is listed and left out of the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ixbrl_facts import read_filing
from sqlalchemy import create_engine, text
from sqlalchemy.exc import SQLAlchemyError

FIELDS = ("company", "doc_type", "fiscal_year", "fiscal_period", "period_end")
GROUPS = ("dev", "more", "edgar")
REPO = Path(__file__).resolve().parents[1]
# the columns every version has or had; any other is shown in -v as provenance
KNOWN_COLUMNS = {
    "id",
    "name",
    "source_path",
    "sha256",
    "status",
    "page_count",
    "company",
    "company_aliases",
    "doc_type",
    "fiscal_year",
    "fiscal_period",
    "period_end",
    "cik",
    "title",
    "description",
    "description_embedding",
    "tree_source",
    "embedder",
    "lexemes",
    "warnings",
    "usage",
    "copies",
    "created_at",
}
FB_TYPES = {
    "10k": ("10-K",),
    "10q": ("10-Q",),
    "8k": ("8-K",),
    "earnings": ("earnings release",),
    "10k_annualreport": ("10-K",),
}


class BenchError(Exception):
    """A problem the user can act on, said in one line."""


def shared_dir() -> Path:
    """The shared data folder (/work/shared beside the checkout or above it)."""
    for parent in Path(__file__).resolve().parents:
        if (parent / "shared" / "financebench-dev").is_dir():
            return parent / "shared"
    return Path("/work/shared")


# --- company names ------------------------------------------------------------------------

SUFFIXES = {
    "inc",
    "incorporated",
    "corp",
    "corporation",
    "co",
    "company",
    "companies",
    "plc",
    "ltd",
    "limited",
    "llc",
    "lp",
    "l.p",
    "nv",
    "sa",
    "ag",
}
STOPWORDS = {"the", "and", "of", "&"}


def name_words(name: str) -> list[str]:
    """A company name's words, lower case, without apostrophes, punctuation, a leading "The"
    and trailing corporate suffixes: "McDONALD'S CORPORATION" → ["mcdonalds"]."""
    s = unicodedata.normalize("NFKC", name).lower()
    s = re.sub(r"[’'`´]", "", s)
    s = s.replace("&", " & ")
    words = [w for w in re.split(r"[^a-z0-9&]+", s) if w]
    while words and words[0] == "the":
        words = words[1:]
    while words and words[-1] in SUFFIXES:
        words = words[:-1]
    return words


def _leading_part(short: list[str], long: list[str]) -> bool:
    """Whether `short` is a word-aligned leading part of `long`, spaces optional
    ("coca cola" ~ "cocacola")."""
    target = "".join(short)
    joined = ""
    for word in long:
        joined += word
        if joined == target:
            return True
        if len(joined) > len(target):
            return False
    return False


def _acronym_of(acronym: list[str], words: list[str]) -> bool:
    letters = "".join(w for w in acronym if w not in STOPWORDS)
    if len(letters) < 2 or any(len(w) > 3 for w in acronym if w not in STOPWORDS):
        return False
    initials = "".join(w[0] for w in words if w not in STOPWORDS)
    return letters == initials


def company_matches(stored: str | None, gold: Iterable[str]) -> bool:
    """Whether the stored company names one of the gold names (see the module's doc)."""
    if not stored:
        return False
    a = name_words(stored)
    if not a:
        return False
    for name in gold:
        b = name_words(name)
        if not b:
            continue
        if _leading_part(a, b) or _leading_part(b, a) or _acronym_of(a, b) or _acronym_of(b, a):
            return True
    return False


GENERIC_WORDS = {
    "company",
    "corporation",
    "registrant",
    "issuer",
    "inc",
    "incorporated",
    "group",
    "holdings",
    "the",
    "our",
    "we",
}
_DATE = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
    r"|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b",
    re.I,
)
_FORM_WORDS = re.compile(
    r"\b(date of|event reported|exact name|commission file|pursuant|quarter(ly)?|fiscal|"
    r"results|annual report|form (10-?k|10-?q|8-?k)|press release|exhibit|item \d|"
    r"table of contents|page \d|highlights|reports?\b.*\b(first|second|third|fourth))",
    re.I,
)


def junk_company(name: str | None) -> str | None:
    """Why a stored company is not a plausible company name, or None when it is one (or
    when there is none: a missing company is counted apart). Junk is:
    - a string starting with something other than a letter or digit (a bullet "•", "(", a
      quote, a dash), or whose first word has no letter ("2023 Second-Quarter", "12/31");
      a name such as "3M Company" starts with a digit and is kept;
    - only generic words once suffixes are dropped ("Company", "The Corporation");
    - a date line ("March 31, 2023", "4/25/2023");
    - cover or heading words ("(Date of earliest event reported)", "Fourth Quarter Results",
      "Exhibit 99.1", "Annual Report");
    - longer than a name: over 80 characters or 10 words."""
    if name is None or not name.strip():
        return None
    s = name.strip()
    if not s[0].isalnum():
        return "starts with a non-letter"
    if not any(c.isalpha() for c in s.split()[0]):
        return "first word has no letter (a number or date)"
    words = [w for w in name_words(s) if w not in GENERIC_WORDS]
    if not words:
        return "only generic words"
    if _DATE.search(s):
        return "a date line"
    if _FORM_WORDS.search(s):
        return "cover or heading words"
    if len(s) > 80 or len(s.split()) > 10:
        return "too long for a name"
    return None


# --- gold -----------------------------------------------------------------------------------


@dataclass
class Gold:
    name: str
    group: str
    accept: dict[str, tuple[Any, ...]]  # field → accepted values (absent: no gold)
    source: str  # "financebench", "dei", "cover (hand)"
    notes: list[str] = field(default_factory=list)


def _jsonl(path: Path) -> list[dict[str, Any]]:
    try:
        lines = path.read_text().splitlines()
    except OSError as exc:
        raise BenchError(f"cannot read {path}: {exc.strerror}") from None
    rows = []
    for number, line in enumerate(lines, 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise BenchError(f"{path}:{number}: not JSON ({exc.msg})") from None
    return rows


def financebench_gold(root: Path, corrections: list[dict[str, Any]]) -> list[Gold]:
    """The gold of the FinanceBench PDFs: dev (documents + history) and more."""
    golds: list[Gold] = []
    for file, group in (
        ("documents.jsonl", "dev"),
        ("history.jsonl", "dev"),
        ("more.jsonl", "more"),
    ):
        for row in _jsonl(root / file):
            accept: dict[str, tuple[Any, ...]] = {}
            if row.get("company"):
                accept["company"] = (row["company"],)
            kind = str(row.get("doc_type") or "").lower()
            if kind in FB_TYPES:
                accept["doc_type"] = FB_TYPES[kind]
                if kind in ("10k", "10q", "10k_annualreport") and row.get("doc_period"):
                    accept["fiscal_year"] = (int(row["doc_period"]),)
                if kind in ("10k", "10k_annualreport"):
                    accept["fiscal_period"] = ("FY",)
                else:
                    quarter = re.search(r"\d{4}(Q[1-4])", row["doc_name"])
                    if quarter and kind in ("10q", "earnings"):
                        accept["fiscal_period"] = (quarter.group(1),)
            golds.append(Gold(row["doc_name"], group, accept, "financebench"))
    by_name = {g.name: g for g in golds}
    for fix in corrections:
        gold = by_name.get(fix.get("doc_name", ""))
        fname = fix.get("field")
        if gold is None or fname not in FIELDS:
            raise BenchError(f"correction names no FinanceBench document or field: {fix}")
        if "gold" in fix:
            gold.accept[fname] = (fix["gold"],)
        for extra in fix.get("also", []):
            gold.accept[fname] = (*gold.accept.get(fname, ()), extra)
        gold.notes.append(f"{fname} corrected: {fix.get('evidence', '')}")
    return golds


def edgar_gold(filings: Path, hand: Path) -> list[Gold]:
    """The gold of the EDGAR HTML filings: dei: facts, else the hand-read cover row."""
    rows = {r["name"]: r for r in _jsonl(hand)} if hand.exists() else {}
    golds: list[Gold] = []
    for path in sorted(filings.glob("*.htm*")):
        dei = read_filing(path).dei
        row = rows.get(path.stem)
        if dei.get("DocumentType"):
            accept: dict[str, tuple[Any, ...]] = {"doc_type": (dei["DocumentType"],)}
            if dei.get("EntityRegistrantName"):
                accept["company"] = (dei["EntityRegistrantName"],)
            if (dei.get("DocumentFiscalYearFocus") or "").isdigit():
                accept["fiscal_year"] = (int(dei["DocumentFiscalYearFocus"]),)
            if dei.get("DocumentFiscalPeriodFocus"):
                accept["fiscal_period"] = (dei["DocumentFiscalPeriodFocus"].upper(),)
            if dei.get("DocumentPeriodEndDate"):
                accept["period_end"] = (dei["DocumentPeriodEndDate"],)
            gold = Gold(path.stem, "edgar", accept, "dei")
            if row:  # the hand row must agree with the filing's own facts
                hand_gold = _hand_accept(row)
                for f, values in hand_gold.items():
                    if f in accept and not _agrees(f, accept[f], values):
                        gold.notes.append(f"hand gold {f}={values} differs from dei {accept[f]}")
            golds.append(gold)
        elif row:
            golds.append(Gold(path.stem, "edgar", _hand_accept(row), "cover (hand)"))
        else:
            print(f"note: {path.name} has no dei: facts and no row in {hand.name}", file=sys.stderr)
    return golds


def _hand_accept(row: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    accept: dict[str, tuple[Any, ...]] = {}
    for f in FIELDS:
        value = row.get(f)
        if value is None:
            continue
        accept[f] = tuple(value) if isinstance(value, list) else (value,)
    return accept


def _agrees(f: str, a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    if f == "company":
        return any(company_matches(x, b) for x in a)
    return bool(set(a) & set(b))


# --- the stored documents -----------------------------------------------------------------


def _pi(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pageindex_platform.cli.main", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def database_url() -> str:
    """The SQLAlchemy URL of the environment's corpus (see the module's doc)."""
    given = os.environ.get("PI_DATABASE_URL")
    if given:
        for prefix in ("postgresql://", "postgres://"):
            if given.startswith(prefix):
                return "postgresql+psycopg://" + given[len(prefix) :]
        return given
    for attempt in range(2):
        done = _pi("db", "status", "--json")
        if done.returncode != 0:
            tail = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise BenchError(f"`pi db status --json` failed: {tail}")
        status = json.loads(done.stdout)
        if status.get("running"):
            # the embedded server needs no password; the status hides it as ***
            return str(status["url"]).replace(":***@", "@")
        if attempt == 0:
            started = _pi("docs", "list", "--json")  # starts the embedded server
            if started.returncode != 0:
                tail = (started.stderr.strip().splitlines() or ["no message"])[-1]
                raise BenchError(f"cannot start the corpus's database: {tail}")
    raise BenchError("the corpus's database does not run after `pi docs list`")


@dataclass
class Stored:
    name: str
    values: dict[str, Any]
    copies: list[str]
    extra: dict[str, Any]


def stored_documents(url: str) -> list[Stored]:
    try:
        engine = create_engine(url)
        with engine.connect() as conn:
            columns = {
                str(r[0]): str(r[1])
                for r in conn.execute(
                    text(
                        "SELECT column_name, udt_name FROM information_schema.columns "
                        "WHERE table_name = 'documents'"
                    )
                )
            }
            if not columns:
                raise BenchError("the corpus's database has no documents table")
            extra = sorted(
                c
                for c, kind in columns.items()
                if c not in KNOWN_COLUMNS and kind not in {"vector", "tsvector", "bytea"}
            )
            wanted = ["name", *FIELDS] + (["copies"] if "copies" in columns else []) + extra
            listed = ", ".join(f'"{c}"' for c in wanted)
            rows = conn.execute(text(f"SELECT {listed} FROM documents ORDER BY name")).mappings()
            found = []
            for r in rows:
                values = {f: r[f] for f in FIELDS}
                copies = list(r["copies"] or []) if "copies" in columns else []
                found.append(Stored(r["name"], values, copies, {c: r[c] for c in extra}))
        engine.dispose()
        return found
    except SQLAlchemyError as exc:
        detail = (str(getattr(exc, "orig", None) or exc).strip().splitlines() or ["?"])[0]
        raise BenchError(f"cannot read the documents table: {detail}") from None


# --- scoring --------------------------------------------------------------------------------


def field_right(f: str, stored: Any, accept: tuple[Any, ...]) -> bool:
    if f == "company":
        return company_matches(stored, accept)
    if stored is None:
        return False
    if f == "doc_type":
        return str(stored).lower() in {str(a).lower() for a in accept}
    if f == "fiscal_year":
        return int(stored) in {int(a) for a in accept}
    return str(stored).upper() in {str(a).upper() for a in accept}


def pct(right: int, total: int) -> str:
    return f"{right}/{total} {100.0 * right / total:.1f}%" if total else "-"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="list every mismatch")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write all figures here")
    parser.add_argument("--names", help="only these documents (comma-separated names)")
    parser.add_argument(
        "--group", help="only these groups (comma-separated: dev, more, edgar)", default=""
    )
    parser.add_argument(
        "--raw-labels",
        action="store_true",
        help="score FinanceBench's labels as they are (no cover-based corrections)",
    )
    parser.add_argument("--financebench", type=Path, help="FinanceBench dev folder")
    parser.add_argument("--filings", type=Path, help="EDGAR HTML filings folder")
    args = parser.parse_args()
    try:
        return run(args)
    except BenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


def run(args: argparse.Namespace) -> int:
    shared = shared_dir()
    fb = args.financebench or shared / "financebench-dev"
    filings = args.filings or shared / "edgar-html-dev" / "filings"
    groups = [g for g in (args.group or "").split(",") if g] or list(GROUPS)
    if bad := [g for g in groups if g not in GROUPS]:
        raise BenchError(f"unknown group(s) {', '.join(bad)}: use dev, more or edgar")
    corrections = (
        [] if args.raw_labels else _jsonl(REPO / "eval" / "financebench_metadata_corrections.jsonl")
    )
    golds = [
        *financebench_gold(fb, corrections),
        *edgar_gold(filings, REPO / "eval" / "edgar_metadata_gold.jsonl"),
    ]
    golds = [g for g in golds if g.group in groups]
    if args.names:
        wanted = {n.strip() for n in args.names.split(",") if n.strip()}
        golds = [g for g in golds if g.name in wanted]
        if missing := wanted - {g.name for g in golds}:
            print(f"note: no gold for {', '.join(sorted(missing))}", file=sys.stderr)
    url = database_url()
    stored = stored_documents(url)
    by_name: dict[str, Stored] = {}
    for doc in stored:
        by_name[doc.name] = doc
        for copy in doc.copies:
            by_name.setdefault(copy, doc)

    counts: dict[str, dict[str, list[int]]] = {
        g: {f: [0, 0] for f in FIELDS} for g in [*groups, "all"]
    }
    junk: list[dict[str, Any]] = []
    absent: list[str] = []
    missing_company: list[str] = []
    rows: list[dict[str, Any]] = []
    mismatches: list[str] = []
    for gold in golds:
        found = by_name.get(gold.name)
        if found is None:
            absent.append(gold.name)
            continue
        doc = found
        row: dict[str, Any] = {
            "name": gold.name,
            "group": gold.group,
            "stored_as": doc.name,
            "gold_source": gold.source,
            "stored": {f: doc.values[f] for f in FIELDS},
            "gold": {f: list(v) for f, v in gold.accept.items()},
            "right": {},
            "extra": {k: _plain(v) for k, v in doc.extra.items()},
            "notes": gold.notes,
        }
        for f, accept in gold.accept.items():
            ok = field_right(f, doc.values[f], accept)
            row["right"][f] = ok
            for g in (gold.group, "all"):
                counts[g][f][0] += ok
                counts[g][f][1] += 1
            if not ok:
                shown = " | ".join(str(a) for a in accept)
                extra = "".join(f"  {k}={_plain(v)}" for k, v in doc.extra.items())
                mismatches.append(
                    f"{gold.group:5} {gold.name:42} {f:13} stored {doc.values[f]!r:40} "
                    f"gold {shown}{extra}"
                )
        reason = junk_company(doc.values["company"])
        if reason:
            junk.append({"name": gold.name, "group": gold.group, "company": doc.values["company"]})
            junk[-1]["reason"] = reason
        if not doc.values["company"]:
            missing_company.append(gold.name)
        row["junk_company"] = reason
        rows.append(row)

    shown_groups = [*groups, "all"] if len(groups) > 1 else groups
    sizes = {g: sum(1 for r in rows if g == "all" or r["group"] == g) for g in shown_groups}
    print(f"corpus: {url.split('@')[-1]}  ({len(stored)} stored documents)")
    print("| field | " + " | ".join(f"{g} ({sizes[g]} docs)" for g in shown_groups) + " |")
    print("|---|" + "---|" * len(shown_groups))
    for f in FIELDS:
        print(f"| {f} | " + " | ".join(pct(*counts[g][f]) for g in shown_groups) + " |")
    junk_by = {g: sum(1 for j in junk if g == "all" or j["group"] == g) for g in shown_groups}
    print("| junk company names | " + " | ".join(str(junk_by[g]) for g in shown_groups) + " |")
    none_by = {
        g: sum(1 for r in rows if (g == "all" or r["group"] == g) and not r["stored"]["company"])
        for g in shown_groups
    }
    print("| no company stored | " + " | ".join(str(none_by[g]) for g in shown_groups) + " |")
    if junk:
        print("\njunk company names:")
        for j in junk:
            print(f"  {j['group']:5} {j['name']:42} {j['company']!r}  ({j['reason']})")
    if absent:
        print(f"\ngold documents not in the corpus (left out): {', '.join(absent)}")
    for gold in golds:
        for note in gold.notes:
            if note.startswith("hand gold"):
                print(f"note: {gold.name}: {note}", file=sys.stderr)
    if args.verbose and mismatches:
        print(f"\nmismatches ({len(mismatches)}):")
        for line in mismatches:
            print("  " + line)
    if args.json:
        figures = {
            g: {
                f: {
                    "right": counts[g][f][0],
                    "total": counts[g][f][1],
                    "pct": round(100.0 * counts[g][f][0] / counts[g][f][1], 2)
                    if counts[g][f][1]
                    else None,
                }
                for f in FIELDS
            }
            for g in shown_groups
        }
        out = {
            "corpus": url.split("@")[-1],
            "stored_documents": len(stored),
            "raw_labels": bool(args.raw_labels),
            "figures": figures,
            "documents_per_group": sizes,
            "junk_company_names": junk,
            "no_company": missing_company,
            "not_in_corpus": absent,
            "rows": rows,
        }
        try:
            args.json.write_text(json.dumps(out, indent=2, default=str) + "\n")
        except OSError as exc:
            raise BenchError(f"cannot write {args.json}: {exc.strerror}") from None
    return 0


def _plain(value: Any) -> Any:
    return value if isinstance(value, str | int | float | bool | type(None)) else str(value)


if __name__ == "__main__":
    sys.exit(main())
