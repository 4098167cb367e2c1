"""Typed reads of the stored corpus: dataclasses, not rows, one reader per question asked of
the database. The ask pipeline and its stages, the catalog behind `pi docs` and the ingest's
checks read through these (`queries.documents(session, ...)`); the hybrid chunk search
(`search/semantic.py`) keeps its own SQL.

    metadata    stored documents and their metadata (DocumentInfo)
    companies   company names, aliases and symbols across the corpus (CompanyNames)
    trees       a document's stored tree (TreeInfo, StoredNode)
    pages       stored page text (PageInfo)
    facts       tagged facts and table figures (FactInfo)
    copies      linked copies of a file, and documents that claim one filing (rivals)
"""

from .companies import (
    CompanyNames,
    Mentions,
    common_words,
    companies_resembling,
    company_names,
    cover_texts,
    mentions,
    stop_word,
    stored_companies,
    symbol_holders,
)
from .copies import copies_of, link_copy, rivals, unlink_copy
from .facts import FactInfo, page_table_values, percent_rows, stated_figures, table_keys
from .metadata import (
    DocumentInfo,
    descriptions,
    document_count,
    document_named,
    document_sizes,
    documents,
    documents_by_name,
    has_ready_documents,
    most_common_embedder,
    node_counts,
    stored_sha256,
)
from .pages import PageInfo, page, page_texts, pages_mentioning, pages_opening_with
from .trees import StoredNode, TreeInfo, section_title, tree

__all__ = [
    "CompanyNames",
    "DocumentInfo",
    "FactInfo",
    "Mentions",
    "PageInfo",
    "StoredNode",
    "TreeInfo",
    "common_words",
    "companies_resembling",
    "company_names",
    "copies_of",
    "cover_texts",
    "descriptions",
    "document_count",
    "document_named",
    "document_sizes",
    "documents",
    "documents_by_name",
    "has_ready_documents",
    "link_copy",
    "mentions",
    "most_common_embedder",
    "node_counts",
    "page",
    "page_table_values",
    "page_texts",
    "pages_mentioning",
    "pages_opening_with",
    "percent_rows",
    "rivals",
    "section_title",
    "stated_figures",
    "stop_word",
    "stored_companies",
    "stored_sha256",
    "symbol_holders",
    "table_keys",
    "tree",
    "unlink_copy",
]
