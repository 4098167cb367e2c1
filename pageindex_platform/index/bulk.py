"""A document's rows written by COPY on the storing session's connection, inside its
transaction: one round trip for its pages (or nodes, facts, chunks) instead of one per row.
Chunks go in PostgreSQL's binary COPY format, each vector as pgvector's binary form (its
float32 values as they are), which spares writing and parsing hundreds of decimals a chunk.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from ..records import ChunkText

if TYPE_CHECKING:
    import numpy as np

_BINARY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack("!ii", 0, 0)
_BINARY_TRAILER = struct.pack("!h", -1)
_CHUNK_FIELDS = struct.pack("!h", 5)  # document_id, node_id, page, text, embedding
_INT4 = struct.Struct("!ii")  # a 4-byte field: its length, then its value
_LENGTH = struct.Struct("!i")


def _cursor(session: Session) -> Any:
    return session.connection().connection.driver_connection.cursor()  # type: ignore[union-attr]


def copy_rows(
    session: Session, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """`rows` (Python values, one per column) into `table` by one text COPY."""
    statement = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
    with _cursor(session) as cursor, cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)


def copy_chunks(
    session: Session, document_id: int, chunks: Sequence[ChunkText], vectors: np.ndarray
) -> None:
    """A document's chunks with their vectors (one row each, in order) by one binary COPY."""
    import numpy as np  # here: what only plans a batch never loads numpy

    big_endian = np.ascontiguousarray(vectors, dtype=">f4")
    dim = big_endian.shape[1] if big_endian.ndim == 2 else 0
    vector_head = _LENGTH.pack(4 + 4 * dim) + struct.pack("!hh", dim, 0)
    document = _INT4.pack(4, document_id)
    parts = [_BINARY_HEADER]
    for chunk, vector in zip(chunks, big_endian, strict=True):
        node, body = chunk.node_id.encode(), chunk.text.encode()
        parts += (
            _CHUNK_FIELDS,
            document,
            _LENGTH.pack(len(node)),
            node,
            _INT4.pack(4, chunk.page),
            _LENGTH.pack(len(body)),
            body,
            vector_head,
            vector.tobytes(),
        )
    parts.append(_BINARY_TRAILER)
    statement = (
        "COPY chunks (document_id, node_id, page, text, embedding) FROM STDIN (FORMAT BINARY)"
    )
    with _cursor(session) as cursor, cursor.copy(statement) as copy:
        copy.write(b"".join(parts))
