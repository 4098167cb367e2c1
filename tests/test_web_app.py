"""The web page in process (Starlette's TestClient over a real corpus): asking with the
filters of `pi ask`, the cited page boxed, and the page's guards: the Host it answers to, no
question run from another site, no redirect off the server, bad input in one line, a page
image bounded and drawn only from the bytes ingested, slow clients cut off."""

from __future__ import annotations

import asyncio
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import httpx2
import pymupdf
import pytest
import uvicorn
from sqlalchemy import text
from starlette.testclient import TestClient
from starlette.types import ASGIApp, Message

from pageindex_platform.api import Corpus
from pageindex_platform.sheets import CHANGED, GONE, MAX_PIXELS
from pageindex_platform.web import create_app
from pageindex_platform.web.server import config

from .conftest import SAMPLES
from .helpers import env_db, free_port, run_cli

# these time servers and endpoints (or bind ports): run alone (scripts/test.sh)
pytestmark = pytest.mark.serial

SITE = "http://127.0.0.1:8750"
TENQ = "BESTBUY_2024Q2_10Q"
QUESTION = "Best Buy Q2 FY2024 comparable sales"


@pytest.fixture
def opened() -> Iterator[Corpus]:
    with Corpus.open() as corpus:
        yield corpus


@pytest.fixture
def client(opened: Corpus) -> Iterator[TestClient]:
    with TestClient(create_app(opened), base_url=SITE) as browser:
        yield browser


@pytest.fixture
def notes(opened: Corpus, tmp_path: Path) -> Corpus:
    """A corpus of one short Markdown filing."""
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "desk_notes.md").write_text(
        "# Desk notes\n\n## Revenue\n\nRevenue grew in the quarter as stores reopened.\n"
    )
    assert opened.ingest(folder).summary().stored == 1
    return opened


def form_token(client: TestClient) -> str:
    found = re.search(r'name="t" value="([^"]+)"', client.get("/").text)
    assert found, "the ask form carries no token"
    return found.group(1)


def logged_questions() -> int:
    with env_db().engine.connect() as connection:
        return int(connection.execute(text("SELECT count(*) FROM query_log")).scalar_one())


def test_ask_from_the_form_then_the_cited_page_boxes_the_figure(
    corpus: Path, client: TestClient, opened: Corpus
) -> None:
    # the company's comparable sales (p. 16), not the Domestic segment's (6.3)% (p. 17)
    answer = client.get("/", params={"q": QUESTION, "t": form_token(client)})
    assert answer.status_code == 200 and '<div class="headline">' in answer.text
    assert "(6.2)%" in answer.text.split('<div class="headline">')[1].split("</div>")[0]
    first = re.findall(r'class="citation" href="([^"]+)">([^<]+)<', answer.text)[0]
    assert first[1] == f"{TENQ}, p. 16"
    link = first[0].replace("&amp;", "&")
    assert urlsplit(link).path == f"/documents/{TENQ}/pages/16"
    assert any("(6.2)%" in unquote(v) for v in re.findall(r"hl=([^&]+)", link))

    view = client.get(link)
    assert view.status_code == 200 and f'src="/documents/{TENQ}/pages/16.png"' in view.text
    boxes = [
        tuple(float(v) for v in m)
        for m in re.findall(
            r'<rect class="highlight" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" '
            r'height="([\d.]+)"',
            view.text,
        )
    ]
    with pymupdf.open(corpus / f"{TENQ}.pdf") as pdf:
        word = next(w for w in pdf[15].get_text("words") if w[4] == "(6.2)%")
    x0, y0, x1, y1 = word[:4]
    assert any(
        x - 1 <= x0 and x1 <= x + w + 1 and y - 1 <= y0 and y1 <= y + h + 1 for x, y, w, h in boxes
    ), (boxes, word[:4])
    evidence = [e.text for e in opened.ask(QUESTION).evidence if e.page == 16]
    sheet = opened.page_sheet(TENQ, 16, evidence).to_dict()
    assert sheet["image"] and sheet["notice"] is None and len(sheet["boxes"]) >= len(boxes) > 0
    image = client.get(f"/documents/{TENQ}/pages/16.png")
    assert image.status_code == 200 and image.headers["content-type"] == "image/png"
    assert image.content.startswith(b"\x89PNG")


def test_the_period_filter_narrows_as_in_the_cli(corpus: Path, client: TestClient) -> None:
    token = form_token(client)
    assert re.search(r'<select name="period"[^>]*>', client.get("/").text)
    for period in ("Q2", "q4", "FY"):
        params = {"q": "comparable sales", "company": "Best Buy", "period": period, "t": token}
        page = client.get("/", params=params)
        code, out, err = run_cli(
            "ask", "comparable sales", "--company", "Best Buy", "--period", period, "--json"
        )
        if code == 0:
            assert page.status_code == 200
            cited = re.findall(r'class="citation" href="[^"]+">([^<]+),', page.text)
            assert cited and cited[0] in out
        else:
            message = err.strip().splitlines()[-1].removeprefix("Error: ")
            assert page.status_code == 400 and message.replace("'", "&#39;") in page.text
        chosen = period.upper()
        assert f'<option value="{chosen}" selected>' in page.text
    wrong = client.get("/", params={"q": "comparable sales", "period": "Q5", "t": token})
    assert wrong.status_code == 400 and "Q1, Q2, Q3, Q4" in wrong.text


