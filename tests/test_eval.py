"""`pi eval financebench`: metrics on known ranks, answer scoring, and end-to-end runs on two
sample filings against the real database (local mode and llm mode with the fake server)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from pageindex_platform.evaluate.answers import numbers, numbers_match
from pageindex_platform.evaluate.metrics import Gold, Ranking, first_gold_rank, summarize

from .fake_answers import task_of
from .fake_llm import FakeLLM, Response, serving
from .helpers import run_cli, session_scope

TENQ = "BESTBUY_2024Q2_10Q"
RELEASE = "ULTABEAUTY_2023Q4_EARNINGS"


def _gold(*pages: tuple[str, int]) -> Gold:
    return Gold(frozenset(d for d, _ in pages), frozenset(pages))


@pytest.mark.no_database
def test_metrics_on_known_ranks() -> None:
    golds = [_gold(("A", 5)), _gold(("B", 2), ("B", 9)), _gold(("C", 1))]
    rankings = [
        Ranking(["A", "B"], [("A", 5), ("A", 6)], 0.1, route="metadata"),  # gold page first
        Ranking(["A", "B"], [("A", 1), ("B", 3), ("B", 9)], 0.3, route="semantic"),  # third
        Ranking(["D"], [("D", 1)], 0.2, route="semantic"),  # nothing right
    ]
    assert [first_gold_rank(r.pages, g) for r, g in zip(rankings, golds, strict=True)] == [
        1,
        3,
        None,
    ]
    s = summarize("ours", rankings, golds, [1, 3])
    assert s.questions == 3
    assert s.doc_acc_at_1 == pytest.approx(1 / 3)
    assert s.doc_recall[1] == pytest.approx(1 / 3) and s.doc_recall[3] == pytest.approx(2 / 3)
    assert s.page_recall[1] == pytest.approx(1 / 3)
    assert s.page_recall[2] == pytest.approx(1 / 3)  # every k up to 10 is kept for the chart
    assert s.page_recall[3] == pytest.approx(2 / 3) and s.page_recall[10] == pytest.approx(2 / 3)
    assert s.mrr == pytest.approx((1 + 1 / 3 + 0) / 3)
    assert s.latency_p50_ms == pytest.approx(200) and s.latency_p95_ms == pytest.approx(300)
    assert s.routes == {"metadata": 1, "semantic": 2}
    assert s.answer_accuracy is None
    with pytest.raises(ValueError):
        summarize("ours", rankings[:2], golds, [1])


@pytest.mark.no_database
def test_numeric_answers_match_within_rounding() -> None:
    assert numbers("Capex was $1,577.00 million, (3.2)% lower; 12%") == [1577.0, -3.2, 12.0]
    assert numbers_match("$1577.00", "Purchases of PP&E were 1,577 (in millions).") is True
    assert numbers_match("$1577.00", "About 1,580 million.") is True  # within 1%
    assert numbers_match("0.66", "The ratio is 0.71.") is False
    assert numbers_match("Yes, it is capital intensive.", "Yes.") is None


def _dataset(tmp: Path, samples: Path, *, company: str = "Best Buy") -> dict[str, Path]:
    pdfs = tmp / "pdfs"
    pdfs.mkdir()
    for name in (TENQ, RELEASE):
        (pdfs / f"{name}.pdf").write_bytes((samples / f"{name}.pdf").read_bytes())
    documents = [
        {"doc_name": TENQ, "company": company, "doc_type": "10q", "doc_period": 2024},
        {"doc_name": RELEASE, "company": "Ulta Beauty", "doc_type": "earnings", "doc_period": 2023},
    ]
    questions = [
        {
            "financebench_id": "q1",
            "question": "What were Best Buy's capital expenditures in "
            "the first half of fiscal 2024?",
            "answer": "$1,234",
            "evidence": [{"doc_name": TENQ, "evidence_page_num": 5}],
        },  # the cash flow statement
        {
            "financebench_id": "q2",
            "question": "Ulta Beauty fourth quarter fiscal 2022 net sales",
            "answer": "Net sales increased",
            "evidence": [{"doc_name": RELEASE, "evidence_page_num": 0}],
        },
        {
            "financebench_id": "q3",
            "question": "Nike FY2023 revenue",
            "answer": "$51.2 billion",
            "evidence": [{"doc_name": "NIKE_2023_10K", "evidence_page_num": 30}],
        },
    ]
    paths = {
        "pdfs": pdfs,
        "documents": tmp / "documents.jsonl",
        "questions": tmp / "questions.jsonl",
        "out": tmp / "report",
    }
    paths["documents"].write_text("\n".join(json.dumps(d) for d in documents) + "\n")
    paths["questions"].write_text("\n".join(json.dumps(q) for q in questions) + "\n")
    return paths


def _run(paths: dict[str, Path], *extra: str) -> tuple[int, str, str]:
    return run_cli(
        "eval",
        "financebench",
        "--questions",
        str(paths["questions"]),
        "--documents",
        str(paths["documents"]),
        "--pdfs",
        str(paths["pdfs"]),
        *extra,
    )


def _eval(paths: dict[str, Path], *extra: str) -> dict[str, Any]:
    code, out, err = _run(paths, "--out", str(paths["out"]), "--json", *extra)
    assert code == 0, err
    result = json.loads(out)
    assert isinstance(result, dict)
    return result


def test_two_document_eval_reports_us_against_both_baselines(tmp_path: Path, samples: Path) -> None:
    paths = _dataset(tmp_path, samples)
    result = _eval(paths)
    assert result["settings"]["questions"] == 2 and result["skipped_questions"] == ["q3"]
    assert result["settings"]["ingest"]["stored"] == 2
    systems = {s["system"]: s for s in result["systems"]}
    assert list(systems) == ["pageindex-platform", "pgvector top-k chunks", "full-text top-k pages"]
    ours = systems["pageindex-platform"]
    assert ours["doc_acc@1"] == 1.0 and ours["page_recall"]["@5"] == 1.0
    assert set(ours["routes"]) == {"metadata"}
    for s in systems.values():
        assert set(s["page_recall"]) >= {"@1", "@3", "@5", "@10"}
        assert all(0.0 <= v <= 1.0 for v in s["page_recall"].values())
        assert s["latency_ms"]["p50"] > 0
    q1 = next(q for q in result["questions"] if q["id"] == "q1")
    assert q1["gold_pages"] == [[TENQ, 6]]
    assert q1["systems"]["pageindex-platform"]["first_gold_rank"] == 1
    report = (paths["out"] / "report.md").read_text()
    assert "| pgvector top-k chunks |" in report and "| full-text top-k pages |" in report
    assert "## Misses" in report
    assert (paths["out"] / "page_recall.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    saved = json.loads((paths["out"] / "report.json").read_text())
    assert saved["systems"] == result["systems"]

    again = _eval(paths)  # the second run ingests nothing
    assert again["settings"]["ingest"] == {**again["settings"]["ingest"], "stored": 0, "skipped": 2}


def test_without_the_eval_extra_the_report_has_no_chart_and_says_how_to_get_it(
    tmp_path: Path, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # installed without [eval]
    paths = _dataset(tmp_path, samples)
    code, out, err = _run(paths, "--out", str(paths["out"]))
    assert code == 0, err
    assert "pip install 'pageindex-platform[eval]'" in err
    assert (paths["out"] / "report.md").exists() and (paths["out"] / "report.json").exists()
    assert not (paths["out"] / "page_recall.png").exists()
    assert "page_recall.png" not in out


def test_questions_are_embedded_by_the_corpus_embedder_whatever_the_setting_says(
    tmp_path: Path, samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An eval over a stored corpus embeds its questions as `pi ask` does (by the embedder the
    filings were embedded with), not by whatever PI_EMBEDDER says now."""
    from pageindex_platform.settings import get_settings

    paths = _dataset(tmp_path, samples)
    first = _eval(paths)
    monkeypatch.setenv("PI_EMBEDDER", "minilm")
    get_settings.cache_clear()
    try:
        again = _eval(paths)
    finally:
        monkeypatch.setenv("PI_EMBEDDER", "hash")
        get_settings.cache_clear()
    assert first["settings"]["embedder"] == again["settings"]["embedder"] == "hash-bow"

    def ranks(result: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {k: v["first_gold_rank"] for k, v in q["systems"].items()} for q in result["questions"]
        ]

    assert ranks(again) == ranks(first)


