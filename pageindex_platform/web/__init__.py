"""The web door: a local page for analysts over the same `Corpus` as the CLI and the MCP
server. Server-rendered HTML (Starlette, Jinja2 templates, uvicorn); everything it loads it
serves itself (no JavaScript, no CDN). Read-only: it asks, lists and shows; it never ingests
or removes. A cited page is shown as the filing prints it (`Corpus.page_sheet`,
`Corpus.page_image`), the lines the answer used boxed."""

from .app import create_app, serve

__all__ = ["create_app", "serve"]
