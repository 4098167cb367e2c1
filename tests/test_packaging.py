"""What a user installs: the wheel holds every file the package reads, and the distribution
declares what the code imports (and nothing it does not). The whole install is checked by
scripts/check_wheel.sh (a fresh virtual env, the README's run command)."""

from __future__ import annotations

import ast
import importlib.metadata
import json
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from .conftest import REPO

PACKAGE = REPO / "pageindex_platform"
# Declared though no module imports them by name, each for a reason:
USED_INDIRECTLY = {
    "onnx": "torch.onnx.export writes the ONNX file with it",
    "skeletoken": "model2vec's distillation step",
}


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
    assert match, requirement
    return _canonical(match.group(0))


def _project() -> dict[str, object]:
    with (REPO / "pyproject.toml").open("rb") as f:
        project: dict[str, object] = tomllib.load(f)["project"]
    return project


def _source_files() -> list[str]:
    """The repository's files as a clean clone has them (tracked, or new and not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return [name for name in listed if (REPO / name).is_file()]


@pytest.fixture(scope="module")
def wheel_files(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """The names in a wheel built from a clean copy of the source (no stale build/ folder)."""
    source = tmp_path_factory.mktemp("source")
    for name in _source_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, source / name)
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(dist),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = dist.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


@pytest.mark.no_database
def test_every_file_of_the_package_is_in_the_wheel(wheel_files: set[str]) -> None:
    package_files = [
        name
        for name in _source_files()
        if name.startswith("pageindex_platform/") and "__pycache__" not in name
    ]
    assert any(name.endswith(".txt") for name in package_files)  # data files are among them
    missing = [name for name in package_files if name not in wheel_files]
    assert not missing, f"not in the wheel: {missing}"


# A `pi` run that records the files under the package folder it opens (an audit hook), for
# a fresh process: nothing read earlier in this test session is cached there.
_RECORDING_PI = """
import atexit, json, sys
from pathlib import Path
package, log = Path(sys.argv[1]), sys.argv[2]
opened = set()
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, Path)):
        path = Path(args[0]).resolve()
        if path.is_relative_to(package) and "__pycache__" not in path.parts:
            opened.add(str(path.relative_to(package.parent)))
sys.addaudithook(hook)
atexit.register(lambda: Path(log).write_text(json.dumps(sorted(opened))))
sys.argv = ["pi", *sys.argv[3:]]
from pageindex_platform.cli.main import main
main()
"""


def _opened_by_pi(tmp_path: Path, *args: str) -> set[str]:
    log = tmp_path / "opened.json"
    done = subprocess.run(
        [sys.executable, "-c", _RECORDING_PI, str(PACKAGE), str(log), *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(log.read_text()))


@pytest.mark.slow
def test_every_file_the_package_opens_at_run_time_is_in_the_wheel(
    wheel_files: set[str], samples: Path, tmp_path: Path
) -> None:
    read = _opened_by_pi(tmp_path, "ingest", str(samples))
    for question in (
        "Best Buy Q2 FY2024 comparable sales",  # a company and a period: the metadata route
        "Amcor capital expenditure FY2023",  # a statement (knowledge.txt) and a concept
        "lawsuits and legal proceedings",  # a subject that sections.txt maps to sections
    ):
        read |= _opened_by_pi(tmp_path, "ask", question, "--json")
    read |= _opened_by_pi(tmp_path, "docs", "tree", "BESTBUY_2024Q2_10Q")
    data = {name for name in read if not name.endswith(".py")}
    assert {
        "pageindex_platform/search/sections.txt",
        "pageindex_platform/search/concepts.txt",
        "pageindex_platform/search/knowledge.txt",
    } <= data
    missing = sorted(name for name in read if name not in wheel_files)
    assert not missing, f"opened at run time but not in the wheel: {missing}"


def _imported_distributions() -> dict[str, set[str]]:
    """Distribution name -> the package's modules that import it (absolute imports only)."""
    owners = importlib.metadata.packages_distributions()
    found: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top == "pageindex_platform":
                    continue
                for dist in owners.get(top, [f"<no distribution provides {top}>"]):
                    found.setdefault(_canonical(dist), set()).add(str(path.relative_to(REPO)))
    return found


@pytest.mark.no_database
def test_everything_imported_is_declared_and_nothing_declared_is_unused() -> None:
    project = _project()
    required = {_requirement_name(r) for r in project["dependencies"]}  # type: ignore[attr-defined]
    extras: dict[str, list[str]] = project["optional-dependencies"]  # type: ignore[assignment]
    optional = {
        _requirement_name(r)
        for name, requirements in extras.items()
        if name != "dev"
        for r in requirements
    }
    imported = _imported_distributions()
    undeclared = {d: sorted(users) for d, users in imported.items() if d not in required | optional}
    assert not undeclared, f"imported but not declared: {undeclared}"
    unused = required - set(imported) - set(USED_INDIRECTLY)
    assert not unused, f"declared but never imported: {sorted(unused)}"
    assert set(USED_INDIRECTLY) <= required


@pytest.mark.no_database
def test_optional_parts_are_extras_and_only_their_own_feature_imports_them() -> None:
    """matplotlib (the eval chart) is an extra: only the eval report imports it."""
    extras: dict[str, list[str]] = _project()["optional-dependencies"]  # type: ignore[assignment]
    assert "matplotlib" in {_requirement_name(r) for r in extras["eval"]}
    assert _imported_distributions()["matplotlib"] == {"pageindex_platform/evaluate/report.py"}


def _imports_within_package() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (at module level or inside functions)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        if "migrations" in path.parts:  # Alembic's scripts, not modules of the package
            continue
        parts = path.relative_to(REPO).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - max(0, node.level - 1)]
                target = ".".join([*base, node.module or ""]) if node.level else node.module
                targets = [target or "", *(f"{target}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            graph[name].update(t.rstrip(".") for t in targets if t.rstrip(".") in modules)
        graph[name].discard(name)
    return graph


@pytest.mark.no_database
def test_no_module_imports_one_that_imports_it_back() -> None:
    graph = _imports_within_package()
    assert graph["pageindex_platform.search.pipeline"]  # the graph is read
    cycles = []
    for start in graph:  # a module reached again from itself is in a cycle
        seen, todo = set(), list(graph[start])
        while todo:
            name = todo.pop()
            if name == start:
                cycles.append(start)
                break
            if name not in seen:
                seen.add(name)
                todo.extend(graph[name])
    assert not cycles, f"modules in an import cycle: {sorted(cycles)}"
