"""Reading `Settings` (settings.py): each setting from the values given in code, else its PI_*
environment variable (any case), else its default; each converted to its declared type and
checked, and one that cannot be used is a ConfigurationError naming its variable:

    bad setting: PI_LLM_TIMEOUT='soon': not a number
"""

from __future__ import annotations

import json
import os
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from pathlib import Path
from types import UnionType
from typing import Any

from .errors import ConfigurationError

# Bounds of the settings that have them: at least this much, or above zero.
_AT_LEAST = {"db_shared_buffers_mb": 1, "cpu_slots": 1}
_ABOVE_ZERO = frozenset({"file_seconds"})
# Variables read besides PI_<NAME>, after it.
_ALSO = {"llm_api_key": ("OPENAI_API_KEY",)}


class _Unusable(ValueError):
    """A value that cannot be the setting (the message says why)."""


def read(
    cls: type,
    values: Mapping[str, Any],
    made: Mapping[str, Callable[[], Any]],
    *,
    environment: bool,
) -> dict[str, Any]:
    """The settings of `cls` (its annotated attributes): `values` over the environment (when
    `environment`) over the defaults (`made` factories, else the class's values); without
    `environment`, only those in `values`."""
    hints = typing.get_type_hints(cls)
    unknown = sorted(set(values) - set(hints))
    if unknown:
        raise TypeError(f"unknown settings: {', '.join(unknown)}")
    env = {k.upper(): v for k, v in os.environ.items()} if environment else {}
    read_: dict[str, Any] = {}
    for name, kind in hints.items():
        if name in values:
            own = f"PI_{name.upper()}"
            read_[name] = _checked(name, kind, values[name], from_text=False, variable=own)
        elif not environment:
            continue
        elif (found := _variable(name, env)) is not None:
            variable, raw = found
            read_[name] = _checked(name, kind, raw, from_text=True, variable=variable)
        else:
            read_[name] = made[name]() if name in made else getattr(cls, name)
    return read_


def _variable(name: str, env: Mapping[str, str]) -> tuple[str, str] | None:
    for variable in (f"PI_{name.upper()}", *_ALSO.get(name, ())):
        if variable in env:
            return variable, env[variable]
    return None


def _checked(name: str, kind: Any, value: Any, *, from_text: bool, variable: str) -> Any:
    """`value` as the setting `name`; a ConfigurationError naming `variable` where it cannot
    be."""
    try:
        converted = _convert(kind, value, from_text=from_text)
        _bounded(name, converted)
    except _Unusable as exc:
        raise ConfigurationError(f"bad setting: {variable}={value!r}: {exc}") from None
    return converted


def _convert(kind: Any, value: Any, *, from_text: bool) -> Any:
    """`value` as `kind` (an annotation: a type, `X | None`, list[str], a dict of pairs)."""
    if isinstance(kind, UnionType):
        if value is None:
            return None
        (inner,) = [k for k in typing.get_args(kind) if k is not type(None)]
        return _convert(inner, value, from_text=from_text)
    origin = typing.get_origin(kind)
    if origin is list:
        return _names(value)
    if origin is dict:
        return _prices(value, from_text=from_text)
    if isinstance(kind, type) and issubclass(kind, Enum):
        try:
            return kind(value)
        except ValueError:
            choices = ", ".join(str(m.value) for m in kind)
            raise _Unusable(f"must be one of {choices}") from None
    return _scalar(kind, value)


def _scalar(kind: type, value: Any) -> Any:
    if kind is str:
        if not isinstance(value, str):
            raise _Unusable("must be text")
        return value
    if kind is Path:
        if not isinstance(value, str | os.PathLike):
            raise _Unusable("must be a path")
        return Path(value)
    what = "whole number" if kind is int else "number"
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise _Unusable(f"must be a {what}")
    try:
        number = float(value) if kind is float else _whole(value)
    except ValueError:
        raise _Unusable(f"not a {what}") from None
    if number != number:  # NaN: no bound holds, no setting means it
        raise _Unusable("not a number")
    return number


def _whole(value: str | int | float) -> int:
    """A whole number, also written as one with a zero fraction ("3.0")."""
    if isinstance(value, int):
        return value
    try:
        return int(value)
    except ValueError:
        number = float(value)
        if not number.is_integer():
            raise
        return int(number)


def _bounded(name: str, value: Any) -> None:
    least = _AT_LEAST.get(name)
    if least is not None and value is not None and value < least:
        raise _Unusable(f"must be at least {least}")
    if name in _ABOVE_ZERO and not value > 0:
        raise _Unusable("must be above 0")


def _names(value: Any) -> list[str]:
    """A comma-separated text, or a list of texts."""
    if isinstance(value, str):
        return [n.strip() for n in value.split(",") if n.strip()]
    if isinstance(value, list | tuple) and all(isinstance(n, str) for n in value):
        return list(value)
    raise _Unusable("must be comma-separated names")


def _prices(value: Any, *, from_text: bool) -> dict[str, tuple[float, float]]:
    """{"model": [prompt, completion]}, given as JSON text in the environment."""
    if from_text:
        try:
            value = json.loads(value)
        except ValueError as exc:
            raise _Unusable(f"not valid JSON ({exc})") from None
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _Unusable('must be {"model": [prompt, completion]} in USD per million tokens')
    prices: dict[str, tuple[float, float]] = {}
    for model, pair in value.items():
        try:
            if isinstance(pair, str) or len(pair) != 2 or any(isinstance(p, bool) for p in pair):
                raise ValueError(pair)
            prompt, completion = (float(p) for p in pair)
        except (TypeError, ValueError):
            raise _Unusable(f"the price of {model!r} must be [prompt, completion]") from None
        prices[str(model)] = (prompt, completion)
    return prices
