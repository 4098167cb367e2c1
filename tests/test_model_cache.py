"""What the embedders need is prepared once per user, in a cache every PI_HOME shares: two
processes preparing it at once make it once, a home created later finds it ready, and an
ingest that has to prepare says so through its progress events."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pageindex_platform.embeddings.cache import prepare

REPO = Path(__file__).resolve().parents[1]

# Prepares `target` through the cache, the making slow enough for two processes to overlap;
# each making leaves a line in `made`.
_RACER = """
import sys, time
from pathlib import Path
from pageindex_platform.embeddings.cache import prepare

target, made = Path(sys.argv[1]), Path(sys.argv[2])

def make(staging):
    with open(made, "a") as log:
        log.write("made\\n")
    staging.mkdir()
    for i in range(5):
        (staging / f"part{i}").write_text("x" * 1000)
        time.sleep(0.2)

prepare(target, make, what="thing")
assert sorted(p.name for p in target.iterdir()) == [f"part{i}" for i in range(5)]
print("ready")
"""


@pytest.mark.no_database
def test_two_processes_preparing_at_once_make_it_once(tmp_path: Path) -> None:
    target, made = tmp_path / "cache" / "thing", tmp_path / "made.log"
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", _RACER, str(target), str(made)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
        )
        for _ in range(2)
    ]
    outs = [r.communicate(timeout=60) for r in racers]
    assert [r.returncode for r in racers] == [0, 0], [err for _, err in outs]
    assert [out.strip() for out, _ in outs] == ["ready", "ready"]
    assert made.read_text().splitlines() == ["made"]  # one made it, the other waited
    assert sorted(p.name for p in target.iterdir()) == [f"part{i}" for i in range(5)]
    left = [p.name for p in target.parent.iterdir() if p.name != target.name]
    assert left == [".thing.lock"]  # no half-made staging folder remains


@pytest.mark.no_database
def test_a_failed_preparation_leaves_nothing_and_is_tried_again(tmp_path: Path) -> None:
    target = tmp_path / "cache" / "model.bin"
    told: list[tuple[str, int, int]] = []

    def broken(staging: Path) -> None:
        staging.write_bytes(b"half")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError, match="disk full"):
        prepare(target, broken, what="model", progress=lambda *e: told.append(e))
    assert not target.exists() and [p.name for p in target.parent.iterdir()] == [".model.bin.lock"]

    def whole(staging: Path) -> None:
        staging.write_bytes(b"whole")

    prepare(target, whole, what="model", total=3, progress=lambda *e: told.append(e))
    assert target.read_bytes() == b"whole"
    assert told == [("model", 0, 1), ("model", 0, 3), ("model", 3, 3)]
    prepare(target, lambda staging: pytest.fail("made twice"), what="model")  # ready: kept


@pytest.mark.no_database
def test_a_home_made_before_the_cache_keeps_its_own_models(tmp_path: Path) -> None:
    from pageindex_platform.embeddings.cache import locate

    home, cache = tmp_path / "home", tmp_path / "cache"
    assert locate("table", cache=cache, home=home) == cache / "table"
    (home / "models" / "table").mkdir(parents=True)
    assert locate("table", cache=cache, home=home) == home / "models" / "table"


@pytest.mark.slow
def test_an_ingest_that_prepares_the_question_model_tells_its_progress(
    tmp_path: Path, small_pdf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new model cache: the ingest first prepares what its embedder needs (here the question
    model of `minilm`), and the progress callback hears it start and finish before the file
    is stored; a second home with the same cache starts storing at once."""
    from pageindex_platform import Corpus
    from pageindex_platform.api import FileDone, Preparing, ProgressEvent

    monkeypatch.setenv("PI_MODEL_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PI_EMBEDDER", "minilm")
    events: list[ProgressEvent] = []
    with Corpus.open(home=tmp_path / "first", database_url=os.environ["PI_DATABASE_URL"]) as c:
        report = c.ingest([small_pdf], progress=events.append)
    assert report.summary().stored == 1
    preparing = [e for e in events if isinstance(e, Preparing)]
    assert [(e.what, e.done, e.total) for e in preparing] == [
        ("question model", 0, 1),
        ("question model", 1, 1),
    ]
    assert events.index(preparing[-1]) < next(
        i for i, e in enumerate(events) if isinstance(e, FileDone)
    )
    assert (tmp_path / "cache" / "all-MiniLM-L6-v2.onnx").is_file()
    assert not (tmp_path / "first" / "models").exists()  # nothing copied into the home

    events.clear()
    started = time.perf_counter()
    with Corpus.open(home=tmp_path / "second", database_url=os.environ["PI_DATABASE_URL"]) as c:
        c.ingest([small_pdf], progress=events.append, force=True)
    assert not [e for e in events if isinstance(e, Preparing)]
    assert time.perf_counter() - started < 30
