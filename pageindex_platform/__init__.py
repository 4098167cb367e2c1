"""pageindex-platform: reasoning-based retrieval over folders of long financial filings."""

__version__ = "0.1.0"
