"""Query-to-SQL runs within a memory budget: a SELECT that would hold more than it (an 8-way
self-join collected by ARRAY(SELECT ...), joins, a sub-select joined with itself for every row,
wide values sorted, deep nesting, plans of too many sorts) is refused before it runs; what the
guard lets through ends within seconds over 20,000 documents; the database server's memory
stays flat; and the answer comes from local entity linking with a warning that says why."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import psutil
import pytest
from psycopg.errors import ConfigurationLimitExceeded, QueryCanceled
from sqlalchemy import text

from pageindex_platform.errors import UnsafeSQLError
from pageindex_platform.search.sql_guard import (
    MAX_MEMORY_STEPS,
    check_plan,
    run_readonly,
    validate_sql,
)

from .fake_answers import task_of
from .fake_llm import FakeLLM, Response, competent, serving
from .helpers import env_db, run_cli

# these time servers and endpoints (or bind ports): run alone (scripts/test.sh)
pytestmark = pytest.mark.serial

TENQ = "BESTBUY_2024Q2_10Q"
QUESTION = "Best Buy comparable sales in the second quarter of fiscal 2024"
GOOD_SQL = "SELECT name FROM document_metadata WHERE company ILIKE '%best buy%'"
# The server's processes may grow this much (bytes) while one query runs.
MEMORY_ALLOWANCE = 100_000_000


def _reads(n: int) -> str:
    """The names of n reads of the view put together, FROM the n reads."""
    joined = " || ".join(f"d{i}.name" for i in range(1, n + 1))
    tables = ", ".join(f"document_metadata d{i}" for i in range(1, n + 1))
    return f"{joined} FROM {tables}"


ATTACK = f"SELECT name FROM document_metadata WHERE name = ANY(ARRAY(SELECT {_reads(8)}))"

WIDE = " || ".join(["description"] * 9)  # nine descriptions: the most a filter may join

REFUSED = {  # what the guard refuses on its own, and a word of why
    "array_of_an_8_way_self_join": (ATTACK, "ARRAY(SELECT"),
    "in_an_8_way_self_join": (
        f"SELECT name FROM document_metadata WHERE name IN (SELECT {_reads(8)})",
        "a join",
    ),
    "a_4_way_cross_join_sorted": (
        "SELECT d1.name FROM document_metadata d1, document_metadata d2, document_metadata d3, "
        "document_metadata d4 ORDER BY d1.description, d2.description, d3.description",
        "a join",
    ),
    "a_join_on": (
        "SELECT d.name FROM document_metadata d JOIN document_metadata e ON e.company = d.company",
        "a join",
    ),
    "a_join_of_sub_selects": (
        "SELECT a.name FROM (SELECT name FROM document_metadata) a, "
        "(SELECT name FROM document_metadata) b",
        "a join",
    ),
    "cross_join_of_generate_series": (
        "SELECT d.name FROM document_metadata d, generate_series(1, 100000000) AS g",
        "function in FROM",
    ),
    "generate_series_in_an_expression": (
        "SELECT name FROM document_metadata WHERE fiscal_year IN "
        "(SELECT generate_series(1, 100000000) FROM document_metadata)",
        "generate_series is not allowed",
    ),
    "deep_nesting": (
        "SELECT name FROM " + "(SELECT name FROM " * 6 + "document_metadata" + ") AS t" * 6,
        "nested in one another",
    ),
    "nested_sub_selects": (
        "SELECT name FROM document_metadata WHERE name IN (SELECT name FROM document_metadata "
        "WHERE name IN (SELECT name FROM document_metadata))",
        "would run again for every outer row",
    ),
    "huge_string_agg": (
        "SELECT name FROM document_metadata WHERE length((SELECT string_agg("
        f"{WIDE}, ' ') FROM document_metadata)) > 0",
        "string_agg is not allowed",
    ),
    "wider_filters": (
        f"SELECT name FROM document_metadata WHERE {WIDE} || title LIKE '%x%'",
        "concatenations",
    ),
    "wide_values_selected": (
        f"SELECT DISTINCT {WIDE} AS name FROM document_metadata",
        "|| outside WHERE",
    ),
    "wide_values_sorted_by_alias": (
        "SELECT name, description || title AS k FROM document_metadata ORDER BY k",
        "|| outside WHERE",
    ),
    "a_column_as_separator": (
        "SELECT name FROM document_metadata ORDER BY array_to_string(company_aliases, title)",
        "column as separator",
    ),
    "cube": (
        "SELECT max(name) AS name FROM document_metadata "
        "GROUP BY CUBE (company, doc_type, fiscal_year, fiscal_period, title, description)",
        "CUBE",
    ),
    "many_unnests": (
        "SELECT unnest(company_aliases) || unnest(company_aliases) AS name FROM document_metadata",
        "unnest calls",
    ),
    "many_union_branches": (
        " UNION ".join(
            f"SELECT name FROM document_metadata WHERE fiscal_year = {y}" for y in range(7)
        ),
        "SELECTs",
    ),
    "a_very_long_query": (
        "SELECT name FROM document_metadata WHERE "
        + " OR ".join(f"company = 'c{i}'" for i in range(400)),
        "characters",
    ),
}


@pytest.mark.no_database
@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_guard_refuses_queries_over_the_budget(case: str) -> None:
    sql, why = REFUSED[case]
    with pytest.raises(UnsafeSQLError, match=r"budget|not allowed") as refused:
        validate_sql(sql)
    assert why in str(refused.value)


@pytest.mark.no_database
def test_reasonable_queries_stay_within_the_budget() -> None:
    for sql in (
        GOOD_SQL,
        "SELECT name FROM document_metadata WHERE name IN (SELECT name FROM document_metadata "
        "WHERE company ILIKE '%amcor%' UNION SELECT name FROM document_metadata "
        "WHERE fiscal_year = 2023) ORDER BY fiscal_year DESC, name",
        "SELECT name FROM document_metadata WHERE company IN (SELECT company FROM "
        "document_metadata WHERE doc_type = '10-K') AND fiscal_year = 2024",
        "SELECT DISTINCT name FROM document_metadata WHERE 'BBY' = ANY(company_aliases) "
        "OR EXISTS (SELECT 1 FROM document_metadata e WHERE e.name = document_metadata.name)",
        "SELECT name FROM (SELECT name, fiscal_year FROM document_metadata "
        "WHERE similarity(company, 'Best Buy') > 0.3) AS recent ORDER BY fiscal_year DESC",
    ):
        assert validate_sql(sql) == sql


def _plan(*steps: dict[str, Any]) -> list[dict[str, Any]]:
    """EXPLAIN (FORMAT JSON) of a plan whose steps are `steps`, each under the previous."""
    top: dict[str, Any] = {}
    for step in reversed(steps):
        top = {**step, "Plans": [top]} if top else dict(step)
    return [{"Plan": top}]


@pytest.mark.no_database
def test_the_plan_check_refuses_plans_that_cannot_keep_to_the_budget() -> None:
    scan = {"Node Type": "Seq Scan", "Plan Rows": 8}
    check_plan(_plan({"Node Type": "Sort", "Plan Rows": 8}, scan))
    with pytest.raises(UnsafeSQLError, match="estimated 50,000,000 rows"):
        check_plan(_plan({"Node Type": "Nested Loop", "Plan Rows": 50_000_000}, scan))
    sorts = [{"Node Type": "Sort", "Plan Rows": 8}] * (MAX_MEMORY_STEPS + 1)
    with pytest.raises(UnsafeSQLError, match=f"{MAX_MEMORY_STEPS + 1} steps that keep rows"):
        check_plan(_plan(*sorts, scan))


def _server() -> psutil.Process | None:
    """The test database's postmaster, None where the tests use a server elsewhere."""
    pid_file = Path(os.environ["PI_HOME"]) / "pgdata" / "postmaster.pid"
    if os.environ.get("PI_TEST_DATABASE_URL") or not pid_file.exists():
        return None
    return psutil.Process(int(pid_file.read_text().split()[0]))


