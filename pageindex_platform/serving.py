"""What the network doors (`pi mcp --http`, `pi serve`) share: a server listens on loopback,
or on another interface only when a token guards it."""

from __future__ import annotations

import ipaddress

from .errors import ConfigurationError


def loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def require_token_off_loopback(host: str, token: str | None, *, what: str, variable: str) -> None:
    """A ConfigurationError when `host` is not loopback and no token is set: "serving on
    0.0.0.0 (not loopback) needs `what`: set `variable`"."""
    if not loopback(host) and not token:
        raise ConfigurationError(f"serving on {host} (not loopback) needs {what}: set {variable}")