def test_gold_metadata_is_stored_only_when_asked(tmp_path: Path, samples: Path) -> None:
    paths = _dataset(tmp_path, samples, company="Best Buy Co., Inc. (gold)")

    def company() -> str | None:
        with session_scope() as session:
            return session.execute(
                text("SELECT company FROM documents WHERE name = :n"), {"n": TENQ}
            ).scalar()

    _eval(paths)
    assert company() != "Best Buy Co., Inc. (gold)"
    result = _eval(paths, "--gold-metadata")
    assert company() == "Best Buy Co., Inc. (gold)"
    assert result["settings"]["metadata"] == "gold"


@pytest.mark.no_database
def test_bad_questions_file_is_one_error_line(tmp_path: Path, samples: Path) -> None:
    paths = _dataset(tmp_path, samples)
    paths["questions"].write_text('{"question": "x", "evidence": []}\nnot json\n')
    code, out, err = _run(paths)
    assert code == 1 and out == ""
    assert err.strip().splitlines() == [
        f"Error: {paths['questions']}: line 2: invalid JSON (Expecting value)"
    ]


def _model(request: dict[str, Any]) -> Response:
    name, payload = task_of(request)
    if name == "query_to_sql":
        return Response(json.dumps({"sql": "SELECT name FROM document_metadata"}))
    if name == "tree_search":
        first = payload["tree"][0].split("]")[0].split("[")[1]
        return Response(json.dumps({"thinking": "first section", "node_list": [first]}))
    if name == "judge_answer":
        return Response(json.dumps({"correct": False, "reason": "does not say it increased"}))
    page = payload["pages"][0]
    return Response(
        json.dumps(
            {
                "answer": "They were 1,234 million.",
                "citations": [{"document": page["document"], "page": page["page"]}],
            }
        )
    )


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLM]:
    with serving(monkeypatch, _model, PI_LLM_MAX_ATTEMPTS="1") as server:
        yield server


def test_llm_mode_eval_counts_calls_and_scores_answers(
    tmp_path: Path, samples: Path, fake: FakeLLM
) -> None:
    paths = _dataset(tmp_path, samples)
    code, _, err = run_cli("ingest", str(paths["pdfs"]), "--mode", "local")
    assert code == 0, err
    result = _eval(paths, "--mode", "llm", "--score-answers", "--judge")
    ours = result["systems"][0]
    assert result["settings"]["mode"] == "llm"
    assert ours["usage"]["calls"] > 0 and ours["usage"]["prompt_tokens"] > 0
    # q1: the numbers match ($1,234); q2: the judge says no.
    assert [q["answer_correct"] for q in result["questions"]] == [True, False]
    assert ours["answer_accuracy"] == 0.5
    assert all(s["usage"]["calls"] == 0 for s in result["systems"][1:])
