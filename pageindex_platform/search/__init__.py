"""Question → answer (routing, tree search, cited answers)."""
