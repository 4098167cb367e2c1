"""What the package promises of its own shape, read from its source (no database): small
modules and functions, doors that reach the library through the API alone, and filing types
spelled in one place. Each test names every module, function or import that breaks it."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pageindex_platform.records import DocType

PACKAGE = Path(__file__).resolve().parents[1] / "pageindex_platform"
TOP = PACKAGE.name
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60

pytestmark = pytest.mark.no_database


def _modules() -> list[Path]:
    """The package's Python modules, its migrations left out (revisions are frozen)."""
    migrations = PACKAGE / "db" / "migrations"
    return sorted(p for p in PACKAGE.rglob("*.py") if migrations not in p.parents)


def _name(path: Path) -> str:
    """The dotted module name of a file of the package."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _where(path: Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


def test_no_module_is_over_400_lines() -> None:
    long = [
        f"{_where(p)}: {n} lines"
        for p in _modules()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    ]
    assert not long, f"modules over {MAX_MODULE_LINES} lines:\n" + "\n".join(long)


def _functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def test_no_function_body_is_over_60_lines() -> None:
    """A body runs from its first statement (the docstring included) to its last line."""
    long = []
    for path in _modules():
        for fn in _functions(ast.parse(path.read_text(encoding="utf-8"))):
            lines = (fn.end_lineno or fn.lineno) - fn.body[0].lineno + 1
            if lines > MAX_FUNCTION_LINES:
                long.append(f"{_where(path)}:{fn.lineno} {fn.name}: {lines} lines")
    assert not long, f"function bodies over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(long)


# --- the doors ---------------------------------------------------------------------------

# What every door may import of the package: the API and the modules shared by all doors.
SHARED = tuple(
    f"{TOP}.{m}" for m in ("api", "errors", "settings", "logs", "shapes", "serving", "process")
)
# A door's own modules, by the door's first module name under the package.
OWN = {"cli": f"{TOP}.cli", "web": f"{TOP}.web", "mcp_server": f"{TOP}.mcp_server"}
# What one door module may import besides, and why.
EXCEPTIONS = {
    "cli/db.py": (f"{TOP}.db",),  # the database's lifecycle: start, stop, status, upgrade
    "cli/evaluate.py": (f"{TOP}.evaluate",),  # the evaluation harness
    "cli/mcp.py": (f"{TOP}.mcp_server",),  # `pi mcp` starts the MCP server door
    "cli/serve.py": (f"{TOP}.web",),  # `pi serve` starts the web page door
}


def _doors() -> list[Path]:
    """The CLI's modules, the MCP server, the web page (module or package) and serving.py."""
    found = [*sorted((PACKAGE / "cli").glob("*.py")), PACKAGE / "serving.py"]
    for door in ("mcp_server", "web"):
        found += [PACKAGE / f"{door}.py"] if (PACKAGE / f"{door}.py").exists() else []
        found += sorted((PACKAGE / door).rglob("*.py")) if (PACKAGE / door).is_dir() else []
    return found


def _is_module(dotted: str) -> bool:
    path = PACKAGE.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _imported(path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) of each import of the package anywhere in the file (inside functions
    and TYPE_CHECKING blocks too); `from X import name` counts as X.name where that is a
    module."""
    package = _name(path) if path.name == "__init__.py" else _name(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                whole = f"{base}.{alias.name}"
                yield node.lineno, whole if _is_module(whole) else base


def _allowed(target: str, door: Path) -> bool:
    relative = door.relative_to(PACKAGE).as_posix()
    own = OWN.get(relative.split("/")[0].removesuffix(".py"))
    prefixes = (*SHARED, *((own,) if own else ()), *EXCEPTIONS.get(relative, ()))
    return target == TOP or any(target == p or target.startswith(f"{p}.") for p in prefixes)


def test_doors_import_only_the_api_and_shared_modules() -> None:
    bad = [
        f"{_where(door)}:{line} imports {target}"
        for door in _doors()
        for line, target in dict.fromkeys(_imported(door))
        if (target == TOP or target.startswith(f"{TOP}.")) and not _allowed(target, door)
    ]
    assert not bad, "doors importing more than the API and shared modules:\n" + "\n".join(bad)


# --- filing types ------------------------------------------------------------------------

# Modules that may still spell a filing type: records.py owns DocType; search/constraints.py
# reads the types a question names with patterns of their own (being rewritten).
SPELLS_TYPES = {"records.py", "search/constraints.py"}


def _spells_a_type(value: object) -> bool:
    """A string that is a filing type's name, or holds one quoted as SQL text does."""
    return isinstance(value, str) and any(
        value == str(kind) or f"'{kind}'" in value for kind in DocType
    )


def test_filing_types_are_spelled_only_in_records() -> None:
    bad = [
        f"{_where(path)}:{node.lineno} {str(node.value)[:80]!r}"
        for path in _modules()
        if path.relative_to(PACKAGE).as_posix() not in SPELLS_TYPES
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and _spells_a_type(node.value)
    ]
    assert not bad, "filing types spelled outside records.DocType:\n" + "\n".join(bad)


# --- what a question imports ---------------------------------------------------------------

# Heavy modules a local-mode question never uses: the PDF reader, the model client, the
# transformer's runtime. Importing the API (what `pi ask` and a script do) leaves them out.
NOT_FOR_A_QUESTION = ("pymupdf", "openai", "onnxruntime", "tokenizers", "fastapi", "mcp")


def test_the_api_imports_nothing_a_question_does_not_use() -> None:
    probe = (
        "import sys, pageindex_platform.api, pageindex_platform.cli.ask; "
        f"print(' '.join(m for m in {NOT_FOR_A_QUESTION!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [], f"imported by the API: {out.stdout.strip()}"


def test_reading_a_pdf_leaves_pymupdfs_extras_out_yet_importable_by_the_caller() -> None:
    # the layout analyser opens three ONNX models when imported: a library caller's first
    # ingest paid about half a second for them
    probe = (
        "import sys; from pageindex_platform.index import pdf; "
        "print('layout' if 'pymupdf.layout' in sys.modules else 'without'); "
        "import pymupdf4llm; print('importable')"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["without", "importable"]


def test_threads_reading_pdfs_at_once_each_get_the_whole_pdf_reader() -> None:
    # the web door renders page images in a pool: a thread must never see a half-imported one
    probe = (
        "from concurrent.futures import ThreadPoolExecutor\n"
        "from pageindex_platform.process import import_pymupdf\n"
        "def whole(_):\n"
        "    m = import_pymupdf()\n"
        "    return hasattr(m, 'Matrix') and hasattr(m, 'open')\n"
        "with ThreadPoolExecutor(16) as pool:\n"
        "    print(sum(pool.map(whole, range(16))))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["16"], out.stderr[-500:]
