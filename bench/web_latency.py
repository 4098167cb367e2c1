"""How fast the web page answers on this machine: `pi serve` started on the configured
corpus, then the ask page for a question (answer included), the cited page's view and its
rendered image (the first render, then from memory), each timed over repeats.

    python bench/web_latency.py [--question Q] [--repeats 20]
"""

from __future__ import annotations

import argparse
import re
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx2


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _timed(client: httpx2.Client, url: str, **params: str) -> float:
    started = time.perf_counter()
    response = client.get(url, params=params)
    response.raise_for_status()
    return time.perf_counter() - started


def _line(label: str, seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"{label:34} p50 {statistics.median(seconds) * 1000:7.1f} ms   "
        f"p95 {p95 * 1000:7.1f} ms   (n={len(seconds)})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--question", default="Best Buy Q2 FY2024 comparable sales")
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    port = _port()
    pi = str(Path(sys.executable).with_name("pi"))
    server = subprocess.Popen([pi, "serve", "--port", str(port)], stderr=subprocess.DEVNULL)
    site = f"http://127.0.0.1:{port}"
    try:
        with httpx2.Client(timeout=120) as client:
            for _ in range(300):
                try:
                    client.get(f"{site}/documents")
                    break
                except httpx2.HTTPError:
                    time.sleep(0.2)
            form = re.search(r'name="t" value="([^"]+)"', client.get(site).text)
            if not form:
                print("the ask form carries no token", file=sys.stderr)
                return 1
            asked = {"q": args.question, "t": form.group(1)}  # a question from the form
            first = client.get(site, params=asked)  # warms the embedder
            cited = re.search(r'class="citation" href="([^"]+)"', first.text)
            if not cited:
                print("no citation in the answer", file=sys.stderr)
                return 1
            view = cited.group(1).replace("&amp;", "&")
            image = view.split("?")[0] + ".png"
            asks = [_timed(client, site, **asked) for _ in range(args.repeats)]
            views = [_timed(client, f"{site}{view}") for _ in range(args.repeats)]
            cold = [_timed(client, f"{site}{image}")]
            warm = [_timed(client, f"{site}{image}") for _ in range(args.repeats)]
            pages = [_timed(client, f"{site}/documents") for _ in range(args.repeats)]
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"question: {args.question!r}; cited page: {view.split('?')[0]}")
    print(_line("ask page with the answer", asks))
    print(_line("cited page view (boxes found)", views))
    print(_line("page image, first render", cold))
    print(_line("page image, from memory", warm))
    print(_line("documents list", pages))
    return 0


if __name__ == "__main__":
    sys.exit(main())
