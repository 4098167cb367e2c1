"""File → stored tree: parsing, tree building, metadata, chunking and the ingest pipeline."""
