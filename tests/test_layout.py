"""Rows rebuilt from PyMuPDF spans."""

from __future__ import annotations

import pytest

from pageindex_platform.index.layout import rows_from_dict

pytestmark = pytest.mark.no_database  # pure: no database is started


def _span(text: str, x0: float, y1: float, size: float = 10.0, flags: int = 0) -> dict:  # type: ignore[type-arg]
    return {
        "text": text,
        "bbox": (x0, y1 - size, x0 + 6 * len(text), y1),
        "size": size,
        "flags": flags,
        "font": "Helvetica",
    }


def test_spans_on_one_baseline_form_one_row_left_to_right() -> None:
    page = {
        "blocks": [
            {"lines": [{"dir": (1, 0), "spans": [_span("5,363", 400, 100.5)]}]},
            {"lines": [{"dir": (1, 0), "spans": [_span("Net income", 50, 100)]}]},
            {"lines": [{"dir": (1, 0), "spans": [_span("ITEM 7.", 50, 80, 12, flags=16)]}]},
        ]
    }
    rows = rows_from_dict(page)
    assert [r.text for r in rows] == ["ITEM 7.", "Net income 5,363"]
    assert rows[0].bold and rows[0].size == 12 and not rows[1].bold
    assert rows[1].last_text == "5,363"


def test_control_characters_are_dropped() -> None:
    page = {
        "blocks": [{"lines": [{"dir": (1, 0), "spans": [_span("\x00 ANNUAL\x07 REPORT", 50, 90)]}]}]
    }
    assert [r.text for r in rows_from_dict(page)] == ["ANNUAL REPORT"]
