"""Chunk vectors on the question path: a vector as pgvector's text literal."""

from __future__ import annotations

import numpy as np


def vector_literal(vector: np.ndarray) -> str:
    """A vector as a pgvector text literal, for `CAST(:v AS vector)`."""
    return "[" + ",".join(f"{x:.6f}" for x in vector.tolist()) + "]"
