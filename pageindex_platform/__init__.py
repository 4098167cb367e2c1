"""pageindex-platform: reasoning-based retrieval over folders of long financial filings."""

import logging

__version__ = "0.1.0"

# Quiet unless a door asks for the records (`pi -v`): the library only logs.
logging.getLogger(__name__).addHandler(logging.NullHandler())
