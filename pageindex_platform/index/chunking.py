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
    encoding = encoding_for()
    by_page = _leaves_by_page(roots, len(pages))
    chunks: list[ChunkText] = []
    for page in pages:
        lines = [ln for ln in page.text.splitlines() if ln.strip()]
        if not lines or not by_page[page.page]:
            continue
        owners = _owner_per_line(lines, by_page[page.page], page.page)
        tokens = [encoding.encode_ordinary(line) for line in lines]
        buffer: list[str] = []
        size = 0
        owner = owners[0]

        def flush() -> None:
            nonlocal buffer, size
            if buffer:
                chunks.append(ChunkText(owner, page.page, "\n".join(buffer)))
            buffer, size = [], 0

        for line, line_tokens, line_owner in zip(lines, tokens, owners, strict=True):
            if line_owner != owner or size + len(line_tokens) > max_tokens:
                flush()
                owner = line_owner
            if len(line_tokens) > max_tokens:
                for start in range(0, len(line_tokens), max_tokens):
                    buffer = [encoding.decode(line_tokens[start : start + max_tokens])]
                    size = max_tokens
                    flush()
                continue
            buffer.append(line)
            size += len(line_tokens)
        flush()
    return chunks
