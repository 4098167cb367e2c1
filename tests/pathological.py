"""Pathological inputs for every reader: what a hostile or broken file puts where the parsers
look for structure (dot leaders, runs of whitespace, repeated or unterminated marks, deep
nesting), scaled to a size in bytes. A parser that backtracks on them takes time that grows
with the square or cube of the size; a linear one takes about 20 times as long for 20 times
the bytes."""

from __future__ import annotations

from collections.abc import Iterator

import pymupdf

# Words the readers look for; each is followed by a run of filler.
KEYWORDS = (
    "# Item 7 ",
    "Item 7. Management's Discussion",
    "PART II",
    "Table of Contents",
    "Note 6 - Income Taxes",
    "For the fiscal year ended",
    "for the quarterly period ended",
    "fiscal year end",
    "date of report",
    "(Exact name of registrant as specified in its charter)",
    "Trading Symbol(s)",
    "FORM 10-K",
    "Apple Inc. today announced",
    "ACME Corp. (NYSE: ACME) reports",
    "<PAGE>",
    "<XBRL>",
    "$ 1,234",
)
# Runs that regular expressions with adjacent or nested quantifiers backtrack over, each
# ended by a character that makes the match fail at its end.
FILLERS = (" ", ".", ". ", "\t ", "-", "#", "1", "_", "\u00a0")
END = "x#x"


def _lines(size: int, filler: str) -> list[str]:
    run = max(1, size // (len(KEYWORDS) * len(filler)))
    return [keyword + filler * run + END for keyword in KEYWORDS]


def markdown(size: int, filler: str) -> str:
    return "\n".join(f"# {line}" if i % 2 else line for i, line in enumerate(_lines(size, filler)))


def html(size: int, filler: str) -> str:
    cells = "".join(f"<tr><td>{line}</td><td>12</td></tr>" for line in _lines(size, filler))
    return f"<html><body><p>FORM 10-K</p><table>{cells}</table></body></html>"


def plain_text(size: int, filler: str) -> str:
    return "\n".join(_lines(size, filler)) + "\n"


def submission(size: int, filler: str) -> str:
    body = "\n".join(_lines(size, filler))
    return (
        "<SEC-DOCUMENT>\n<SEC-HEADER>\nCONFORMED SUBMISSION TYPE: 10-K\n</SEC-HEADER>\n"
        f"<DOCUMENT>\n<TYPE>10-K\n<TEXT>\n{body}\n</TEXT>\n</DOCUMENT>\n"
    )


def repeated_marks(size: int, mark: str) -> str:
    """An envelope mark repeated and never closed (`<SEC-HEADER>`, `<DOCUMENT>`, `<TEXT>`)."""
    return "<SEC-DOCUMENT>\n" + mark * (size // len(mark)) + "\nText after the marks.\n"


def nested_html(size: int) -> str:
    depth = size // 11
    return "<html><body>" + "<div><span>" * depth + "Revenue 12" + "</body></html>"


def pdf(size: int, filler: str) -> bytes:
    """A PDF whose rows are keywords followed by filler: rows of 4-point text, as many pages as
    `size` bytes of text need."""
    doc = pymupdf.open()
    lines = _lines(size, filler)
    per_row = 180
    rows = [line[i : i + per_row] for line in lines for i in range(0, len(line), per_row)]
    for start in range(0, len(rows), 150):
        page = doc.new_page()
        for n, row in enumerate(rows[start : start + 150]):
            page.insert_text((10, 12 + n * 5), row, fontsize=4)
    data = doc.tobytes()
    doc.close()
    return bytes(data)


def cases(size: int) -> Iterator[tuple[str, bytes]]:
    """(file name, content) of every pathological input of about `size` bytes."""
    for n, filler in enumerate(FILLERS):
        yield f"filler{n}.md", markdown(size, filler).encode()
        yield f"filler{n}.html", html(size, filler).encode()
        yield f"filler{n}-plain.txt", plain_text(size, filler).encode()
        yield f"filler{n}-submission.txt", submission(size, filler).encode()
    for n, filler in enumerate((".", " ", "_")):
        yield f"filler{n}.pdf", pdf(size, filler)
    for n, mark in enumerate(("<SEC-HEADER>", "<DOCUMENT>", "<DOCUMENT><TEXT>", "<PAGE>")):
        yield f"marks{n}.txt", repeated_marks(size, mark).encode()
    yield "nested.html", nested_html(size).encode()
