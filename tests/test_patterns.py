"""Patterns compiled on first use answer as the compiled pattern does."""

from __future__ import annotations

import re

import pytest

from pageindex_platform.patterns import deferred

pytestmark = pytest.mark.no_database


def test_a_deferred_pattern_matches_as_compiled() -> None:
    words = r"(?P<verb>rose|fell)\s+(?P<by>\d+(?:\.\d+)?)%"
    pattern = deferred(words, re.IGNORECASE)
    compiled = re.compile(words, re.IGNORECASE)
    text = "Revenue ROSE 4.5% while costs fell 2%."
    assert [m.groupdict() for m in pattern.finditer(text)] == [
        m.groupdict() for m in compiled.finditer(text)
    ]
    assert pattern.sub("~", text) == compiled.sub("~", text)
    assert pattern.groupindex == compiled.groupindex
    assert pattern.flags == compiled.flags


def test_a_deferred_pattern_splices_into_others_before_it_is_compiled() -> None:
    year = deferred(r"(?:19|20)\d{2}")
    assert year.pattern == r"(?:19|20)\d{2}"
    fiscal = deferred(rf"\bfiscal\s+{year.pattern}\b")
    found = fiscal.search("in fiscal 2023, sales")
    assert found is not None and found.group() == "fiscal 2023"
    assert year.fullmatch("1999") and not year.fullmatch("2999")


def test_every_pattern_of_the_package_compiles() -> None:
    # a pattern compiled on first use must not hide a mistake until a question reaches it
    import importlib
    import pkgutil

    from pageindex_platform import periods, search
    from pageindex_platform.patterns import compile_all

    for package in (search, periods):  # the packages whose patterns are made so
        for module in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)
    assert compile_all() > 250
