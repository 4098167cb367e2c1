"""What guards the web page, in front of every route: the Host a request names must be the
address served (or a name the user allowed), so a page elsewhere cannot reach it by DNS
rebinding; a NUL anywhere in the address is refused; off loopback a token is required (given
once with ?token=, then kept in an HttpOnly, SameSite=Strict cookie); every response carries a
content security policy. A question runs only when it is submitted from the page itself."""

from __future__ import annotations

import hmac
import ipaddress
import posixpath
import re
from collections.abc import Sequence
from urllib.parse import quote, urlencode

from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'none'; img-src 'self'; style-src 'self'; form-action 'self'; "
    "base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
COOKIE = "pi_token"
_LOOPBACK = ("localhost", "127.0.0.1", "::1")
_WILDCARD = ("", "0.0.0.0", "::")


def _address(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


def split_host(value: str) -> tuple[str, int | None] | None:
    """A Host header ("localhost:8750", "[::1]:8750", "example.org") as (name, port), the
    name in lower case without a final dot; None when it is not a host."""
    value = value.strip().lower()
    if value.startswith("["):
        name, bracket, rest = value[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port = rest[1:]
    else:
        name, _, port = value.partition(":")
    if not name or (port and not re.fullmatch(r"[0-9]{1,5}", port)):
        return None
    return name.rstrip("."), int(port) if port else None


class Hosts:
    """The Host headers the page answers to: the address it serves at its port (for a
    loopback address also localhost, 127.0.0.1 and [::1]; for every interface any address
    literal), and the names the user allowed ("name" at any port, or "name:port")."""

    def __init__(self, host: str, port: int, allowed: Sequence[str] = ()) -> None:
        served = split_host(host if ":" not in host else f"[{host}]") or (host, None)
        name = served[0]
        address = _address(name)
        self.port = port
        self.any_address = name in _WILDCARD
        self.names = {name}
        if name in _LOOPBACK or (address is not None and address.is_loopback):
            self.names.update(_LOOPBACK)
        if self.any_address:
            self.names.add("localhost")
        self.allowed = [found for entry in allowed if (found := split_host(entry)) is not None]

    def allows(self, header: str | None) -> bool:
        found = split_host(header) if header else None
        if found is None:
            return False
        name, port = found
        if (port or 80) == self.port and (
            name in self.names or (self.any_address and _address(name) is not None)
        ):
            return True
        return any(name == n and p in (None, port or 80) for n, p in self.allowed)


def local_path(path: str, query: str = "") -> str:
    """A redirect target on this server: `path` with repeated slashes and dot segments
    removed, quoted, starting with a single slash; then `query`."""
    clean = posixpath.normpath("/" + re.sub(r"[/\\]+", "/", path))
    target = "/" + quote(clean.lstrip("/"), safe="/:@!$&'()*+,;=-._~")
    return target + (f"?{query}" if query else "")


def same_site(request: Request, form_token: str) -> bool:
    """Whether a question comes from the page itself: the browser says the request is
    same-origin or typed by the user, or it carries the form's token."""
    if request.headers.get("sec-fetch-site") in ("same-origin", "none"):
        return True
    given = request.query_params.get("t", "")
    return hmac.compare_digest(given.encode(), form_token.encode())


class Guard:
    """The ASGI app in front of the page: refusals (NUL, Host, token) in one line, the
    token's redirect, and the security headers on every response."""

    def __init__(self, app: ASGIApp, *, hosts: Hosts, token: str | None) -> None:
        self.app, self.hosts, self.token = app, hosts, token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)

        answer = self._refusal(scope)
        if answer is None and self.token is not None:
            answer = self._token(Request(scope))
        await (answer or self.app)(scope, receive, secured)

    def _refusal(self, scope: Scope) -> Response | None:
        query = bytes(scope.get("query_string", b""))
        if "\x00" in scope["path"] or b"%00" in query or b"\x00" in query:
            return PlainTextResponse("a NUL character in the address\n", 400)
        hosts = [v.decode("latin-1") for k, v in scope["headers"] if k == b"host"]
        if len(hosts) != 1 or not self.hosts.allows(hosts[0]):
            shown = hosts[0][:100] if hosts else "none"
            return PlainTextResponse(
                f"this server does not answer for host {shown!r} "
                "(PI_WEB_ALLOWED_HOSTS names those it may answer for)\n",
                421,
            )
        return None

    def _token(self, request: Request) -> Response | None:
        assert self.token is not None
        given = (
            request.query_params.get("token")
            or request.cookies.get(COOKIE)
            or request.headers.get("authorization", "").removeprefix("Bearer ")
        )
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            return PlainTextResponse("a token is required (open the link with ?token=)\n", 401)
        if request.query_params.get("token"):
            kept = urlencode(
                [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
            )
            moved = RedirectResponse(local_path(request.scope["path"], kept), 303)
            moved.set_cookie(COOKIE, self.token, httponly=True, samesite="strict")
            return moved
        return None
