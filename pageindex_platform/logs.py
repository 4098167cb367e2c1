"""Where the package's log records go: the library logs the paths it takes and its fallbacks
(`logging.getLogger(__name__)`), and a door decides what is shown. `pi` shows warnings (a
one-time minute-long preparation, say) by default, and with `-v` / `-vv` the paths taken and
more detail, on stderr."""

from __future__ import annotations

import logging
import sys

PACKAGE = "pageindex_platform"
_HANDLER_MARK = "_pageindex_platform_stderr"


def level_for(verbosity: int) -> int:
    """0: warnings; 1 (-v): the paths taken (info); 2 or more (-vv): debug."""
    return logging.WARNING if verbosity <= 0 else logging.INFO if verbosity == 1 else logging.DEBUG


def log_to_stderr(level: int) -> None:
    """Show the package's records of `level` and above on the current stderr, replacing an
    earlier call's handler: the message alone at the warning level, else with its level and
    logger."""
    logger = logging.getLogger(PACKAGE)
    for handler in list(logger.handlers):
        if getattr(handler, _HANDLER_MARK, False):
            logger.removeHandler(handler)
    handler = logging.StreamHandler(sys.stderr)
    setattr(handler, _HANDLER_MARK, True)
    detailed = "%(levelname)s %(name)s: %(message)s"
    handler.setFormatter(logging.Formatter("%(message)s" if level >= logging.WARNING else detailed))
    logger.addHandler(handler)
    logger.setLevel(level)


def shown_level() -> int:
    """The level this process shows (for worker processes to show the same)."""
    return logging.getLogger(PACKAGE).getEffectiveLevel()