def test_a_page_elsewhere_cannot_reach_the_server_by_its_name(
    notes: Corpus, client: TestClient
) -> None:
    assert "desk_notes" in client.get("/documents").text
    for host in ("evil.example", "evil.example:8750", "127.0.0.1:9999", "localhost.evil:8750"):
        refused = client.get("/documents", headers={"Host": host})
        assert refused.status_code == 421, host
        assert "desk_notes" not in refused.text and len(refused.text.splitlines()) == 1
        assert "default-src 'none'" in refused.headers["content-security-policy"]
    for host in ("localhost:8750", "[::1]:8750", "127.0.0.1:8750", "LOCALHOST.:8750"):
        assert client.get("/documents", headers={"Host": host}).status_code == 200, host
    named = create_app(notes, allowed_hosts=["filings.example"])
    with TestClient(named, base_url="http://filings.example") as through_a_proxy:
        assert "desk_notes" in through_a_proxy.get("/documents").text
    everywhere = create_app(notes, host="0.0.0.0", port=8750)
    with TestClient(everywhere, base_url="http://192.168.1.20:8750") as on_the_network:
        assert on_the_network.get("/documents").status_code == 200
        assert on_the_network.get("/", headers={"Host": "evil.example:8750"}).status_code == 421


def test_a_question_from_another_site_runs_nothing(notes: Corpus, client: TestClient) -> None:
    before = logged_questions()
    for headers in ({"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}, {}):
        shown = client.get("/", params={"q": "revenue growth"}, headers=headers)
        assert shown.status_code == 200 and 'value="revenue growth"' in shown.text
        assert "press Ask to run it" in shown.text and 'class="answer"' not in shown.text
    wrong = client.get("/", params={"q": "revenue growth", "t": "guessed"})
    assert 'class="answer"' not in wrong.text
    assert logged_questions() == before
    ran = client.get("/", params={"q": "revenue growth", "t": form_token(client)})
    assert 'class="answer"' in ran.text and logged_questions() == before + 1
    typed = client.get("/", params={"q": "revenue growth"}, headers={"Sec-Fetch-Site": "none"})
    assert 'class="answer"' in typed.text and logged_questions() == before + 2


def asgi_get(app: ASGIApp, path: str, query: bytes, host: bytes = b"127.0.0.1:8750") -> Any:
    """The response to a GET whose path reaches the app exactly as given."""
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "headers": [(b"host", host)],
        "scheme": "http",
        "server": ("127.0.0.1", 8750),
        "client": ("127.0.0.1", 50000),
        "root_path": "",
        "http_version": "1.1",
    }
    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    start = sent[0]
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}


@pytest.mark.parametrize(
    "path",
    ["//evil.example/..", "//evil.example/%2e%2e", "/\\evil.example", "/./\\/evil.example/x"],
)
def test_the_token_redirect_never_leaves_the_server(notes: Corpus, path: str) -> None:
    app = create_app(notes, token="T0KEN")
    status, headers = asgi_get(app, path, b"token=T0KEN&q=revenue")
    assert status == 303
    location = headers["location"]
    assert location.startswith("/") and not location.startswith(("//", "/\\"))
    assert urlsplit(location).netloc == "" and "token" not in location
    assert "httponly" in headers["set-cookie"].lower()
    assert "samesite=strict" in headers["set-cookie"].lower()
    assert asgi_get(app, "/documents", b"")[0] == 401


def test_bad_input_is_answered_in_one_line_never_a_500(notes: Corpus, opened: Corpus) -> None:
    app = create_app(opened)
    with TestClient(app, base_url=SITE, raise_server_exceptions=False) as client:
        client.headers["Sec-Fetch-Site"] = "same-origin"  # questions run
        pages = ["/", "/documents", "/documents/desk_notes", "/documents/desk_notes/pages/1"]
        addresses = [
            *(p + "?q=%00" for p in pages),
            "/documents/desk%00notes",
            "/documents/desk_notes/pages/1%00",
            "/documents/desk_notes/pages/%00.png",
            "/static/app.css?x=a%00b",
            "/?q=revenue&year=20%0024",
            *(
                f"/documents/desk_notes/pages/{n}{suffix}"
                for n in ("abc", "-1", "1.5", "+1", "%D9%A1", "0", "9" * 30, "999999999")
                for suffix in ("", ".png")
            ),
            "/documents/%ff%fe/pages/1",
            "/?q=%ed%a0%80&year=%ff",
            "/?period=Q9&q=revenue",
        ]
        for address in addresses:
            response = client.get(address)
            assert 400 <= response.status_code < 500, (address, response.status_code)
            body = response.text
            if response.headers["content-type"].startswith("text/plain"):
                assert len(body.strip().splitlines()) == 1, address
            else:
                assert len(re.findall(r'<p class="error">[^<\n]+</p>', body)) == 1, address
            assert "Traceback" not in body


