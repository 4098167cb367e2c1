"""Query-to-SQL safety: generated SQL runs only if it is exactly one SELECT of plain column
access over the `document_metadata` view — every SELECT reads FROM the view (or a subquery of
it), whitelisted functions and casts only, no SQL value functions (CURRENT_USER...), no comments
or control characters — checked on the PostgreSQL parse tree (pglast = libpg_query, the
server's own parser). It then runs inside a READ ONLY transaction with a statement timeout and
a row limit, as the role `pageindex_sql_reader` (which may read only the view) where the
database has it, and only names of ready documents come back. The SQL goes to the driver as it
is: nothing in it is taken for a bind parameter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pglast import ast, parse_sql
from pglast.parser import ParseError
from pglast.visitors import Visitor
from sqlalchemy import Engine, text

from ..errors import UnsafeSQLError
from ..records import DocType

VIEW = "document_metadata"
_TYPES = [f"'{kind}'" for kind in DocType]  # the filing types, as SQL strings
VIEW_COLUMNS = {
    "name": "text, the document's name (file stem); select this column",
    "company": "text, registrant or issuer name as printed, e.g. 'Best Buy Co., Inc.'",
    "company_aliases": "text[], short names and tickers, e.g. {'Best Buy','BBY'}",
    "doc_type": f"text: {', '.join(_TYPES[:-1])} or {_TYPES[-1]}",
    "fiscal_year": "integer, the fiscal year as the company names it",
    "fiscal_period": "text: 'FY', 'Q1', 'Q2', 'Q3', 'Q4' or NULL",
    "period_end": "text, ISO date the period ends",
    "title": "text",
    "description": "text, one to three sentences",
    "page_count": "integer",
}
ALLOWED_FUNCTIONS = frozenset(
    {
        "lower",
        "upper",
        "trim",
        "length",
        "coalesce",
        "nullif",
        "greatest",
        "least",
        "abs",
        "similarity",
        "word_similarity",
        "strpos",
        "position",
        "any",
        "array_to_string",
        "count",
        "max",
        "min",
        "unnest",
    }
)
ALLOWED_TYPES = frozenset(
    {
        "text",
        "varchar",
        "bpchar",
        "int2",
        "int4",
        "int8",
        "integer",
        "smallint",
        "bigint",
        "numeric",
        "float4",
        "float8",
        "bool",
        "boolean",
        "date",
    }
)
STATEMENT_TIMEOUT_MS = 2000
WORK_MEM = "4MB"  # each sort or hash of the query: its memory is bounded, not only its time
ROW_LIMIT = 50
READER_ROLE = "pageindex_sql_reader"  # migration 0006, where the database user may create it


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

    def visit_SQLValueFunction(self, ancestors: Any, node: ast.SQLValueFunction) -> None:
        self.problems.append("SQL value functions (CURRENT_USER, CURRENT_DATE...) are not allowed")

    def visit_TypeCast(self, ancestors: Any, node: ast.TypeCast) -> None:
        names = [n.sval for n in ((node.typeName.names if node.typeName else None) or ())]
        if not names or names[-1].lower() not in ALLOWED_TYPES:
            self.problems.append(f"a cast to {'.'.join(names) or '?'} is not allowed")

    def visit_FuncCall(self, ancestors: Any, node: ast.FuncCall) -> None:
        names = [n.sval for n in node.funcname or ()]
        name = names[-1].lower()
        if name not in ALLOWED_FUNCTIONS or (len(names) > 1 and names[0] != "pg_catalog"):
            self.problems.append(f"function {'.'.join(names)} is not allowed")

    def visit_WithClause(self, ancestors: Any, node: ast.WithClause) -> None:
        self.problems.append("WITH clauses are not allowed")

    def visit_SelectStmt(self, ancestors: Any, node: ast.SelectStmt) -> None:
        if node.valuesLists:
            self.problems.append("VALUES lists are not allowed")
        elif node.larg is None and not node.fromClause:
            self.problems.append(f"a SELECT without FROM {VIEW}")
        for item in node.fromClause or ():
            self._from_item(item)
        if node.intoClause is not None:
            self.problems.append("SELECT INTO is not allowed")
        if node.lockingClause:
            self.problems.append("row locking is not allowed")

    def _from_item(self, item: Any) -> None:
        """FROM holds the view, joins of it and subqueries: nothing that makes rows."""
        if isinstance(item, ast.JoinExpr):
            self._from_item(item.larg)
            self._from_item(item.rarg)
        elif not isinstance(item, ast.RangeVar | ast.RangeSubselect):
            self.problems.append(f"{type(item).__name__} in FROM is not allowed")


def validate_sql(sql: str) -> str:
    """The SQL, stripped, if it is one safe SELECT over the view; else UnsafeSQLError."""
    if any(ord(ch) < 32 and ch not in "\t\n\r" for ch in sql):
        raise UnsafeSQLError("control characters (NUL...) are not allowed")
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


@dataclass(frozen=True)
class ReadOnlyResult:
    names: list[str]  # the documents selected, in the query's order
    # whether the query ran as READER_ROLE; else as the database user, who may not create roles
    as_reader: bool


def run_readonly(engine: Engine, sql: str, *, limit: int = ROW_LIMIT) -> ReadOnlyResult:
    """Document names selected by validated SQL, in a READ ONLY transaction with a statement
    timeout, bounded memory and a row limit, as the read-only role where there is one."""
    safe = validate_sql(sql)
    with engine.connect() as conn, conn.begin():
        conn.execute(text("SET TRANSACTION READ ONLY"))
        conn.execute(text(f"SET LOCAL statement_timeout = {STATEMENT_TIMEOUT_MS}"))
        conn.execute(text(f"SET LOCAL work_mem = '{WORK_MEM}'"))
        conn.execute(text("SET LOCAL hash_mem_multiplier = 1"))
        as_reader = bool(conn.execute(text(_CAN_BE_READER), {"role": READER_ROLE}).scalar())
        if as_reader:
            conn.execute(text(f"SET LOCAL ROLE {READER_ROLE}"))
        # The driver's own cursor, without parameters: the text is sent as it is (no `:name`
        # or `%` in a literal is taken for a placeholder).
        cursor = conn.connection.cursor()
        try:
            cursor.execute(
                f"SELECT q.name::text FROM ({safe}) AS q "
                f"WHERE q.name::text IN (SELECT name FROM {VIEW}) LIMIT {int(limit)}"
            )
            rows = cursor.fetchall()
        finally:
            cursor.close()
        names = list(dict.fromkeys(str(r[0]) for r in rows if r[0] is not None))
        return ReadOnlyResult(names, as_reader)


_CAN_BE_READER = (
    "SELECT CASE WHEN to_regrole(:role) IS NULL THEN false "
    "ELSE pg_has_role(current_user, to_regrole(:role), 'MEMBER') END"
)


def view_documentation() -> str:
    cols = "\n".join(f"- {c}: {d}" for c, d in VIEW_COLUMNS.items())
    return f"View {VIEW} (one row per document):\n{cols}"
