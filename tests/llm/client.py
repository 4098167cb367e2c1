"""What the LLM client tests share: a reply schema, a question, chats on the fake server."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from pageindex_platform.llm import StructuredChat, Usage
from pageindex_platform.llm.cache import DatabaseCache
from pageindex_platform.llm.openai_compatible import OpenAICompatible
from pageindex_platform.settings import Settings

from ..fake_llm import FakeLLM, Response
from ..helpers import env_db


class Answer(BaseModel):
    value: int


MESSAGES = [{"role": "user", "content": "What is six times seven? JSON please."}]


def make_chat(
    fake: FakeLLM, made: list[StructuredChat], cache: bool = False, **overrides: Any
) -> StructuredChat:
    values: dict[str, Any] = {
        "llm_base_url": fake.url,
        "llm_model": "llama3.1:8b",
        "llm_api_key": None,
        "llm_timeout": 5,
        "llm_max_attempts": 3,
        "llm_max_retry_seconds": 10,
    }
    settings = Settings(**{**values, **overrides})
    chat = StructuredChat(
        OpenAICompatible(settings),
        cache=DatabaseCache(env_db()) if cache else None,
        settings=settings,
    )
    made.append(chat)
    return chat


def ask(chat: StructuredChat, messages: list[dict[str, str]] = MESSAGES) -> tuple[Answer, Usage]:
    usage = Usage()
    return chat.ask_sync(messages, Answer, usage=usage, step="test"), usage


def scripted(*replies: Response) -> Any:
    queue = list(replies)
    return lambda request: queue.pop(0) if len(queue) > 1 else queue[0]
