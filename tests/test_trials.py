"""What a hostile user found, each kept as a test against the real database: nothing stored is
replaced silently, questions that cannot be searched are one error line (exit 2), workers die
with their ingest, a relaxed period is said first, an empty corpus says how to ingest, and
the CLI follows the usual conventions (the database's own trials: test_database_trials.py)."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from pageindex_platform.settings import get_settings

from .conftest import SAMPLES
from .helpers import error_lines, run_cli, run_json

# these kill, fill or time processes and servers: run alone (scripts/test.sh)
pytestmark = pytest.mark.serial

TENQ = "BESTBUY_2024Q2_10Q"
PI = str(Path(sys.executable).parent / "pi")


# 1. A stored document is replaced only by its own source, or when asked.


def test_a_different_file_of_the_same_name_is_refused_unless_asked(tmp_path: Path) -> None:
    first, second = tmp_path / "a" / "10K.pdf", tmp_path / "b" / "10K.pdf"
    for path, source in ((first, f"{TENQ}.pdf"), (second, "AMCOR_2023Q2_10Q.pdf")):
        path.parent.mkdir()
        shutil.copy(SAMPLES / source, path)
    assert run_cli("ingest", str(first))[0] == 0
    code, _, err = run_cli("ingest", str(second))
    assert code == 1 and len(error_lines(err)) == 1
    assert str(second) in err and str(first.resolve()) in err and "--replace" in err
    assert run_json("docs", "show", "10K")["company"].startswith("Best Buy")

    shutil.copy(SAMPLES / "ULTABEAUTY_2023Q4_EARNINGS.pdf", first)  # its own source, changed
    assert run_cli("ingest", str(first))[0] == 0
    assert run_json("docs", "show", "10K")["company"].startswith("Ulta")
    assert run_cli("ingest", str(second), "--replace")[0] == 0
    assert run_json("docs", "show", "10K")["company"].startswith("Amcor")
    moved = tmp_path / "c" / "10K.pdf"  # the same content from elsewhere is the same document
    moved.parent.mkdir()
    shutil.copy(second, moved)
    code, out, _ = run_cli("ingest", str(moved), "--json")
    assert code == 0 and json.loads(out)["skipped"] == 1


# 2. Questions that cannot be searched.


@pytest.mark.parametrize(
    "question",
    ["", "   ", "?", "the of", "\x00\x01", "x" * 5000, "bad \udcff utf-8"],
    ids=["empty", "blank", "punctuation", "stopwords", "control", "huge", "invalid-utf8"],
)
def test_an_unsearchable_question_is_one_line_and_exit_2(corpus: Path, question: str) -> None:
    code, out, err = run_cli("ask", question)
    assert code == 2 and len(error_lines(err)) == 1 and "Traceback" not in err + out
    code, out, err = run_cli("ask", question, "--json")
    assert code == 2 and json.loads(out)["error"]["type"] == "QuestionError"


def test_invalid_utf8_on_a_real_command_line(corpus: Path) -> None:
    env = {**os.environ, "PI_EMBEDDER": "hash"}
    run = subprocess.run(
        [PI, "ask", b"Best Buy \xff\xfe revenue"], env=env, capture_output=True, timeout=120
    )
    err = run.stderr.decode(errors="replace")
    assert run.returncode == 2 and "not valid UTF-8" in err and "Traceback" not in err


@pytest.mark.slow
def test_200_random_questions_never_crash(corpus: Path) -> None:
    rng = random.Random(11)
    pieces = [
        "Best Buy",
        "revenue",
        "Q2",
        "FY2024",
        "'; DROP TABLE documents; --",
        "%s %d",
        "{0} {name}",
        "\x00",
        "\u202e",
        "😀",
        "\udcff",
        "?!",
        "the",
        "of",
        "Ulta",
        "SELECT * FROM pages",
        "' OR 1=1 --",
        "\\",
        "\n\t",
        "comparable sales",
        "a" * 300,
        "名 营收",
        "$1,234.5",
        "(6.3)%",
        "&&",
        "||",
        "::",
        "<>",
    ]
    for _ in range(200):
        question = " ".join(rng.choice(pieces) for _ in range(rng.randint(0, 6)))
        code, out, err = run_cli("ask", question)  # an exception would raise here
        assert code in (0, 2), (question, err)
        assert "Traceback" not in err + out and len(error_lines(err)) == (code == 2)


# 3. Parse workers die with their ingest.


PARSE_WORKER = "pageindex_platform.index.parse_worker"


def test_workers_die_with_a_killed_ingest(samples: Path) -> None:
    env = {**os.environ, "PI_EMBEDDER": "hash"}
    run = subprocess.Popen(
        [PI, "ingest", str(samples)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    parent = psutil.Process(run.pid)
    deadline = time.monotonic() + 60
    children: list[psutil.Process] = []
    while time.monotonic() < deadline and run.poll() is None:
        children = parent.children(recursive=True)
        if any(PARSE_WORKER in " ".join(p.cmdline()) for p in children):
            break
        time.sleep(0.05)
    assert any(PARSE_WORKER in " ".join(p.cmdline()) for p in children), "no worker started"
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    _gone, alive = psutil.wait_procs(children, timeout=10)
    assert not alive, [p.cmdline() for p in alive]


# 4-6. The database dying, its disk filling up, a read-only corpus: a PI_HOME of its own.


def test_a_relaxed_period_is_said_first(corpus: Path) -> None:
    code, out, _err = run_cli("ask", "Best Buy Q4 fiscal 2022 revenue", "--json")
    result = json.loads(out)
    notice = "No Best Buy Co., Inc. filing for Q4 fiscal 2022 is stored; nearest: " + TENQ
    assert code == 0 and result["answer"].startswith(notice), result["answer"][:200]
    assert any(w.startswith(notice) for w in result["warnings"])
    exact = run_json("ask", "Best Buy Q2 fiscal 2024 comparable sales")
    assert not exact["answer"].startswith("No ") and exact["warnings"] == []


# 9. An empty corpus says how to ingest.


def test_an_empty_corpus_says_how_to_ingest() -> None:
    code, _out, err = run_cli("ask", "Best Buy revenue")
    assert code == 1 and "no filings are stored yet" in err and "pi ingest" in err


# 10. CLI conventions.


def test_cli_conventions() -> None:
    code, out, _ = run_cli("--version")
    assert code == 0 and out.startswith("pi (pageindex-platform) ")
    for args in (("-h",), ("ask", "-h"), ("docs", "show", "-h"), ("db", "-h")):
        code, out, _ = run_cli(*args)
        assert code == 0 and "Usage:" in out and "<bool>" not in out
    assert "--install-completion" in run_cli("--help")[1]
    code, out, err = run_cli("docs", "show", "NO_SUCH_DOC", "--json")
    error = json.loads(out)["error"]
    assert code == 1 and error["type"] == "DocumentNotFoundError" and error["exit_code"] == 1
    assert "no document named 'NO_SUCH_DOC'" in err


# 11. Two ingests of the same folder at once.


def test_two_concurrent_ingests_report_no_raw_database_errors(samples: Path) -> None:
    env = {**os.environ, "PI_EMBEDDER": "hash"}
    runs = [
        subprocess.Popen(
            [PI, "ingest", str(samples), "--json"],
            env=env,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=300) for run in runs]
    for run, (out, err) in zip(runs, outputs, strict=True):
        assert run.returncode == 0, err
        assert "UniqueViolation" not in err and "Traceback" not in err
        report = json.loads(out)
        assert report["stored"] + report["skipped"] == 6
    names = [d["name"] for d in run_json("docs", "list")]
    assert sorted(names) == sorted(set(names)) and len(names) == 6


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("PI_LLM_TIMEOUT", "soon"),
        ("PI_EMBEDDER", "nope"),
        ("PI_CHUNK_TOKENS", "-"),
        ("PI_LLM_PRICES", "{not json"),
        ("PI_HOME", "/dev/null/pi"),
    ],
)
@pytest.mark.no_database
def test_a_bad_setting_is_one_line(
    variable: str, value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(variable, value)
    if variable == "PI_HOME":
        monkeypatch.delenv("PI_DATABASE_URL")
    get_settings.cache_clear()
    try:
        code, out, err = run_cli("ask", "Best Buy revenue", "--json")
        assert code == 1 and len(error_lines(err)) == 1 and "Traceback" not in err
        assert variable in err and json.loads(out)["error"]["message"]
    finally:
        get_settings.cache_clear()


def test_an_answer_piped_into_a_reader_that_stops_early_ends_quietly(corpus: Path) -> None:
    """`pi ask ... | head -1`: the reader closes the pipe before the answer is written; the
    command ends without an error line or a traceback."""
    run = subprocess.Popen(
        [sys.executable, "-m", "pageindex_platform.cli.main", "ask", "Best Buy revenue"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ),
    )
    assert run.stdout is not None and run.stderr is not None
    run.stdout.close()  # the reader is gone before anything is written
    with run.stderr:
        err = run.stderr.read().decode()
    assert run.wait(timeout=120) == 141
    assert not error_lines(err) and "Traceback" not in err and "BrokenPipe" not in err, err
