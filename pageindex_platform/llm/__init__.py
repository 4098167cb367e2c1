"""Chat models behind one small interface (`chat.py`: StructuredChat, Usage), the response
cache (`cache.py`) and the OpenAI-compatible provider (`openai_compatible.py`, with
`open_chat`: the only module that imports `openai`, imported only where llm mode runs)."""

from .chat import Message, ResponseFormat, StructuredChat, Usage, extract_json, some_known

__all__ = [
    "Message",
    "ResponseFormat",
    "StructuredChat",
    "Usage",
    "extract_json",
    "some_known",
]
