"""The web app: the routes over one `Corpus`, behind the guard (Host, token, NUL, security
headers), served by uvicorn against slow clients."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from starlette.applications import Starlette
from starlette.types import ASGIApp

from ..api import Corpus
from .routes import HANDLERS, ROUTES, Site
from .security import Guard, Hosts
from .server import run


def create_app(
    corpus: Corpus,
    *,
    host: str = "127.0.0.1",
    port: int = 8750,
    token: str | None = None,
    allowed_hosts: Sequence[str] | None = None,
) -> ASGIApp:
    """The page over `corpus`, as served at host:port: a request naming another Host is
    refused, unless it is one of `allowed_hosts` (None: the corpus's PI_WEB_ALLOWED_HOSTS).
    With `token`, a request needs it: `?token=` once (then kept in a cookie), or
    `Authorization: Bearer`."""
    app = Starlette(routes=ROUTES, exception_handlers=HANDLERS)
    app.state.site = Site(corpus, secrets.token_urlsafe(24))
    allowed = corpus.settings.web_allowed_hosts if allowed_hosts is None else allowed_hosts
    return Guard(app, hosts=Hosts(host, port, allowed), token=token)


def serve(corpus: Corpus, *, host: str = "127.0.0.1", port: int = 8750) -> None:
    """Serve the page over `corpus` at http://host:port/ until interrupted, with the
    corpus's PI_WEB_TOKEN (required by `pi serve` off loopback)."""
    token = corpus.settings.web_token
    run(create_app(corpus, host=host, port=port, token=token), host=host, port=port)
