"""Query-to-SQL safety: generated SQL runs only if it is exactly one SELECT of plain column
access over the `document_metadata` view — every SELECT reads FROM the view (or a subquery of
it), whitelisted functions and casts only, no SQL value functions (CURRENT_USER...), no comments
or control characters — checked on the PostgreSQL parse tree (pglast = libpg_query, the
server's own parser). It then runs inside a READ ONLY transaction with a statement timeout and
a row limit, as the role `pageindex_sql_reader` (which may read only the view) where the
database has it, and only names of ready documents come back. The SQL goes to the driver as it
is: nothing in it is taken for a bind parameter.

The memory budget. A SELECT over a handful of documents can still ask for billions of rows (an
8-way self-join is 1.7 million rows over 6 documents) and keep them: `ARRAY(SELECT ...)` holds
every row whatever work_mem says, a sub-select in an expression runs again for every outer
row, and a sort of single wide values keeps far more than work_mem (in PostgreSQL 18, a 4 MB
sort of 750-byte values held 135 MB). The planner's estimates cannot bound it (a corpus never
analyzed is estimated at a row or so per read), so the shape does:

- on the parse tree: each SELECT reads the view once (no joins), at most MAX_SELECTS of them
  (UNION branches and sub-selects included) nested at most MAX_DEPTH deep, and a sub-select
  in an expression (IN, EXISTS, a scalar) holds no sub-select; one `unnest`; `||` only in
  WHERE clauses (at most MAX_CONCATENATIONS), `array_to_string` with a literal separator; no
  `ARRAY(SELECT ...)`, GROUPING SETS, or aggregate that collects values; at most
  MAX_SQL_CHARS characters. So no step sees more than MAX_SELECTS x the view's rows (times a
  company's aliases), a value that is sorted, grouped, kept or returned is at most one
  column (or a literal) wide, and a sub-select's scratch for one outer row is one scan of it:
  whatever the query asks, what it keeps is a small multiple of the corpus's metadata;
- on the plan (EXPLAIN, before it runs): refused with a step estimated past MAX_PLAN_ROWS
  rows or more than MAX_MEMORY_STEPS steps that keep rows (sorts, hashes, aggregates...);
- on the run: work_mem 4 MB with hash_mem_multiplier 1 per step (spilling past it), no
  parallel workers (each with its own work_mem), no JIT; temporary files at most
  TEMP_FILE_LIMIT where the database user may set it (a superuser, as in the embedded
  database, or one granted SET on temp_file_limit); the 2 s statement timeout; at most
  ROW_LIMIT names back, each a stored document's.

A query over the budget (the 8-way self-join inside ARRAY(SELECT ...) took about 1 GB) fails
alone, before it runs, and Query-to-SQL falls back to local entity linking with a warning.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pglast import ast, parse_sql
from pglast.enums.primnodes import SubLinkType
from pglast.parser import ParseError
from pglast.visitors import Ancestor, Visitor
from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import DBAPIError

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

MAX_SQL_CHARS = 2000  # the budget (see the module's docstring): the query's shape...
MAX_SELECTS = 6  # the query, its sub-selects and UNION branches: each reads the view once
MAX_DEPTH = 4  # SELECTs inside one another
MAX_SET_RETURNING = 1  # unnest calls
MAX_CONCATENATIONS = 8  # `||`, in WHERE clauses only: a filter's value is at most 9 columns
# ...its plan...
MAX_PLAN_ROWS = 10_000_000  # estimated at any step
MAX_MEMORY_STEPS = 12  # steps that keep rows, each within work_mem: 48 MB in all
# ...and its run.
TEMP_FILE_LIMIT = "64MB"
RUN_SETTINGS = {
    "statement_timeout": str(STATEMENT_TIMEOUT_MS),
    "work_mem": WORK_MEM,
    "hash_mem_multiplier": "1",
    "max_parallel_workers_per_gather": "0",
    "jit": "off",
}
_MEMORY_STEPS = frozenset(
    "Sort|Incremental Sort|Hash|Materialize|Memoize|Aggregate|WindowAgg|SetOp|Unique".split("|")
)

logger = logging.getLogger(__name__)


class _Checker(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.selects = 0
        self.concatenations = 0
        self.depth = 0
        self.set_returning = 0

    def visit_RangeVar(self, ancestors: Any, node: ast.RangeVar) -> None:
        if node.relname != VIEW or (node.schemaname not in (None, "public")):
            where = f"{node.schemaname}." if node.schemaname else ""
            self.problems.append(f"reads {where}{node.relname}, not {VIEW}")

    def visit_SubLink(self, ancestors: Any, node: ast.SubLink) -> None:
        if node.subLinkType == SubLinkType.ARRAY_SUBLINK:
            self.problems.append(
                "over the memory budget: ARRAY(SELECT ...) keeps every row in memory "
                "(use IN (SELECT ...))"
            )
        inside = _Nested()
        if node.subselect is not None:
            inside(node.subselect)
        if inside.found:
            self.problems.append(
                "over the memory budget: a sub-select inside a sub-select in an expression "
                "(IN, EXISTS, a scalar): the inner one would run again for every outer row"
            )

    def visit_A_Expr(self, ancestors: Ancestor, node: ast.A_Expr) -> None:
        names = [getattr(n, "sval", "") for n in node.name or ()]
        if names[-1:] != ["||"]:
            return
        self.concatenations += 1
        if not _in_where(ancestors):
            self.problems.append(
                "over the memory budget: || outside WHERE (a value that is sorted, grouped or "
                "selected is one column wide)"
            )

    def visit_GroupingSet(self, ancestors: Any, node: ast.GroupingSet) -> None:
        self.problems.append("GROUPING SETS, CUBE and ROLLUP are not allowed")

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
        self.set_returning += name == "unnest"
        if name == "array_to_string" and not all(
            isinstance(arg, ast.A_Const) for arg in (node.args or ())[1:]
        ):
            self.problems.append(
                "over the memory budget: array_to_string with a column as separator"
            )

    def visit_WithClause(self, ancestors: Any, node: ast.WithClause) -> None:
        self.problems.append("WITH clauses are not allowed")

    def visit_SelectStmt(self, ancestors: Ancestor, node: ast.SelectStmt) -> None:
        if node.larg is None:  # a SELECT that reads, not a UNION of them
            self.selects += 1
            self.depth = max(self.depth, 1 + _selects_above(ancestors))
        sources = node.fromClause or ()
        if node.valuesLists:
            self.problems.append("VALUES lists are not allowed")
        elif node.larg is None and not sources:
            self.problems.append(f"a SELECT without FROM {VIEW}")
        elif len(sources) > 1 or any(isinstance(item, ast.JoinExpr) for item in sources):
            self.problems.append(
                f"over the memory budget: a join (each SELECT reads {VIEW} once: use OR, "
                "IN (SELECT ...) or UNION)"
            )
        for item in sources:
            self._from_item(item)
        if node.intoClause is not None:
            self.problems.append("SELECT INTO is not allowed")
        if node.lockingClause:
            self.problems.append("row locking is not allowed")

    def _from_item(self, item: Any) -> None:
        """FROM holds the view or a subquery: nothing that makes rows."""
        if isinstance(item, ast.JoinExpr):
            self._from_item(item.larg)
            self._from_item(item.rarg)
        elif not isinstance(item, ast.RangeVar | ast.RangeSubselect):
            self.problems.append(f"{type(item).__name__} in FROM is not allowed")

    def over_budget(self) -> list[str]:
        """What makes the query's shape too big to run within the memory budget."""
        over = (
            (self.selects, MAX_SELECTS, "SELECTs (sub-selects and UNION branches included)"),
            (self.depth, MAX_DEPTH, "SELECTs nested in one another"),
            (self.set_returning, MAX_SET_RETURNING, "unnest calls"),
            (self.concatenations, MAX_CONCATENATIONS, "concatenations (||)"),
        )
        return [
            f"over the memory budget: {count} {what} (at most {most})"
            for count, most, what in over
            if count > most
        ]


