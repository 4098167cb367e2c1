"""`pi`: the command line's entry point. `pi --version` answers before anything heavy is
imported; every other command builds the typer application (`app.py`) and its command
groups on first use."""

from __future__ import annotations

import sys
from typing import Any


def version_line() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version("pageindex-platform")
    except PackageNotFoundError:
        number = "unknown (not installed)"
    return f"pi (pageindex-platform) {number}"


def main() -> None:
    if sys.argv[1:] == ["--version"]:
        print(version_line())
        return
    from ..index.parse_worker import without_pymupdf_extras
    from .app import app

    without_pymupdf_extras()
    app()


def __getattr__(name: str) -> Any:
    if name == "app":  # `from pageindex_platform.cli.main import app`, as tests do
        from .app import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    main()
