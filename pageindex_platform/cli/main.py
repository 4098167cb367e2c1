"""`pi`: the command line's entry point. `pi --version` answers before anything heavy is
imported; any other command line builds the typer application (`app.py`) with the command it
names alone, so that only that command's modules are imported."""

from __future__ import annotations

import sys
from typing import Any

from .version import version_line


def main() -> None:
    if sys.argv[1:] == ["--version"]:
        print(version_line())
        return
    from .app import app_for

    # the command named (the first word that is no option: `pi -v ask ...`), alone imported
    named = next((arg for arg in sys.argv[1:] if not arg.startswith("-")), None)
    app_for(named)()


def __getattr__(name: str) -> Any:
    if name == "app":  # `from pageindex_platform.cli.main import app`, as tests do
        from .app import app_for

        return app_for(None)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    main()
