"""The description route in llm mode: the model picks documents from their descriptions,
in batches that keep each prompt within a token budget; names are validated."""

from __future__ import annotations

import json

from pydantic import BaseModel

from ..db import queries
from ..db.sql import Session
from ..llm import StructuredChat, Usage, some_known
from ..tokens import count_tokens

BATCH_TOKENS = 6_000


class Picked(BaseModel):
    documents: list[str]


def pick_by_description(
    *, session: Session, chat: StructuredChat, question: str, usage: Usage
) -> tuple[list[str], list[str]]:
    """(chosen document names, most relevant first; warnings). Raises LLMError."""
    rows = queries.descriptions(session)
    batches: list[list[dict[str, str]]] = [[]]
    size = 0
    for name, description in rows:
        item = {"name": name, "description": description[:400]}
        cost = count_tokens(json.dumps(item))
        if batches[-1] and size + cost > BATCH_TOKENS:
            batches.append([])
            size = 0
        batches[-1].append(item)
        size += cost
    known = {name for name, _ in rows}
    chosen: list[str] = []
    warnings: list[str] = []
    for batch in batches:
        prompt = (
            "TASK: pick_documents\nWhich of these documents are needed to answer the "
            "question? Reply with their names, most relevant first; [] if none.\nINPUT:\n"
            + json.dumps({"question": question, "documents": batch})
        )
        messages = [
            {"role": "system", "content": "You choose documents. JSON only."},
            {"role": "user", "content": prompt},
        ]
        listed = {item["name"] for item in batch}
        reply = chat.ask_sync(
            messages,
            Picked,
            usage=usage,
            step="description",
            check=some_known(lambda r: r.documents, listed, "names", "a listed document"),
        )
        for name in reply.documents:
            if name in known and name not in chosen:
                chosen.append(name)
            elif name not in known:
                warnings.append(f"ignored unknown document name {name!r}")
    return chosen, warnings
