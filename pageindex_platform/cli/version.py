"""`pi --version`'s line, read without importing the application."""

from __future__ import annotations


def version_line() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version("pageindex-platform")
    except PackageNotFoundError:
        number = "unknown (not installed)"
    return f"pi (pageindex-platform) {number}"
