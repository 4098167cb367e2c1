"""Reading the JSONL files users hand us (metadata overrides, evaluation sets): errors name the
file and the line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import InputError


def read_text(path: Path, what: str = "file") -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(path, f"cannot read {what} ({exc.strerror or exc})") from exc


def parse_jsonl(path: Path, body: str) -> list[dict[str, Any]]:
    """One JSON object per non-empty line."""
    rows: list[dict[str, Any]] = []
    for number, line in enumerate(body.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(path, f"line {number}: invalid JSON ({exc.msg})") from exc
        if not isinstance(row, dict):
            raise InputError(path, f"line {number}: expected a JSON object")
        rows.append(row)
    return rows


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = parse_jsonl(path, read_text(path))
    if not rows:
        raise InputError(path, "no rows")
    return rows
