"""What a question's trip collects on the way: warnings (model steps that fell back, what the
corpus lacks), the language model's usage and each stage's time."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

from ..llm import Usage
from ..settings import redact_text

logger = logging.getLogger(__name__)


@dataclass
class Trace:
    warnings: list[str] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    timings: dict[str, float] = field(default_factory=dict)
    _started: float = field(default_factory=time.perf_counter)
    _clock: float = 0.0

    def __post_init__(self) -> None:
        self._clock = self._started

    def warn(self, *messages: str) -> None:
        """Warnings of the answer, shown and returned with it (never a URL's secrets)."""
        messages = tuple(redact_text(m) for m in messages)
        for message in messages:
            logger.info("warning: %s", message)
        self.warnings.extend(messages)

    def lap(self, stage: str) -> None:
        """The time since the previous lap (or the start) is `stage`'s."""
        now = time.perf_counter()
        self.timings[stage] = now - self._clock
        self._clock = now

    def finish(self) -> None:
        self.timings["total"] = time.perf_counter() - self._started

    def usage_summary(self) -> dict[str, int]:
        """The `pi ask --json` usage: model calls and tokens."""
        return {
            "calls": self.usage.calls,
            "prompt_tokens": self.usage.prompt_tokens,
            "completion_tokens": self.usage.completion_tokens,
        }
