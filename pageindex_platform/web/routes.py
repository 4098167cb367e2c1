"""The page's routes: each reads its request, calls one `Corpus` method and renders the typed
result; errors become an error page with one line (404 for what is not stored, 400 for bad
input, 503 when the database cannot answer)."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any

from starlette.datastructures import QueryParams
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from ..api import Corpus
from ..errors import (
    DatabaseError,
    DocumentNotFoundError,
    PageIndexError,
    PageNotFoundError,
    UnreadableFileError,
)
from .chart import HELPERS as SERIES
from .security import same_site
from .views import MAX_LINE, MAX_LINES, Cited, render, stylesheet

logger = logging.getLogger(__name__)

MAX_QUESTION = 2_000  # characters; a longer question is refused with a message
MAX_DOCUMENTS = 20  # documents a question may be restricted to
PERIODS = ("FY", "Q1", "Q2", "Q3", "Q4")  # the choices of `pi ask --period`


@dataclass(frozen=True)
class Site:
    """What the routes share: the corpus, and the token the ask form carries (a question
    submitted without it runs only when the browser says it comes from this page)."""

    corpus: Corpus
    form_token: str


@dataclass(frozen=True)
class AskForm:
    """The ask form's fields: the question and the filters of `pi ask`."""

    question: str = ""
    company: str | None = None
    year: int | None = None
    doc_type: str | None = None
    period: str | None = None
    documents: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, params: QueryParams) -> AskForm:
        year = params.get("year", "").strip()
        if year and not re.fullmatch(r"[0-9]{1,6}", year):
            raise HTTPException(400, f"year {year[:40]!r} is not a number")
        names = [n.strip() for v in params.getlist("doc") for n in v.split(",") if n.strip()]
        return cls(
            question=params.get("q", ""),
            company=params.get("company", "").strip() or None,
            year=int(year) if year else None,
            doc_type=params.get("type", "").strip() or None,
            period=params.get("period", "").strip().upper() or None,
            documents=names[:MAX_DOCUMENTS],
        )

    def filters(self) -> dict[str, Any]:
        return {
            "documents": self.documents,
            "company": self.company,
            "year": self.year,
            "doc_type": self.doc_type,
            "period": self.period,
        }


def _site(request: Request) -> Site:
    site: Site = request.app.state.site
    return site


def ask(request: Request) -> Response:
    """The ask form; with a question submitted from the page, its answer."""
    site = _site(request)
    form = AskForm.read(request.query_params)

    def page(status: int = 200, **shown: Any) -> Response:
        context = {"form": form, "periods": PERIODS, "form_token": site.form_token}
        return render("ask.html", status=status, **context, **shown)

    if not form.question.strip():
        return page()
    if len(form.question) > MAX_QUESTION:
        size = f"The question is {len(form.question):,} characters; at most {MAX_QUESTION:,}."
        return page(400, error=size)
    if not same_site(request, site.form_token):
        return page(pending=True)
    try:
        answer = site.corpus.ask(form.question, **form.filters())
    except PageIndexError as exc:
        return page(_status(exc), error=str(exc))
    return page(answer=answer, cited=Cited(answer), **SERIES)


def documents(request: Request) -> Response:
    return render("documents.html", documents=_site(request).corpus.documents())


def tree(request: Request) -> Response:
    return render("tree.html", tree=_site(request).corpus.tree(request.path_params["name"]))


def page(request: Request) -> Response:
    """A page as the filing prints it, the evidence lines (?hl=) boxed or marked."""
    lines = [line[:MAX_LINE] for line in request.query_params.getlist("hl")[:MAX_LINES]]
    sheet = _site(request).corpus.page_sheet(request.path_params["name"], _number(request), lines)
    return render("page.html", sheet=sheet, lines=lines)


def image(request: Request) -> Response:
    """A PDF page rendered from the bytes that were ingested; 404 with why when none."""
    name = request.path_params["name"]
    try:
        png = _site(request).corpus.page_image(name, _number(request))
    except UnreadableFileError as exc:
        return PlainTextResponse(f"no image of this page: {exc.detail}\n", 404)
    return Response(png, media_type="image/png")


def css(request: Request) -> Response:
    return Response(stylesheet(), media_type="text/css")


def _number(request: Request) -> int:
    text = request.path_params["number"]
    if not re.fullmatch(r"[0-9]{1,9}", text):
        raise HTTPException(400, "a page is a number: 1, 2, 3 ...")
    return int(text)


def _status(exc: PageIndexError) -> int:
    if isinstance(exc, DocumentNotFoundError | PageNotFoundError):
        return 404
    return 503 if isinstance(exc, DatabaseError) else 400


def refused(request: Request, exc: Exception) -> Response:
    """An error page with one line: ours with their message, HTTP's with its reason."""
    if isinstance(exc, PageIndexError):
        status, message, headers = _status(exc), str(exc), None
    elif isinstance(exc, HTTPException):
        status, message, headers = exc.status_code, exc.detail, exc.headers
    else:  # a bug: one line for the browser, the traceback in the server's log
        logger.error("unexpected error on %s", request.url.path, exc_info=exc)
        status, message, headers = 500, "unexpected error (the server's log has the details)", None
    if request.url.path.endswith(".png"):
        return PlainTextResponse(message + "\n", status, headers=headers)
    response = render("error.html", status=status, message=message)
    response.headers.update(headers or {})
    return response


ROUTES = [
    Route("/", ask),
    Route("/static/app.css", css),
    Route("/documents", documents),
    Route("/documents/{name}", tree),
    Route("/documents/{name}/pages/{number}.png", image),
    Route("/documents/{name}/pages/{number}", page),
]
HANDLERS = {PageIndexError: refused, HTTPException: refused, Exception: refused}
