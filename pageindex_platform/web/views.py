"""How the page looks: Jinja2 templates (autoescaped: whatever a page echoes is text, never
markup) rendered into responses, and the links between pages."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import quote, urlencode

import jinja2
from starlette.responses import HTMLResponse

from ..api import Answer

MAX_LINES = 20  # evidence lines a link carries to a page, each cut at MAX_LINE characters
MAX_LINE = 300


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("pageindex_platform.web", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["page_url"] = page_url
    env.filters["segment"] = lambda name: quote(str(name), safe="")
    return env


def render(template: str, *, status: int = 200, **context: Any) -> HTMLResponse:
    """The page `template` with `context`."""
    return HTMLResponse(environment().get_template(template).render(**context), status)


@cache
def stylesheet() -> bytes:
    return (resources.files(__package__) / "static" / "app.css").read_bytes()


def page_url(document: str, page: int, lines: Sequence[str] = ()) -> str:
    """The link to a document's page, carrying the evidence lines to box on it."""
    kept = [("hl", line[:MAX_LINE]) for line in lines[:MAX_LINES]]
    query = urlencode(kept)
    return f"/documents/{quote(document, safe='')}/pages/{page}" + (f"?{query}" if query else "")


class Cited:
    """Links to the pages an answer cites, each carrying the answer's evidence lines printed
    on that page (`Answer.evidence`)."""

    def __init__(self, answer: Answer) -> None:
        self._lines: dict[tuple[str, int], list[str]] = {}
        for line in answer.evidence:
            self._lines.setdefault((line.document, line.page), []).append(line.text)

    def url(self, document: str, page: int) -> str:
        return page_url(document, page, self._lines.get((document, page), []))
