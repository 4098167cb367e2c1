"""`pi serve` in a real headless browser (Debian's chromium, driven by Selenium): ask by
typing, read the answer, open the cited page and see the figure's line highlighted."""

from __future__ import annotations

import html
import http.client
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2
import pymupdf
import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from .conftest import REPO
from .helpers import PI, free_port, refused_without, run_json

# these time servers and endpoints (or bind ports): run alone (scripts/test.sh)
pytestmark = pytest.mark.serial

ARTIFACTS = REPO / "test-artifacts"
TENQ = "BESTBUY_2024Q2_10Q"


@pytest.fixture
def site(corpus: Path) -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen(
        [PI, "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, "pi serve ended"
        try:
            if httpx2.get(f"{url}/documents", timeout=5).status_code == 200:
                break
        except httpx2.HTTPError:
            time.sleep(0.3)
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    assert binary and driver_path, "chromium and chromium-driver: scripts/setup.sh installs them"
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1600"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def test_ask_by_typing_then_see_the_cited_page_with_the_figure_highlighted(
    site: str, browser: webdriver.Chrome, corpus: Path
) -> None:
    wait = WebDriverWait(browser, 60)
    browser.get(site)
    box = browser.find_element(By.NAME, "q")
    box.send_keys("Best Buy Q2 FY2024 comparable sales", Keys.ENTER)
    wait.until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "a.citation")))
    # the company's comparable sales are stated (p. 16), not the Domestic segment's (p. 17)
    assert "(6.2)%" in browser.find_element(By.CSS_SELECTOR, "div.headline").text
    first = browser.find_elements(By.CSS_SELECTOR, "a.citation")[0]
    assert first.text == f"{TENQ}, p. 16"
    first.click()
    wait.until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, ".sheet img")))
    image = browser.find_element(By.CSS_SELECTOR, ".sheet img")
    wait.until(lambda d: d.execute_script("return arguments[0].naturalWidth", image) > 0)
    boxes = browser.find_elements(By.CSS_SELECTOR, ".sheet svg rect.highlight")
    assert boxes, "no highlight on the cited page"
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "web_cited_page.png"))

    # the boxes, in the PDF's points, against where PyMuPDF puts the figure's words
    with pymupdf.open(corpus / f"{TENQ}.pdf") as pdf:
        page = pdf[15]
        width = page.rect.width
        words = [w for w in page.get_text("words") if w[4] == "(6.2)%"]
    assert words
    shown = image.rect
    scale = width / shown["width"]
    found = []
    for rect in boxes:
        r = rect.rect
        found.append(
            (
                (r["x"] - shown["x"]) * scale,
                (r["y"] - shown["y"]) * scale,
                (r["x"] + r["width"] - shown["x"]) * scale,
                (r["y"] + r["height"] - shown["y"]) * scale,
            )
        )
    x0, y0, x1, y1 = words[0][:4]
    assert any(
        b[0] - 2 <= x0 and x1 <= b[2] + 2 and b[1] - 2 <= y0 and y1 <= b[3] + 2 for b in found
    ), (found, words[0][:4])

    # its neighbours are one click away
    after = browser.find_element(By.LINK_TEXT, "next →").get_attribute("href") or ""
    assert after.split("?")[0].endswith(f"/documents/{TENQ}/pages/17")


def test_a_question_is_text_never_markup(site: str, browser: webdriver.Chrome) -> None:
    browser.get(site)
    question = "<img src=x onerror=\"document.title='pwned'\"> revenue"
    browser.find_element(By.NAME, "q").send_keys(question, Keys.ENTER)
    WebDriverWait(browser, 60).until(
        expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "main p, main div"))
    )
    assert browser.title != "pwned"
    assert not browser.find_elements(By.CSS_SELECTOR, "main img[src='x']")
    assert browser.find_element(By.NAME, "q").get_attribute("value") == question
    response = httpx2.get(site, params={"q": question}, timeout=60)
    assert "default-src 'none'" in response.headers["content-security-policy"]
    assert "<img src=x" not in response.text and "&lt;img src=x" in response.text