class _Nested(Visitor):
    """Whether a sub-select in an expression holds a sub-select of its own."""

    def __init__(self) -> None:
        super().__init__()
        self.found = False

    def visit_SubLink(self, ancestors: Any, node: ast.SubLink) -> None:
        self.found = True

    def visit_RangeSubselect(self, ancestors: Any, node: ast.RangeSubselect) -> None:
        self.found = True


def _selects_above(ancestors: Ancestor | None) -> int:
    """How many SELECTs (not UNIONs of them) a node sits in."""
    count = 0
    while ancestors is not None:
        node = ancestors.node
        count += isinstance(node, ast.SelectStmt) and node.larg is None
        ancestors = ancestors.parent
    return count


def _in_where(ancestors: Ancestor | None) -> bool:
    """Whether a node sits in the WHERE clause of its nearest SELECT."""
    while ancestors is not None:
        if isinstance(ancestors.node, ast.SelectStmt):
            return ancestors.member == "whereClause"
        ancestors = ancestors.parent
    return False


def validate_sql(sql: str) -> str:
    """The SQL, stripped, if it is one safe SELECT over the view; else UnsafeSQLError."""
    if any(ord(ch) < 32 and ch not in "\t\n\r" for ch in sql):
        raise UnsafeSQLError("control characters (NUL...) are not allowed")
    sql = sql.strip().rstrip(";").strip()
    if len(sql) > MAX_SQL_CHARS:
        raise UnsafeSQLError(
            f"over the memory budget: {len(sql):,} characters (at most {MAX_SQL_CHARS:,})"
        )
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
    problems = checker.problems + checker.over_budget()
    if problems:
        raise UnsafeSQLError("; ".join(dict.fromkeys(problems)))
    return sql


