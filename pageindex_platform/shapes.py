"""Typed results as JSON. Every value the API returns is a dataclass whose fields are its JSON
shape: `to_dict()` renders it (the `--json` output of the CLI), and the MCP server declares
its tools' output schemas from the same types, so a field added to a result appears in every
door without hand edits."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import TypeAdapter

_adapters: dict[type[Any], TypeAdapter[Any]] = {}


def _adapter(kind: type[Any]) -> TypeAdapter[Any]:
    adapter = _adapters.get(kind)
    if adapter is None:
        from pydantic import TypeAdapter  # on first use: a question answered as text needs none

        adapter = _adapters[kind] = TypeAdapter(kind)
    return adapter


class Shape:
    """A result whose fields are its JSON shape."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape (`--json`, MCP structured content): the fields, nested results as
        objects, enums as their values."""
        shaped: dict[str, Any] = _adapter(type(self)).dump_python(self, mode="json")
        return shaped


def json_schema(kind: type[Any]) -> dict[str, Any]:
    """The JSON schema of a result type's `to_dict()` shape."""
    schema: dict[str, Any] = _adapter(kind).json_schema(mode="serialization")
    return schema