def test_bad_input_and_twenty_loads_at_once(site: str) -> None:
    # a 1 MB question: refused (the request line is over what the server reads), and the
    # server goes on; a question under that but over the page's limit is said to be too long
    host, port = site.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        connection.request("GET", "/?q=" + "x" * 1_000_000)
        assert 400 <= connection.getresponse().status < 500
    except (ConnectionError, http.client.HTTPException):
        pass  # the server may close the connection instead of answering
    finally:
        connection.close()
    long = httpx2.get(site, params={"q": "x" * 5_000}, timeout=60)
    assert long.status_code == 400 and "at most 2,000" in long.text
    assert httpx2.get(f"{site}/documents/{TENQ}/pages/999", timeout=30).status_code == 404
    assert httpx2.get(f"{site}/documents/NOPE/pages/1", timeout=30).status_code == 404
    assert httpx2.get(f"{site}/documents/{TENQ}/pages/abc", timeout=30).status_code == 400
    assert httpx2.get(f"{site}/?q=%ZZ&year=abc&&=&doc=", timeout=30).status_code == 400
    assert httpx2.post(site, data={"q": "revenue"}, timeout=30).status_code == 405
    pages = [
        "/",
        "/documents",
        f"/documents/{TENQ}",
        f"/documents/{TENQ}/pages/17",
        f"/documents/{TENQ}/pages/17.png",
    ]

    def load(i: int) -> int:
        path = pages[i % len(pages)]
        return httpx2.get(f"{site}{path}", timeout=120).status_code

    with ThreadPoolExecutor(20) as pool:
        codes = list(pool.map(load, range(20)))
    assert codes == [200] * 20
    # a filing that is not a PDF: its stored text, the evidence line marked
    text = run_json("docs", "page", "retail_sector_notes", "1")["text"]
    line = next(x for x in text.splitlines() if len(x.split()) >= 5)
    shown = httpx2.get(f"{site}/documents/retail_sector_notes/pages/1", params={"hl": line})
    marked = [html.unescape(m) for m in re.findall(r"<mark>([^<]*)</mark>", shown.text)]
    assert shown.status_code == 200 and line in marked
    # and it still answers, a question submitted from its form
    form = httpx2.get(site, timeout=30).text
    token = re.search(r'name="t" value="([^"]+)"', form)
    assert token, "the ask form carries no token"
    question = {"q": "Best Buy Q2 FY2024 comparable sales", "t": token.group(1)}
    answer = httpx2.get(site, params=question, timeout=60)
    assert answer.status_code == 200 and "(6.3)%" in answer.text
    # a page elsewhere naming itself (DNS rebinding) is not answered
    rebound = httpx2.get(f"{site}/documents", headers={"Host": "evil.example"}, timeout=30)
    assert rebound.status_code == 421 and TENQ not in rebound.text


def test_another_interface_needs_a_token() -> None:
    code, line = refused_without(
        "PI_WEB_TOKEN", "serve", "--host", "0.0.0.0", "--port", str(free_port())
    )
    assert code != 0
    assert line == "Error: serving on 0.0.0.0 (not loopback) needs a token: set PI_WEB_TOKEN"


@pytest.mark.no_database
def test_a_stated_figure_is_boxed_on_its_row_not_where_its_label_first_appears(
    tmp_path: Path,
) -> None:
    """ "Revenue: 9,583 million" (the figure's label and value): the box is the printed row
    holding both, not the first "Revenue" of the page, and spans the whole row."""
    from pageindex_platform.sheets import boxes

    path = tmp_path / "statement.pdf"
    with pymupdf.open() as pdf:
        page = pdf.new_page()
        page.insert_text((72, 100), "Revenue grew in the quarter, as the table shows.")
        page.insert_text((72, 160), "Revenue")
        page.insert_text((300, 160), "9,583")
        page.insert_text((400, 160), "10,329")
        pdf.save(path)
    with pymupdf.open(path) as pdf:
        [box] = boxes(pdf[0], ["Revenue: 9,583 million"])
        words = pdf[0].get_text("words")
    row = [w for w in words if box.y0 <= (w[1] + w[3]) / 2 <= box.y1]
    assert [w[4] for w in row] == ["Revenue", "9,583", "10,329"]
    assert box.x0 <= row[0][0] and row[-1][2] <= box.x1
