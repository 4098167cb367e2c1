"""Tree building from section starts: nesting, Preface, coverage, splitting, ids."""

from __future__ import annotations

import pytest

from pageindex_platform.index.toc import FlatEntry
from pageindex_platform.index.tree import check_tree, finish_tree
from pageindex_platform.records import PageText, TreeNode

pytestmark = pytest.mark.no_database  # pure: no database is started


def _pages(n: int, words: int = 50) -> list[PageText]:
    return [PageText(i, f"Page {i} text " + "word " * words) for i in range(1, n + 1)]


def _build(entries: list[FlatEntry], n: int, tokens: int = 100) -> list[TreeNode]:
    return finish_tree(entries, _pages(n), [tokens] * n, max_pages=10, max_tokens=20_000)


def test_preface_and_nesting() -> None:
    roots = _build(
        [
            FlatEntry(1, "PART I", 3),
            FlatEntry(2, "Item 1. Business", 3),
            FlatEntry(2, "Item 1A. Risk Factors", 6),
            FlatEntry(1, "PART II", 9),
            FlatEntry(2, "Item 7. MD&A", 9),
        ],
        12,
    )
    assert check_tree(roots, 12) == []
    assert [(r.title, r.start_page, r.end_page) for r in roots] == [
        ("Preface", 1, 2),
        ("PART I", 3, 8),
        ("PART II", 9, 12),
    ]
    assert [(c.title, c.start_page, c.end_page) for c in roots[1].children] == [
        ("Item 1. Business", 3, 5),
        ("Item 1A. Risk Factors", 6, 8),
    ]
    assert [n.node_id for r in roots for n in r.walk()] == [f"{i:04d}" for i in range(6)]


def test_parent_opening_pages_get_a_leaf() -> None:
    roots = _build([FlatEntry(1, "PART I", 1), FlatEntry(2, "Item 1", 3)], 5)
    assert check_tree(roots, 5) == []
    assert [(c.title, c.start_page, c.end_page) for c in roots[0].children] == [
        ("PART I", 1, 2),
        ("Item 1", 3, 5),
    ]


def test_sections_sharing_a_page() -> None:
    roots = _build(
        [FlatEntry(1, "A", 1), FlatEntry(2, "A.1", 2), FlatEntry(1, "B", 2), FlatEntry(1, "C", 2)],
        4,
    )
    assert check_tree(roots, 4) == []
    assert [(r.title, r.start_page, r.end_page) for r in roots] == [
        ("A", 1, 2),
        ("B", 2, 2),
        ("C", 2, 4),
    ]


def test_large_leaves_are_split_only_when_long_and_heavy() -> None:
    light = _build([FlatEntry(1, "Notes", 1)], 30, tokens=100)
    assert light[0].children == []  # 30 pages but only 3,000 tokens
    heavy = _build([FlatEntry(1, "Notes", 1)], 30, tokens=1_000)
    assert check_tree(heavy, 30) == []
    leaves = [n for n in heavy[0].walk() if not n.children]
    assert len(leaves) == 3 and all(n.end_page - n.start_page + 1 <= 10 for n in leaves)


def test_no_sections_gives_one_leaf_or_windows() -> None:
    roots = _build([], 3)
    assert [(r.title, r.start_page, r.end_page) for r in roots] == [("Full document", 1, 3)]
    assert check_tree(roots, 3) == []
    long = _build([], 25, tokens=2_000)
    assert [(c.start_page, c.end_page) for c in long[0].children] == [(1, 10), (11, 20), (21, 25)]
    assert check_tree(long, 25) == []


def test_check_tree_reports_violations() -> None:
    bad = [TreeNode("A", 1, 3, "0000", children=[TreeNode("A.1", 2, 5, "0001")])]
    problems = check_tree(bad, 4)
    assert any("out of range" in p for p in problems)
    assert any("outside its parent" in p for p in problems)
    assert any("pages in no leaf: [1]" in p for p in problems)