def _resident(server: psutil.Process) -> dict[int, int]:
    """Each server process's resident memory (bytes), by process id."""
    sizes = {}
    for child in server.children():
        try:
            sizes[child.pid] = child.memory_info().rss
        except psutil.Error:  # a backend that just ended
            continue
    return sizes


@contextmanager
def server_memory() -> Iterator[list[int]]:
    """How much any one server process grew (bytes of resident memory; a process started
    during the block counts whole) during the block, sampled every 10 ms: `[growth]` after
    it, `[]` where the server is not ours to see."""
    server = _server()
    growth: list[int] = []
    if server is None:
        yield growth
        return
    before = _resident(server)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            now = _resident(server)
            peak = max(peak, *(rss - before.get(pid, 0) for pid, rss in now.items()))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        yield growth
    finally:
        done.set()
        sampler.join()
        growth.append(peak)


def _add_documents(count: int) -> None:
    """`count` more stored documents, written as the store writes them (no pages needed)."""
    with env_db().engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO documents (name, source_path, sha256, status, page_count, company, "
                "company_aliases, doc_type, fiscal_year, description, tree_source, embedder) "
                "SELECT 'FILING_' || g, 'filing.md', md5(g::text), 'ready', 1, "
                "'Company ' || g, ARRAY['C' || g], '10-K', 2000 + g % 25, "
                "repeat('a sentence about the business. ', 8), 'markdown', 'hash' "
                "FROM generate_series(1, :count) AS g"
            ),
            {"count": count},
        )


