"""Query-to-SQL safety: generated SQL runs only if it is exactly one SELECT over the
`document_metadata` view, using whitelisted functions, with no comments — checked on the
PostgreSQL parse tree (pglast = libpg_query, the server's own parser) — and then only inside a
READ ONLY transaction with a statement timeout and a row limit."""

from __future__ import annotations

from typing import Any

from pglast import ast, parse_sql
from pglast.parser import ParseError
from pglast.visitors import Visitor
from sqlalchemy import Engine, text

from ..errors import UnsafeSQLError

VIEW = "document_metadata"
VIEW_COLUMNS = {
    "name": "text, the document's name (file stem); select this column",
    "company": "text, registrant or issuer name as printed, e.g. 'Best Buy Co., Inc.'",
    "company_aliases": "text[], short names and tickers, e.g. {'Best Buy','BBY'}",
    "doc_type": "text: '10-K', '10-Q', '8-K', 'earnings release' or 'other'",
    "fiscal_year": "integer, the fiscal year as the company names it",
    "fiscal_period": "text: 'FY', 'Q1', 'Q2', 'Q3', 'Q4' or NULL",
    "period_end": "text, ISO date the period ends",
    "title": "text",
    "description": "text, one to three sentences",
    "page_count": "integer",
}
ALLOWED_FUNCTIONS = frozenset({
    "lower", "upper", "trim", "length", "coalesce", "nullif", "greatest", "least", "abs",
    "similarity", "word_similarity", "strpos", "position", "any", "array_to_string",
    "count", "max", "min", "unnest",
})  # fmt: skip
STATEMENT_TIMEOUT_MS = 2000
ROW_LIMIT = 50


class _Checker(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []

    def visit_RangeVar(self, ancestors: Any, node: ast.RangeVar) -> None:
        if node.relname != VIEW or (node.schemaname not in (None, "public")):
            where = f"{node.schemaname}." if node.schemaname else ""
            self.problems.append(f"reads {where}{node.relname}, not {VIEW}")

    def visit_RangeFunction(self, ancestors: Any, node: ast.RangeFunction) -> None:
        self.problems.append("a function in FROM")

    def visit_FuncCall(self, ancestors: Any, node: ast.FuncCall) -> None:
        names = [n.sval for n in node.funcname or ()]
        name = names[-1].lower()
        if name not in ALLOWED_FUNCTIONS or (len(names) > 1 and names[0] != "pg_catalog"):
            self.problems.append(f"function {'.'.join(names)} is not allowed")

    def visit_WithClause(self, ancestors: Any, node: ast.WithClause) -> None:
        self.problems.append("WITH clauses are not allowed")

    def visit_SelectStmt(self, ancestors: Any, node: ast.SelectStmt) -> None:
        if node.intoClause is not None:
            self.problems.append("SELECT INTO is not allowed")
        if node.lockingClause:
            self.problems.append("row locking is not allowed")


def validate_sql(sql: str) -> str:
    """The SQL, stripped, if it is one safe SELECT over the view; else UnsafeSQLError."""
    sql = sql.strip().rstrip(";").strip()
    if "--" in sql or "/*" in sql:
        raise UnsafeSQLError("comments are not allowed")
    try:
        statements = parse_sql(sql)
    except ParseError as exc:
        raise UnsafeSQLError(f"not valid SQL ({exc})") from exc
    if len(statements) != 1:
        raise UnsafeSQLError(f"{len(statements)} statements; exactly one SELECT is allowed")
    stmt = statements[0].stmt
    if not isinstance(stmt, ast.SelectStmt):
        raise UnsafeSQLError(f"{type(stmt).__name__} is not a SELECT")
    checker = _Checker()
    checker(stmt)
    if checker.problems:
        raise UnsafeSQLError("; ".join(dict.fromkeys(checker.problems)))
    return sql


def run_readonly(engine: Engine, sql: str, *, limit: int = ROW_LIMIT) -> list[str]:
    """Document names selected by validated SQL, in a READ ONLY transaction with a statement
    timeout and a row limit."""
    safe = validate_sql(sql)
    with engine.connect() as conn, conn.begin():
        conn.execute(text("SET TRANSACTION READ ONLY"))
        conn.execute(text(f"SET LOCAL statement_timeout = {STATEMENT_TIMEOUT_MS}"))
        rows = conn.execute(text(f"SELECT q.name FROM ({safe}) AS q LIMIT :n"), {"n": limit})
        return [str(r[0]) for r in rows if r[0] is not None]


def view_documentation() -> str:
    cols = "\n".join(f"- {c}: {d}" for c, d in VIEW_COLUMNS.items())
    return f"View {VIEW} (one row per document):\n{cols}"
