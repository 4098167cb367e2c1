"""Fixtures of the LLM client tests: a fake server answering 42, and the chats a test made
(closed after it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pageindex_platform.llm import StructuredChat

from ..fake_llm import FakeLLM, Response


@pytest.fixture
def fake() -> Iterator[FakeLLM]:
    with FakeLLM(lambda request: Response('{"value": 42}')) as server:
        yield server


@pytest.fixture
def chats() -> Iterator[list[StructuredChat]]:
    """Chats made by `_chat` in a test, closed (connections, event loop) after it."""
    made: list[StructuredChat] = []
    yield made
    for chat in made:
        chat.close()
