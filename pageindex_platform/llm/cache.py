"""The response cache in PostgreSQL: one `llm_cache` row per (model, messages, schema), so a
command run again asks the model nothing it already answered."""

from __future__ import annotations

from sqlalchemy.dialects.postgresql import insert

from ..db.engine import Database
from ..db.tables import LlmCache


class DatabaseCache:
    """The `llm_cache` table of a corpus's database: one row per (model, messages, schema)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def get(self, key: str) -> tuple[str, int, int] | None:
        with self.db.session() as session:
            row = session.get(LlmCache, key)
            return (row.response, row.prompt_tokens, row.completion_tokens) if row else None

    def put(self, key: str, model: str, text: str, prompt: int, completion: int) -> None:
        with self.db.session() as session:
            session.execute(
                insert(LlmCache)
                .values(
                    key=key,
                    model=model,
                    response=text,
                    prompt_tokens=prompt,
                    completion_tokens=completion,
                )
                .on_conflict_do_nothing()
            )