@dataclass(frozen=True)
class ReadOnlyResult:
    names: list[str]  # the documents selected, in the query's order
    # whether the query ran as READER_ROLE; else as the database user, who may not create roles
    as_reader: bool


def run_readonly(engine: Engine, sql: str, *, limit: int = ROW_LIMIT) -> ReadOnlyResult:
    """Document names selected by validated SQL, in a READ ONLY transaction within the memory
    budget (its plan checked first), a statement timeout and a row limit, as the read-only
    role where there is one. A plan over the budget is an UnsafeSQLError; a run over it (the
    timeout, the temporary files) a database error."""
    safe = validate_sql(sql)
    query = (
        f"SELECT q.name::text FROM ({safe}) AS q "
        f"WHERE q.name::text IN (SELECT name FROM {VIEW}) LIMIT {int(limit)}"
    )
    with engine.connect() as conn, conn.begin():
        conn.execute(text("SET TRANSACTION READ ONLY"))
        for name, value in RUN_SETTINGS.items():
            conn.execute(text(f"SET LOCAL {name} = '{value}'"))
        _limit_temp_files(conn)
        as_reader = bool(conn.execute(text(_CAN_BE_READER), {"role": READER_ROLE}).scalar())
        if as_reader:
            conn.execute(text(f"SET LOCAL ROLE {READER_ROLE}"))
        # The driver's own cursor, without parameters: the text is sent as it is (no `:name`
        # or `%` in a literal is taken for a placeholder).
        cursor = conn.connection.cursor()
        try:
            cursor.execute(f"EXPLAIN (FORMAT JSON) {query}")
            explained = cursor.fetchone()
            check_plan(explained[0] if explained else [])
            cursor.execute(query)
            rows = cursor.fetchall()
        finally:
            cursor.close()
        names = list(dict.fromkeys(str(r[0]) for r in rows if r[0] is not None))
        return ReadOnlyResult(names, as_reader)


def _limit_temp_files(conn: Connection) -> None:
    """temp_file_limit for the transaction, where the database user may set it."""
    try:
        with conn.begin_nested():
            conn.execute(text(f"SET LOCAL temp_file_limit = '{TEMP_FILE_LIMIT}'"))
    except DBAPIError as exc:
        logger.info("Query-to-SQL without temp_file_limit (%s)", type(exc.orig).__name__)


def check_plan(explained: Any) -> None:
    """Refuse a plan (EXPLAIN's JSON) over the memory budget: a step estimated at more than
    MAX_PLAN_ROWS rows, more than MAX_MEMORY_STEPS steps that keep rows."""
    steps = list(_plan_steps(explained[0]["Plan"])) if explained else []
    problems = []
    most = max((int(step.get("Plan Rows", 0)) for step in steps), default=0)
    if most > MAX_PLAN_ROWS:
        problems.append(f"a step of an estimated {most:,} rows (at most {MAX_PLAN_ROWS:,})")
    keeping = sum(step.get("Node Type") in _MEMORY_STEPS for step in steps)
    if keeping > MAX_MEMORY_STEPS:
        problems.append(f"{keeping} steps that keep rows (at most {MAX_MEMORY_STEPS})")
    if problems:
        raise UnsafeSQLError(f"over the memory budget: the plan has {', '.join(problems)}")


def _plan_steps(step: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield step
    for child in step.get("Plans", ()):
        yield from _plan_steps(child)


_CAN_BE_READER = (
    "SELECT CASE WHEN to_regrole(:role) IS NULL THEN false "
    "ELSE pg_has_role(current_user, to_regrole(:role), 'MEMBER') END"
)


def view_documentation() -> str:
    cols = "\n".join(f"- {c}: {d}" for c, d in VIEW_COLUMNS.items())
    return f"View {VIEW} (one row per document):\n{cols}"
