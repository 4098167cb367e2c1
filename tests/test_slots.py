"""The machine-wide CPU slots: at most C CPU-heavy ingest stages at once, over every process
of the user, a slot freed when its holder ends however it ends."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pageindex_platform.index.slots import CpuSlots

# these time servers and endpoints (or bind ports): run alone (scripts/test.sh)
pytestmark = pytest.mark.serial

REPO = Path(__file__).resolve().parents[1]

# Holds one of `count` slots in `folder` until killed, saying "held" once it has it.
_HOLDER = """
import sys, time
from pathlib import Path
from pageindex_platform.index.slots import CpuSlots

with CpuSlots(Path(sys.argv[1]), int(sys.argv[2])).held():
    print("held", flush=True)
    time.sleep(60)
"""


def _start(script: str, folder: Path, count: int) -> subprocess.Popen[str]:
    """`script` run in its own process over the slots in `folder`."""
    return subprocess.Popen(
        [sys.executable, "-c", script, str(folder), str(count)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )


def _holding(script: str, folder: Path, count: int) -> subprocess.Popen[str]:
    """`script` started, once it says it holds what it takes."""
    proc = _start(script, folder, count)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def _seconds_to_hold(slots: CpuSlots) -> float:
    started = time.perf_counter()
    with slots.held():
        return time.perf_counter() - started


@pytest.mark.no_database
def test_a_stage_waits_while_every_slot_is_held_elsewhere_and_goes_on_when_one_frees(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "slots"
    first = _holding(_HOLDER, folder, 2)
    second = _holding(_HOLDER, folder, 2)
    try:
        waiting = _start(_HOLDER, folder, 2)
        time.sleep(1.0)
        assert waiting.poll() is None  # still waiting: no "held" yet
        first.send_signal(signal.SIGKILL)  # its slot is freed with it
        first.wait()
        assert waiting.stdout is not None and waiting.stdout.readline().strip() == "held"
        _end(waiting)
        assert _seconds_to_hold(CpuSlots(folder, 2)) < 1.0  # the killed holder's slot
    finally:
        for proc in (first, second):
            _end(proc)


def _end(proc: subprocess.Popen[str]) -> None:
    proc.kill()
    proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


@pytest.mark.no_database
def test_slots_are_one_per_core_unless_set(monkeypatch: pytest.MonkeyPatch) -> None:
    from pageindex_platform.index.slots import cores
    from pageindex_platform.settings import load_settings

    assert CpuSlots.of(load_settings()).count == cores()
    monkeypatch.setenv("PI_CPU_SLOTS", "3")
    assert CpuSlots.of(load_settings()).count == 3


# Holds one of `count` ingest seats in `folder` until killed, saying "held" once it has it.
_INGESTING = """
import sys, time
from pathlib import Path
from pageindex_platform.index.slots import CpuSlots

with CpuSlots(Path(sys.argv[1]), int(sys.argv[2])).ingesting():
    print("held", flush=True)
    time.sleep(60)
"""


@pytest.mark.no_database
def test_ingests_beyond_the_cores_wait_for_a_seat_and_share_the_cores(tmp_path: Path) -> None:
    folder = tmp_path / "slots"
    slots = CpuSlots(folder, 2)
    with slots.ingesting():
        assert (slots.ingests(), slots.parse_workers()) == (1, 1)  # alone: all cores but one
    first = _holding(_INGESTING, folder, 2)
    try:
        with slots.ingesting():
            assert (slots.ingests(), slots.parse_workers()) == (2, 0)  # one core each
            waiting = _start(_INGESTING, folder, 2)
            time.sleep(1.0)
            assert waiting.poll() is None  # both seats held: it waits
            _end(first)  # killed: its seat is freed
            assert waiting.stdout is not None and waiting.stdout.readline().strip() == "held"
            _end(waiting)
        assert slots.ingests() == 1
    finally:
        _end(first)
