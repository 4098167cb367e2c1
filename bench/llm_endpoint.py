"""LLM mode end to end against an OpenAI-compatible endpoint, as a user runs it: `pi ingest
--mode llm` of three filings, then `pi ask --mode llm --json` of ten questions, each in its
own process on a fresh PI_HOME. Prints, per step, the exit code, LLM calls, fallback warnings
and Python tracebacks, and checks every stored tree's invariants.

    python bench/llm_endpoint.py                      # a well-behaved keep-alive fake model
    python bench/llm_endpoint.py --server hostile     # a fake that misbehaves in every way
    python bench/llm_endpoint.py --server http://127.0.0.1:8080/v1 --model NAME
                                                      # a real server (llama.cpp, vLLM, Ollama)

The fakes (tests/fake_llm.py) are uvicorn servers with HTTP/1.1 keep-alive. Embeddings use
the hash embedder unless --embedder minilm: this measures the LLM side.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DEV_PDFS = Path(__file__).resolve().parents[2] / "shared" / "financebench-dev" / "pdfs"
FILINGS = ["3M_2018_10K.pdf", "AMCOR_2023Q2_10Q.pdf", "ULTABEAUTY_2024Q2_EARNINGS.pdf"]
QUESTIONS = [
    "3M 2018 total net sales",
    "3M FY2018 capital expenditures",
    "What legal proceedings does 3M describe in its 2018 annual report?",
    "3M 2018 research and development expenses",
    "Amcor net sales for the three months ended December 31, 2022",
    "Amcor cash and cash equivalents at the end of Q2 fiscal 2023",
    "What restructuring costs did Amcor record in the first half of fiscal 2023?",
    "Ulta Beauty net sales in the second quarter of fiscal 2024",
    "Ulta Beauty comparable sales growth in Q2 fiscal 2024",
    "What outlook did Ulta Beauty give for fiscal 2024?",
]
# Warnings that say a model step fell back (as opposed to ignored ids or dropped citations).
FALLBACK = ("failed", "not called for", "chose no node", "local search instead")


def _run(cmd: list[str], env: dict[str, str], timeout: float) -> tuple[int, str, str, float]:
    started = time.perf_counter()
    try:
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
        return -9, out, f"killed after {timeout:.0f}s", time.perf_counter() - started
    return done.returncode, done.stdout, done.stderr, time.perf_counter() - started


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--server", default="competent", help="competent, hostile, or the base URL of a real server"
    )
    parser.add_argument("--model", default="fake-model", help="model name (real servers)")
    parser.add_argument("--folder", type=Path, default=DEV_PDFS)
    parser.add_argument("--timeout", type=float, default=None, help="PI_LLM_TIMEOUT seconds")
    parser.add_argument("--embedder", default="hash", choices=["hash", "minilm"])
    parser.add_argument("--json", dest="as_json", type=Path, help="also write figures here")
    args = parser.parse_args()

    from tests.fake_llm import FakeLLM, Hostile, competent

    home = tempfile.mkdtemp(prefix="pi-llm-endpoint-")
    timeout = args.timeout or (2.0 if args.server == "hostile" else 120.0)
    figures: dict[str, Any] = {
        "server": args.server,
        "model": args.model,
        "ingest": {},
        "questions": [],
    }
    with ExitStack() as stack:
        hostile = Hostile(timeout=timeout) if args.server == "hostile" else None
        if args.server in ("competent", "hostile"):
            fake = stack.enter_context(FakeLLM(hostile or competent))
            url = fake.url
        else:
            fake, url = None, args.server
        env = {
            **os.environ,
            "PI_HOME": home,
            "PI_EMBEDDER": args.embedder,
            "PI_LLM_BASE_URL": url,
            "PI_LLM_MODEL": args.model,
            "PI_LLM_TIMEOUT": str(timeout),
        }
        if hostile:
            env.update(PI_LLM_MAX_ATTEMPTS="3", PI_LLM_MAX_RETRY_SECONDS="3")
        env.pop("PI_DATABASE_URL", None)
        pi = str(Path(sys.executable).parent / "pi")
        files = [str(args.folder / name) for name in FILINGS]

        code, out, err, seconds = _run([pi, "ingest", "--mode", "llm", "--json", *files], env, 3600)
        report = _json(out) or {}
        docs = report.get("files", [])
        ingest = {
            "exit": code,
            "seconds": round(seconds, 1),
            "stored": report.get("stored"),
            "failed": report.get("failed"),
            "calls": sum(f.get("usage", {}).get("calls", 0) for f in docs),
            "tracebacks": err.count("Traceback"),
        }
        figures["ingest"] = ingest
        print(
            f"ingest: exit {code}, stored {ingest['stored']}, failed {ingest['failed']}, "
            f"{ingest['calls']} LLM calls, {ingest['tracebacks']} tracebacks, "
            f"{seconds:.0f}s"
        )
        for line in err.splitlines():
            if line.startswith("Error"):
                print(f"  {line}")

        for question in QUESTIONS:
            code, out, err, seconds = _run(
                [pi, "ask", question, "--mode", "llm", "--json"], env, 900
            )
            result = _json(out) or {}
            warnings = result.get("warnings", [])
            fallbacks = [w for w in warnings if any(k in w for k in FALLBACK)]
            row = {
                "question": question,
                "exit": code,
                "seconds": round(seconds, 1),
                "calls": result.get("usage", {}).get("calls"),
                "answered": bool(result.get("answer")) and bool(result.get("citations")),
                "first_citation": (result.get("citations") or [{}])[0],
                "fallbacks": fallbacks,
                "tracebacks": err.count("Traceback"),
            }
            figures["questions"].append(row)
            cite = row["first_citation"]
            print(
                f"ask exit {code} calls {row['calls']} answered {row['answered']} "
                f"fallbacks {len(fallbacks)} tracebacks {row['tracebacks']} {seconds:4.1f}s "
                f"{cite.get('document', '-')} p.{cite.get('page', '-')}  {question}"
            )
            for warning in fallbacks:
                print(f"    {warning[:160]}")
            if code != 0:
                print(f"    stderr: {err.strip()[-300:]}")
        if fake is not None:
            figures["requests"] = fake.calls
            figures["connections"] = len(set(fake.ports))
        if hostile is not None:
            figures["replies"] = hostile.kinds

    os.environ["PI_HOME"] = home
    os.environ.pop("PI_DATABASE_URL", None)
    from pageindex_platform import Corpus, catalog
    from pageindex_platform.db import stop_embedded

    db = Corpus.open().db
    session_scope = db.session
    from pageindex_platform.settings import get_settings

    get_settings.cache_clear()  # PI_HOME changed after the settings were first read
    with session_scope() as session:
        invalid = len(catalog.invalid_trees(session=session))
    stop_embedded(get_settings().pgdata)
    figures["invalid_trees"] = invalid

    rows = figures["questions"]
    summary = {
        "questions": len(rows),
        "exit_0": sum(r["exit"] == 0 for r in rows),
        "answered": sum(r["answered"] for r in rows),
        "with_calls": sum(bool(r["calls"]) for r in rows),
        "calls": sum(r["calls"] or 0 for r in rows),
        "with_fallbacks": sum(bool(r["fallbacks"]) for r in rows),
        "tracebacks": sum(r["tracebacks"] for r in rows) + ingest["tracebacks"],
    }
    figures["summary"] = summary
    print(
        f"\nquestions {summary['questions']}: exit 0 {summary['exit_0']}, answered "
        f"{summary['answered']}, with LLM calls {summary['with_calls']} ({summary['calls']} "
        f"calls), with fallback warnings {summary['with_fallbacks']}; tracebacks "
        f"{summary['tracebacks']}; invalid trees {invalid}"
    )
    if fake is not None:
        print(
            f"server: {figures['requests']} requests over {figures['connections']} "
            f"connection(s)" + (f"; replies {figures['replies']}" if hostile else "")
        )
    if args.as_json:
        args.as_json.write_text(json.dumps(figures, indent=2))
    ok = (
        ingest["exit"] == 0
        and summary["exit_0"] == len(rows)
        and not summary["tracebacks"]
        and not invalid
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