def _ingest_pdf(corpus: Corpus, folder: Path, name: str, page: tuple[float, float]) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / name
    with pymupdf.open() as pdf:
        sheet = pdf.new_page(width=page[0], height=page[1])
        for row in range(12):
            sheet.insert_text((72, 72 + 20 * row), f"Net revenue row {row}: {1000 + row} million")
        pdf.save(path)
    assert corpus.ingest(path).summary().failed == 0
    return path


def test_an_absurd_page_size_is_rendered_within_bounds(
    opened: Corpus, client: TestClient, tmp_path: Path
) -> None:
    _ingest_pdf(opened, tmp_path / "huge", "HUGE_PAGE.pdf", (14_400, 14_400))
    view = client.get("/documents/HUGE_PAGE/pages/1", params={"hl": "Net revenue row 3"})
    size = re.search(r'\.png" width="(\d+)" height="(\d+)"', view.text)
    assert view.status_code == 200 and size and int(size[1]) * int(size[2]) <= MAX_PIXELS
    started = time.monotonic()
    image = client.get("/documents/HUGE_PAGE/pages/1.png")
    assert time.monotonic() - started < 30
    assert image.status_code == 200
    pixels = pymupdf.Pixmap(image.content)
    assert pixels.width * pixels.height <= MAX_PIXELS
    assert (pixels.width, pixels.height) == (int(size[1]), int(size[2]))


def test_a_page_is_drawn_only_from_the_bytes_ingested(
    opened: Corpus, client: TestClient, tmp_path: Path
) -> None:
    folder = tmp_path / "filings"
    folder.mkdir()
    shutil.copy(SAMPLES / "ULTABEAUTY_2023_8K_dated-2023-09-18.pdf", folder / "FILING.pdf")
    other = shutil.copy(SAMPLES / "AMCOR_2023Q4_EARNINGS.pdf", tmp_path / "OTHER.pdf")
    assert opened.ingest(folder).summary().failed == 0
    filing = folder / "FILING.pdf"
    original = filing.read_bytes()
    view, image = "/documents/FILING/pages/1", "/documents/FILING/pages/1.png"
    assert "<img" in client.get(view).text and client.get(image).status_code == 200
    stored = client.get("/documents/FILING").text

    def replaced(notice: str) -> None:
        shown = client.get(view)
        assert shown.status_code == 200 and "<img" not in shown.text
        assert f'<p class="notice">{notice}' in shown.text and '<pre class="text">' in shown.text
        refused = client.get(image)
        assert refused.status_code == 404 and refused.headers["content-type"].startswith("text/")
        assert notice in refused.text and stored == client.get("/documents/FILING").text

    filing.unlink()
    filing.symlink_to(other)
    replaced(CHANGED)
    filing.unlink()
    filing.write_bytes(Path(other).read_bytes())
    replaced(CHANGED)
    filing.write_bytes(original[:-1] + (b" " if original[-1:] != b" " else b"\n"))
    replaced(CHANGED)
    filing.unlink()
    replaced(GONE)
    filing.write_bytes(original)
    assert "<img" in client.get(view).text and client.get(image).status_code == 200


def closed_by_the_server(held: socket.socket, within: float) -> bool:
    held.settimeout(max(0.01, within))
    try:
        return held.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_slow_clients_are_cut_off_and_a_request_still_answered(notes: Corpus) -> None:
    port = free_port()
    app = create_app(notes, port=port)
    settings = config(app, host="127.0.0.1", port=port, header_seconds=3, max_pending=8)
    server = uvicorn.Server(settings)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive()
            time.sleep(0.05)
        opened_at = time.monotonic()
        idle = []
        for n in range(40):  # headers never finished, or never begun
            held = socket.create_connection(("127.0.0.1", port), timeout=10)
            if n % 2:
                held.sendall(f"GET /documents HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
            idle.append(held)
        # at most 8 wait: the 32 oldest are closed at once, long before their deadline
        for held in idle[:32]:
            assert closed_by_the_server(held, opened_at + 2.5 - time.monotonic())
        started = time.monotonic()
        answered = httpx2.get(f"http://127.0.0.1:{port}/documents", timeout=10)
        assert answered.status_code == 200 and "desk_notes" in answered.text
        assert time.monotonic() - started < 3
        trickle = socket.create_connection(("127.0.0.1", port), timeout=10)
        trickled_at = time.monotonic()
        for byte in b"GET /documents HTTP/1.1\r\nHost: x\r\n":  # a byte at a time, never the end
            try:
                trickle.sendall(bytes([byte]))
            except OSError:
                break
            time.sleep(0.2)
        assert closed_by_the_server(trickle, 5) and time.monotonic() - trickled_at < 8
        for held in idle[32:]:  # the others at their deadline
            assert closed_by_the_server(held, 5)
        for held in [*idle, trickle]:
            held.close()
    finally:
        server.should_exit = True
        thread.join(timeout=30)
