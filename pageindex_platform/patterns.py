"""Regular expressions compiled when first used, not when their module is imported.

The question path's modules hold some three hundred patterns, and a question uses a third of
them; compiling all of them at import cost a fresh `pi ask` about 0.15 s of its start. A
pattern made here is a `re.Pattern` to its callers: its first method call compiles it, and
from then on its methods are the compiled pattern's own (no wrapper between). `pattern` is
read without compiling, so patterns can be spliced into larger ones.
"""

from __future__ import annotations

import re
from typing import Any, cast

# the attributes of a compiled pattern, bound on the first use of any of them
_BOUND = (
    "search",
    "match",
    "fullmatch",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "scanner",
    "groups",
    "groupindex",
    "flags",
)


class _Deferred:
    """A pattern and its flags until something of the compiled pattern is asked."""

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # copy, pickle and friends ask for dunders: no compiling
            raise AttributeError(name)
        compiled = re.compile(self.pattern, self._flags)
        for bound in _BOUND:
            setattr(self, bound, getattr(compiled, bound))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"deferred({self.pattern!r}, {self._flags!r})"


_MADE: list[_Deferred] = []  # every pattern made here, for `compile_all`


def deferred(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, done on the pattern's first use."""
    made = _Deferred(pattern, flags)
    _MADE.append(made)
    return cast(re.Pattern[str], made)


def compile_all() -> int:
    """Compiles every pattern made so far (a mistake in one is found by the tests, not by the
    first question that reaches it); returns how many there are."""
    for made in _MADE:
        made.search("")
    return len(_MADE)
