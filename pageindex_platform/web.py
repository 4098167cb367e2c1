"""The web door: a local page for analysts over the same `Corpus` as the CLI and the MCP
server. Server-rendered HTML on Starlette and uvicorn; everything it loads it serves itself
(no JavaScript, no CDN). Read-only: it asks, lists and shows; it never ingests or removes.

A cited page is shown as the filing shows it: a PDF page rendered to an image (PyMuPDF),
with boxes drawn over the lines the answer used (the stated figure's row, the extracted
lines); another filing's page as its stored text with those lines marked."""

from __future__ import annotations

import hmac
import html
import logging
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .api import Answer, Corpus
from .errors import DocumentNotFoundError, PageIndexError, PageNotFoundError

logger = logging.getLogger(__name__)

MAX_QUESTION = 2_000  # characters; a longer question is refused with a message
ZOOM = 1.5  # the rendered page's pixels per PDF point
_IMAGES = 64  # rendered pages kept in memory
_PERIOD = re.compile(r"\s*\((?:[^()]*\bended\b[^()]*|as of [^()]*)\)")
CSP = (
    "default-src 'none'; img-src 'self'; style-src 'self'; form-action 'self'; "
    "base-uri 'none'; frame-ancestors 'none'"
)
CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1d2330; background: #f6f7f9; }
header { background: #1d2330; color: #fff; padding: .6rem 1.2rem; }
header a { color: #fff; margin-right: 1.2rem; text-decoration: none; }
main { max-width: 1100px; margin: 0 auto; padding: 1rem 1.2rem; }
form.ask { display: flex; flex-wrap: wrap; gap: .5rem; margin-bottom: 1rem; }
form.ask input[name=q] { flex: 1 1 100%; font-size: 1.05rem; padding: .5rem; }
form.ask input, form.ask select { padding: .35rem; }
.answer { background: #fff; border: 1px solid #d8dce3; padding: .8rem 1rem; white-space: pre-wrap; }
.figure { font-size: 1.15rem; font-weight: 600; }
.working { background: #fff; border-left: 4px solid #3b6fd8; padding: .5rem 1rem; }
.warning { background: #fff4d6; border: 1px solid #e6c35c; padding: .4rem .8rem; margin: .4rem 0; }
.error { background: #fde2e1; border: 1px solid #d9534f; padding: .5rem .8rem; }
ol.citations li { margin: .2rem 0; }
table { border-collapse: collapse; background: #fff; }
td, th { border: 1px solid #d8dce3; padding: .25rem .5rem; text-align: left; }
.sheet { position: relative; display: inline-block; border: 1px solid #bbb; background: #fff; }
.sheet img { display: block; max-width: 100%; height: auto; }
.sheet svg { position: absolute; left: 0; top: 0; width: 100%; height: 100%; }
.sheet svg rect { fill: rgba(255, 214, 0, .35); stroke: #e0a800; stroke-width: 1; }
pre.text { background: #fff; border: 1px solid #d8dce3; padding: .8rem; white-space: pre-wrap; }
mark { background: #ffe066; }
nav.pager a { margin-right: 1rem; }
"""


class _Images:
    """Rendered PDF pages (PNG bytes), the most recent kept."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cache: OrderedDict[tuple[str, int], bytes] = OrderedDict()

    def get(self, path: str, page: int) -> bytes:
        key = (path, page)
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        import pymupdf

        with pymupdf.open(path) as pdf:
            png: bytes = pdf[page - 1].get_pixmap(matrix=pymupdf.Matrix(ZOOM, ZOOM)).tobytes("png")
        with self._lock:
            self._cache[key] = png
            while len(self._cache) > _IMAGES:
                self._cache.popitem(last=False)
        return png


@dataclass(frozen=True)
class Box:
    """A highlight over a PDF page, in PDF points."""

    x0: float
    y0: float
    x1: float
    y1: float


def _esc(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _url(name: str) -> str:
    """A document name as a path segment of a link, escaped for the attribute."""
    return _esc(quote(name, safe=""))


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{_esc(title)} · pageindex-platform</title>"
        "<link rel='stylesheet' href='/static/app.css'></head><body>"
        "<header><a href='/'>Ask</a><a href='/documents'>Documents</a></header>"
        f"<main>{body}</main></body></html>",
        status_code=status,
    )


def _error(message: str, status: int) -> HTMLResponse:
    return _page("Error", f"<p class='error'>{_esc(message)}</p>", status)


@dataclass(frozen=True)
class Sheet:
    """A PDF page's size in points and the boxes over the lines the answer used."""

    width: float
    height: float
    boxes: list[Box]


def pdf_sheet(path: str, page: int, lines: list[str]) -> Sheet:
    """The page's size and boxes over its lines that hold each evidence line: found by its
    words (a table row by its label and first number), widened to the whole printed line."""
    import pymupdf

    boxes: list[Box] = []
    with pymupdf.open(path) as pdf:
        sheet = pdf[page - 1]
        width, height = sheet.rect.width, sheet.rect.height
        words = sheet.get_text("words") if lines else []
        for line in lines:
            row = _row(sheet, line)
            if row is not None:
                boxes.append(_widen(row, words))
                continue
            for probe in _probes(line):
                rects = sheet.search_for(probe)
                if rects:
                    boxes.extend(_widen(r, words) for r in rects[:3])
                    break
    return Sheet(width, height, list(dict.fromkeys(boxes)))


def _row(sheet: Any, line: str) -> Any:
    """The label of a table row ("Revenue: 9,583 million", "Comparable sales % change:
    (6.3)% (...)") where the same printed line also holds its first number; None when the
    line is not a row or no such line is printed."""
    text = _PERIOD.sub("", line).strip()
    if ": " not in text:
        return None
    label, cells = (part.strip() for part in text.split(": ", 1))
    number = re.search(r"\(?\d[\d,.]*\)?%?", cells)
    if not label or number is None:
        return None
    values = sheet.search_for(number.group(0))
    for found in sheet.search_for(label):
        middle = (found.y0 + found.y1) / 2
        if any(v.y0 <= middle <= v.y1 for v in values):
            return found
    return None


def _probes(line: str) -> list[str]:
    """What to look for on the page for an evidence line, most precise first: a row's label
    ("Comparable sales % change: (6.3)% (three months ...)" → "Comparable sales % change"),
    its first cell, the line's first words."""
    text = _PERIOD.sub("", line).strip()
    probes = []
    if ": " in text:
        label, cells = text.split(": ", 1)
        probes.append(label.strip())
        first = cells.split(";")[0].strip()
        if first:
            probes.append(first)
    words = text.split()
    probes.extend(" ".join(words[:n]) for n in (8, 4) if len(words) >= n)
    if words:
        probes.append(words[0])
    return [p for p in dict.fromkeys(probes) if len(p) >= 3]


def _widen(rect: Any, words: list[tuple[Any, ...]]) -> Box:
    """The rectangle widened to the words printed on its line."""
    middle = (rect.y0 + rect.y1) / 2
    same = [w for w in words if w[1] <= middle <= w[3]]
    if not same:
        return Box(rect.x0, rect.y0, rect.x1, rect.y1)
    return Box(
        min(w[0] for w in same),
        min(min(w[1] for w in same), rect.y0),
        max(w[2] for w in same),
        max(max(w[3] for w in same), rect.y1),
    )


def evidence(answer: Answer) -> dict[tuple[str, int], list[str]]:
    """The lines the answer used, by (document, page): each stated figure's row (its label
    and value) and each extracted line."""
    found: dict[tuple[str, int], list[str]] = {}
    for line in answer.evidence:
        found.setdefault((line.document, line.page), []).append(line.text)
    return found


def create_app(corpus: Corpus | None = None, *, token: str | None = None) -> ASGIApp:
    """The web app over `corpus` (the settings' corpus when None). With `token`, a request
    needs it: `?token=` once (kept in a cookie), or `Authorization: Bearer`."""
    corpus = corpus or Corpus.open()
    images = _Images()

    def css(request: Request) -> Response:
        return Response(CSS, media_type="text/css")

    def ask_page(request: Request) -> HTMLResponse:
        params = request.query_params
        question = params.get("q", "")
        try:
            year = int(params["year"]) if params.get("year") else None
        except ValueError:
            return _error(f"year {params['year'][:40]!r} is not a number", 400)
        documents = [d for d in params.getlist("doc") if d]
        company, doc_type = params.get("company") or None, params.get("type") or None
        form = _ask_form(question, documents, company, year, doc_type)
        if not question:
            return _page("Ask", form)
        if len(question) > MAX_QUESTION:
            message = f"The question is {len(question):,} characters; at most {MAX_QUESTION:,}."
            return _page("Ask", form + f"<p class='error'>{_esc(message)}</p>", 400)
        try:
            answer = corpus.ask(
                question, documents=documents, company=company, year=year, doc_type=doc_type
            )
        except PageIndexError as exc:
            return _page("Ask", form + f"<p class='error'>{_esc(exc)}</p>", 400)
        return _page(question[:80], form + _answer_html(answer))

    def documents_page(request: Request) -> HTMLResponse:
        rows = "".join(
            "<tr>"
            f"<td><a href='/documents/{_url(d.name)}'>{_esc(d.name)}</a></td>"
            f"<td>{_esc(d.company)}</td><td>{_esc(d.doc_type)}</td>"
            f"<td>{_esc(d.fiscal_year)}</td><td>{_esc(d.fiscal_period)}</td>"
            f"<td>{d.page_count}</td></tr>"
            for d in corpus.documents()
        )
        table = (
            "<table><tr><th>document</th><th>company</th><th>type</th><th>year</th>"
            f"<th>period</th><th>pages</th></tr>{rows}</table>"
        )
        return _page("Documents", f"<h1>Documents</h1>{table}")

    def tree_page(request: Request) -> HTMLResponse:
        name = request.path_params["name"]
        try:
            tree = corpus.tree(name).to_dict()
        except DocumentNotFoundError as exc:
            return _error(str(exc), 404)
        body = (
            f"<h1>{_esc(name)}</h1><p>{tree['page_count']} pages · "
            f"<a href='/documents/{_url(name)}/pages/1'>first page</a></p>"
            f"{_tree_html(name, tree['nodes'])}"
        )
        return _page(name, body)

    def page_view(request: Request) -> HTMLResponse:
        name = request.path_params["name"]
        try:
            number = int(request.path_params["number"])
            shown = corpus.page(name, number)
            info = corpus.document(name)
        except ValueError:
            return _error("a page is a number", 400)
        except (DocumentNotFoundError, PageNotFoundError) as exc:
            return _error(str(exc), 404)
        lines = [h[:300] for h in request.query_params.getlist("hl")[:20]]
        keep = urlencode([("hl", h) for h in lines])
        pager = "".join(
            f"<a href='/documents/{_url(name)}/pages/{n}{'?' + _esc(keep) if keep else ''}'>"
            f"{label}</a>"
            for n, label in ((number - 1, "← previous"), (number + 1, "next →"))
            if 1 <= n <= shown.page_count
        )
        head = (
            f"<h1>{_esc(name)} · p. {number} of {shown.page_count}</h1>"
            f"<p>{_esc(shown.section or '')} · <a href='/documents/{_url(name)}'>contents</a></p>"
            f"<nav class='pager'>{pager}</nav>"
        )
        source = Path(info.source_path)
        if source.suffix.lower() == ".pdf" and source.is_file():
            try:
                drawn = pdf_sheet(str(source), number, lines)
            except Exception as exc:  # an unreadable file: its stored text instead
                logger.warning("%s p. %d not rendered: %s", name, number, exc)
            else:
                rects = "".join(
                    f"<rect class='highlight' x='{b.x0:.2f}' y='{b.y0:.2f}' "
                    f"width='{b.x1 - b.x0:.2f}' height='{b.y1 - b.y0:.2f}'/>"
                    for b in drawn.boxes
                )
                sheet = (
                    f"<div class='sheet'><img alt='{_esc(name)} page {number}' "
                    f"src='/documents/{_url(name)}/pages/{number}.png' "
                    f"width='{int(drawn.width * ZOOM)}' height='{int(drawn.height * ZOOM)}'>"
                    f"<svg viewBox='0 0 {drawn.width:.2f} {drawn.height:.2f}' "
                    "preserveAspectRatio='none'>"
                    f"{rects}</svg></div>"
                )
                return _page(f"{name} p. {number}", head + sheet)
        return _page(f"{name} p. {number}", head + _text_html(shown.text, lines))

    def page_image(request: Request) -> Response:
        name = request.path_params["name"]
        try:
            number = int(request.path_params["number"])
            corpus.page(name, number)
            source = Path(corpus.document(name).source_path)
        except ValueError:
            return Response("a page is a number", 400)
        except (DocumentNotFoundError, PageNotFoundError) as exc:
            return Response(str(exc), 404)
        if source.suffix.lower() != ".pdf" or not source.is_file():
            return Response("no rendered image of this page", 404)
        return Response(images.get(str(source), number), media_type="image/png")

    routes = [
        Route("/", ask_page),
        Route("/static/app.css", css),
        Route("/documents", documents_page),
        Route("/documents/{name}", tree_page),
        Route("/documents/{name}/pages/{number}.png", page_image),
        Route("/documents/{name}/pages/{number}", page_view),
    ]
    app = Starlette(routes=routes)
    return _secured(app, token)


def _ask_form(
    question: str,
    documents: list[str],
    company: str | None,
    year: int | None,
    doc_type: str | None,
) -> str:
    docs = "".join(f"<input type='hidden' name='doc' value='{_esc(d)}'>" for d in documents)
    return (
        "<form class='ask' method='get' action='/'>"
        f"<input name='q' value='{_esc(question)}' placeholder='Best Buy Q2 FY2024 comparable "
        "sales' autofocus aria-label='question'>"
        f"<input name='company' value='{_esc(company or '')}' placeholder='company'>"
        f"<input name='year' value='{_esc(year or '')}' placeholder='fiscal year' "
        "inputmode='numeric'>"
        f"<input name='type' value='{_esc(doc_type or '')}' "
        "placeholder='type: 10-K, 10-Q...'>"
        f"{docs}<button type='submit'>Ask</button></form>"
    )


def _answer_html(answer: Answer) -> str:
    used = evidence(answer)
    parts = [f"<p class='warning'>{_esc(w)}</p>" for w in answer.warnings]
    text = answer.answer
    if answer.figures or answer.working:
        first, _, rest = text.partition("\n\n")
        parts.append(f"<div class='answer'><div class='figure'>{_esc(first)}</div></div>")
        text = rest
    parts.append(f"<div class='answer'>{_esc(text)}</div>")
    items = []
    for c in answer.citations:
        lines = used.get((c.document, c.page), [])
        query = urlencode([("hl", line[:300]) for line in lines[:20]])
        href = f"/documents/{quote(c.document)}/pages/{c.page}" + (f"?{query}" if query else "")
        items.append(
            f"<li><a class='citation' href='{_esc(href)}'>{_esc(c.document)}, p. {c.page}</a></li>"
        )
    parts.append(f"<h2>Citations</h2><ol class='citations'>{''.join(items)}</ol>")
    parts.append(f"<p>route: {_esc(answer.route)} — {_esc(answer.route_reason)}</p>")
    return "".join(parts)


def _tree_html(name: str, nodes: list[dict[str, Any]]) -> str:
    if not nodes:
        return ""
    items = "".join(
        f"<li><a href='/documents/{_url(name)}/pages/{n['start_page']}'>{_esc(n['title'])}</a>"
        f" (pp. {n['start_page']}–{n['end_page']}){_tree_html(name, n['nodes'])}</li>"
        for n in nodes
    )
    return f"<ul>{items}</ul>"


def _text_html(text: str, lines: list[str]) -> str:
    """The stored page text, the lines holding the evidence marked."""
    probes = [p for line in lines for p in _probes(line)[:1]]
    out = []
    for row in text.splitlines():
        marked = any(p and p in row for p in probes)
        out.append(f"<mark>{_esc(row)}</mark>" if marked else _esc(row))
    return f"<pre class='text'>{chr(10).join(out)}</pre>"


def _secured(app: Starlette, token: str | None) -> ASGIApp:
    """Every response with the content security policy; with `token`, only requests that
    carry it."""

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                headers.append((b"content-security-policy", CSP.encode()))
                headers.append((b"x-content-type-options", b"nosniff"))
                headers.append((b"referrer-policy", b"no-referrer"))
                message = {**message, "headers": headers}
            await send(message)

        request = Request(scope)
        if token is not None and not _authorized(request, token):
            refused = _error("a token is required (open the link with ?token=)", 401)
            await refused(scope, receive, with_headers)
            return
        if token is not None and request.query_params.get("token"):
            kept = request.url.remove_query_params("token")
            moved = RedirectResponse(kept.path + (f"?{kept.query}" if kept.query else ""), 303)
            moved.set_cookie("pi_token", token, httponly=True, samesite="strict")
            await moved(scope, receive, with_headers)
            return
        await app(scope, receive, with_headers)

    return guarded


def _authorized(request: Request, token: str) -> bool:
    given = (
        request.query_params.get("token")
        or request.cookies.get("pi_token")
        or request.headers.get("authorization", "").removeprefix("Bearer ")
    )
    return hmac.compare_digest(given.encode(), token.encode())


def serve(*, host: str = "127.0.0.1", port: int = 8750) -> None:
    """Serve the page at http://HOST:PORT/. A host other than loopback needs PI_WEB_TOKEN."""
    import uvicorn

    from .serving import require_token_off_loopback

    corpus = Corpus.open()
    token = corpus.settings.web_token
    require_token_off_loopback(host, token, what="a token", variable="PI_WEB_TOKEN")
    logger.info("web page at http://%s:%d/", host, port)
    uvicorn.run(create_app(corpus, token=token), host=host, port=port, log_level="warning")
