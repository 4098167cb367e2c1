"""What the fake server's competent model answers each task of the product's prompts with:
read from the page text in the prompt, as a careful model would (tests/fake_llm.py serves it)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from pageindex_platform.index.text import item_label, normalize, part_label


def task_of(request: dict[str, Any]) -> tuple[str, Any]:
    """The TASK name and INPUT payload of the last user message."""
    text = next(m["content"] for m in reversed(request["messages"]) if m["role"] == "user")
    if "TASK: " not in text:  # a corrective retry: the task is in the first user message
        text = next(m["content"] for m in request["messages"] if m["role"] == "user")
    name = text.split("\n", 1)[0].removeprefix("TASK: ").strip()
    payload = json.loads(text.split("INPUT:\n", 1)[1])
    return name, payload


_ENTRY = re.compile(r"^(.*?[A-Za-z].*?)\s+(\d{1,3})$")


def _title_on(title: str, text: str) -> bool:
    rows = text.splitlines()[:40]
    item, part = item_label(title), part_label(title)
    if item:
        return any(item_label(r) == item for r in rows)
    if part:
        return any(part_label(r) == part for r in rows)
    want = normalize(title)[:30]
    return bool(want) and any(normalize(r).startswith(want) for r in rows)


def competent_answer(name: str, payload: Any) -> dict[str, Any]:
    """What a careful model would answer, derived from the page text in the prompt."""
    if name == "detect_toc":
        pages = [
            p["page"]
            for p in payload
            if "contents" in p["text"].lower()[:400]
            or sum(1 for ln in p["text"].splitlines() if _ENTRY.match(ln.strip())) >= 8
        ]
        return {"toc_pages": pages[:3]}
    if name == "extract_toc":
        items = []
        for line in payload["toc"].splitlines():
            m = _ENTRY.match(line.strip())
            if m and len(m.group(1)) > 3:
                level = "1" if part_label(m.group(1)) else "1.1"
                items.append({"structure": level, "title": m.group(1), "page": int(m.group(2))})
        return {"items": items}
    if name == "locate_sections":
        results = []
        for entry in payload:
            pages = [
                int(p) for p, text in entry["candidates"].items() if _title_on(entry["title"], text)
            ]
            results.append({"index": entry["index"], "page": pages[0] if pages else None})
        return {"results": results}
    if name == "locate_titles":
        results = []
        for t in payload["titles"]:
            pages = [p["page"] for p in payload["pages"] if _title_on(t["title"], p["text"])]
            results.append({"index": t["index"], "page": pages[0] if pages else None})
        return {"results": results}
    if name == "generate_structure":
        sections = []
        for p in payload["pages"]:
            for row in p["text"].splitlines()[:15]:
                if item_label(row) or part_label(row):
                    level = "1" if part_label(row) else "1.1"
                    sections.append({"structure": level, "title": row[:80], "page": p["page"]})
        return {"sections": sections}
    if name == "summarize_nodes":
        return {
            "summaries": [
                {
                    "node_id": n["node_id"],
                    "summary": f"{n['title']}: " + " ".join(n["text"].split())[:120],
                }
                for n in payload
            ]
        }
    if name == "describe_document":
        return {
            "description": f"{payload['company']} {payload['doc_type']} for fiscal "
            f"{payload['fiscal_year']}, covering "
            + ", ".join(s["title"] for s in payload["sections"][:3])
            + "."
        }
    if name in ASK_TASKS:
        return ASK_TASKS[name](payload)
    raise ValueError(f"unknown task {name}")


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2}


def _query_to_sql(payload: dict[str, Any]) -> dict[str, Any]:
    """A filter on the company the question names (and its year, when the catalog has it)."""
    question = _words(payload["question"])
    company = next(
        (c for c in payload["catalog"]["companies"] if _words(c.split(",")[0]) & question), None
    )
    if company is None:
        return {"sql": "SELECT name FROM document_metadata"}
    first = re.sub(r"[^A-Za-z0-9 ]", "", company.split(",")[0]).strip()
    sql = f"SELECT name FROM document_metadata WHERE company ILIKE '%{first}%'"
    years = [y for y in payload["catalog"]["fiscal_years"] if str(y) in payload["question"]]
    if years:
        sql += f" AND fiscal_year = {years[0]}"
    return {"sql": sql}


def _tree_search(payload: dict[str, Any]) -> dict[str, Any]:
    """The nodes whose titles share the most words with the question."""
    question = _words(payload["question"])
    scored = []
    for line in payload["tree"]:
        node_id = line.split("]")[0].split("[")[-1]
        title = line.split("]", 1)[1].split("(pp.")[0]
        scored.append((len(_words(title) & question), node_id))
    best = [i for score, i in sorted(scored, key=lambda s: -s[0]) if score][:2]
    return {
        "thinking": "titles that share the question's words",
        "node_list": best or [scored[0][1]],
    }


def _answer(payload: dict[str, Any]) -> dict[str, Any]:
    """The sentence sharing the most words with the question, cited."""
    question = _words(payload["question"])
    best = (0, "The pages do not say.", payload["pages"][0])
    for page in payload["pages"]:
        for line in page["text"].splitlines():
            score = len(_words(line) & question)
            if score > best[0]:
                best = (score, line.strip(), page)
    page = best[2]
    return {
        "answer": best[1][:300],
        "citations": [{"document": page["document"], "page": page["page"]}],
    }


def _pick(payload: dict[str, Any]) -> dict[str, Any]:
    question = _words(payload["question"])
    return {
        "documents": [
            d["name"] for d in payload["documents"] if _words(d["description"]) & question
        ][:3]
    }


def _judge(payload: dict[str, Any]) -> dict[str, Any]:
    wanted = re.findall(r"\d[\d,.]*", payload["reference"])
    return {"correct": all(w in payload["candidate"] for w in wanted), "reason": "numbers"}


ASK_TASKS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "query_to_sql": _query_to_sql,
    "tree_search": _tree_search,
    "answer_question": _answer,
    "pick_documents": _pick,
    "judge_answer": _judge,
}