@pytest.fixture
def ingested(samples: Path) -> Path:
    code, _, err = run_cli("ingest", str(samples), "--mode", "local")
    assert code == 0, err
    return samples


def test_the_attack_is_refused_before_it_runs_and_memory_stays_flat(ingested: Path) -> None:
    """The 8-way self-join inside ARRAY(SELECT ...) took about 1 GB of the server's memory
    over 6 to 8 documents; now it never starts."""
    with server_memory() as growth:
        started = time.monotonic()
        with pytest.raises(UnsafeSQLError, match="memory budget"):
            run_readonly(env_db().engine, ATTACK)
    assert time.monotonic() - started < 1
    assert not growth or growth[0] < MEMORY_ALLOWANCE, f"{growth[0]:,} bytes"


HEAVY = {  # within the guard's shape; over 20,000 documents each is slow, or wide, or both
    "a_sub_select_for_every_row": (
        f"SELECT name FROM document_metadata WHERE company = 'none' OR {WIDE} IN "
        "(SELECT description FROM document_metadata)"
    ),
    "a_wide_filter": f"SELECT name FROM document_metadata WHERE {WIDE} LIKE '%none%'",
    "distinct_descriptions": "SELECT DISTINCT description AS name FROM document_metadata",
    "sorted_by_descriptions": (
        "SELECT name FROM document_metadata ORDER BY description, title, company"
    ),
    "a_union_of_descriptions": " UNION ".join(
        f"SELECT description AS name FROM document_metadata WHERE fiscal_year % 5 = {r}"
        for r in range(5)
    ),
    "grouped_by_descriptions": (
        "SELECT max(name) AS name FROM document_metadata GROUP BY description, title "
        "ORDER BY count(*)"
    ),
}


@pytest.mark.parametrize("case", sorted(HEAVY))
def test_queries_of_the_allowed_shape_end_within_seconds_and_memory_stays_flat(
    ingested: Path, case: str
) -> None:
    """Each ends — done, or stopped by the statement timeout or the temporary files' limit —
    within seconds, and no server process grows past the allowance."""
    _add_documents(20_000)
    assert validate_sql(HEAVY[case])
    with server_memory() as growth:
        started = time.monotonic()
        with suppress(QueryCanceled, ConfigurationLimitExceeded):  # stopped: as good as done
            run_readonly(env_db().engine, HEAVY[case])
    assert time.monotonic() - started < 5
    assert not growth or growth[0] < MEMORY_ALLOWANCE, f"{growth[0]:,} bytes"


def _writes(sql: str) -> Any:
    def script(request: dict[str, Any]) -> Response:
        if task_of(request)[0] == "query_to_sql":
            return Response(json.dumps({"sql": sql}))
        return competent(request)

    return script


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch, ingested: Path) -> Iterator[FakeLLM]:
    with serving(monkeypatch, _writes(ATTACK), PI_LLM_MAX_ATTEMPTS="1") as server:
        yield server


def _ask() -> dict[str, Any]:
    code, out, err = run_cli("ask", QUESTION, "--json", "--mode", "llm")
    assert code == 0, err
    result = json.loads(out)
    assert isinstance(result, dict)
    return result


def test_pi_ask_with_the_attack_falls_back_at_once_and_memory_stays_flat(fake: FakeLLM) -> None:
    with server_memory() as growth:
        result = _ask()
    assert not growth or growth[0] < MEMORY_ALLOWANCE, f"{growth[0]:,} bytes"
    assert result["sql"] is None and result["timings"]["route"] < 5
    warning = next(w for w in result["warnings"] if "Query-to-SQL failed" in w)
    assert "memory budget" in warning and "local entity linking instead" in warning
    assert "local entity linking" in result["route_reason"]
    assert result["documents"][0]["name"] == TENQ and result["citations"]
    asked = [r for r in fake.requests if task_of(r)[0] == "query_to_sql"]
    assert len(asked) == 2 and "memory budget" in asked[1]["messages"][-1]["content"]
