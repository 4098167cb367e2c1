"""Flat section starts → a valid tree: nesting, Preface, page coverage, splitting, ids, summaries.

Invariants every tree satisfies (see `check_tree`): pages within [1, page_count], children
inside their parent, siblings in order, and every page belongs to some leaf.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..records import PageText, TreeNode
from .text import normalize
from .toc import FlatEntry

PREFACE = "Preface"
WHOLE_DOCUMENT = "Full document"  # the one node of a document without detected sections
_SENTENCE_END = re.compile(r"(?<=[a-z0-9%)][.!?])\s+(?=[A-Z])")
SUMMARY_CHARS = 300


def nest(entries: Sequence[FlatEntry], page_count: int) -> list[TreeNode]:
    """Nest flat entries by level; a node ends where the next entry at its level or above
    starts."""
    nodes = [TreeNode(e.title, e.start_page, page_count) for e in entries]
    for i, e in enumerate(entries):
        for later in entries[i + 1 :]:
            if later.level <= e.level:
                nodes[i].end_page = max(e.start_page, later.start_page - 1)
                break
    roots: list[TreeNode] = []
    stack: list[tuple[int, TreeNode]] = []
    for e, node in zip(entries, nodes, strict=True):
        while stack and stack[-1][0] >= e.level:
            stack.pop()
        if stack:
            stack[-1][1].children.append(node)
        else:
            roots.append(node)
        stack.append((e.level, node))
    for root in roots:
        _stretch_to_children(root)
    return roots


def _stretch_to_children(node: TreeNode) -> None:
    """A section sharing its last page with the next one still contains its children."""
    for child in node.children:
        _stretch_to_children(child)
    if node.children:
        node.end_page = max(node.end_page, node.children[-1].end_page)


def add_preface(roots: list[TreeNode], page_count: int) -> list[TreeNode]:
    if not roots:
        return [TreeNode(WHOLE_DOCUMENT, 1, page_count)]
    if roots[0].start_page > 1:
        return [TreeNode(PREFACE, 1, roots[0].start_page - 1), *roots]
    return roots


def cover_pages(nodes: list[TreeNode]) -> None:
    """Give a parent's own opening pages (before its first child) a leaf of their own."""
    for node in nodes:
        if node.children:
            first = node.children[0]
            if first.start_page > node.start_page:
                node.children.insert(0, TreeNode(node.title, node.start_page, first.start_page - 1))
            node.children[-1].end_page = node.end_page
            cover_pages(node.children)


Splitter = Callable[[int, int], list[FlatEntry]]


def split_large(
    nodes: list[TreeNode],
    page_tokens: Sequence[int],
    *,
    max_pages: int,
    max_tokens: int,
    find_sections: Splitter | None = None,
) -> None:
    """Split leaves over `max_pages` pages AND `max_tokens` tokens, recursively.

    Sections found inside the leaf's pages (by `find_sections`) are used first; page
    windows otherwise, so that the result always respects both limits.
    """
    for node in nodes:
        if node.children:
            split_large(
                node.children,
                page_tokens,
                max_pages=max_pages,
                max_tokens=max_tokens,
                find_sections=find_sections,
            )
            continue
        pages = node.end_page - node.start_page + 1
        tokens = sum(page_tokens[node.start_page - 1 : node.end_page])
        if pages <= max_pages or tokens <= max_tokens:
            continue
        children: list[TreeNode] = []
        if find_sections is not None:
            inner = [
                e
                for e in find_sections(node.start_page, node.end_page)
                if node.start_page < e.start_page <= node.end_page
            ]
            if inner:
                top = min(e.level for e in inner)
                flat = [FlatEntry(1, e.title, e.start_page) for e in inner if e.level == top]
                children = nest(flat, node.end_page)
                if children and children[0].start_page > node.start_page:
                    children.insert(
                        0, TreeNode(node.title, node.start_page, children[0].start_page - 1)
                    )
                if len(children) < 2:
                    children = []
        if not children:
            children = page_windows(node.start_page, node.end_page, max_pages, node.title)
        node.children = children
        split_large(
            node.children,
            page_tokens,
            max_pages=max_pages,
            max_tokens=max_tokens,
            find_sections=None if len(children) < 2 else find_sections,
        )


