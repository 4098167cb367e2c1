"""Chunk vectors on the question path: a vector as pgvector's text literal."""

from __future__ import annotations

from typing import Any, Protocol


class Vector(Protocol):
    """A vector of floats: a numpy row, or a question's kept vector (`array("f")`)."""

    def tolist(self) -> Any: ...


def vector_literal(vector: Vector) -> str:
    """A vector as a pgvector text literal, for `CAST(:v AS vector)`."""
    return "[" + ",".join(f"{x:.6f}" for x in vector.tolist()) + "]"
