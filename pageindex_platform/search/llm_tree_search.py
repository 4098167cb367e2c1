"""LLM-mode tree search (the seeds' prompt): the model reads a compact tree — ids, titles,
page ranges, short summaries — and returns {"thinking", "node_list"}. Trees over the token
budget are searched level by level; node ids are validated against the tree."""

from __future__ import annotations

import json
from collections.abc import Sequence

from pydantic import BaseModel

from ..db.queries import StoredNode, TreeInfo
from ..llm import StructuredChat, Usage, some_known
from ..tokens import count_tokens

TREE_TOKENS = 6_000
MAX_ROUNDS = 3


class NodeSelection(BaseModel):
    thinking: str
    node_list: list[str]


def _line(n: StoredNode, depth: int, summary: str) -> str:
    return f"{'  ' * depth}[{n.node_id}] {n.title} (pp. {n.start_page}-{n.end_page}) {summary}"


def search_tree_llm(
    *,
    chat: StructuredChat,
    question: str,
    tree: TreeInfo,
    usage: Usage,
    knowledge: str | None = None,
) -> tuple[list[str], list[str]]:
    """(selected node ids, warnings). Raises LLMError; the caller falls back to local search."""
    document = tree.document
    summaries = {n.node_id: n.summary for n in tree.nodes}
    children: dict[str | None, list[StoredNode]] = {}
    for n in tree.nodes:
        children.setdefault(n.parent_id, []).append(n)
    depth_of: dict[str, int] = {}
    for n in tree.nodes:
        depth_of[n.node_id] = depth_of[n.parent_id] + 1 if n.parent_id else 0
    frontier = children.get(None, [])
    chosen: list[str] = []
    warnings: list[str] = []
    for _ in range(MAX_ROUNDS):
        lines, shown = _compact(frontier, children, depth_of, summaries)
        prompt = (
            "TASK: tree_search\nYou are given a question and the tree structure of a document "
            f"({document}). Each node has an id, a title, its pages and a summary. Find all "
            "nodes likely to contain the answer. Reply with your reasoning in `thinking` and "
            "the node ids in `node_list`, most relevant first."
            + (f"\nExpert knowledge: {knowledge}" if knowledge else "")
            + "\nINPUT:\n"
            + json.dumps({"question": question, "tree": lines})
        )
        messages = [
            {"role": "system", "content": "You search document trees. JSON only."},
            {"role": "user", "content": prompt},
        ]
        reply = chat.ask_sync(
            messages,
            NodeSelection,
            usage=usage,
            step="tree_search",
            check=some_known(lambda r: r.node_list, shown, "node ids", "in the tree"),
        )
        valid = [i for i in dict.fromkeys(reply.node_list) if i in shown]
        invented = [i for i in reply.node_list if i not in shown]
        if invented:
            warnings.append(f"{document}: ignored node ids not in the tree: {invented[:5]}")
        expandable = [i for i in valid if i in children and shown[i] == "collapsed"]
        chosen.extend(i for i in valid if i not in expandable)
        if not expandable:
            break
        frontier = [c for i in expandable for c in children[i]]
    return chosen, warnings


def _compact(
    frontier: Sequence[StoredNode],
    children: dict[str | None, list[StoredNode]],
    depth_of: dict[str, int],
    summaries: dict[str, str],
) -> tuple[list[str], dict[str, str]]:
    """The frontier with as many descendant levels as fit the budget; nodes whose children
    did not fit are marked collapsed (to be expanded in the next round)."""
    shown: dict[str, str] = {}
    level = list(frontier)
    lines: list[str] = []
    budget = TREE_TOKENS
    while level:
        text = [_line(n, depth_of[n.node_id], summaries.get(n.node_id, "")[:120]) for n in level]
        cost = count_tokens("\n".join(text))
        if lines and cost > budget:
            break
        budget -= cost
        for n in level:
            shown[n.node_id] = "collapsed" if n.node_id in children else "leaf"
        for n in level:  # a shown parent whose children are shown too is expanded
            parent = next((p for p, cs in children.items() if p and n in cs), None)
            if parent in shown:
                shown[parent] = "expanded"
        lines.extend(text)
        level = [c for n in level for c in children.get(n.node_id, [])]
    order = {n: i for i, n in enumerate(depth_of)}
    lines.sort(key=lambda ln: order.get(ln.split("]")[0].split("[")[-1], 0))
    return lines, shown