def page_windows(start: int, end: int, size: int, title: str = "Pages") -> list[TreeNode]:
    """Consecutive windows of at most `size` pages covering [start, end]."""
    out = []
    for s in range(start, end + 1, size):
        e = min(end, s + size - 1)
        out.append(TreeNode(f"{title} (pages {s}-{e})" if s != e else f"{title} (page {s})", s, e))
    return out


def assign_ids(roots: list[TreeNode]) -> None:
    """node_id "0000", "0001"... in depth-first order."""
    for i, node in enumerate(n for root in roots for n in root.walk()):
        node.node_id = f"{i:04d}"


def summarize(node: TreeNode, pages: Sequence[PageText]) -> str:
    """An extractive summary: the first sentences after the section's title on its first page."""
    lines: list[str] = []
    for page in pages[node.start_page - 1 : min(node.end_page, node.start_page + 1)]:
        lines.extend(page.text.splitlines())
    title = normalize(node.title)[:30]
    for i, line in enumerate(lines[:60]):
        if title and normalize(line).startswith(title):
            lines = lines[i + 1 :]
            break
    prose = [ln for ln in lines if len(ln) > 40 and sum(map(str.isalpha, ln)) > 0.6 * len(ln)]
    text = " ".join(" ".join(prose or lines).split())
    sentences = _SENTENCE_END.split(text)
    summary = ""
    for sentence in sentences:
        if summary and len(summary) + len(sentence) > SUMMARY_CHARS:
            break
        summary = f"{summary} {sentence}".strip()
    return summary[:SUMMARY_CHARS].rstrip()


def finish_tree(
    entries: Sequence[FlatEntry],
    pages: Sequence[PageText],
    page_tokens: Sequence[int],
    *,
    max_pages: int,
    max_tokens: int,
    find_sections: Splitter | None = None,
) -> list[TreeNode]:
    """The whole deterministic tree from section starts: valid, split, numbered, summarized."""
    page_count = len(pages)
    roots = add_preface(nest(entries, page_count), page_count)
    cover_pages(roots)
    split_large(
        roots, page_tokens, max_pages=max_pages, max_tokens=max_tokens, find_sections=find_sections
    )
    assign_ids(roots)
    for root in roots:
        for node in root.walk():
            node.summary = summarize(node, pages)
    return roots


def check_tree(roots: Sequence[TreeNode], page_count: int) -> list[str]:
    """Violations of the tree invariants; [] for a valid tree."""
    problems: list[str] = []
    covered: set[int] = set()

    def visit(siblings: Sequence[TreeNode], lo: int, hi: int) -> None:
        previous: TreeNode | None = None
        for node in siblings:
            where = f"node {node.node_id} '{node.title[:40]}'"
            if not (1 <= node.start_page <= node.end_page <= page_count):
                problems.append(f"{where}: pages {node.start_page}-{node.end_page} out of range")
            if node.start_page < lo or node.end_page > hi:
                problems.append(f"{where}: outside its parent's pages {lo}-{hi}")
            if previous is not None and (
                node.start_page < previous.start_page or previous.end_page > node.start_page
            ):
                problems.append(f"{where}: out of order after node {previous.node_id}")
            if node.children:
                visit(node.children, node.start_page, node.end_page)
            else:
                covered.update(range(node.start_page, node.end_page + 1))
            previous = node

    visit(roots, 1, page_count)
    missing = sorted(set(range(1, page_count + 1)) - covered)
    if missing:
        problems.append(f"pages in no leaf: {missing[:10]}{'...' if len(missing) > 10 else ''}")
    ids = [n.node_id for root in roots for n in root.walk()]
    if ids != [f"{i:04d}" for i in range(len(ids))]:
        problems.append("node ids are not 0000, 0001... in depth-first order")
    return problems
