"""`pi ingest --mode llm` against the fake OpenAI-compatible server: a competent model, and
chaos (malformed JSON, truncation, empty replies, wrong ids and pages, 429, 500, timeouts).
Whatever happens, ingest finishes, the stored tree is valid, failures are visible as warnings
and the number of calls stays bounded."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pageindex_platform.index.text import item_label
from pageindex_platform.index.tree import check_tree

from .fake_answers import competent_answer, task_of
from .fake_llm import FakeLLM, Response, competent, serving
from .helpers import run_cli, run_json
from .test_ingest import _tree_nodes, _walk

# these time servers and endpoints (or bind ports): run alone (scripts/test.sh)
pytestmark = pytest.mark.serial

TENQ = "BESTBUY_2024Q2_10Q"


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLM]:
    with serving(
        monkeypatch,
        competent,
        model="qwen2.5:7b-instruct",
        PI_LLM_TIMEOUT="0.5",
        PI_LLM_MAX_ATTEMPTS="2",
        PI_LLM_MAX_RETRY_SECONDS="3",
    ) as server:
        yield server


def _ingest(path: Path, *extra: str) -> dict[str, Any]:
    code, out, err = run_cli("ingest", str(path), "--json", *extra)
    assert code == 0, err
    report = json.loads(out)
    assert isinstance(report, dict)
    return report


def _stored_tree_is_valid(name: str) -> dict[str, Any]:
    tree: dict[str, Any] = run_json("docs", "tree", name)
    assert check_tree(_tree_nodes(tree["nodes"]), tree["page_count"]) == []
    return tree


def test_competent_model_builds_the_real_structure_with_few_calls(
    fake: FakeLLM, samples: Path
) -> None:
    code, _, err = run_cli("ingest", str(samples / f"{TENQ}.pdf"))
    assert code == 0 and "mode: llm (qwen2.5:7b-instruct" in err
    tree = _stored_tree_is_valid(TENQ)
    nodes = [n for root in tree["nodes"] for n in _walk(root)]
    mdna = next(n for n in nodes if item_label(n["title"]) == "2" and "Management" in n["title"])
    assert mdna["start_page"] == 14  # where "Item 2. Management's Discussion..." is printed
    assert all(n["summary"].startswith(n["title"][:20]) for n in nodes)  # the model's summaries
    info = run_json("docs", "show", TENQ)
    assert info["usage"]["calls"] == fake.calls <= 8
    assert info["usage"]["prompt_tokens"] > 0 and info["warnings"] == []
    assert info["description"].startswith("Best Buy Co., Inc. 10-Q for fiscal 2024")
    _, shown, _ = run_cli("docs", "show", TENQ)
    assert f"usage:           {fake.calls} LLM calls (0 from cache), " in shown


def test_a_folder_in_one_command_shares_kept_alive_connections(
    fake: FakeLLM, samples: Path
) -> None:
    """Every document of one command is built over the same pool of connections (the second
    document used to fail with 'Event loop is closed')."""
    report = _ingest(samples)
    assert report["stored"] == 6 and report["failed"] == 0
    assert all(
        f["usage"]["calls"] > 0 for f in report["files"] if f["name"] != "retail_sector_notes"
    )
    assert len(set(fake.ports)) <= 4 < fake.calls  # at most llm_concurrency connections
    for f in report["files"]:
        _stored_tree_is_valid(f["name"])


def test_second_ingest_makes_zero_calls(fake: FakeLLM, samples: Path) -> None:
    first = _ingest(samples / f"{TENQ}.pdf")
    calls = fake.calls
    assert first["files"][0]["usage"]["calls"] == calls > 0
    again = _ingest(samples / f"{TENQ}.pdf")  # unchanged: skipped
    assert again["files"][0]["status"] == "skipped" and fake.calls == calls
    forced = _ingest(samples / f"{TENQ}.pdf", "--force")  # rebuilt from the cache
    usage = forced["files"][0]["usage"]
    assert fake.calls == calls and usage["calls"] == 0 and usage["cached"] == calls


def _sometimes(bad: Callable[[dict[str, Any]], Response]) -> Callable[..., Response]:
    """Bad replies for every other request, competent ones otherwise."""
    count = {"n": 0}

    def script(request: dict[str, Any]) -> Response:
        count["n"] += 1
        return bad(request) if count["n"] % 2 else competent(request)

    return script


def _wrong_ids(request: dict[str, Any]) -> Response:
    name, payload = task_of(request)
    answer = competent_answer(name, payload)
    for item in answer.get("summaries", []):
        item["node_id"] = "9999"
    for item in answer.get("results", []):
        item["page"] = 100_000
    for item in answer.get("sections", []):
        item["page"] = -3
    return Response(json.dumps(answer))


CHAOS: dict[str, Callable[[dict[str, Any]], Response]] = {
    "malformed": lambda r: Response('{"summaries": [{"node_id": "0001", "summ'),
    "truncated": lambda r: Response('{"summaries": [', finish_reason="length"),
    "empty": lambda r: Response(""),
    "wrong_ids_and_pages": _wrong_ids,
    "rate_limited": _sometimes(
        lambda r: Response("busy", status=429, headers={"Retry-After": "0.1"})
    ),
    "server_error": lambda r: Response("boom", status=500),
    "timeout": lambda r: Response('{"summaries": []}', delay=1.0),
}
WARNED = {"malformed", "truncated", "empty", "wrong_ids_and_pages", "server_error", "timeout"}


@pytest.mark.parametrize("case", sorted(CHAOS))
def test_chaos_never_breaks_ingest(case: str, fake: FakeLLM, samples: Path) -> None:
    fake.script = CHAOS[case]
    report = _ingest(samples / f"{TENQ}.pdf")
    assert report["files"][0]["status"] == "stored"
    _stored_tree_is_valid(TENQ)
    info = run_json("docs", "show", TENQ)
    if case in WARNED:
        assert any(w.startswith("llm: ") for w in info["warnings"]), info["warnings"]
        _, out, _ = run_cli("docs", "show", TENQ)
        assert "llm: " in out
    assert fake.calls <= 20, f"{fake.calls} calls for a 30-page filing"


def test_local_mode_is_the_default_without_a_model(samples: Path) -> None:
    code, _, err = run_cli("ingest", str(samples / "retail_sector_notes.md"))
    assert code == 0 and "mode: local (no PI_LLM_MODEL set)" in err
    assert run_json("docs", "show", "retail_sector_notes")["usage"] == {}
    _, shown, _ = run_cli("docs", "show", "retail_sector_notes")
    assert "usage:           none (indexed in local mode)" in shown
