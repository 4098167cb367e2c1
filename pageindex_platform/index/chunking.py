"""Pages → chunks of at most `max_tokens` tokens that never cross a page, each tied to a leaf."""

from __future__ import annotations

from collections.abc import Sequence

from ..records import ChunkText, PageText, TreeNode
from ..tokens import count_tokens_batch, encoding_for
from .text import normalize


def _leaves_by_page(roots: Sequence[TreeNode], page_count: int) -> list[list[TreeNode]]:
    by_page: list[list[TreeNode]] = [[] for _ in range(page_count + 1)]
    for root in roots:
        for node in root.walk():
            if not node.children:
                for p in range(node.start_page, node.end_page + 1):
                    by_page[p].append(node)
    return by_page


def _owner_per_line(lines: Sequence[str], leaves: Sequence[TreeNode], page: int) -> list[str]:
    """Which leaf each line belongs to, when several leaves share a page: a later leaf takes
    over from the line where its title appears."""
    owners = [leaves[0].node_id] * len(lines)
    normalized: list[str] | None = None
    for leaf in leaves[1:]:
        if leaf.start_page != page:
            continue
        normalized = normalized or [normalize(line) for line in lines]
        want = normalize(leaf.title)[:30]
        at = next((i for i, n in enumerate(normalized) if want and n.startswith(want)), 0)
        for i in range(at, len(lines)):
            owners[i] = leaf.node_id
    return owners


def page_token_counts(pages: Sequence[PageText]) -> list[int]:
    return count_tokens_batch([p.text for p in pages])


def chunk_pages(
    pages: Sequence[PageText], roots: Sequence[TreeNode], *, max_tokens: int
) -> list[ChunkText]:
    by_page = _leaves_by_page(roots, len(pages))
    chunks: list[ChunkText] = []
    for page in pages:
        lines = [ln for ln in page.text.splitlines() if ln.strip()]
        if lines and by_page[page.page]:
            owners = _owner_per_line(lines, by_page[page.page], page.page)
            chunks.extend(_chunk_page(page.page, lines, owners, max_tokens))
    return chunks


def _chunk_page(page: int, lines: list[str], owners: list[str], max_tokens: int) -> list[ChunkText]:
    """Pack consecutive lines of one owner into chunks; split a line longer than a chunk."""
    encoding = encoding_for()
    pieces: list[tuple[str, str]] = []  # (owner, text) of each line or line part
    sizes: list[int] = []
    for line, owner in zip(lines, owners, strict=True):
        tokens = encoding.encode_ordinary(line)
        for start in range(0, len(tokens), max_tokens):
            part = tokens[start : start + max_tokens]
            pieces.append((owner, line if len(tokens) <= max_tokens else encoding.decode(part)))
            sizes.append(len(part))
    out: list[ChunkText] = []
    buffer: list[str] = []
    size = 0
    current = pieces[0][0] if pieces else ""
    for (owner, text), n in zip(pieces, sizes, strict=True):
        if buffer and (owner != current or size + n > max_tokens):
            out.append(ChunkText(current, page, "\n".join(buffer)))
            buffer, size = [], 0
        current = owner
        buffer.append(text)
        size += n
    if buffer:
        out.append(ChunkText(current, page, "\n".join(buffer)))
    return out
