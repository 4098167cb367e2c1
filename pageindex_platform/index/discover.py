"""Which files a batch ingests: the named files and, in named folders (recursively), the files
of a supported type — a .txt only when it is an EDGAR submission; the named paths that cannot
be ingested fail with their problem, and files left out of folders are listed."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError, UnreadableFileError
from .build import SUPPORTED_SUFFIXES, TEXT_SUFFIXES, BuildOptions, prepare_document
from .report import FileResult
from .submission import is_submission


@dataclass
class Discovered:
    files: list[Path] = field(default_factory=list)
    failures: list[FileResult] = field(default_factory=list)  # named paths that cannot be read
    ignored: list[str] = field(default_factory=list)  # files in folders, not of a supported type
    not_followed: list[str] = field(default_factory=list)  # links in folders to paths outside


def discover(paths: Iterable[Path], *, follow_links: bool = False) -> Discovered:
    """The files to ingest. In a folder, a link (or a file under a linked folder) that leads
    outside the folder is not followed unless `follow_links`: it is listed in `not_followed`."""
    found = Discovered()
    for path in paths:
        if path.is_dir():
            root = path.resolve()
            for child in sorted(path.rglob("*")):
                if child.name.startswith(".") or child.is_dir():
                    continue
                if not follow_links and not child.resolve().is_relative_to(root):
                    found.not_followed.append(str(child))
                    continue
                if not _utf8(child):
                    found.failures.append(_misnamed(child))
                elif child.suffix.lower() in SUPPORTED_SUFFIXES and (
                    child.suffix.lower() not in TEXT_SUFFIXES or _is_submission_file(child)
                ):  # a .txt found in a folder is taken when it is an EDGAR submission
                    found.files.append(child)
                else:
                    found.ignored.append(str(child))
        elif not _utf8(path):
            found.failures.append(_misnamed(path))
        elif path.suffix.lower() in SUPPORTED_SUFFIXES and (path.exists() or path.is_symlink()):
            found.files.append(path)
        else:
            error = (
                UnreadableFileError(path, "no such file or folder")
                if not path.exists() and not path.is_symlink()
                else _prepare_error(path)
            )
            found.failures.append(FileResult.failed(path, error))
    return found


def _utf8(path: Path) -> bool:
    """Whether the path's name can be stored and printed (it is valid UTF-8)."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _misnamed(path: Path) -> FileResult:
    """A file whose name is not valid UTF-8 fails alone, its name shown with the bytes
    escaped."""
    shown = str(path).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    problem = "the file name is not valid UTF-8; rename the file"
    return FileResult.failed(shown, InputError(Path(shown), problem))


def _is_submission_file(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return is_submission(f.read(4096).decode("utf-8", errors="replace"))
    except OSError:
        return True  # let ingest report why it cannot be read


def _prepare_error(path: Path) -> InputError:
    try:
        prepare_document(path, BuildOptions())
    except InputError as exc:
        return exc
    return InputError(path)  # pragma: no cover - discover only calls this for bad paths
