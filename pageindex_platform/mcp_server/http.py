"""The MCP server over streamable HTTP: on loopback, or on another interface only with a bearer
token (PI_MCP_TOKEN) that every request must then carry."""

from __future__ import annotations

import hmac
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer

from ..errors import ConfigurationError
from ..serving import require_token_off_loopback

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]
REFUSED = b'{"error": "a bearer token (PI_MCP_TOKEN) is required"}'


def parse_listen(value: str) -> tuple[str, int]:
    """ "[HOST:]PORT" → (host, port); the host is 127.0.0.1 when not given."""
    host, _, port = value.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigurationError(f"--http {value!r}: expected [HOST:]PORT, e.g. 8765")
    return host, int(port)


def with_token(app: ASGIApp, token: str) -> ASGIApp:
    """`app` answering only requests that carry `Authorization: Bearer <token>` (401
    otherwise)."""
    expected = f"Bearer {token}".encode()

    async def guarded(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, expected):
                headers = [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")]
                await send({"type": "http.response.start", "status": 401, "headers": headers})
                await send({"type": "http.response.body", "body": REFUSED})
                return
        await app(scope, receive, send)

    return guarded


def serve_http(server: MCPServer, listen: str, *, token: str | None) -> None:
    """Serve `server` at http://HOST:PORT/mcp (`listen`: "[HOST:]PORT"); a host other than
    loopback needs `token`, and with a token every request must carry it."""
    host, port = parse_listen(listen)
    require_token_off_loopback(host, token, what="a bearer token", variable="PI_MCP_TOKEN")
    import uvicorn

    app: ASGIApp = server.streamable_http_app(host=host)
    if token:
        app = with_token(app, token)
    logger.info("MCP over streamable HTTP at http://%s:%d/mcp", host, port)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    anyio.run(uvicorn.Server(config).serve)
