"""The formula language of metrics: + - * / with the usual precedence, parentheses, numbers,
names of line items or metrics, `average(X)` `change(X)` `previous(X)`, and "FY2019" before a
term naming its year, read into a tree of `Node`s."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import PageIndexError
from ..patterns import deferred

_TOKEN = deferred(r"\s*(?:(fy\s?\d{4})|(\d+(?:\.\d+)?)|([-+*/()])|([a-z&][a-z0-9&'.%-]*))")
_FUNCTIONS = ("average", "change", "previous")


class FormulaError(PageIndexError):
    """A formula that cannot be read."""


@dataclass(frozen=True)
class Node:
    kind: str  # "number", "name", "call", "op"
    value: str = ""
    args: tuple[Node, ...] = ()
    year: int | None = None  # "FY2019 revenue": the year named for it


def parse_formula(text: str) -> Node:
    """A formula's tree: + - * / with the usual precedence, parentheses, numbers, names of
    line items or metrics (words), `average(X)` `change(X)` `previous(X)`, and "FY2019"
    before a term naming its year."""
    tokens: list[tuple[str, str]] = []
    at, body = 0, text.lower().strip()
    while at < len(body):
        found = _TOKEN.match(body, at)
        if not found or found.end() == at:
            raise FormulaError(f"cannot read {body[at : at + 30]!r} in {text!r}")
        at = found.end()
        year, number, op, word = found.groups()
        if year:
            tokens.append(("year", year[2:].strip()))
        elif number:
            tokens.append(("number", number))
        elif op:
            tokens.append(("op", op))
        elif word:
            if tokens and tokens[-1][0] == "word":
                tokens[-1] = ("word", f"{tokens[-1][1]} {word}")
            else:
                tokens.append(("word", word))
    parser = _Parser(tokens, text)
    node = parser.expression()
    if parser.at != len(tokens):
        raise FormulaError(f"cannot read {text!r}")
    return node


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], text: str) -> None:
        self.tokens, self.text, self.at = tokens, text, 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.peek()
        if token is None:
            raise FormulaError(f"{self.text!r} ends too soon")
        self.at += 1
        return token

    def expression(self) -> Node:
        node = self.term()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            node = Node("op", op, (node, self.term()))
        return node

    def term(self) -> Node:
        node = self.atom()
        while self.peek() in (("op", "*"), ("op", "/")):
            op = self.take()[1]
            node = Node("op", op, (node, self.atom()))
        return node

    def atom(self) -> Node:
        year = None
        if self.peek() is not None and self.peek()[0] == "year":  # type: ignore[index]
            year = int(self.take()[1])
        kind, value = self.take()
        if kind == "op" and value == "(":
            node = self.expression()
            if self.take() != ("op", ")"):
                raise FormulaError(f"a parenthesis is not closed in {self.text!r}")
            return Node(node.kind, node.value, node.args, year or node.year)
        if kind == "op" and value == "-":
            return Node("op", "-", (Node("number", "0"), self.atom()))
        if kind == "number":
            return Node("number", value)
        if kind == "word":
            words = value.split()
            if words[-1] in _FUNCTIONS and self.peek() == ("op", "("):
                self.take()
                inner = self.expression()
                if self.take() != ("op", ")"):
                    raise FormulaError(f"a parenthesis is not closed in {self.text!r}")
                call = Node("call", words[-1], (inner,), year)
                if len(words) > 1:
                    raise FormulaError(f"{' '.join(words[:-1])!r} before {words[-1]}()")
                return call
            return Node("name", value, (), year)
        raise FormulaError(f"unexpected {value!r} in {self.text!r}")
