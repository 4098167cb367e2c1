"""Serving the page with uvicorn, against slow clients: a request's headers must arrive within
HEADER_SECONDS of its first byte (or of the connection), at most MAX_PENDING connections wait
for theirs (a new one closes the one waiting longest), and past MAX_CONNECTIONS a request is
answered 503 at once. uvicorn bounds the idle time between requests (keep-alive) but not
the time headers take to arrive: its HTTP/1.1 protocol (h11) is given that timer here."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any

from starlette.types import ASGIApp

logger = logging.getLogger(__name__)

HEADER_SECONDS = 10.0
MAX_PENDING = 64
MAX_CONNECTIONS = 256  # above MAX_PENDING: idle connections never crowd out a request
KEEP_ALIVE_SECONDS = 5


def guarded_protocol(header_seconds: float, max_pending: int) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with a deadline for each request's headers and a bound on the
    connections waiting for theirs (shared by the connections of one server)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    pending: OrderedDict[Any, None] = OrderedDict()

    class HeaderDeadline(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)  # type: ignore[arg-type]
            self._await_headers()

        def data_received(self, data: bytes) -> None:
            before = self.cycle
            super().data_received(data)  # a request whose headers are complete: a new cycle
            if self.cycle is not before:
                self._headers_in()
            elif not self.transport.is_closing():
                self._await_headers()

        def connection_lost(self, exc: Exception | None) -> None:
            self._headers_in()
            super().connection_lost(exc)

        def _await_headers(self) -> None:
            if self._deadline is not None:
                return
            self._deadline = self.loop.call_later(header_seconds, self._too_slow)
            pending[self] = None
            while len(pending) > max_pending:
                next(iter(pending))._too_slow()

        def _headers_in(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            pending.pop(self, None)

        def _too_slow(self) -> None:
            self._headers_in()
            busy = self.cycle is not None and not self.cycle.response_complete
            if not busy and not self.transport.is_closing():
                logger.info("closed a connection whose request headers did not arrive")
                self.transport.close()

    return HeaderDeadline


def config(
    app: ASGIApp,
    *,
    host: str,
    port: int,
    header_seconds: float = HEADER_SECONDS,
    max_pending: int = MAX_PENDING,
) -> Any:
    """The uvicorn configuration serving `app` at host:port against slow clients."""
    import uvicorn

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_protocol(header_seconds, max_pending),
        limit_concurrency=MAX_CONNECTIONS,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        lifespan="off",
        log_level="warning",
    )


def run(app: ASGIApp, *, host: str, port: int) -> None:
    """Serve `app` at http://host:port/ until interrupted."""
    import uvicorn

    logger.info("web page at http://%s:%d/", host, port)
    uvicorn.Server(config(app, host=host, port=port)).run()
